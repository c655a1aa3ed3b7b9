import { resolve } from 'node:path';
import { runAuthenticatedGit as git } from './authenticated-git.ts';
import { commitAll } from './git.ts';
import { KeyedLock } from './keyed-lock.ts';
import { fetchMirror, mirrorPathFor, resolveCommit } from './mirror.ts';
import type { Workspace } from './workspace.ts';
import { createWorktreePool } from './worktree-pool.ts';

/**
 * The workspace on the git CLI: a bare mirror per repository (`{dataDirectory}/mirrors`), fetched
 * before each run, and a worktree per run (`{dataDirectory}/worktrees`), recycled between runs.
 * Credentials are passed per command through the environment (git-credentials.ts).
 */
export function createGitWorkspace(options: {
  dataDirectory: string;
  /** Clean worktrees kept per repository for the next run (0: remove every worktree after its run). */
  maximumIdleWorktrees?: number;
}): Workspace {
  const mirrorsDirectory = resolve(options.dataDirectory, 'mirrors');
  const lock = new KeyedLock();
  const worktrees = createWorktreePool({
    worktreesDirectory: resolve(options.dataDirectory, 'worktrees'),
    maximumIdle: options.maximumIdleWorktrees ?? 2,
  });

  return {
    async prepare(request) {
      const mirrorPath = mirrorPathFor(mirrorsDirectory, request.repository);
      return lock.run(mirrorPath, async () => {
        await fetchMirror(mirrorPath, request.repository, request.credentials, request.signal);
        const baseCommit = await resolveCommit(mirrorPath, request.baseRef);
        if (baseCommit === null)
          throw new Error(`The base ref "${request.baseRef}" does not exist in the repository`);
        const branchCommit = await resolveCommit(mirrorPath, request.branch);
        const startCommit = branchCommit ?? baseCommit;
        const path = await worktrees.checkOut(mirrorPath, startCommit, request.signal);
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

    commit: (worktree, options) => commitAll(worktree.path, options),

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
        credentials === null || credentials === undefined
          ? null
          : { ...credentials, url: worktree.repository },
        signal,
      );
    },

    async remove(worktree) {
      await lock.run(worktree.mirrorPath, () => worktrees.release(worktree.mirrorPath, worktree.path));
    },

    async close() {
      await worktrees.close((mirrorPath, task) => lock.run(mirrorPath, task));
    },
  };
}
