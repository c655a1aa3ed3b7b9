import { startHttpDouble } from './http-double.ts';

interface MergeRequestRecord {
  id: number;
  iid: number;
  state: 'opened' | 'closed' | 'merged';
  title: string;
  description: string;
  source_branch: string;
  target_branch: string;
}

/** A user of the double's GitLab: `accessLevel` in the project (30 Developer, ...), none when absent. */
export interface GitLabUserRecord {
  id: number;
  username: string;
  bot?: boolean;
  accessLevel?: number;
}

/**
 * A faithful double of the part of GitLab's REST API v4 the gitlab code host uses: merge requests of
 * a project addressed by its URL-encoded path (list by `source_branch` and `state`, get, create with
 * 409 on a duplicate, update), their notes, users and the project's members (inherited included),
 * authenticated with `PRIVATE-TOKEN`.
 * https://docs.gitlab.com/api/merge_requests/ https://docs.gitlab.com/api/notes/
 * https://docs.gitlab.com/api/users/ https://docs.gitlab.com/api/members/
 */
export async function startGitLabDouble(options: {
  projectPath: string;
  token: string;
  users?: GitLabUserRecord[];
}) {
  const mergeRequests: MergeRequestRecord[] = [];
  const notes: Array<{ iid: number; body: string }> = [];
  const users = options.users ?? [];
  /** Set to answer the next list with nothing, as if another writer raced between list and create. */
  const race = { hideNextList: false };
  const base = `/api/v4/projects/${encodeURIComponent(options.projectPath)}/merge_requests`;
  let url = '';
  const present = (mergeRequest: MergeRequestRecord) => ({
    ...mergeRequest,
    project_id: 1,
    web_url: `${url}/${options.projectPath}/-/merge_requests/${mergeRequest.iid}`,
  });
  const double = await startHttpDouble((request) => {
    if (request.headers['private-token'] !== options.token)
      return { status: 401, body: { message: '401 Unauthorized' } };
    // Node decodes nothing in the path, so the project path arrives exactly as the client encoded it.
    const path = request.path;
    if (request.method === 'GET' && path === base) {
      if (race.hideNextList) {
        race.hideNextList = false;
        return { status: 200, body: [] };
      }
      const source = request.query.get('source_branch');
      const state = request.query.get('state');
      return {
        status: 200,
        body: mergeRequests
          .filter(
            (item) =>
              (source === null || item.source_branch === source) &&
              (state === null || state === 'all' || item.state === state),
          )
          .map(present),
      };
    }
    if (request.method === 'POST' && path === base) {
      const body = request.body as {
        source_branch?: string;
        target_branch?: string;
        title?: string;
        description?: string;
      };
      if (!body.source_branch || !body.target_branch || !body.title)
        return { status: 400, body: { message: 'source_branch, target_branch, title are missing' } };
      if (
        mergeRequests.some(
          (item) =>
            item.state === 'opened' &&
            item.source_branch === body.source_branch &&
            item.target_branch === body.target_branch,
        )
      ) {
        return {
          status: 409,
          body: { message: [`Another open merge request already exists for this source branch: !1`] },
        };
      }
      const mergeRequest: MergeRequestRecord = {
        id: 1000 + mergeRequests.length + 1,
        iid: mergeRequests.length + 1,
        state: 'opened',
        title: body.title,
        description: body.description ?? '',
        source_branch: body.source_branch,
        target_branch: body.target_branch,
      };
      mergeRequests.push(mergeRequest);
      return { status: 201, body: present(mergeRequest) };
    }
    const escaped = base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const match = new RegExp(`^${escaped}/(\\d+)$`).exec(path);
    if (request.method === 'GET' && match !== null) {
      const mergeRequest = mergeRequests.find((item) => item.iid === Number(match[1]));
      if (mergeRequest === undefined) return { status: 404, body: { message: '404 Not found' } };
      return { status: 200, body: present(mergeRequest) };
    }
    const notesOf = new RegExp(`^${escaped}/(\\d+)/notes$`).exec(path);
    if (request.method === 'POST' && notesOf !== null) {
      const iid = Number(notesOf[1]);
      if (!mergeRequests.some((item) => item.iid === iid))
        return { status: 404, body: { message: '404 Not found' } };
      const body = (request.body as { body?: unknown }).body;
      if (typeof body !== 'string' || body === '')
        return { status: 400, body: { message: 'body is missing' } };
      notes.push({ iid, body });
      return {
        status: 201,
        body: {
          id: 2000 + notes.length,
          body,
          noteable_type: 'MergeRequest',
          noteable_iid: iid,
          system: false,
        },
      };
    }
    const user = /^\/api\/v4\/users\/(\d+)$/.exec(path);
    if (request.method === 'GET' && user !== null) {
      const found = users.find((item) => item.id === Number(user[1]));
      if (found === undefined) return { status: 404, body: { message: '404 User Not Found' } };
      return {
        status: 200,
        body: {
          id: found.id,
          username: found.username,
          name: found.username,
          state: 'active',
          bot: found.bot === true,
        },
      };
    }
    const member = new RegExp(
      `^/api/v4/projects/${encodeURIComponent(options.projectPath)}/members/all/(\\d+)$`,
    ).exec(path);
    if (request.method === 'GET' && member !== null) {
      const found = users.find((item) => item.id === Number(member[1]) && item.accessLevel !== undefined);
      if (found === undefined) return { status: 404, body: { message: '404 Not found' } };
      return {
        status: 200,
        body: {
          id: found.id,
          username: found.username,
          name: found.username,
          state: 'active',
          access_level: found.accessLevel,
        },
      };
    }
    if (request.method === 'PUT' && match !== null) {
      const mergeRequest = mergeRequests.find((item) => item.iid === Number(match[1]));
      if (mergeRequest === undefined) return { status: 404, body: { message: '404 Not found' } };
      const body = request.body as { title?: string; description?: string };
      if (body.title !== undefined) mergeRequest.title = body.title;
      if (body.description !== undefined) mergeRequest.description = body.description;
      return { status: 200, body: present(mergeRequest) };
    }
    return { status: 404, body: { message: '404 Not found' } };
  });
  url = double.url;
  return { ...double, mergeRequests, notes, users, race };
}
