import { createPublicKey, verify } from 'node:crypto';
import { type RecordedRequest, startHttpDouble } from './http-double.ts';

interface PullRequestRecord {
  number: number;
  state: 'open' | 'closed';
  /** Set with `state: 'closed'` for a merged pull request, as GitHub reports one. */
  merged?: boolean;
  title: string;
  body: string;
  head: string;
  base: string;
}

/**
 * A faithful double of the part of GitHub's REST API the github code host uses: pull requests
 * (list by `head=owner:branch`, get, create with 422 on a duplicate, update, comment), and GitHub App installation
 * tokens with RS256 JWT verification. Served under `prefix` (`/api/v3` for GitHub Enterprise).
 */
export async function startGitHubDouble(options: {
  owner: string;
  repo: string;
  token?: string;
  app?: { id: number; publicKeyPem: string; installationId: number };
  prefix?: string;
}) {
  const prefix = options.prefix ?? '';
  const pulls: PullRequestRecord[] = [];
  const comments: Array<{ number: number; body: string }> = [];
  const installationTokens = new Set<string>();
  const validTokens = () =>
    new Set([...(options.token === undefined ? [] : [options.token]), ...installationTokens]);
  const repositoryPath = `${prefix}/repos/${options.owner}/${options.repo}`;
  let publicUrl = '';

  const verifyJwt = (authorization: string | undefined): boolean => {
    if (options.app === undefined || authorization === undefined || !/^bearer /i.test(authorization))
      return false;
    const [header, payload, signature] = authorization.slice(7).split('.');
    if (header === undefined || payload === undefined || signature === undefined) return false;
    const valid = verify(
      'sha256',
      Buffer.from(`${header}.${payload}`),
      createPublicKey(options.app.publicKeyPem),
      Buffer.from(signature, 'base64url'),
    );
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as {
      iss?: unknown;
      exp?: number;
    };
    return valid && String(claims.iss) === String(options.app.id) && (claims.exp ?? 0) * 1000 > Date.now();
  };
  const tokenOf = (request: RecordedRequest) =>
    /^(token|bearer) (.+)$/i.exec(request.headers.authorization ?? '')?.[2];
  const present = (pull: PullRequestRecord) => ({
    number: pull.number,
    state: pull.state,
    title: pull.title,
    body: pull.body,
    html_url: `${publicUrl}/${options.owner}/${options.repo}/pull/${pull.number}`,
    merged: pull.merged === true,
    merged_at: pull.merged === true ? '2026-01-02T03:04:05Z' : null,
    head: { ref: pull.head, label: `${options.owner}:${pull.head}` },
    base: { ref: pull.base },
  });

  const double = await startHttpDouble((request) => {
    const { method, path } = request;
    if (
      method === 'POST' &&
      options.app !== undefined &&
      path === `${prefix}/app/installations/${options.app.installationId}/access_tokens`
    ) {
      if (!verifyJwt(request.headers.authorization))
        return { status: 401, body: { message: 'A JSON web token could not be decoded' } };
      const token = `ghs_installation${installationTokens.size + 1}`;
      installationTokens.add(token);
      return {
        status: 201,
        body: {
          token,
          expires_at: new Date(Date.now() + 3600_000).toISOString(),
          permissions: { pull_requests: 'write' },
        },
      };
    }
    if (method === 'GET' && path === `${repositoryPath}/installation`) {
      if (!verifyJwt(request.headers.authorization))
        return { status: 401, body: { message: 'A JSON web token could not be decoded' } };
      return { status: 200, body: { id: options.app?.installationId, app_id: options.app?.id } };
    }
    const token = tokenOf(request);
    if (token === undefined || !validTokens().has(token))
      return { status: 401, body: { message: 'Bad credentials' } };
    if (method === 'GET' && path === `${repositoryPath}/pulls`) {
      const head = request.query.get('head');
      const state = request.query.get('state') ?? 'open';
      const matching = pulls.filter(
        (pull) =>
          (state === 'all' || pull.state === state) &&
          (head === null || `${options.owner}:${pull.head}` === head),
      );
      return { status: 200, body: matching.map(present) };
    }
    if (method === 'POST' && path === `${repositoryPath}/pulls`) {
      const body = request.body as { head?: string; base?: string; title?: string; body?: string };
      if (!body.head || !body.base || !body.title)
        return {
          status: 422,
          body: {
            message: 'Validation Failed',
            errors: [{ resource: 'PullRequest', code: 'missing_field' }],
          },
        };
      if (pulls.some((pull) => pull.state === 'open' && pull.head === body.head)) {
        return {
          status: 422,
          body: {
            message: 'Validation Failed',
            errors: [
              {
                resource: 'PullRequest',
                code: 'custom',
                message: `A pull request already exists for ${options.owner}:${body.head}.`,
              },
            ],
          },
        };
      }
      const pull: PullRequestRecord = {
        number: pulls.length + 1,
        state: 'open',
        title: body.title,
        body: body.body ?? '',
        head: body.head,
        base: body.base,
      };
      pulls.push(pull);
      return { status: 201, body: present(pull) };
    }
    // https://docs.github.com/en/rest/issues/comments#create-an-issue-comment
    const commentOn = new RegExp(`^${repositoryPath}/issues/(\\d+)/comments$`).exec(path);
    if (method === 'POST' && commentOn !== null) {
      const number = Number(commentOn[1]);
      if (!pulls.some((pull) => pull.number === number))
        return { status: 404, body: { message: 'Not Found' } };
      const body = request.body as { body?: string };
      if (typeof body.body !== 'string' || body.body === '')
        return { status: 422, body: { message: 'Validation Failed' } };
      comments.push({ number, body: body.body });
      const id = comments.length;
      return {
        status: 201,
        body: {
          id,
          body: body.body,
          html_url: `${publicUrl}/${options.owner}/${options.repo}/pull/${number}#issuecomment-${id}`,
          user: { login: 'quire-bot', type: 'User' },
          author_association: 'MEMBER',
        },
      };
    }
    const update = new RegExp(`^${repositoryPath}/pulls/(\\d+)$`).exec(path);
    // https://docs.github.com/en/rest/pulls/pulls#get-a-pull-request
    if (method === 'GET' && update !== null) {
      const pull = pulls.find((candidate) => candidate.number === Number(update[1]));
      return pull === undefined
        ? { status: 404, body: { message: 'Not Found' } }
        : { status: 200, body: present(pull) };
    }
    if (method === 'PATCH' && update !== null) {
      const pull = pulls.find((candidate) => candidate.number === Number(update[1]));
      if (pull === undefined) return { status: 404, body: { message: 'Not Found' } };
      const body = request.body as { title?: string; body?: string };
      if (body.title !== undefined) pull.title = body.title;
      if (body.body !== undefined) pull.body = body.body;
      return { status: 200, body: present(pull) };
    }
    return { status: 404, body: { message: 'Not Found' } };
  });
  publicUrl = double.url;
  return { ...double, apiBaseUrl: `${double.url}${prefix}`, pulls, comments };
}
