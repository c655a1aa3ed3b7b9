import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startGitLabDouble } from '../../../test/gitlab-double.ts';
import { createGitLabCodeHost } from './gitlab-code-host.ts';

const request = {
  projectId: 'prj_1',
  jobId: 'job_1',
  branch: 'quire/abc-fix',
  baseRef: 'main',
  title: 'Fix typo',
  body: 'Fixed.',
};

describe('gitlab code host (gitbeaker against a GitLab API double)', () => {
  it('opens a merge request, then finds and updates it instead of opening a second one', async () => {
    const gitlab = await startGitLabDouble({ projectPath: 'docs-team/product/docs', token: 'glpat-valid' });
    try {
      const host = createGitLabCodeHost({
        repository: `${gitlab.url}/docs-team/product/docs.git`,
        token: 'glpat-valid',
      });
      const first = await host.openOrUpdatePullRequest(request);
      assert.deepEqual(first, {
        url: `${gitlab.url}/docs-team/product/docs/-/merge_requests/1`,
        created: true,
      });
      const second = await host.openOrUpdatePullRequest({
        ...request,
        title: 'Fix typo and more',
        body: 'Updated.',
      });
      assert.deepEqual(second, { url: first.url, created: false });
      assert.equal(gitlab.mergeRequests.length, 1);
      assert.equal(gitlab.mergeRequests[0]?.description, 'Updated.');
      assert.equal(gitlab.mergeRequests[0]?.target_branch, 'main');
      assert.ok(
        gitlab.requests.every((recorded) =>
          recorded.path.startsWith('/api/v4/projects/docs-team%2Fproduct%2Fdocs/'),
        ),
      );
      assert.deepEqual(await host.gitCredentials(), { username: 'oauth2', password: 'glpat-valid' });
    } finally {
      await gitlab.close();
    }
  });

  it('updates the merge request another attempt opened first (409)', async () => {
    const gitlab = await startGitLabDouble({ projectPath: 'acme/docs', token: 'glpat-valid' });
    try {
      const host = createGitLabCodeHost({ repository: `${gitlab.url}/acme/docs`, token: 'glpat-valid' });
      gitlab.mergeRequests.push({
        id: 1001,
        iid: 1,
        state: 'closed',
        title: 'Old',
        description: '',
        source_branch: request.branch,
        target_branch: 'main',
      });
      const created = await host.openOrUpdatePullRequest(request);
      assert.equal(created.created, true, 'a closed merge request does not count');
      assert.equal(gitlab.mergeRequests.length, 2);
      gitlab.race.hideNextList = true;
      const raced = await host.openOrUpdatePullRequest({ ...request, title: 'Retried' });
      assert.deepEqual(raced, { url: created.url, created: false });
      assert.equal(gitlab.mergeRequests.length, 2);
      assert.equal(gitlab.mergeRequests[1]?.title, 'Retried');
    } finally {
      await gitlab.close();
    }
  });

  it("reads a merge request's state and adds Quire's note to it", async () => {
    const gitlab = await startGitLabDouble({ projectPath: 'acme/docs', token: 'glpat-valid' });
    try {
      const host = createGitLabCodeHost({ repository: `${gitlab.url}/acme/docs`, token: 'glpat-valid' });
      const { url } = await host.openOrUpdatePullRequest(request);
      assert.equal(await host.pullRequestState({ url }), 'open');
      await host.commentOnPullRequest?.({ url, body: 'Done.' });
      assert.deepEqual(gitlab.notes, [{ iid: 1, body: 'Done.\n\n<!-- quire-reply -->' }]);
      const states = [
        ['locked', 'open'],
        ['merged', 'merged'],
        ['closed', 'closed'],
      ] as const;
      for (const [state, expected] of states) {
        gitlab.mergeRequests[0]!.state = state as never;
        assert.equal(await host.pullRequestState({ url }), expected, state);
      }
      assert.equal(await host.pullRequestState({ url: url.replace(/\/1$/, '/9') }), 'closed', 'unknown');
      assert.ok(
        gitlab.requests.some((recorded) => recorded.path === '/api/v4/projects/acme%2Fdocs/merge_requests/9'),
      );
    } finally {
      await gitlab.close();
    }
  });

  it('describes a commenter: a bot, a Developer, a Reporter, someone outside the project, an unknown user', async () => {
    const gitlab = await startGitLabDouble({
      projectPath: 'acme/docs',
      token: 'glpat-valid',
      users: [
        { id: 1, username: 'project_7_bot_3f2a', bot: true, accessLevel: 40 },
        { id: 2, username: 'dev', accessLevel: 30 },
        { id: 3, username: 'reporter', accessLevel: 20 },
        { id: 4, username: 'stranger' },
      ],
    });
    try {
      const host = createGitLabCodeHost({ repository: `${gitlab.url}/acme/docs`, token: 'glpat-valid' });
      const described = [];
      for (const userId of [1, 2, 3, 4]) described.push(await host.describeCommenter?.({ userId }));
      assert.deepEqual(described, [
        { bot: true, canPush: false },
        { bot: false, canPush: true },
        { bot: false, canPush: false },
        { bot: false, canPush: false },
      ]);
      assert.ok(
        gitlab.requests.some((recorded) => recorded.path === '/api/v4/projects/acme%2Fdocs/members/all/2'),
        'inherited roles count: members/all',
      );
      assert.deepEqual(await host.describeCommenter?.({ userId: 99 }), { bot: false, canPush: false });
      const rejected = createGitLabCodeHost({ repository: `${gitlab.url}/acme/docs`, token: 'glpat-wrong' });
      await assert.rejects(rejected.describeCommenter!({ userId: 2 }), /Unauthorized/);
    } finally {
      await gitlab.close();
    }
  });

  it('surfaces rejected credentials', async () => {
    const gitlab = await startGitLabDouble({ projectPath: 'acme/docs', token: 'glpat-valid' });
    try {
      const host = createGitLabCodeHost({ repository: `${gitlab.url}/acme/docs`, token: 'glpat-wrong' });
      await assert.rejects(host.openOrUpdatePullRequest(request), /Unauthorized/);
    } finally {
      await gitlab.close();
    }
  });
});
