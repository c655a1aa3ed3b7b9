import { lstat, realpath } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { ToolError } from './tool-error.ts';

export interface ResolvedPath {
  /** The absolute path on disk, inside the worktree. */
  absolute: string;
  /** The normalised path relative to the repository root, with forward slashes ('' for the root). */
  relative: string;
}

/**
 * The one place where a path from the model becomes a path on disk. Refuses absolute paths,
 * `..`, anything inside `.git`, and any path whose existing part resolves (through symbolic links)
 * outside the worktree or into `.git`. Every tool goes through here.
 *
 *   await resolveRepositoryPath('/data/worktrees/1', 'docs/index.md') // { absolute, relative: 'docs/index.md' }
 */
export async function resolveRepositoryPath(
  root: string,
  input: unknown,
  options: { allowRoot?: boolean } = {},
): Promise<ResolvedPath> {
  if (typeof input !== 'string')
    throw new ToolError('The path must be a string relative to the repository root.');
  const text = input.trim();
  if (text.includes('\0')) throw new ToolError('The path contains a NUL character.');
  if (text.length > 1024) throw new ToolError('The path is longer than 1024 characters.');
  if (text.includes('\\')) throw new ToolError(`"${text}" contains a backslash; use forward slashes.`);
  if (text.startsWith('/') || text.startsWith('~') || /^[a-zA-Z]:/.test(text)) {
    throw new ToolError(
      `"${text}" is an absolute path; use a path relative to the repository root, such as docs/index.md.`,
    );
  }
  const segments = text.split('/').filter((segment) => segment !== '' && segment !== '.');
  if (segments.includes('..')) {
    throw new ToolError(
      `"${text}" contains "..": paths must stay inside the repository; write them from its root.`,
    );
  }
  if (segments.some((segment) => segment.toLowerCase() === '.git')) {
    throw new ToolError(`"${text}" is inside .git, which the agent may not read or change.`);
  }
  if (segments.length === 0 && options.allowRoot !== true) {
    throw new ToolError('A file path is required, such as docs/index.md.');
  }

  const realRoot = await realpath(root);
  const absolute = join(realRoot, ...segments);
  // The deepest part of the path that exists decides where the path really goes.
  for (let length = segments.length; length >= 0; length -= 1) {
    const candidate = join(realRoot, ...segments.slice(0, length));
    const status = await lstat(candidate).catch(() => null);
    if (status === null) continue;
    const real = await realpath(candidate).catch(() => null);
    if (real === null)
      throw new ToolError(`"${text}" goes through a symbolic link whose target does not exist.`);
    if (!isInside(realRoot, real))
      throw new ToolError(`"${text}" resolves outside the repository (symbolic link).`);
    const realSegments = relative(realRoot, real).split(sep);
    if (realSegments.some((segment) => segment.toLowerCase() === '.git')) {
      throw new ToolError(
        `"${text}" resolves into .git (symbolic link), which the agent may not read or change.`,
      );
    }
    break;
  }
  return { absolute, relative: segments.join('/') };
}

function isInside(root: string, path: string): boolean {
  const fromRoot = relative(root, path);
  return (
    fromRoot === '' || (!fromRoot.startsWith(`..${sep}`) && fromRoot !== '..' && !fromRoot.startsWith(sep))
  );
}
