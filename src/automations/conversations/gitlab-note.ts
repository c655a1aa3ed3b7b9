/**
 * A comment on a merge request, from GitLab's `Note Hook` (`object_kind: note`,
 * `object_attributes.noteable_type: MergeRequest`):
 * https://docs.gitlab.com/user/project/integrations/webhook_events/#comment-on-a-merge-request
 * `object_attributes.action` is `create` or `update` (GitLab 16.11 and later; older servers send no
 * action, and only new comments); `system` notes are GitLab's own ("added 1 commit"). A note on a
 * line of the diff carries `position` (`new_path`, `new_line`, `old_line`), as the Discussions API
 * describes it: https://docs.gitlab.com/api/discussions/#create-a-new-thread-in-the-merge-request-diff
 *
 * The payload says who wrote the note but not their role, so whether they may ask for changes is
 * asked of GitLab (`CodeHost.describeCommenter`) once the note is known to be on a Quire merge request.
 */
import { type CodeHost, quireCommentMarker } from '../../code-hosts/code-host.ts';
import { objectOf, textOf } from '../hooks/merged-change.ts';
import type { AuthorCheck, PullRequestComment } from './pull-request-comment.ts';

export const gitLabNoteEvent = 'Note Hook';

export type GitLabNoteVerdict =
  | { kind: 'comment'; comment: PullRequestComment; authorId: number }
  | { kind: 'ignored'; reason: string };

export function gitLabMergeRequestNote(payload: Record<string, unknown>): GitLabNoteVerdict {
  const note = objectOf(payload.object_attributes);
  if (payload.object_kind !== 'note') return { kind: 'ignored', reason: 'not a comment event' };
  const noteable = textOf(note.noteable_type) ?? 'something';
  if (noteable !== 'MergeRequest')
    return { kind: 'ignored', reason: `a note on ${noteable} (its noteable_type), not on a MergeRequest` };
  if (note.action !== undefined && note.action !== 'create')
    return { kind: 'ignored', reason: 'not a new comment' };
  if (note.system === true) return { kind: 'ignored', reason: 'a system note' };
  const body = textOf(note.note)?.trim() ?? '';
  if (body === '') return { kind: 'ignored', reason: 'an empty comment' };
  if (body.includes(quireCommentMarker)) return { kind: 'ignored', reason: "Quire's own reply" };
  const user = objectOf(payload.user);
  const authorId = typeof note.author_id === 'number' ? note.author_id : user.id;
  if (typeof authorId !== 'number' || !Number.isSafeInteger(authorId))
    return { kind: 'ignored', reason: 'a comment without an author' };
  const mergeRequest = objectOf(payload.merge_request);
  // The note's own URL is the merge request's with `#note_<id>`; `merge_request.url` is not in
  // every version's payload.
  const noteUrl = textOf(note.url);
  const pullRequestUrl = textOf(mergeRequest.url) ?? (noteUrl === null ? null : noteUrl.split('#')[0]!);
  const position = objectOf(note.position);
  const line = position.new_line ?? position.old_line;
  return {
    kind: 'comment',
    authorId,
    comment: {
      pullRequestUrl,
      branch: textOf(mergeRequest.source_branch),
      body,
      author: textOf(user.username) ?? 'someone',
      path: textOf(position.new_path) ?? textOf(position.old_path),
      line: typeof line === 'number' ? line : null,
    },
  };
}

/**
 * Accepts a note from a person with the Developer role or above in the project's repository; bots
 * (project, group and service-account tokens) and everyone else are ignored. Errors reaching GitLab
 * propagate, so that the delivery is retried.
 */
export function gitLabAuthorCheck(codeHost: CodeHost, authorId: number, author: string): AuthorCheck {
  return async () => {
    if (codeHost.describeCommenter === undefined) return 'the code host cannot tell who commented';
    const commenter = await codeHost.describeCommenter({ userId: authorId });
    if (commenter.bot) return 'a comment from a bot';
    if (!commenter.canPush) return `a comment from ${author}, without Developer access`;
    return null;
  };
}
