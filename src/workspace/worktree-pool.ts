import { randomUUID } from 'node:crypto';
import { mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { errorCode } from '../errors.ts';
import { runAuthenticatedGit as git } from './authenticated-git.ts';

/**
 * Worktrees of the mirrors. Checking out thousands of files costs seconds on slow disks; switching
 * a clean worktree to another commit costs milliseconds (git rewrites only what differs). So a
 * finished run's worktree is cleaned and kept, up to `maximumIdle` per mirror, for the next run.
 *
 * Each process keeps its worktrees in a folder of its own (`p<pid>-<random>`); the folders of
 * processes that are no longer running (a crash) are removed on first use. Callers serialise calls
 * per mirror (the workspace's lock).
 */
export function createWorktreePool(options: { worktreesDirectory: string; maximumIdle: number }) {
  const ownDirectory = join(options.worktreesDirectory, `p${process.pid}-${randomUUID().slice(0, 8)}`);
  const idle = new Map<string, string[]>();
  const prunedMirrors = new Set<string>();
  let started: Promise<void> | null = null;

  async function removeLeftovers(): Promise<void> {
    await mkdir(ownDirectory, { recursive: true });
    for (const entry of await readdir(options.worktreesDirectory).catch(() => [])) {
      const pid = /^p(\d+)-/.exec(entry)?.[1];
      if (pid === undefined || isRunning(Number(pid))) continue;
      await rm(join(options.worktreesDirectory, entry), { recursive: true, force: true });
    }
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
    /** A worktree of `mirrorPath` detached at `commit`, with nothing else in it. */
    async checkOut(mirrorPath: string, commit: string, signal?: AbortSignal): Promise<string> {
      started ??= removeLeftovers();
      await started;
      if (!prunedMirrors.has(mirrorPath)) {
        prunedMirrors.add(mirrorPath);
        await git(['worktree', 'prune'], mirrorPath).catch(() => undefined);
      }
      const recycled = idle.get(mirrorPath)?.pop();
      if (recycled !== undefined) {
        try {
          await git(['checkout', '--quiet', '--force', '--detach', commit], recycled, null, signal);
          await git(['clean', '-ffdxq'], recycled, null, signal);
          return recycled;
        } catch {
          await discard(mirrorPath, recycled);
        }
      }
      const path = join(ownDirectory, randomUUID());
      await git(['worktree', 'add', '--quiet', '--detach', path, commit], mirrorPath, null, signal);
      return path;
    },

    /** Cleans the worktree and keeps it for the next run, or removes it when enough are kept. */
    async release(mirrorPath: string, path: string): Promise<void> {
      const kept = idle.get(mirrorPath) ?? [];
      if (kept.length < options.maximumIdle) {
        try {
          // Nothing of this run survives into the next one: tracked files reset, the rest deleted.
          await git(['reset', '--quiet', '--hard'], path);
          await git(['clean', '-ffdxq'], path);
          kept.push(path);
          idle.set(mirrorPath, kept);
          return;
        } catch {}
      }
      await discard(mirrorPath, path);
    },

    /** Removes every kept worktree. */
    async close(lock: (mirrorPath: string, task: () => Promise<void>) => Promise<void>): Promise<void> {
      for (const [mirrorPath, paths] of idle) {
        await lock(mirrorPath, async () => {
          for (const path of paths.splice(0)) await discard(mirrorPath, path);
        });
      }
      await rm(ownDirectory, { recursive: true, force: true });
      started = null;
    },
  };
}

/** Whether a process with this id exists (EPERM: it does, under another user). */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error: unknown) {
    return errorCode(error) === 'EPERM';
  }
}
