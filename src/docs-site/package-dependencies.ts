import { isPlainRecord } from './javascript-config.ts';
import { folderOf } from './link-urls.ts';
import type { RepositoryFiles } from './site-model.ts';

/** Each `package.json` from the site's folder up to the repository root, parsed (unreadable ones skipped). */
export async function* packageManifests(
  files: Pick<RepositoryFiles, 'read' | 'has'>,
  siteRoot: string,
): AsyncGenerator<Record<string, unknown>> {
  for (
    let folder: string | null = siteRoot;
    folder !== null;
    folder = folder === '' ? null : folderOf(folder)
  ) {
    const file = folder === '' ? 'package.json' : `${folder}/package.json`;
    if (!files.has(file)) continue;
    let manifest: unknown;
    try {
      manifest = JSON.parse((await files.read(file)) ?? '');
    } catch {
      continue;
    }
    if (isPlainRecord(manifest)) yield manifest;
  }
}

/**
 * The nearest `package.json`'s dependencies (the site's folder, then each folder above it up to the
 * repository root) that name one of `names`, in the order of `names`: which version of a build tool
 * builds the site. Empty when none names them.
 */
export async function nearestDependencies(
  files: Pick<RepositoryFiles, 'read' | 'has'>,
  siteRoot: string,
  names: readonly string[],
): Promise<Array<{ name: string; range: string }>> {
  for await (const manifest of packageManifests(files, siteRoot)) {
    const found: Array<{ name: string; range: string }> = [];
    for (const name of names) {
      for (const field of ['dependencies', 'devDependencies', 'peerDependencies']) {
        const dependencies = manifest[field];
        const range = isPlainRecord(dependencies) ? dependencies[name] : undefined;
        if (typeof range === 'string') {
          found.push({ name, range });
          break;
        }
      }
    }
    if (found.length > 0) return found;
  }
  return [];
}

/** The major version a dependency range names (`^1.9.10`, `2.0.0-rc.24`), or null (`workspace:*`, `catalog:`). */
export function majorOf(range: string): number | null {
  const major = /(\d+)\./.exec(range)?.[1];
  return major === undefined ? null : Number(major);
}
