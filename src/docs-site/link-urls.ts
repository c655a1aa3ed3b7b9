import { posix } from 'node:path';

/** A link's URL taken apart: the path (percent-decoded), and whether it has a query or fragment. */
export interface LinkUrl {
  path: string;
  fragment: string | null;
}

/**
 * True for links a site check leaves alone: another scheme (`https:`, `mailto:`, `data:`), a
 * protocol-relative host (`//host`), an anchor on the same page, a template placeholder, or nothing.
 */
export function isExternalUrl(url: string): boolean {
  const trimmed = url.trim();
  return (
    trimmed === '' ||
    /^[a-z][a-z0-9+.-]*:/i.test(trimmed) ||
    trimmed.startsWith('//') ||
    trimmed.startsWith('#') ||
    /[{}<>]|\$\{/.test(trimmed)
  );
}

export function splitUrl(url: string): LinkUrl {
  const trimmed = url.trim();
  const hash = trimmed.indexOf('#');
  const withoutFragment = hash < 0 ? trimmed : trimmed.slice(0, hash);
  const query = withoutFragment.indexOf('?');
  const path = query < 0 ? withoutFragment : withoutFragment.slice(0, query);
  return { path: decodePath(path), fragment: hash < 0 ? null : trimmed.slice(hash + 1) };
}

/** A URL path percent-decoded, or as it is when it is not valid percent-encoding. */
export function decodePath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/**
 * A path relative to `folder` (both relative to the repository root) as a repository path, or null
 * when it climbs out of the repository.
 */
export function joinInside(folder: string, relative: string): string | null {
  const joined = posix.normalize(posix.join(folder === '' ? '.' : folder, relative));
  if (joined === '..' || joined.startsWith('../') || posix.isAbsolute(joined)) return null;
  const trimmed = joined.replace(/(?<!\/)\/+$/, '');
  return trimmed === '.' ? '' : trimmed;
}

/**
 * A relative URL path as the browser resolves it against a page's URL path (`install/` from
 * `/guide/start/` is `/guide/start/install/`; `../x` from `/a.html` is `/x`), never above the root.
 */
export function resolveFromPageUrl(pageUrl: string, relative: string): string {
  let resolved = posix.normalize(
    posix.join(pageUrl.endsWith('/') ? pageUrl : posix.dirname(pageUrl), relative),
  );
  if (relative.endsWith('/') && !resolved.endsWith('/')) resolved += '/';
  return resolved.replace(/^(\/\.\.)+/, '') || '/';
}

/** A route in one form: a leading slash, no trailing slash (but `/` itself), no `index.html`. */
export function normalizeRoute(route: string): string {
  let result = `/${route}`.replace(/\/{2,}/g, '/');
  result = result.replace(/\/index(\.html?)?$/i, '/');
  if (result.length > 1) result = result.replace(/(?<!\/)\/+$/, '');
  return result;
}

/** The folder of a repository path ('' at the root). */
export function folderOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

/** Whether `path` is `folder` itself or inside it ('' contains everything). */
export function isWithin(folder: string, path: string): boolean {
  return folder === '' || path === folder || path.startsWith(`${folder}/`);
}

/** `path` relative to `folder`, assuming it is within it. */
export function relativeTo(folder: string, path: string): string {
  return folder === '' ? path : path === folder ? '' : path.slice(folder.length + 1);
}

/** Every folder that holds a file, for "is this link a folder?" in constant time. */
export function listFolders(paths: readonly string[]): Set<string> {
  const folders = new Set<string>(['']);
  for (const path of paths) {
    for (let slash = path.lastIndexOf('/'); slash > 0; slash = path.lastIndexOf('/', slash - 1)) {
      const folder = path.slice(0, slash);
      if (folders.has(folder)) break;
      folders.add(folder);
    }
  }
  return folders;
}

/**
 * A repository path as it is, or else the first of `paths` that differs from it only in case, for
 * builds and servers that compare paths without case (DocFX on Windows and Learn, React Router).
 */
export function createCaseInsensitiveLookup(paths: readonly string[]): (path: string) => string | undefined {
  const byLowerCase = new Map<string, string>();
  for (const path of paths) {
    const lower = path.toLowerCase();
    if (!byLowerCase.has(lower)) byLowerCase.set(lower, path);
  }
  const exact = new Set(paths);
  return (path) => (exact.has(path) ? path : byLowerCase.get(path.toLowerCase()));
}

/** A path, URL or name written into a regular expression as it is (every special character escaped). */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
