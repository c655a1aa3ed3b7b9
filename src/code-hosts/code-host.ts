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
   * Adds a comment to the pull request at `url` (one this code host opened). Code hosts without
   * pull-request conversations yet leave it out.
   */
  commentOnPullRequest?(request: { url: string; body: string; signal?: AbortSignal }): Promise<void>;
}
