import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

const skippedDirectories = new Set(['.git', 'node_modules']);

/**
 * Yields the relative paths (forward slashes) of regular files under `directory`, sorted, without
 * following symbolic links (so a link cannot lead the walk outside the repository).
 */
export async function* walkFiles(root: string, directory: string, prefix: string): AsyncGenerator<string> {
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
      yield* walkFiles(root, join(directory, entry.name), relativePath);
    } else if (entry.isFile()) {
      yield relativePath;
    }
  }
}
