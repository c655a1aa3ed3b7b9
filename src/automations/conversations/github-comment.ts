/**
 * A comment on a pull request, from GitHub's `issue_comment` (on a pull request: the issue has a
 * `pull_request` key), `pull_request_review_comment` and `pull_request_review` webhooks.
 * https://docs.github.com/en/webhooks/webhook-events-and-payloads#issue_comment
 * https://docs.github.com/en/webhooks/webhook-events-and-payloads#pull_request_review_comment
 * https://docs.github.com/en/webhooks/webhook-events-and-payloads#pull_request_review
 * Who may ask for changes: `author_association` OWNER, MEMBER or COLLABORATOR (people with write
 * access to the repository), as GitHub defines them:
 * https://docs.github.com/en/graphql/reference/enums#commentauthorassociation
 */
import { quireCommentMarker } from '../../code-hosts/code-host.ts';
import { objectOf, textOf } from '../hooks/merged-change.ts';
import type { CommentVerdict } from './pull-request-comment.ts';

export const gitHubCommentEvents = [
  'issue_comment',
  'pull_request_review_comment',
  'pull_request_review',
] as const;

const trustedAssociations = new Set(['OWNER', 'MEMBER', 'COLLABORATOR']);

export function gitHubPullRequestComment(event: string, payload: Record<string, unknown>): CommentVerdict {
  let comment: Record<string, unknown>;
  let pullRequestUrl: string | null;
  let branch: string | null = null;
  if (event === 'issue_comment') {
    const issue = objectOf(payload.issue);
    if (payload.action !== 'created') return { kind: 'ignored', reason: 'not a new comment' };
    if (issue.pull_request === undefined) return { kind: 'ignored', reason: 'a comment on an issue' };
    comment = objectOf(payload.comment);
    pullRequestUrl = textOf(objectOf(issue.pull_request).html_url) ?? textOf(issue.html_url);
  } else if (event === 'pull_request_review_comment' || event === 'pull_request_review') {
    const isReview = event === 'pull_request_review';
    if (payload.action !== (isReview ? 'submitted' : 'created'))
      return { kind: 'ignored', reason: 'not a new comment' };
    const pull = objectOf(payload.pull_request);
    comment = objectOf(isReview ? payload.review : payload.comment);
    pullRequestUrl = textOf(pull.html_url);
    branch = textOf(objectOf(pull.head).ref);
  } else {
    return { kind: 'ignored', reason: 'not a comment event' };
  }
  const user = objectOf(comment.user);
  const body = textOf(comment.body)?.trim() ?? '';
  if (body === '') return { kind: 'ignored', reason: 'an empty comment' };
  if (user.type === 'Bot') return { kind: 'ignored', reason: 'a comment from a bot' };
  if (body.includes(quireCommentMarker)) return { kind: 'ignored', reason: "Quire's own reply" };
  const association = textOf(comment.author_association) ?? 'NONE';
  if (!trustedAssociations.has(association))
    return { kind: 'ignored', reason: `a comment from ${association}, without write access` };
  const line = comment.line ?? comment.original_line;
  return {
    kind: 'comment',
    comment: {
      pullRequestUrl,
      branch,
      body,
      author: textOf(user.login) ?? 'someone',
      path: textOf(comment.path),
      line: typeof line === 'number' ? line : null,
    },
  };
}
