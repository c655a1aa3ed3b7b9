import { createHash, randomUUID } from 'node:crypto';
import { mkdir, rename, stat } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { runAuthenticatedGit as git } from './authenticated-git.ts';
import type { GitCredentials } from './git-credentials.ts';

/** Where the bare mirror of `repository` lives under `mirrorsDirectory`. */
export function mirrorPathFor(mirrorsDirectory: string, repository: string): string {
  return join(mirrorsDirectory, `${createHash('sha256').update(repository).digest('hex').slice(0, 24)}.git`);
}

/**
 * Creates the bare mirror on first use (branches and tags only: no pull-request refs), then fetches.
 * A repository is a URL (`https://`, `ssh://`, `git@host:path`) or an absolute path on this machine.
 */
export async function fetchMirror(
  mirrorPath: string,
  repository: string,
  credentials: GitCredentials | null | undefined,
  signal: AbortSignal | undefined,
): Promise<void> {
  const isUrl = /^[a-z][a-z0-9+.-]*:\/\//i.test(repository) || /^[^/]+@[^/]+:/.test(repository);
  if (!isUrl && !isAbsolute(repository)) throw new Error('A local repository must be an absolute path');
  const exists = await stat(join(mirrorPath, 'HEAD')).then(
    () => true,
    () => false,
  );
  if (!exists) {
    await mkdir(join(mirrorPath, '..'), { recursive: true });
    // Built beside its final place and renamed, so a crash never leaves a half-made mirror.
    const temporary = `${mirrorPath}.${randomUUID()}.tmp`;
    await mkdir(temporary, { recursive: true });
    await git(['init', '--quiet', '--bare'], temporary);
    await git(['remote', 'add', 'origin', '--', repository], temporary);
    await git(['config', 'remote.origin.fetch', '+refs/heads/*:refs/heads/*'], temporary);
    await git(['config', '--add', 'remote.origin.fetch', '+refs/tags/*:refs/tags/*'], temporary);
    await git(['config', 'gc.auto', '0'], temporary);
    await rename(temporary, mirrorPath);
  }
  const scoped =
    credentials === null || credentials === undefined ? null : { ...credentials, url: repository };
  await git(['fetch', '--quiet', '--prune', '--no-auto-gc', 'origin'], mirrorPath, scoped, signal);
}

/** The commit a branch, tag or commit id names in the mirror, or null. */
export async function resolveCommit(mirrorPath: string, ref: string): Promise<string | null> {
  if (ref.startsWith('-')) return null;
  for (const candidate of [`refs/heads/${ref}`, `refs/tags/${ref}`, ref]) {
    try {
      return (await git(['rev-parse', '--verify', '--quiet', `${candidate}^{commit}`], mirrorPath)).trim();
    } catch {}
  }
  return null;
}
