/**
 * GitLab's webhook payloads as GitLab documents them: the examples go-gitlab keeps from GitLab's
 * webhook documentation (test/fixtures/gitlab-webhooks/README.md), read by the same functions as a
 * delivery.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { gitLabMergeRequestNote } from '../conversations/gitlab-note.ts';
import { gitLabMergedChange } from './gitlab-hook.ts';

const payload = (name: string): Record<string, unknown> =>
  JSON.parse(
    readFileSync(new URL(`../../../test/fixtures/gitlab-webhooks/${name}.json`, import.meta.url), 'utf8'),
  );

describe("GitLab's documented webhook payloads", () => {
  it("a push to a branch is a merged change: the last commit's message and link, every commit's files", () => {
    assert.deepEqual(gitLabMergedChange('Push Hook', payload('push')), {
      repositoryNames: [
        'mike/diaspora',
        'http://example.com/mike/diaspora',
        'http://example.com/mike/diaspora.git',
        'git@example.com:mike/diaspora.git',
      ],
      branch: 'master',
      filesKnown: true,
      change: {
        commit: 'da1560886d4f094c3e6c9ef40349f7d38b5d27d7',
        url: 'http://example.com/mike/diaspora/commit/da1560886d4f094c3e6c9ef40349f7d38b5d27d7',
        title: 'fixed readme',
        description: 'fixed readme\n',
        author: 'jsmith',
        changedFiles: ['CHANGELOG', 'app/controller/application.rb'],
        diff: null,
      },
    });
  });

  it('a tag push and a merge request opened are no merged change', () => {
    assert.equal(gitLabMergedChange('Tag Push Hook', payload('tag_push')), null);
    assert.equal(gitLabMergedChange('Push Hook', payload('tag_push')), null);
    assert.equal(gitLabMergedChange('Merge Request Hook', payload('merge_request')), null);
  });

  it("a note on a merge request is a follow-up on the merge request's page and source branch", () => {
    assert.deepEqual(gitLabMergeRequestNote(payload('note_merge_request')), {
      kind: 'comment',
      authorId: 1,
      comment: {
        // From the note's own URL: this payload's merge request carries none.
        pullRequestUrl: 'http://example.com/gitlab-org/gitlab-test/merge_requests/1',
        branch: 'master',
        body: 'This MR needs work.',
        author: 'root',
        path: null,
        line: null,
      },
    });
    assert.deepEqual(gitLabMergeRequestNote(payload('note_issue')), {
      kind: 'ignored',
      reason: 'a note on Issue (its noteable_type), not on a MergeRequest',
    });
  });
});
