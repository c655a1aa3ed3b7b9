import { createAppAuth } from '@octokit/auth-app';
import { Octokit } from '@octokit/rest';
import { propertyOf } from '../../errors.ts';
import { type CodeHost, quireCommentMarker } from '../code-host.ts';
import { parseRepositoryUrl } from '../repository-url.ts';

export type GitHubCredentials =
  | { token: string }
  | { appId: string | number; privateKey: string; installationId?: number | undefined };

export interface GitHubCodeHostOptions {
  /** `https://github.com/owner/name`, or the same on a GitHub Enterprise host. */
  repository: string;
  credentials: GitHubCredentials;
  /** The REST API base; default `https://api.github.com` for github.com, `{origin}/api/v3` otherwise. */
  apiBaseUrl?: string | undefined;
  /** For tests and proxies. */
  fetch?: typeof fetch;
}

/** GitHub (and GitHub Enterprise) through Octokit, with a token or GitHub App credentials. */
export function createGitHubCodeHost(options: GitHubCodeHostOptions): CodeHost {
  const address = parseRepositoryUrl(options.repository);
  const [owner = '', repo = ''] = address.path.split('/');
  const baseUrl = (
    options.apiBaseUrl ??
    (address.origin === 'https://github.com' ? 'https://api.github.com' : `${address.origin}/api/v3`)
  ).replace(/(?<!\/)\/+$/, '');
  const request = options.fetch === undefined ? {} : { request: { fetch: options.fetch } };
  let installationOctokit: Promise<Octokit> | null = null;

  async function client(): Promise<Octokit> {
    const credentials = options.credentials;
    if ('token' in credentials) return new Octokit({ auth: credentials.token, baseUrl, ...request });
    installationOctokit ??= (async () => {
      let installationId = credentials.installationId;
      if (installationId === undefined) {
        const app = new Octokit({
          authStrategy: createAppAuth,
          auth: { appId: credentials.appId, privateKey: credentials.privateKey },
          baseUrl,
          ...request,
        });
        installationId = (await app.rest.apps.getRepoInstallation({ owner, repo })).data.id;
      }
      return new Octokit({
        authStrategy: createAppAuth,
        auth: { appId: credentials.appId, privateKey: credentials.privateKey, installationId },
        baseUrl,
        ...request,
      });
    })();
    installationOctokit.catch(() => {
      installationOctokit = null;
    });
    return installationOctokit;
  }

  async function findOpen(octokit: Octokit, branch: string, signal?: AbortSignal) {
    const { data } = await octokit.rest.pulls.list({
      owner,
      repo,
      head: `${owner}:${branch}`,
      state: 'open',
      per_page: 10,
      request: { signal },
    });
    return data[0] ?? null;
  }

  return {
    async gitCredentials() {
      const credentials = options.credentials;
      if ('token' in credentials) return { username: 'x-access-token', password: credentials.token };
      const octokit = await client();
      const authentication = (await octokit.auth({ type: 'installation' })) as { token: string };
      return { username: 'x-access-token', password: authentication.token };
    },

    // https://docs.github.com/en/rest/issues/comments#create-an-issue-comment (pull requests are issues)
    async commentOnPullRequest({ url, body, signal }) {
      const octokit = await client();
      await octokit.rest.issues.createComment({
        owner,
        repo,
        issue_number: pullNumber(url),
        body: `${body}\n\n${quireCommentMarker}`,
        request: { signal },
      });
    },

    // https://docs.github.com/en/rest/pulls/pulls#get-a-pull-request: `state` is open or closed, and
    // `merged` tells a merged pull request from one closed without merging.
    async pullRequestState({ url, signal }) {
      const octokit = await client();
      try {
        const { data } = await octokit.rest.pulls.get({
          owner,
          repo,
          pull_number: pullNumber(url),
          request: { signal },
        });
        if (data.merged || data.merged_at !== null) return 'merged';
        return data.state === 'open' ? 'open' : 'closed';
      } catch (error: unknown) {
        if (propertyOf(error, 'status') === 404) return 'closed';
        throw error;
      }
    },

    async openOrUpdatePullRequest(pullRequest) {
      const octokit = await client();
      const signal = pullRequest.signal;
      const update = async (number: number) => {
        const { data } = await octokit.rest.pulls.update({
          owner,
          repo,
          pull_number: number,
          title: pullRequest.title,
          body: pullRequest.body,
          request: { signal },
        });
        return { url: data.html_url, created: false };
      };
      const existing = await findOpen(octokit, pullRequest.branch, signal);
      if (existing !== null) return update(existing.number);
      try {
        const { data } = await octokit.rest.pulls.create({
          owner,
          repo,
          head: pullRequest.branch,
          base: pullRequest.baseRef,
          title: pullRequest.title,
          body: pullRequest.body,
          request: { signal },
        });
        return { url: data.html_url, created: true };
      } catch (error: unknown) {
        // Another attempt opened it between our list and create: update that one instead.
        if (propertyOf(error, 'status') === 422) {
          const raced = await findOpen(octokit, pullRequest.branch, signal);
          if (raced !== null) return update(raced.number);
        }
        throw error;
      }
    },
  };
}

/** The number of a pull request from its web URL, `https://github.com/owner/name/pull/12`. */
function pullNumber(url: string): number {
  const number = /\/pull\/(\d+)\/?$/.exec(new URL(url).pathname)?.[1];
  if (number === undefined) throw new Error(`Not a GitHub pull request URL: ${url}`);
  return Number(number);
}
