import { randomUUID } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { runGit } from '../src/workspace/git.ts';
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
    async commit(worktree, { message, author }) {
      await runGit(['add', '--all'], { cwd: worktree.path });
      if ((await runGit(['status', '--porcelain'], { cwd: worktree.path })).trim() === '') return null;
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
      return (await runGit(['rev-parse', 'HEAD'], { cwd: worktree.path })).trim();
    },
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
