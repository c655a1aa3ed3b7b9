import type { GitCredentials } from './git-credentials.ts';

export interface CommitAuthor {
  name: string;
  email: string;
}

export interface PrepareRequest {
  /** A URL, or a path on this machine. */
  repository: string;
  /** The base ref jobs start from, such as `main`. */
  baseRef: string;
  /** The job's working branch; when it already exists on the remote the run continues from its tip. */
  branch: string;
  credentials?: GitCredentials | null;
  signal?: AbortSignal;
}

/** A checkout for one run, detached at `startCommit`; commits are pushed to `branch`. */
export interface RunWorktree {
  path: string;
  mirrorPath: string;
  repository: string;
  branch: string;
  baseCommit: string;
  startCommit: string;
  /** True when the branch already existed on the remote (a follow-up). */
  branchExisted: boolean;
}

/**
 * The workspace port: a checkout of the repository per run, and commit and push from it. The
 * implementation (git-workspace.ts) keeps a bare mirror per repository under the data directory,
 * fetched before each run, and a worktree per run.
 *
 *   const worktree = await workspace.prepare({ repository, baseRef: 'main', branch, signal });
 *   // ... edit files under worktree.path ...
 *   const commit = await workspace.commit(worktree, { message, author });
 *   if (commit !== null) await workspace.push(worktree, { credentials, signal });
 *   await workspace.remove(worktree);
 */
export interface Workspace {
  prepare(request: PrepareRequest): Promise<RunWorktree>;
  /** Commits every change in the worktree; null when nothing changed. */
  commit(worktree: RunWorktree, options: { message: string; author: CommitAuthor }): Promise<string | null>;
  /** Files that differ between the base and the worktree's HEAD, as `git diff --name-status` lines. */
  changedFiles(worktree: RunWorktree): Promise<string[]>;
  push(
    worktree: RunWorktree,
    options: { credentials?: GitCredentials | null; signal?: AbortSignal },
  ): Promise<void>;
  /** Ends the run's use of the worktree: it is removed, or cleaned and kept for the next run. */
  remove(worktree: RunWorktree): Promise<void>;
  /** Removes the worktrees kept for reuse (on shutdown). */
  close(): Promise<void>;
}
