import type { GitCredentials } from '../workspace/git-credentials.ts';

export type CodeHostKind = 'local' | 'github' | 'gitlab';

export const codeHostKinds: readonly CodeHostKind[] = ['local', 'github', 'gitlab'];

/** What choosing and configuring a project's code host reads of the project. */
export interface CodeHostProject {
  /** A URL or a local path; null when the project has no repository (analytics only). */
  repository: string | null;
  codeHost: CodeHostKind;
  /** Per-project settings, where code-host credentials live. */
  settings: Record<string, unknown>;
}

export interface PullRequestRequest {
  projectId: string;
  jobId: string;
  /** The job's working branch, already pushed. */
  branch: string;
  /** The branch the pull request merges into. */
  baseRef: string;
  title: string;
  body: string;
  signal?: AbortSignal;
}

export interface PullRequest {
  url: string;
  /** False when an open pull request for the branch already existed and was updated. */
  created: boolean;
}

/** Where a pull request stands: `closed` is closed without merging (or deleted). */
export type PullRequestState = 'open' | 'merged' | 'closed';

/** Who wrote a comment, as the code host tells it when the webhook does not. */
export interface Commenter {
  bot: boolean;
  /** May push to the repository (GitLab: the Developer role or above, inherited roles included). */
  canPush: boolean;
}

/**
 * Marks Quire's own comments: the code host adds it to what Quire posts, so that the webhook the
 * comment causes is recognised and ignored. An HTML comment: invisible where the text is rendered.
 */
export const quireCommentMarker = '<!-- quire-reply -->';

/**
 * The code-host port: where the repository is fetched from and pushed to, and where pull requests
 * live. Implementations: `github`, `gitlab`, `local` (the embedded default).
 *
 *   const credentials = await codeHost.gitCredentials(signal); // for fetch and push only
 *   const pullRequest = await codeHost.openOrUpdatePullRequest({ projectId, jobId, branch, baseRef, title, body });
 */
export interface CodeHost {
  /** Credentials for git over HTTPS, or null when none are needed. Never shown to the model. */
  gitCredentials(signal?: AbortSignal): Promise<GitCredentials | null>;
  /**
   * Opens a pull request from `branch` into `baseRef`, or updates the title and body of the one
   * already open for `branch`; so a retried run never opens a second one.
   */
  openOrUpdatePullRequest(request: PullRequestRequest): Promise<PullRequest>;
  /**
   * Whether the pull request at `url` (one this code host opened) is still open; a pull request the
   * code host no longer knows is `closed`.
   */
  pullRequestState(request: { url: string; signal?: AbortSignal }): Promise<PullRequestState>;
  /**
   * Adds Quire's comment to the pull request at `url` (one this code host opened), marked with
   * `quireCommentMarker` where others can read it.
   */
  commentOnPullRequest(request: { url: string; body: string; signal?: AbortSignal }): Promise<void>;
  /**
   * What the code host knows of the user `userId` who commented, for code hosts whose webhooks do
   * not say whether the author may push (GitLab); the others leave it out.
   */
  describeCommenter?(request: { userId: number; signal?: AbortSignal }): Promise<Commenter>;
}
