import ignore, { type Ignore } from 'ignore';
import { folderOf, isWithin, relativeTo } from './link-urls.ts';
import type { RepositoryFiles } from './site-model.ts';

/** How many `.gitignore` files are read: a repository with more is unusual, and each costs a read. */
const maximumIgnoreFiles = 200;

/**
 * Whether the repository's `.gitignore` files keep a path out of Git: files a build generates
 * (API reference pages written by a plugin before the site builds) are missing from every checkout
 * without being missing from the site. Patterns are matched by the `ignore` package (gitignore
 * syntax), each file's relative to its own folder; a folder is asked for with a trailing slash.
 */
export async function readGitIgnored(files: RepositoryFiles): Promise<(path: string) => boolean> {
  const rules: Array<{ folder: string; rules: Ignore }> = [];
  for (const path of files.paths) {
    if (rules.length >= maximumIgnoreFiles) break;
    if (path !== '.gitignore' && !path.endsWith('/.gitignore')) continue;
    const text = await files.read(path);
    if (text !== null) rules.push({ folder: folderOf(path), rules: ignore().add(text) });
  }
  return (path) =>
    rules.some(({ folder, rules: ignored }) => {
      if (!isWithin(folder, path) || path === folder) return false;
      try {
        return ignored.ignores(relativeTo(folder, path));
      } catch {
        return false;
      }
    });
}

/**
 * The folders of the repository's Git submodules (`path = ...` in `.gitmodules`,
 * https://git-scm.com/docs/gitmodules): a checkout without `--recurse-submodules` holds them empty,
 * while the site's build checks them out.
 */
export async function readSubmoduleFolders(files: RepositoryFiles): Promise<string[]> {
  const text = files.has('.gitmodules') ? await files.read('.gitmodules') : null;
  if (text === null) return [];
  return [...text.matchAll(/^[ \t]*path[ \t]*=[ \t]*(.+?)[ \t]*$/gm)]
    .map((match) => (match[1] ?? '').replace(/^"(.*)"$/, '$1').replace(/^\.?\/+|\/+$/g, ''))
    .filter((folder) => folder !== '' && !folder.split('/').includes('..'))
    .slice(0, maximumIgnoreFiles);
}
