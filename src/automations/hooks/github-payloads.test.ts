/**
 * GitHub's webhook payloads as GitHub sends them: the examples octokit/webhooks records from real
 * deliveries (test/fixtures/github-webhooks/README.md), read by the same functions as a delivery.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { gitHubPullRequestComment } from '../conversations/github-comment.ts';
import { gitHubMergedChange } from './github-hook.ts';

const payload = (name: string): Record<string, unknown> =>
  JSON.parse(
    readFileSync(new URL(`../../../test/fixtures/github-webhooks/${name}.json`, import.meta.url), 'utf8'),
  );

describe("GitHub's recorded webhook payloads", () => {
  it('a push to a branch is a merged change with its commit, files and author', () => {
    const change = gitHubMergedChange('push', payload('push.with-new-branch'));
    assert.deepEqual(change, {
      repositoryNames: [
        'Codertocat/Hello-World',
        'https://github.com/Codertocat/Hello-World',
        'https://github.com/Codertocat/Hello-World.git',
        'git@github.com:Codertocat/Hello-World.git',
        'https://github.com/Codertocat/Hello-World',
      ],
      branch: 'master',
      filesKnown: true,
      change: {
        commit: '6113728f27ae82c7b1a177c8d03f9e96e0adf246',
        url: 'https://github.com/Codertocat/Hello-World/commit/6113728f27ae82c7b1a177c8d03f9e96e0adf246',
        title: 'Initial commit',
        description: 'Initial commit',
        author: 'Codertocat',
        changedFiles: ['README.md'],
        diff: null,
      },
    });
    assert.equal(
      gitHubMergedChange('push', payload('push.with-no-username-committer'))?.change.author,
      'Codertocat',
    );
  });

  it('a tag push and a pull request closed unmerged are no merged change', () => {
    assert.equal(gitHubMergedChange('push', payload('push')), null);
    assert.equal(gitHubMergedChange('pull_request', payload('pull_request.closed')), null);
  });

  it("a review comment by the repository's owner is a follow-up at its file and line", () => {
    assert.deepEqual(
      gitHubPullRequestComment('pull_request_review_comment', payload('pull_request_review_comment.created')),
      {
        kind: 'comment',
        comment: {
          pullRequestUrl: 'https://github.com/Codertocat/Hello-World/pull/2',
          branch: 'changes',
          body: 'Maybe you should use more emoji on this line.',
          author: 'Codertocat',
          path: 'README.md',
          line: 265,
        },
      },
    );
  });

  it('a comment on an issue, and a review submitted without a body, are ignored', () => {
    assert.deepEqual(gitHubPullRequestComment('issue_comment', payload('issue_comment.created')), {
      kind: 'ignored',
      reason: 'a comment on an issue',
    });
    assert.deepEqual(
      gitHubPullRequestComment('pull_request_review', payload('pull_request_review.submitted')),
      {
        kind: 'ignored',
        reason: 'an empty comment',
      },
    );
  });
});
