import { posix } from 'node:path';
import { folderOf, joinInside, normalizeRoute } from '../link-urls.ts';
import type { LinkTarget, RepositoryFiles } from '../site-model.ts';

/**
 * The routes of a site built from files (Starlight and VitePress both serve pages, generated
 * routes and `public/` files): lookups by route in constant time, so checking every link of a
 * 2,500-page site stays fast.
 */
export class RouteTable {
  readonly #pages = new Map<string, string>();
  readonly #served = new Map<string, string>();
  /** Route prefixes of dynamic routes (`/open-graph/` for `src/pages/open-graph/[...path].ts`). */
  readonly #dynamicPrefixes: string[] = [];

  addPage(route: string, file: string): void {
    const key = routeKey(route);
    if (!this.#pages.has(key)) this.#pages.set(key, file);
  }

  addServed(route: string, reason: string): void {
    const key = routeKey(route);
    if (!this.#pages.has(key) && !this.#served.has(key)) this.#served.set(key, reason);
  }

  addDynamicPrefix(prefix: string): void {
    this.#dynamicPrefixes.push(routeKey(prefix) === '/' ? '/' : `${routeKey(prefix)}/`);
  }

  hasPage(route: string): boolean {
    return this.#pages.has(routeKey(route));
  }

  /** What serves `route`: a page, a generated route, a dynamic route, or nothing (null). */
  lookup(route: string): LinkTarget | null {
    const key = routeKey(route);
    const page = this.#pages.get(key);
    if (page !== undefined) return { kind: 'file', file: page };
    const served = this.#served.get(key);
    if (served !== undefined) return { kind: 'served', reason: served };
    for (const prefix of this.#dynamicPrefixes) {
      if (`${key}/`.startsWith(prefix))
        return { kind: 'unchecked', reason: `a dynamic route under ${prefix}` };
    }
    return null;
  }
}

/** Routes compared without case and trailing slash: hosts differ on both, so neither is reported. */
function routeKey(route: string): string {
  return normalizeRoute(route).toLowerCase();
}

/** Files in `public/` are served at the site's root, under their own names. */
export function addPublicFiles(files: RepositoryFiles, publicFolder: string, routes: RouteTable): void {
  const prefix = `${publicFolder}/`;
  for (const path of files.paths) {
    if (path.startsWith(prefix)) routes.addServed(`/${path.slice(prefix.length)}`, `public file ${path}`);
  }
}

const moduleExtensions = [
  '.ts',
  '.js',
  '.mjs',
  '.tsx',
  '.jsx',
  '.astro',
  '.vue',
  '.svelte',
  '.json',
  '/index.ts',
  '/index.tsx',
  '/index.js',
  '/index.jsx',
];

/**
 * A link that names a file next to the page rather than a route: an image or other asset, an MDX
 * import of a component. These resolve against the page's file, as the bundler resolves them.
 */
export function resolveFileReference(
  files: RepositoryFiles,
  from: string,
  path: string,
): { kind: 'file'; file: string } | null {
  if (path.startsWith('/')) return null;
  const joined = joinInside(folderOf(from), path);
  if (joined === null) return null;
  if (files.has(joined)) return { kind: 'file', file: joined };
  if (posix.extname(joined) === '') {
    for (const extension of moduleExtensions) {
      if (files.has(`${joined}${extension}`)) return { kind: 'file', file: `${joined}${extension}` };
    }
  }
  return null;
}

/** File extensions of pages and routes; anything else with an extension is an asset. */
export function isAssetPath(path: string): boolean {
  const extension = posix.extname(path.replace(/(?<!\/)\/+$/, '')).toLowerCase();
  return extension !== '' && !/^\.(md|mdx|mdoc|html?)$/.test(extension) && !/^\.\d+$/.test(extension);
}
