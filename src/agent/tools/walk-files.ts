import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

const skippedDirectories = new Set(['.git', 'node_modules']);

/**
 * Yields the relative paths (forward slashes) of regular files under `directory`, sorted, without
 * following symbolic links (so a link cannot lead the walk outside the repository); with
 * `includeLinks`, links themselves are listed too (they exist, even if they are never followed).
 */
export async function* walkFiles(
  root: string,
  directory: string,
  prefix: string,
  options: { includeLinks?: boolean } = {},
): AsyncGenerator<string> {
  let entries: Dirent[];
  try {
    entries = await readdir(join(root, directory), { withFileTypes: true });
  } catch {
    return;
  }
  entries.sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0));
  for (const entry of entries) {
    const relativePath = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory()) {
      if (skippedDirectories.has(entry.name.toLowerCase())) continue;
      yield* walkFiles(root, join(directory, entry.name), relativePath, options);
    } else if (entry.isFile() || (options.includeLinks === true && entry.isSymbolicLink())) {
      yield relativePath;
    }
  }
}
