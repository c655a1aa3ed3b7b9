import { Gitlab } from '@gitbeaker/rest';
import { propertyOf } from '../../errors.ts';
import type { CodeHost } from '../code-host.ts';
import { parseRepositoryUrl } from '../repository-url.ts';

export interface GitLabCodeHostOptions {
  /** `https://gitlab.example.com/group/subgroup/project`. */
  repository: string;
  /** A personal, project or group access token with the `api` and `write_repository` scopes. */
  token: string;
  /** The GitLab host; default the repository's origin. */
  host?: string | undefined;
}

/** GitLab through gitbeaker: merge requests found by source branch, created or updated. */
export function createGitLabCodeHost(options: GitLabCodeHostOptions): CodeHost {
  const address = parseRepositoryUrl(options.repository);
  const api = new Gitlab({ host: options.host ?? address.origin, token: options.token });
  const projectId = address.path;

  async function findOpen(branch: string, signal?: AbortSignal) {
    const open = await api.MergeRequests.all({
      projectId,
      sourceBranch: branch,
      state: 'opened',
      perPage: 10,
      maxPages: 1,
      ...(signal === undefined ? {} : { signal }),
    });
    return open[0] ?? null;
  }

  return {
    async gitCredentials() {
      return { username: 'oauth2', password: options.token };
    },

    async openOrUpdatePullRequest(request) {
      const signal = request.signal === undefined ? {} : { signal: request.signal };
      const update = async (iid: number) => {
        const updated = await api.MergeRequests.edit(projectId, iid, {
          title: request.title,
          description: request.body,
          ...signal,
        });
        return { url: String(updated.web_url), created: false };
      };
      const existing = await findOpen(request.branch, request.signal);
      if (existing !== null) return update(existing.iid);
      try {
        const created = await api.MergeRequests.create(
          projectId,
          request.branch,
          request.baseRef,
          request.title,
          {
            description: request.body,
            removeSourceBranch: true,
            ...signal,
          },
        );
        return { url: String(created.web_url), created: true };
      } catch (error: unknown) {
        // 409: another attempt opened one for this branch in the meantime.
        const status = propertyOf(propertyOf(propertyOf(error, 'cause'), 'response'), 'status');
        if (status === 409) {
          const raced = await findOpen(request.branch, request.signal);
          if (raced !== null) return update(raced.iid);
        }
        throw error;
      }
    },
  };
}
