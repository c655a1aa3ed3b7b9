import { posix } from 'node:path';
import {
  folderOf,
  isExternalUrl,
  isWithin,
  joinInside,
  normalizeRoute,
  relativeTo,
  splitUrl,
} from '../link-urls.ts';
import { isPagePath, type LinkTarget, type RepositoryFiles } from '../site-model.ts';
import type { SiteSettings } from './docusaurus-config.ts';
import type { SiteContent } from './docusaurus-content.ts';

const moduleExtensions = [
  '',
  '.js',
  '.jsx',
  '.ts',
  '.tsx',
  '.mdx',
  '.md',
  '.json',
  '/index.js',
  '/index.jsx',
  '/index.ts',
  '/index.tsx',
];

/**
 * Where a link leads, as Docusaurus resolves it. A link to a Markdown file is a file path, tried
 * relative to the linking file and, unless it starts with `./` or `../`, to the content folder and
 * the site folder (https://docusaurus.io/docs/markdown-features/links); any other link is a URL the
 * broken-links check resolves against the page's route (`onBrokenLinks`), or an asset beside the file.
 */
export function createLinkResolver(
  files: RepositoryFiles,
  siteRoot: string,
  settings: SiteSettings,
  content: SiteContent,
): (from: string, url: string) => LinkTarget {
  const contentFolders = [
    ...content.versions.flatMap((version) => [version.contentPath, ...version.localizedPaths.values()]),
    ...settings.blogs.map((blog) => blog.path),
    ...settings.pages.map((pages) => pages.path),
  ];
  const knownBases = [
    ...content.versions.map((version) => version.routeBase),
    ...settings.blogs.filter((blog) => !blog.custom).map((blog) => blog.routeBase),
  ].filter((base) => base !== '/');
  const unknownRoutes = settings.unknownRoutes.length > 0;
  // Trimmed copies (and sparse checkouts) may hold no images at all: a missing asset then says nothing.
  const hasAssets = files.paths.some((path) => assetPattern.test(path));
  const versionSegments = new Set(
    content.versions.map((version) => version.routeBase.split('/').pop() ?? ''),
  );
  const locales = new Set(settings.locales.filter((locale) => locale !== settings.defaultLocale));

  const lookUpRoute = (route: string, kind: 'link' | 'image'): LinkTarget => {
    const key = normalizeRoute(route);
    const owner = content.routes.get(key);
    if (owner !== undefined)
      return 'file' in owner ? { kind: 'file', file: owner.file } : { kind: 'served', reason: owner.served };
    for (const folder of settings.staticDirectories) {
      const file = joinInside(folder, key.slice(1));
      if (file !== null && (files.has(file) || files.has(`${file}/index.html`)))
        return { kind: 'file', file };
    }
    if (settings.redirects.has(key)) return { kind: 'served', reason: 'a client-side redirect' };
    if (content.routesIgnoringCase.has(key.toLowerCase()))
      return { kind: 'unchecked', reason: 'the route differs only in case' };
    for (const blog of settings.blogs) {
      if (!isWithin(blog.routeBase.slice(1), key.slice(1))) continue;
      const rest = relativeTo(blog.routeBase.slice(1), key.slice(1));
      if (rest === '' || /^(tags|page|archive|authors)(\/|$)/.test(rest))
        return { kind: 'served', reason: 'a generated blog page' };
      if (blog.custom) return { kind: 'unchecked', reason: 'a blog plugin of the site’s own may serve it' };
    }
    if (/\/category\//.test(key)) return { kind: 'unchecked', reason: 'a generated category index' };
    if (assetPattern.test(key) && !hasAssets)
      return { kind: 'unchecked', reason: 'the repository holds no asset files to check against' };
    if (kind === 'image') return { kind: 'broken', reason: `no static file ${key}` };
    // A version listed elsewhere (archived, hosted apart) but not built from this repository.
    const version = content.versions.find((candidate) =>
      isWithin(candidate.plugin.routeBase.slice(1), key.slice(1)),
    );
    const segment =
      version === undefined
        ? ''
        : (relativeTo(version.plugin.routeBase.slice(1), key.slice(1)).split('/')[0] ?? '');
    if (/^v?\d+(\.(\d+|x))+$/.test(segment) && !versionSegments.has(segment))
      return { kind: 'unchecked', reason: `version ${segment} is not built from this repository` };
    const underKnownBase = knownBases.some((base) => isWithin(base.slice(1), key.slice(1)));
    if (!underKnownBase && unknownRoutes)
      return { kind: 'unchecked', reason: `a route from ${settings.unknownRoutes[0]} may serve it` };
    if (/\.[a-z0-9]+$/i.test(key) && !key.endsWith('.html'))
      return { kind: 'unchecked', reason: 'a file the build may copy' };
    return { kind: 'broken', reason: `no page is served at ${key}` };
  };

  /** A route link: without baseUrl, and without the locale prefix of a translated site. */
  const routeOf = (absolute: string): string => {
    let route = absolute;
    if (settings.baseUrl !== '/' && isWithin(settings.baseUrl.slice(1), route.slice(1)))
      route = route.slice(settings.baseUrl.length) || '/';
    const first = route.split('/')[1] ?? '';
    if (locales.has(first)) route = route.slice(first.length + 1) || '/';
    return normalizeRoute(route);
  };

  return (from, url) => {
    if (url.trim().startsWith('pathname://'))
      return { kind: 'unchecked', reason: 'a pathname:// link is not checked by Docusaurus' };
    if (isExternalUrl(url)) return { kind: 'external' };
    const { path } = splitUrl(url);
    if (path === '') return { kind: 'external' };
    const fromFolder = folderOf(from);
    if (path.startsWith('@site/')) {
      const file = joinInside(siteRoot, path.slice('@site/'.length));
      if (file === null) return { kind: 'unchecked', reason: 'the link leaves the repository' };
      return findModule(files, file) !== null
        ? { kind: 'file', file: findModule(files, file) ?? file }
        : { kind: 'broken', reason: `no file ${file}` };
    }
    if (path.startsWith('@')) return { kind: 'unchecked', reason: 'a module alias' };
    if (isPagePath(path)) return resolveFileLink(from, path);
    const relative = !path.startsWith('/');
    if (relative) {
      const file = joinInside(fromFolder, path);
      if (file === null) return { kind: 'unchecked', reason: 'the link leaves the repository' };
      const module = findModule(files, file);
      if (module !== null) return { kind: 'file', file: module };
      if (assetPattern.test(file) && !hasAssets)
        return { kind: 'unchecked', reason: 'the repository holds no asset files to check against' };
      if (isImageLike(file)) return { kind: 'broken', reason: `no file ${file}` };
    }
    const kind = isImageLike(path) ? 'image' : 'link';
    if (!relative) return lookUpRoute(routeOf(path), kind);
    const routes = content.pages.get(from);
    const pageRoute = routes?.[0];
    if (pageRoute === undefined)
      return { kind: 'unchecked', reason: 'a relative URL in a file that is not a page' };
    // The page may be served with or without a trailing slash: either reading that serves it will do.
    const withSlash = lookUpRoute(routeOf(posix.join(`${pageRoute}/`, path)), kind);
    if (withSlash.kind !== 'broken') return withSlash;
    const withoutSlash = lookUpRoute(routeOf(posix.join(posix.dirname(pageRoute), path)), kind);
    return withoutSlash.kind === 'broken' ? withSlash : withoutSlash;
  };

  function resolveFileLink(from: string, path: string): LinkTarget {
    const candidates: string[] = [];
    if (!path.startsWith('./') && !path.startsWith('../')) {
      const own = contentFolders.filter((folder) => isWithin(folder, from));
      for (const folder of [...own, siteRoot]) {
        const file = joinInside(folder, path.replace(/^\/+/, ''));
        if (file !== null) candidates.push(file);
      }
    }
    if (!path.startsWith('/')) {
      const file = joinInside(folderOf(from), path);
      if (file !== null) candidates.push(file);
    }
    for (const file of candidates) if (content.pages.has(file)) return { kind: 'file', file };
    for (const file of candidates) {
      if (files.has(file))
        return { kind: 'unchecked', reason: `${file} is not a page; a static copy may serve it` };
    }
    // A translated page linking to a page not translated yet: Docusaurus falls back to the original.
    const localized = contentFolders.find((folder) =>
      folder.includes('/i18n/') || folder.startsWith('i18n/') ? isWithin(folder, from) : false,
    );
    if (localized !== undefined) return { kind: 'unchecked', reason: 'a link in a translation' };
    if (path.startsWith('/')) return { kind: 'unchecked', reason: 'an absolute file path' };
    return { kind: 'broken', reason: `no page ${candidates.at(-1) ?? path}` };
  }
}

function findModule(files: RepositoryFiles, file: string): string | null {
  for (const extension of moduleExtensions) if (files.has(file + extension)) return file + extension;
  return null;
}

const assetPattern = /\.(png|jpe?g|gif|svg|webp|avif|ico|pdf|zip|mp4|webm|mov|mp3|woff2?|ttf)$/i;

function isImageLike(path: string): boolean {
  return /\.(png|jpe?g|gif|svg|webp|avif|ico)$/i.test(path);
}
