/** A comment on one of Quire's pull requests, as a code host's webhook tells it (GitHub, GitLab). */
export interface PullRequestComment {
  /** The pull request's web URL (as Quire stored it when it opened the pull request). */
  pullRequestUrl: string | null;
  /** The pull request's head branch, when the payload says. */
  branch: string | null;
  body: string;
  author: string;
  /** Set for a comment on a line of the diff. */
  path: string | null;
  line: number | null;
}

export type CommentVerdict =
  | { kind: 'comment'; comment: PullRequestComment }
  | { kind: 'ignored'; reason: string };

/**
 * Asked once the comment is known to be on a Quire pull request, for code hosts whose webhook does
 * not say whether the author may push: null to accept, or why the comment is ignored.
 */
export type AuthorCheck = () => Promise<string | null>;
