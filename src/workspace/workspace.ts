import { createHash, randomUUID } from 'node:crypto';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import { GitCommandError, runGit } from './git.ts';
import { credentialEnvironment, type GitCredentials, redactCredentials } from './git-credentials.ts';
import { KeyedLock } from './keyed-lock.ts';

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
 * The workspace port: a bare mirror per repository under the data directory, fetched before each
 * run, and a worktree per run.
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

export function createGitWorkspace(options: {
  dataDirectory: string;
  /** Clean worktrees kept per repository for the next run (0: remove every worktree after its run). */
  maximumIdleWorktrees?: number;
}): Workspace {
  const mirrorsDirectory = resolve(options.dataDirectory, 'mirrors');
  const worktreesDirectory = resolve(options.dataDirectory, 'worktrees');
  const lock = new KeyedLock();
  const maximumIdleWorktrees = options.maximumIdleWorktrees ?? 2;
  const idleWorktrees = new Map<string, string[]>();

  function repositoryLocation(repository: string): string {
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(repository) || /^[^/]+@[^/]+:/.test(repository)) return repository;
    if (!isAbsolute(repository)) throw new Error('A local repository must be an absolute path');
    return repository;
  }

  async function git(args: string[], cwd: string, credentials?: GitCredentials | null, signal?: AbortSignal) {
    try {
      return await runGit(args, { cwd, environment: credentialEnvironment(credentials), signal });
    } catch (error: unknown) {
      if (error instanceof GitCommandError) {
        throw new GitCommandError(
          args[0] ?? '',
          error.exitCode,
          redactCredentials(error.stderr, credentials),
        );
      }
      throw error;
    }
  }

  async function ensureMirror(request: PrepareRequest, mirrorPath: string): Promise<void> {
    const location = repositoryLocation(request.repository);
    const exists = await stat(join(mirrorPath, 'HEAD')).then(
      () => true,
      () => false,
    );
    if (!exists) {
      // Built beside its final place and renamed, so a crash never leaves a half-made mirror.
      const temporary = `${mirrorPath}.${randomUUID()}.tmp`;
      await mkdir(temporary, { recursive: true });
      await git(['init', '--quiet', '--bare'], temporary);
      await git(['remote', 'add', 'origin', '--', location], temporary);
      await git(['config', 'remote.origin.fetch', '+refs/heads/*:refs/heads/*'], temporary);
      await git(['config', '--add', 'remote.origin.fetch', '+refs/tags/*:refs/tags/*'], temporary);
      await git(['config', 'gc.auto', '0'], temporary);
      await rename(temporary, mirrorPath);
    }
    await git(
      ['fetch', '--quiet', '--prune', '--no-auto-gc', 'origin'],
      mirrorPath,
      request.credentials,
      request.signal,
    );
  }

  async function resolveCommit(mirrorPath: string, ref: string): Promise<string | null> {
    if (ref.startsWith('-')) return null;
    for (const candidate of [`refs/heads/${ref}`, `refs/tags/${ref}`, ref]) {
      try {
        return (await git(['rev-parse', '--verify', '--quiet', `${candidate}^{commit}`], mirrorPath)).trim();
      } catch {}
    }
    return null;
  }

  /**
   * Checking out thousands of files costs seconds on slow disks; switching a clean worktree to
   * another commit costs milliseconds (git rewrites only what differs). So a finished run's worktree
   * is cleaned and kept, up to `maximumIdleWorktrees` per repository, for the next run.
   */
  async function checkOut(mirrorPath: string, commit: string, signal?: AbortSignal): Promise<string> {
    const idle = idleWorktrees.get(mirrorPath);
    const recycled = idle?.pop();
    if (recycled !== undefined) {
      try {
        await git(['checkout', '--quiet', '--force', '--detach', commit], recycled, null, signal);
        await git(['clean', '-ffdxq'], recycled, null, signal);
        return recycled;
      } catch {
        await discard(mirrorPath, recycled);
      }
    }
    const path = join(worktreesDirectory, randomUUID());
    await git(['worktree', 'add', '--quiet', '--detach', path, commit], mirrorPath, null, signal);
    return path;
  }

  async function discard(mirrorPath: string, path: string): Promise<void> {
    try {
      await git(['worktree', 'remove', '--force', path], mirrorPath);
    } catch {
      await rm(path, { recursive: true, force: true });
      await git(['worktree', 'prune'], mirrorPath).catch(() => undefined);
    }
  }

  return {
    async prepare(request) {
      const mirrorPath = join(
        mirrorsDirectory,
        `${createHash('sha256').update(request.repository).digest('hex').slice(0, 24)}.git`,
      );
      await mkdir(mirrorsDirectory, { recursive: true });
      await mkdir(worktreesDirectory, { recursive: true });
      return lock.run(mirrorPath, async () => {
        await ensureMirror(request, mirrorPath);
        const baseCommit = await resolveCommit(mirrorPath, request.baseRef);
        if (baseCommit === null)
          throw new Error(`The base ref "${request.baseRef}" does not exist in the repository`);
        const branchCommit = await resolveCommit(mirrorPath, request.branch);
        const startCommit = branchCommit ?? baseCommit;
        const path = await checkOut(mirrorPath, startCommit, request.signal);
        return {
          path,
          mirrorPath,
          repository: request.repository,
          branch: request.branch,
          baseCommit,
          startCommit,
          branchExisted: branchCommit !== null,
        };
      });
    },

    async commit(worktree, { message, author }) {
      await git(['add', '--all'], worktree.path);
      const status = await git(['status', '--porcelain'], worktree.path);
      if (status.trim() === '') return null;
      await runGit(['commit', '--quiet', '--no-verify', '--file', '-'], {
        cwd: worktree.path,
        input: message,
        environment: {
          GIT_AUTHOR_NAME: author.name,
          GIT_AUTHOR_EMAIL: author.email,
          GIT_COMMITTER_NAME: author.name,
          GIT_COMMITTER_EMAIL: author.email,
        },
      });
      return (await git(['rev-parse', 'HEAD'], worktree.path)).trim();
    },

    async changedFiles(worktree) {
      const output = await git(
        ['diff', '--name-status', '--no-renames', worktree.baseCommit, 'HEAD'],
        worktree.path,
      );
      return output.split('\n').filter((line) => line !== '');
    },

    async push(worktree, { credentials, signal }) {
      await git(
        ['push', '--quiet', 'origin', `HEAD:refs/heads/${worktree.branch}`],
        worktree.path,
        credentials,
        signal,
      );
    },

    async remove(worktree) {
      await lock.run(worktree.mirrorPath, async () => {
        const idle = idleWorktrees.get(worktree.mirrorPath) ?? [];
        if (idle.length < maximumIdleWorktrees) {
          try {
            // Nothing of this run survives into the next one: tracked files reset, the rest deleted.
            await git(['reset', '--quiet', '--hard'], worktree.path);
            await git(['clean', '-ffdxq'], worktree.path);
            idle.push(worktree.path);
            idleWorktrees.set(worktree.mirrorPath, idle);
            return;
          } catch {}
        }
        await discard(worktree.mirrorPath, worktree.path);
      });
    },

    async close() {
      for (const [mirrorPath, paths] of idleWorktrees) {
        await lock.run(mirrorPath, async () => {
          for (const path of paths.splice(0)) await discard(mirrorPath, path);
        });
      }
    },
  };
}
