import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { describe, it } from 'node:test';
import { startGitHubDouble } from '../../../test/github-double.ts';
import { createGitHubCodeHost } from './github-code-host.ts';

const request = {
  projectId: 'prj_1',
  jobId: 'job_1',
  branch: 'quire/abc-fix',
  baseRef: 'main',
  title: 'Fix typo',
  body: 'Fixed.',
};

describe('github code host (Octokit against a GitHub API double)', () => {
  it('opens a pull request with a token, then finds and updates it instead of opening a second one', async () => {
    const github = await startGitHubDouble({ owner: 'acme', repo: 'docs', token: 'ghp_valid' });
    try {
      const host = createGitHubCodeHost({
        repository: 'https://github.com/acme/docs.git',
        credentials: { token: 'ghp_valid' },
        apiBaseUrl: github.apiBaseUrl,
      });
      const first = await host.openOrUpdatePullRequest(request);
      assert.deepEqual(first, { url: `${github.url}/acme/docs/pull/1`, created: true });
      const second = await host.openOrUpdatePullRequest({
        ...request,
        title: 'Fix typo and more',
        body: 'Updated.',
      });
      assert.deepEqual(second, { url: `${github.url}/acme/docs/pull/1`, created: false });
      assert.equal(github.pulls.length, 1);
      assert.equal(github.pulls[0]?.title, 'Fix typo and more');
      assert.equal(github.pulls[0]?.base, 'main');
      assert.equal(github.requests[0]?.query.get('head'), 'acme:quire/abc-fix');
      assert.equal(github.requests[0]?.headers.authorization, 'token ghp_valid');
      assert.deepEqual(await host.gitCredentials(), { username: 'x-access-token', password: 'ghp_valid' });
    } finally {
      await github.close();
    }
  });

  it('updates the pull request another attempt opened between list and create (422)', async () => {
    const github = await startGitHubDouble({ owner: 'acme', repo: 'docs', token: 'ghp_valid' });
    try {
      let listed = 0;
      const racingFetch: typeof fetch = async (input, init) => {
        const response = await fetch(input, init);
        if (String(input).includes('/pulls?') && listed++ === 0) {
          github.pulls.push({
            number: 7,
            state: 'open',
            title: 'Other',
            body: '',
            head: request.branch,
            base: 'main',
          });
          return new Response('[]', { status: 200, headers: { 'content-type': 'application/json' } });
        }
        return response;
      };
      const host = createGitHubCodeHost({
        repository: 'https://github.com/acme/docs',
        credentials: { token: 'ghp_valid' },
        apiBaseUrl: github.apiBaseUrl,
        fetch: racingFetch,
      });
      assert.deepEqual(await host.openOrUpdatePullRequest(request), {
        url: `${github.url}/acme/docs/pull/7`,
        created: false,
      });
      assert.equal(github.pulls.length, 1);
    } finally {
      await github.close();
    }
  });

  it('authenticates as a GitHub App on GitHub Enterprise (/api/v3), finding the installation', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const github = await startGitHubDouble({
      owner: 'acme',
      repo: 'docs',
      prefix: '/api/v3',
      app: {
        id: 42,
        publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
        installationId: 99,
      },
    });
    try {
      const host = createGitHubCodeHost({
        repository: `${github.url}/acme/docs`,
        credentials: {
          appId: 42,
          privateKey: privateKey.export({ type: 'pkcs1', format: 'pem' }).toString(),
        },
      });
      const credentials = await host.gitCredentials();
      assert.deepEqual(credentials, { username: 'x-access-token', password: 'ghs_installation1' });
      const pullRequest = await host.openOrUpdatePullRequest(request);
      assert.equal(pullRequest.created, true);
      assert.ok(github.requests.some((recorded) => recorded.path === '/api/v3/repos/acme/docs/installation'));
      assert.match(github.requests.at(-1)?.headers.authorization ?? '', /^token ghs_installation\d$/);
    } finally {
      await github.close();
    }
  });

  it('tells an open, a merged, a closed and an unknown pull request apart, and comments with the marker', async () => {
    const github = await startGitHubDouble({ owner: 'acme', repo: 'docs', token: 'ghp_valid' });
    try {
      const host = createGitHubCodeHost({
        repository: 'https://github.com/acme/docs',
        credentials: { token: 'ghp_valid' },
        apiBaseUrl: github.apiBaseUrl,
      });
      const { url } = await host.openOrUpdatePullRequest(request);
      assert.equal(await host.pullRequestState({ url }), 'open');
      await host.commentOnPullRequest?.({ url, body: 'Done.' });
      assert.deepEqual(github.comments, [{ number: 1, body: 'Done.\n\n<!-- quire-reply -->' }]);
      github.pulls[0]!.state = 'closed';
      assert.equal(await host.pullRequestState({ url }), 'closed');
      github.pulls[0]!.merged = true;
      assert.equal(await host.pullRequestState({ url }), 'merged');
      assert.equal(await host.pullRequestState({ url: url.replace(/\/1$/, '/404') }), 'closed');
      assert.equal(github.requests.at(-1)?.path, '/repos/acme/docs/pulls/404');
    } finally {
      await github.close();
    }
  });

  it('surfaces rejected credentials', async () => {
    const github = await startGitHubDouble({ owner: 'acme', repo: 'docs', token: 'ghp_valid' });
    try {
      const host = createGitHubCodeHost({
        repository: 'https://github.com/acme/docs',
        credentials: { token: 'ghp_wrong' },
        apiBaseUrl: github.apiBaseUrl,
      });
      await assert.rejects(
        host.openOrUpdatePullRequest(request),
        (error: unknown) => (error as { status?: number }).status === 401,
      );
    } finally {
      await github.close();
    }
  });
});
