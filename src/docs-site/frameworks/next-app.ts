/**
 * What docs frameworks built on Next.js (Fumadocs, Nextra) share: how a link on a page is served.
 * Absolute routes are the app's (`/docs/guide`), files of `public/` are served at the root
 * (`/images/x.png`), `next.config.*`'s `redirects()` serve their sources, a relative URL is resolved
 * by the browser against the page's URL, and a page imports components and images by file path.
 */

import { RE2JS } from 're2js';
import { type AnyNode, parseProgram } from '../javascript-config.ts';
import { folderOf, isExternalUrl, joinInside, normalizeRoute, splitUrl } from '../link-urls.ts';
import type { LinkTarget, RepositoryFiles } from '../site-model.ts';

const nextConfigs = [
  'next.config.ts',
  'next.config.mjs',
  'next.config.js',
  'next.config.mts',
  'next.config.cjs',
];

/** The Next.js configuration's file and the literal `source` routes of its `redirects()`. */
export async function readNextRedirects(
  files: RepositoryFiles,
  siteRoot: string,
): Promise<{ file: string | null; sources: string[] }> {
  for (const name of nextConfigs) {
    const file = joinInside(siteRoot, name);
    const text = file === null ? null : await files.read(file);
    if (file === null || text === null) continue;
    // `redirects()` is a function, never run: the literal `source` of every object in the module is
    // read from its syntax tree. A redirect with `has` or `missing` applies only to some requests
    // (a host, a cookie), and is not counted.
    const parsed = parseProgram(text, file);
    const sources = 'error' in parsed ? [] : literalRedirectSources(parsed.program);
    // A site may keep its redirects in a local module the configuration imports (`lib/redirects.ts`).
    for (const module of await importedModules(files, file, text)) {
      const imported = parseProgram(module.text, module.file);
      if (!('error' in imported)) sources.push(...literalRedirectSources(imported.program));
    }
    return { file, sources };
  }
  return { file: null, sources: [] };
}

const maximumImportedModules = 10;
const moduleExtensions = ['.ts', '.mts', '.js', '.mjs', '.cjs', '', '/index.ts', '/index.js'];

/** The local modules a configuration imports (`./lib/redirects`), read, at most ten. */
async function importedModules(
  files: RepositoryFiles,
  file: string,
  text: string,
): Promise<Array<{ file: string; text: string }>> {
  const modules: Array<{ file: string; text: string }> = [];
  for (const match of text.matchAll(/\bfrom\s*['"](\.{1,2}\/[^'"\n]{1,300})['"]/g)) {
    if (modules.length >= maximumImportedModules) break;
    const base = joinInside(folderOf(file), match[1] ?? '');
    const path =
      base === null
        ? undefined
        : moduleExtensions
            .map((extension) => `${base}${extension}`)
            .find((candidate) => files.has(candidate));
    const moduleText = path === undefined ? null : await files.read(path);
    if (path !== undefined && moduleText !== null) modules.push({ file: path, text: moduleText });
  }
  return modules;
}

/** How many syntax-tree nodes are visited for redirects: a configuration this large is not one. */
const maximumNodes = 500_000;

/** Every object literal's `source: '/...'` whose object has no `has` or `missing` condition. */
function literalRedirectSources(program: AnyNode): string[] {
  const sources: string[] = [];
  const stack: unknown[] = [program];
  for (let visited = 0; stack.length > 0 && visited < maximumNodes; visited += 1) {
    const node = stack.pop();
    if (Array.isArray(node)) {
      stack.push(...node);
      continue;
    }
    if (typeof node !== 'object' || node === null || typeof (node as AnyNode).type !== 'string') continue;
    const current = node as AnyNode;
    if (current.type === 'ObjectExpression') {
      const properties = new Map<string, AnyNode>();
      for (const property of current.properties as AnyNode[]) {
        const key = property.key as AnyNode | undefined;
        const name = key?.type === 'Identifier' ? key.name : key?.type === 'Literal' ? key.value : undefined;
        if (typeof name === 'string') properties.set(name, property.value as AnyNode);
      }
      const source = properties.get('source');
      if (
        source?.type === 'Literal' &&
        typeof source.value === 'string' &&
        source.value.startsWith('/') &&
        !properties.has('has') &&
        !properties.has('missing')
      )
        sources.push(source.value);
    }
    for (const [key, value] of Object.entries(current)) {
      if (key !== 'type' && typeof value === 'object' && value !== null) stack.push(value);
    }
  }
  return sources;
}

export interface NextLinkOptions {
  files: RepositoryFiles;
  siteRoot: string;
  /** Each page and its URL. */
  pages: ReadonlyMap<string, readonly string[]>;
  /** Other routes the app serves (Next.js pages written as code), with what serves them. */
  servedRoutes?: ReadonlyMap<string, string>;
  redirects: readonly string[];
  /** Languages whose URLs start with their code (`/cn/docs/x`), served by the page of `/docs/x` when untranslated. */
  languages?: readonly string[];
  /**
   * For a route no page serves: where the docs are that it falls in (a route outside every docs
   * prefix is the app's, unchecked), and whether it is a page the build generates (unchecked).
   */
  docsOf(route: string): { label: string; generated: string | null } | null;
  /** Whether a missing file is certainly missing (checkout-coverage.ts). */
  isExpected(file: string): boolean;
}

export function createNextLinkResolver(options: NextLinkOptions): (from: string, url: string) => LinkTarget {
  const { files, pages } = options;
  const byRoute = new Map<string, string>();
  for (const [page, routes] of pages) {
    for (const route of routes) if (!byRoute.has(route)) byRoute.set(route, page);
  }
  const publicFolder = joinInside(options.siteRoot, 'public') ?? 'public';

  const pageAt = (route: string): LinkTarget | null => {
    const normalized = normalizeRoute(route);
    const page = byRoute.get(normalized);
    if (page !== undefined) return { kind: 'file', file: page };
    // A language's URL falls back to the default language's page.
    const language = options.languages?.find((code) => isRouteWithin(`/${code}`, normalized));
    if (language !== undefined) return pageAt(`/${routeBelow(`/${language}`, normalized)}`);
    const served = options.servedRoutes?.get(normalized);
    if (served !== undefined) return { kind: 'served', reason: served };
    const redirect = options.redirects.find((source) => matchesRedirect(source, normalized));
    if (redirect !== undefined)
      return { kind: 'served', reason: `a redirect from ${redirect} in the Next.js configuration` };
    const docs = options.docsOf(normalized);
    if (docs === null) return null;
    if (docs.generated !== null)
      return { kind: 'unchecked', reason: `${docs.generated} is ignored by Git (generated at build time)` };
    return { kind: 'broken', reason: `no page of ${docs.label} is served at ${normalized}` };
  };

  return (from, url) => {
    if (isExternalUrl(url)) return { kind: 'external' };
    const { path } = splitUrl(url);
    if (path === '') return { kind: 'external' };
    if (path.startsWith('/')) {
      // Next.js applies redirects before it looks at pages or `public/`.
      const redirect = options.redirects.find((source) => matchesRedirect(source, normalizeRoute(path)));
      if (redirect !== undefined)
        return { kind: 'served', reason: `a redirect from ${redirect} in the Next.js configuration` };
      // A file of `public/`, served at its path.
      const name = path.slice(path.lastIndexOf('/') + 1);
      if (/\.[a-z0-9]+$/i.test(name) && !/\.mdx?$/i.test(name)) {
        const file = joinInside(publicFolder, path.slice(1));
        if (file !== null && files.has(file)) return { kind: 'file', file };
        if (file !== null && options.isExpected(file)) return { kind: 'broken', reason: `no file ${file}` };
        return { kind: 'unchecked', reason: 'a file this checkout may not hold' };
      }
      return pageAt(path) ?? { kind: 'unchecked', reason: 'a route of the app outside its docs' };
    }
    // An image beside the page, or a component it imports (`./tabs.client` for tabs.client.tsx).
    const file = joinInside(folderOf(from), path);
    const module = file === null ? undefined : moduleFiles(file).find((candidate) => files.has(candidate));
    if (module !== undefined) return { kind: 'file', file: module };
    if (/\.mdx?$/i.test(path)) return { kind: 'broken', reason: `no file ${file ?? path}` };
    // A URL relative to the page's own URL, as the browser reads it.
    const route = pages.get(from)?.[0];
    if (route !== undefined) {
      const base = route.endsWith('/') ? route : `${route.slice(0, route.lastIndexOf('/') + 1)}`;
      const target = joinInside(base.slice(1), path);
      const found = target === null ? null : pageAt(`/${target}`);
      if (found !== null) return found;
    }
    const name = path.slice(path.lastIndexOf('/') + 1);
    if (file !== null && /\.[a-z0-9]+$/i.test(name) && options.isExpected(file))
      return { kind: 'broken', reason: `no file ${file}` };
    return { kind: 'unchecked', reason: 'neither a docs page nor a file of this checkout' };
  };
}

/** A path as an import names it: the file itself, or with a module's extension (`tabs.client` → `tabs.client.tsx`). */
function moduleFiles(path: string): string[] {
  return [
    path,
    ...['.tsx', '.ts', '.jsx', '.js', '.mdx', '.md', '.json'].map((extension) => `${path}${extension}`),
  ];
}

/** Whether `route` is `base` or under it (`/` holds every route). */
export function isRouteWithin(base: string, route: string): boolean {
  return base === '/' || route === base || route.startsWith(`${base}/`);
}

/** `route` below `base`, without a leading slash (`/docs/a/b` below `/docs` is `a/b`). */
export function routeBelow(base: string, route: string): string {
  if (route === base) return '';
  return route.slice(base === '/' ? 1 : base.length + 1);
}

/**
 * Whether a Next.js redirect's or rewrite's `source` (`/docs`, `/docs/old/:path*`, `/:path*.mdx`)
 * takes `route` (https://nextjs.org/docs/app/api-reference/config/next-config-js/redirects#path-matching):
 * `:name` is a segment, `:name*` and `:name+` any rest, and a custom pattern (`:slug(\\d+)`) is
 * taken to match anything, so no redirect is missed. Compiled for RE2: a source cannot make this slow.
 */
function matchesRedirect(source: string, route: string): boolean {
  let pattern = matchers.get(source);
  if (pattern === undefined) {
    const expression = source
      .split(/(:\w+(?:\([^)]*\))?[*+?]?)/)
      .map((part) =>
        part.startsWith(':')
          ? /\(|[*+]$/.test(part)
            ? '.*'
            : part.endsWith('?')
              ? '[^/]*'
              : '[^/]+'
          : RE2JS.quote(part),
      )
      .join('');
    try {
      pattern = RE2JS.compile(`^${expression}/?$`);
    } catch {
      pattern = null;
    }
    matchers.set(source, pattern);
  }
  return pattern?.matches(route) ?? false;
}

const matchers = new Map<string, RE2JS | null>();
