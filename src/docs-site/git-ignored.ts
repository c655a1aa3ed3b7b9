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
  // Line by line, trimmed: a pattern over the whole text rescanned a run of spaces per character.
  const folders: string[] = [];
  for (const line of text.split('\n')) {
    const path = /^path\s*=(.*)$/.exec(line.trim())?.[1]?.trim();
    if (path === undefined) continue;
    const folder = path.replace(/^"(.*)"$/, '$1').replace(/^\.?\/+|(?<!\/)\/+$/g, '');
    if (folder !== '' && !folder.split('/').includes('..')) folders.push(folder);
    if (folders.length >= maximumIgnoreFiles) break;
  }
  return folders;
}

/** Whether `path` is in one of `folders` (a submodule's), by its ancestors: one lookup per folder level. */
export function createSubmoduleTest(folders: readonly string[]): (path: string) => boolean {
  const set = new Set(folders);
  if (set.size === 0) return () => false;
  return (path) => {
    for (let slash = path.indexOf('/'); slash >= 0; slash = path.indexOf('/', slash + 1))
      if (set.has(path.slice(0, slash))) return true;
    return set.has(path);
  };
}

/**
 * Where a page a build step writes (typedoc's API pages) would be, when the `.gitignore` names that
 * place itself: `candidate` (a page path without extension) or a folder above it. A name ignored
 * anywhere (`coverage/`, `dist-*`) is no sign of it. Null when nothing names it.
 */
export function generatedPlace(ignored: (path: string) => boolean, candidate: string): string | null {
  const segments = candidate.split('/');
  // No build writes pages 64 folders deep; a hostile link of thousands of segments is not searched.
  if (segments.length > 64) return null;
  for (let end = segments.length; end > 0; end -= 1) {
    const place = segments.slice(0, end).join('/');
    const name = segments[end - 1] ?? '';
    const ignoredHere =
      end === segments.length
        ? ignored(`${place}.md`) || ignored(`${place}.mdx`) || ignored(`${place}/`)
        : ignored(`${place}/`);
    if (ignoredHere && !ignored(`quire-elsewhere/${name}/`) && !ignored(`quire-elsewhere/${name}.md`))
      return place;
  }
  return null;
}
