import { posix } from 'node:path';
import { readHeadingAnchors } from '../heading-anchors.ts';
import { ModuleLines } from '../javascript-modules.ts';
import { isExternalUrl, isWithin, relativeTo, splitUrl } from '../link-urls.ts';
import { blankDelimited } from '../page-facts.ts';
import type { LinkTarget, SiteModel, SiteModelBuilder } from '../site-model.ts';
import { readStarlightConfig } from './starlight-config.ts';
import { addPublicFiles, isAssetPath, RouteTable, resolveFileReference } from './starlight-routes.ts';
import { readStarlightSidebar } from './starlight-sidebar.ts';

/**
 * Starlight (Astro) sites, read as Starlight builds them (https://starlight.astro.build/guides/pages/,
 * /guides/sidebar/, /guides/i18n/): every `src/content/docs/**\/*.{md,mdx,mdoc}` (not starting with
 * `_`) is a page at the route of its slugified path or its `slug` front matter; `src/pages/` holds
 * custom routes; `public/` files are served at the root. A page missing in a locale falls back to
 * the default locale's page at the locale's route. Links are URLs, relative to the page's URL.
 */
export const buildStarlightSite: SiteModelBuilder = async (source, siteRoot) => {
  const { files } = source;
  const inRoot = (path: string) => (siteRoot === '' ? path : `${siteRoot}/${path}`);
  const config = await readStarlightConfig(files, siteRoot);
  const contentFolder = inRoot('src/content/docs');
  const routes = new RouteTable();
  const pages = new Map<string, string[]>();
  const partials = new Set<string>();
  /** Default-locale pages by their slug without the locale folder, for the sidebar and fallbacks. */
  const defaultPages = new Map<string, string>();
  const localePrefix = config.defaultLocaleFolder === '' ? '' : `${config.defaultLocaleFolder}/`;
  let exampleLink: string | null = null;

  for (const path of files.paths) {
    if (!isWithin(contentFolder, path) || !/\.(md|mdx|mdoc)$/i.test(path)) continue;
    const relative = relativeTo(contentFolder, path);
    if (relative.split('/').some((segment) => segment.startsWith('_'))) {
      partials.add(path);
      continue;
    }
    const facts = await source.pageFacts(path);
    const written = facts?.frontMatter?.slug;
    const slug =
      typeof written === 'string' ? written.replace(/^\/+|(?<!\/)\/+$/g, '') : slugFromPath(relative);
    const route = `${config.base}/${slug}${slug === '' || config.trailingSlash === 'never' ? '' : '/'}`;
    pages.set(path, [route === '' ? '/' : route]);
    routes.addPage(`/${slug}`, path);
    if (slug.startsWith(localePrefix) || localePrefix === '') {
      const withoutLocale = slug.slice(localePrefix.length);
      const firstSegment = withoutLocale.split('/')[0] ?? '';
      if (localePrefix !== '' || !config.localeFolders.includes(firstSegment)) {
        defaultPages.set(withoutLocale, path);
        exampleLink ??= facts?.links.find((link) => isInternalRoute(link.url))?.url ?? null;
      }
    }
  }
  // Missing translations fall back to the default locale's page (https://starlight.astro.build/guides/i18n/#fallback-content).
  for (const locale of config.localeFolders) {
    if (locale === config.defaultLocaleFolder) continue;
    for (const [slug, file] of defaultPages) routes.addServed(`/${locale}/${slug}`, `fallback to ${file}`);
  }
  addCustomPages(files.paths, inRoot('src/pages'), routes, pages);
  addPublicFiles(files, inRoot('public'), routes);
  for (const redirect of config.redirects) routes.addServed(redirect, 'an Astro redirect');

  const resolveRoute = (route: string): LinkTarget | null => {
    const withoutBase =
      config.base !== '' && (route === config.base || route.startsWith(`${config.base}/`))
        ? route.slice(config.base.length) || '/'
        : route;
    return routes.lookup(withoutBase) ?? (withoutBase === route ? null : routes.lookup(route));
  };

  const resolveLink = (from: string, url: string): LinkTarget => {
    if (isExternalUrl(url)) return { kind: 'external' };
    const { path } = splitUrl(url);
    if (path === '') return { kind: 'external' };
    const fileReference = resolveFileReference(files, from, path);
    if (fileReference !== null && (isAssetPath(path) || !pages.has(fileReference.file))) return fileReference;
    if (path.startsWith('/')) {
      const found = resolveRoute(path);
      if (found !== null) return found;
      if (isAssetPath(path))
        return {
          kind: 'unchecked',
          reason: `no file for ${path}; it may be generated or kept outside the repository's text`,
        };
      if (!config.localesKnown) return { kind: 'unchecked', reason: 'the locales are computed by code' };
      return { kind: 'broken', reason: `no page is served at ${path}` };
    }
    // Relative links resolve against the page's URL (ending in `/` unless `trailingSlash: 'never'`).
    const pageRoute = pages.get(from)?.[0];
    if (pageRoute === undefined)
      return {
        kind: 'unchecked',
        reason: 'a relative link in a partial resolves against the page that includes it',
      };
    if (isAssetPath(path)) return { kind: 'unchecked', reason: `no file for ${path}` };
    const candidates = [
      posix.join(`${pageRoute.replace(/(?<!\/)\/+$/, '')}/`, path),
      posix.join(posix.dirname(pageRoute.replace(/(?<!\/)\/+$/, '')), path),
    ];
    for (const candidate of candidates) {
      const found = resolveRoute(candidate);
      if (found !== null) return found;
    }
    return {
      kind: 'broken',
      reason: `no page is served at ${candidates[0]} (relative links resolve against the page's URL)`,
    };
  };

  const modules = config.modules;
  const lines = new ModuleLines(modules ?? { files: [config.file], texts: new Map() });
  const sidebar = readStarlightSidebar(config.sidebar, {
    lines,
    pageForSlug: (slug) =>
      defaultPages.get(slug.replace(/^\/+|(?<!\/)\/+$/g, '').replace(/(^|\/)index$/, '')) ?? null,
    resolveLink: (url) => resolveLink(contentFolder, url),
  });

  const needsNavigationEntry = (file: string): boolean => {
    if (!sidebar.explicit || !isWithin(contentFolder, file)) return false;
    const relative = relativeTo(contentFolder, file);
    if (localePrefix !== '' && !relative.startsWith(localePrefix)) return false;
    const slug = slugFromPath(relative.slice(localePrefix.length));
    if (localePrefix === '' && config.localeFolders.includes(slug.split('/')[0] ?? '')) return false;
    // A folder whose pages the sidebar generates by itself lists a new page without help.
    return !sidebar.autogenerated.some((directory) => directory === '' || isWithin(directory, slug));
  };

  const configFiles = modules?.files ?? [config.file];
  // starlight-links-validator (https://starlight-links-validator.vercel.app/configuration/) fails the
  // build on a link to a heading its page lacks, unless `errorOnInvalidHashes: false`. Astro's heading
  // ids are github-slugger slugs of their text (rehypeHeadingIds), as Docusaurus's.
  // Comments left out: a plugin commented out checks nothing.
  const configText = blankDelimited((await files.read(config.file)) ?? '', '/*', '*/').replace(
    /(^|[^:])\/\/[^\n]*/g,
    '$1',
  );
  const checksHashes =
    /starlightLinksValidator\s*\(/.test(configText) && !/errorOnInvalidHashes\s*:\s*false/.test(configText);
  const navigationFile =
    sidebar.entries.find((entry) => entry.reference !== '(computed)')?.file ?? config.file;
  const model: SiteModel = {
    framework: 'starlight',
    siteRoot,
    configFiles,
    pages,
    partials,
    navigation: sidebar.entries,
    needsNavigationEntry,
    resolveLink,
    ...(checksHashes
      ? {
          pageAnchors: (file: string, text: string) =>
            pages.has(file) && /\.mdx?$/i.test(file)
              ? readHeadingAnchors(text, {
                  mdx: /\.mdx$/i.test(file),
                  customIds: false,
                  maintainCase: false,
                  // The validator accepts the top of any page (`#_top`).
                  always: ['_top'],
                })
              : null,
        }
      : {}),
    configurationProblems: config.problems,
    unsupported: [...config.unsupported, ...sidebar.unsupported],
    conventions: [
      `Links are site URLs, not file paths: write \`${exampleLink ?? `${config.base}/guides/example/`}\` (the page's slug with a trailing slash); relative links resolve against the page's URL.`,
      `New pages go in ${contentFolder}/${localePrefix}<section>/ as .md or .mdx; ${sidebar.explicit ? `add them to the sidebar in ${navigationFile} unless their folder is autogenerated` : 'the sidebar lists them by itself'}.`,
      ...(config.localeFolders.length > 0
        ? [
            `Translations mirror the default pages under ${contentFolder}/<locale>/ (${config.localeFolders.slice(0, 5).join(', ')}); a missing translation falls back to the default page.`,
          ]
        : []),
    ],
  };
  return model;
};

/** An internal URL as pages write it: a route, not a file next to the page. */
function isInternalRoute(url: string): boolean {
  return (
    !isExternalUrl(url) && (url.startsWith('/') || url.startsWith('.')) && !isAssetPath(splitUrl(url).path)
  );
}

/**
 * The slug Astro gives a content file: each path segment slugified as `github-slugger` does
 * (lowercase; punctuation other than `-` and `_` dropped; spaces to `-`), the extension dropped and
 * a final `index` serving its folder.
 */
function slugFromPath(relative: string): string {
  const withoutExtension = relative.replace(/\.(md|mdx|mdoc)$/i, '');
  const segments = withoutExtension.split('/').map((segment) =>
    segment
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '')
      .replace(/ /g, '-'),
  );
  if (segments.at(-1) === 'index') segments.pop();
  return segments.join('/');
}

/**
 * Astro's own pages (https://docs.astro.build/en/guides/routing/): files in `src/pages/` are routes
 * by their path; `[param]` segments make a dynamic route; names starting with `_` are not routes.
 */
function addCustomPages(
  paths: readonly string[],
  folder: string,
  routes: RouteTable,
  pages: Map<string, string[]>,
): void {
  for (const path of paths) {
    if (!isWithin(folder, path)) continue;
    const relative = relativeTo(folder, path);
    if (relative.split('/').some((segment) => segment.startsWith('_'))) continue;
    const match = /^(.*?)(\.(md|mdx|astro|html|ts|js|mjs))$/i.exec(relative);
    if (match === null) continue;
    const route = `/${(match[1] ?? '').replace(/(^|\/)index$/, '')}`;
    const dynamic = route.indexOf('[');
    if (dynamic >= 0) {
      routes.addDynamicPrefix(route.slice(0, route.lastIndexOf('/', dynamic) + 1) || '/');
      continue;
    }
    // An endpoint (`feed.xml.ts`) serves its name without the script extension.
    if (/\.(ts|js|mjs)$/i.test(path)) routes.addServed(route, `endpoint ${path}`);
    else {
      routes.addPage(route, path);
      if (/\.mdx?$/i.test(path)) pages.set(path, [route]);
    }
  }
}
