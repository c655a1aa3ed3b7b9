import { randomUUID } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { commitAll, runGit } from '../src/workspace/git.ts';
import type { Workspace } from '../src/workspace/workspace.ts';

/**
 * The naive way, for comparison only: a fresh `git clone` per run (`--no-local`, so objects are
 * transferred as they would be from a remote, instead of hard-linked), removed afterwards.
 */
export function createNaiveCloneWorkspace(options: { dataDirectory: string }): Workspace {
  return {
    async prepare(request) {
      await mkdir(options.dataDirectory, { recursive: true });
      const path = join(options.dataDirectory, randomUUID());
      await runGit(['clone', '--quiet', '--no-local', '--', request.repository, path], {
        cwd: options.dataDirectory,
      });
      const base = (await runGit(['rev-parse', `origin/${request.baseRef}`], { cwd: path })).trim();
      const branchCommit = await runGit(['rev-parse', '--verify', '--quiet', `origin/${request.branch}`], {
        cwd: path,
      }).then(
        (text) => text.trim(),
        () => null,
      );
      await runGit(['checkout', '--quiet', '--detach', branchCommit ?? base], { cwd: path });
      return {
        path,
        mirrorPath: path,
        repository: request.repository,
        branch: request.branch,
        baseCommit: base,
        startCommit: branchCommit ?? base,
        branchExisted: branchCommit !== null,
      };
    },
    commit: (worktree, options) => commitAll(worktree.path, options),
    async changedFiles(worktree) {
      return (
        await runGit(['diff', '--name-status', '--no-renames', worktree.baseCommit, 'HEAD'], {
          cwd: worktree.path,
        })
      )
        .split('\n')
        .filter(Boolean);
    },
    async push(worktree) {
      await runGit(['push', '--quiet', 'origin', `HEAD:refs/heads/${worktree.branch}`], {
        cwd: worktree.path,
      });
    },
    async remove(worktree) {
      await rm(worktree.path, { recursive: true, force: true });
    },
    async close() {},
  };
}
