import { Gitlab } from '@gitbeaker/rest';
import { propertyOf } from '../../errors.ts';
import { type CodeHost, type PullRequestState, quireCommentMarker } from '../code-host.ts';
import { parseRepositoryUrl } from '../repository-url.ts';

export interface GitLabCodeHostOptions {
  /** `https://gitlab.example.com/group/subgroup/project`. */
  repository: string;
  /** A personal, project or group access token with the `api` and `write_repository` scopes. */
  token: string;
  /** The GitLab host; default the repository's origin. */
  host?: string | undefined;
}

/** Roles from GitLab's `Gitlab::Access`: https://docs.gitlab.com/api/members/#roles */
const developerAccess = 30;

/**
 * GitLab through gitbeaker: merge requests found by source branch, created or updated; their state
 * and notes; and what GitLab knows of a user who commented.
 */
export function createGitLabCodeHost(options: GitLabCodeHostOptions): CodeHost {
  const address = parseRepositoryUrl(options.repository);
  // gitbeaker takes no per-request AbortSignal: `queryTimeout` bounds every call instead (its
  // default is 300 s, too long for the calls made while a webhook's transaction waits).
  const api = new Gitlab({
    host: options.host ?? address.origin,
    token: options.token,
    queryTimeout: 30_000,
  });
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

  const statusOf = (error: unknown) =>
    propertyOf(propertyOf(propertyOf(error, 'cause'), 'response'), 'status');

  return {
    async gitCredentials() {
      return { username: 'oauth2', password: options.token };
    },

    // https://docs.gitlab.com/api/merge_requests/#get-single-mr: `state` is opened, closed, locked
    // (a merge in progress) or merged.
    async pullRequestState({ url }) {
      try {
        const mergeRequest = await api.MergeRequests.show(projectId, mergeRequestIid(url));
        const states: Record<string, PullRequestState> = {
          opened: 'open',
          locked: 'open',
          merged: 'merged',
        };
        return states[String(mergeRequest.state)] ?? 'closed';
      } catch (error: unknown) {
        if (statusOf(error) === 404) return 'closed';
        throw error;
      }
    },

    // https://docs.gitlab.com/api/notes/#create-new-merge-request-note
    async commentOnPullRequest({ url, body }) {
      await api.MergeRequestNotes.create(projectId, mergeRequestIid(url), `${body}\n\n${quireCommentMarker}`);
    },

    // A note's webhook names its author but not their role. The user's `bot` flag:
    // https://docs.gitlab.com/api/users/#get-a-single-user (project, group and service-account
    // tokens act as bot users); their role here, inherited from groups too:
    // https://docs.gitlab.com/api/members/#get-a-member-of-a-group-or-project-including-inherited-and-invited-members
    async describeCommenter({ userId }) {
      try {
        const user = await api.Users.show(userId);
        if (user.bot === true) return { bot: true, canPush: false };
        const member = await api.ProjectMembers.show(projectId, userId, { includeInherited: true });
        return { bot: false, canPush: Number(member.access_level) >= developerAccess };
      } catch (error: unknown) {
        // A user GitLab no longer knows, or no member of the project: no role in it.
        if (statusOf(error) === 404) return { bot: false, canPush: false };
        throw error;
      }
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
        if (statusOf(error) === 409) {
          const raced = await findOpen(request.branch, request.signal);
          if (raced !== null) return update(raced.iid);
        }
        throw error;
      }
    },
  };
}

/** The iid of a merge request from its web URL, `https://gitlab.example.com/group/name/-/merge_requests/3`. */
function mergeRequestIid(url: string): number {
  const iid = /\/merge_requests\/(\d+)\/?$/.exec(new URL(url).pathname)?.[1];
  if (iid === undefined) throw new Error(`Not a GitLab merge request URL: ${url}`);
  return Number(iid);
}
