/**
 * GitHub webhooks (https://docs.github.com/en/webhooks/webhook-events-and-payloads):
 * - the signature: `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body with the secret>`,
 *   compared in constant time (https://docs.github.com/en/webhooks/using-webhooks/validating-webhook-deliveries);
 * - `X-GitHub-Delivery`, a GUID that a redelivery keeps; `X-GitHub-Event`, the event name;
 * - `pull_request` with `action: closed` and `pull_request.merged: true` is a merge into
 *   `pull_request.base.ref`, whose commit is `merge_commit_sha`;
 * - `push` to `refs/heads/<branch>`: `after` is the new head, `commits[].added|modified|removed` the files
 *   (GitHub lists at most 20 commits there).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { filesOfCommits, firstLine, type MergedChange, objectOf, textOf } from './merged-change.ts';

export function verifyGitHubSignature(secret: string, rawBody: Buffer, header: string | undefined): boolean {
  if (header === undefined || !header.startsWith('sha256=')) return false;
  const expected = Buffer.from(createHmac('sha256', secret).update(rawBody).digest('hex'), 'utf8');
  const given = Buffer.from(header.slice('sha256='.length), 'utf8');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The events this receiver stores; any other is acknowledged and ignored. */
export const gitHubEvents = ['pull_request', 'push'] as const;

const zeroCommit = /^0+$/;

function repositoryNames(payload: Record<string, unknown>): string[] {
  const repository = objectOf(payload.repository);
  return [repository.full_name, repository.html_url, repository.clone_url, repository.ssh_url, repository.url]
    .map(textOf)
    .filter((name): name is string => name !== null);
}

/** The merged change the payload describes, or null when it is not one (a PR closed unmerged, a tag push). */
export function gitHubMergedChange(event: string, payload: Record<string, unknown>): MergedChange | null {
  if (event === 'pull_request') {
    const pull = objectOf(payload.pull_request);
    if (payload.action !== 'closed' || pull.merged !== true) return null;
    const branch = textOf(objectOf(pull.base).ref);
    if (branch === null) return null;
    return {
      repositoryNames: repositoryNames(payload),
      branch,
      filesKnown: false,
      change: {
        commit: textOf(pull.merge_commit_sha),
        url: textOf(pull.html_url),
        title: textOf(pull.title),
        description: textOf(pull.body),
        author: textOf(objectOf(pull.user).login),
        changedFiles: [],
        diff: null,
      },
    };
  }
  if (event === 'push') {
    const ref = textOf(payload.ref);
    const after = textOf(payload.after);
    if (ref === null || !ref.startsWith('refs/heads/') || after === null || zeroCommit.test(after))
      return null;
    const head = objectOf(payload.head_commit);
    const message = textOf(head.message);
    const author = objectOf(head.author);
    return {
      repositoryNames: repositoryNames(payload),
      branch: ref.slice('refs/heads/'.length),
      filesKnown: true,
      change: {
        commit: after,
        url: textOf(payload.compare),
        title: firstLine(message),
        description: message,
        author: textOf(author.username) ?? textOf(author.name) ?? textOf(objectOf(payload.pusher).name),
        changedFiles: filesOfCommits(payload.commits),
        diff: null,
      },
    };
  }
  return null;
}
