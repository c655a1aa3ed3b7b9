/**
 * GitLab webhooks (https://docs.gitlab.com/user/project/integrations/webhooks/ and
 * https://docs.gitlab.com/user/project/integrations/webhook_events/):
 * - `X-Gitlab-Token` carries the secret token as set on the hook, compared in constant time;
 * - `Idempotency-Key` stays the same when GitLab retries a delivery (GitLab 17.4 and later); older
 *   servers send none, and the body's hash stands in for it (a retry resends the same body). Not
 *   `X-Gitlab-Event-UUID`: webhooks that one webhook's receiver causes share it ("recursive
 *   webhooks ... share the same value"), so it names an event, not a delivery. Both headers:
 *   https://docs.gitlab.com/user/project/integrations/webhooks/#delivery-headers
 * - `X-Gitlab-Event: Note Hook` on a merge request: a pull-request conversation
 *   (src/automations/conversations/gitlab-note.ts);
 * - `X-Gitlab-Event: Merge Request Hook` with `object_attributes.action: merge` is a merge into
 *   `object_attributes.target_branch`, whose commit is `merge_commit_sha`;
 * - `X-Gitlab-Event: Push Hook`: `ref`, `after`, and `commits[].added|modified|removed`.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { filesOfCommits, firstLine, type MergedChange, objectOf, textOf } from './merged-change.ts';

export function verifyGitLabToken(secret: string, header: string | undefined): boolean {
  if (header === undefined) return false;
  // Hashing first makes the comparison constant-time whatever the lengths.
  const given = createHash('sha256').update(header).digest();
  const expected = createHash('sha256').update(secret).digest();
  return timingSafeEqual(given, expected);
}

export const gitLabEvents = ['Merge Request Hook', 'Push Hook', 'Note Hook'] as const;

export function gitLabDeliveryId(idempotencyKey: string | undefined, rawBody: Buffer): string {
  return idempotencyKey ?? `sha256:${createHash('sha256').update(rawBody).digest('hex')}`;
}

const zeroCommit = /^0+$/;

function repositoryNames(payload: Record<string, unknown>): string[] {
  const project = objectOf(payload.project);
  return [project.path_with_namespace, project.web_url, project.git_http_url, project.git_ssh_url]
    .map(textOf)
    .filter((name): name is string => name !== null);
}

export function gitLabMergedChange(event: string, payload: Record<string, unknown>): MergedChange | null {
  if (event === 'Merge Request Hook') {
    const attributes = objectOf(payload.object_attributes);
    if (attributes.action !== 'merge') return null;
    const branch = textOf(attributes.target_branch);
    if (branch === null) return null;
    return {
      repositoryNames: repositoryNames(payload),
      branch,
      filesKnown: false,
      change: {
        commit: textOf(attributes.merge_commit_sha),
        url: textOf(attributes.url),
        title: textOf(attributes.title),
        description: textOf(attributes.description),
        author: textOf(objectOf(payload.user).username),
        changedFiles: [],
        diff: null,
      },
    };
  }
  if (event === 'Push Hook') {
    const ref = textOf(payload.ref);
    const after = textOf(payload.after);
    if (ref === null || !ref.startsWith('refs/heads/') || after === null || zeroCommit.test(after))
      return null;
    const commits = Array.isArray(payload.commits) ? payload.commits : [];
    const last = objectOf(commits.at(-1));
    const message = textOf(last.message);
    return {
      repositoryNames: repositoryNames(payload),
      branch: ref.slice('refs/heads/'.length),
      filesKnown: true,
      change: {
        commit: after,
        url: textOf(last.url),
        title: firstLine(message),
        description: message,
        author: textOf(payload.user_username) ?? textOf(payload.user_name),
        changedFiles: filesOfCommits(commits),
        diff: null,
      },
    };
  }
  return null;
}
