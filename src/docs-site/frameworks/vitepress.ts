import { posix } from 'node:path';
import { isPlainRecord } from '../javascript-config.ts';
import { ModuleLines } from '../javascript-modules.ts';
import { folderOf, isExternalUrl, isWithin, relativeTo, splitUrl } from '../link-urls.ts';
import type { LinkTarget, SiteModel, SiteModelBuilder, SiteProblem } from '../site-model.ts';
import { addPublicFiles, isAssetPath, RouteTable, resolveFileReference } from './starlight-routes.ts';
import { compileRewrites, type ReadModule, readConfigModule } from './vitepress-config.ts';
import { readVitePressNavigation, type VitePressNavigation } from './vitepress-navigation.ts';

const configNames = [
  'config.ts',
  'config.mts',
  'config.js',
  'config.mjs',
  'config/index.ts',
  'config/index.mts',
  'config/index.js',
  'config/index.mjs',
];

/**
 * VitePress sites, read as VitePress builds them (https://vitepress.dev/guide/routing,
 * /guide/i18n, /reference/site-config): every `.md` file under `srcDir` is a page at its path
 * (after `rewrites`), `index.md` serving its folder; `public/` files are served at the root; links
 * are routes or file paths relative to the page's file, with or without `.md` or `.html`.
 */
export const buildVitePressSite: SiteModelBuilder = async (source, siteRoot) => {
  const { files } = source;
  const inRoot = (path: string) => (siteRoot === '' ? path : `${siteRoot}/${path}`);
  const configFile =
    configNames.map((name) => inRoot(`.vitepress/${name}`)).find((path) => files.has(path)) ??
    inRoot('.vitepress/config.ts');
  const main = await readConfigModule(files, configFile);
  const config = main.value ?? {};
  const unsupported: string[] = [];
  if (main.value === null)
    unsupported.push(`${configFile}: the configuration is computed by code; navigation is unchecked`);
  const srcDir = posix
    .normalize(inRoot(typeof config.srcDir === 'string' ? config.srcDir : '.'))
    .replace(/^\.$/, '')
    .replace(/\/$/, '');
  const base = typeof config.base === 'string' ? config.base.replace(/(?<!\/)\/+$/, '') : '';
  const rewrites = compileRewrites(config.rewrites);
  if (rewrites === null)
    unsupported.push(
      `${configFile}: \`rewrites\` are computed or use patterns not read here; links are unchecked`,
    );
  const excluded = excludePatterns(config.srcExclude);
  const ignoreDeadLinks = config.ignoreDeadLinks;
  const locales = isPlainRecord(config.locales) ? config.locales : {};
  const localeFolders = Object.entries(locales)
    .filter(
      ([key, value]) =>
        key !== 'root' &&
        !(isPlainRecord(value) && typeof value.link === 'string' && isExternalUrl(value.link)),
    )
    .map(([key]) => key);

  const routes = new RouteTable();
  const pages = new Map<string, string[]>();
  const partials = new Set<string>();
  /** Each page's folder as served (after rewrites), for relative links. */
  const servedFolders = new Map<string, string>();
  for (const path of files.paths) {
    if (!isWithin(srcDir, path) || !path.toLowerCase().endsWith('.md')) continue;
    const relative = relativeTo(srcDir, path);
    if (/(^|\/)(node_modules|\.vitepress|public)\//.test(relative)) continue;
    if (excluded.some((pattern) => pattern.test(relative))) {
      partials.add(path);
      continue;
    }
    let served = relative;
    for (const rewrite of rewrites ?? []) {
      const rewritten = rewrite(relative);
      if (rewritten !== null) {
        served = rewritten;
        break;
      }
    }
    const route = `/${served.replace(/\.md$/i, '').replace(/(^|\/)index$/, '$1')}`;
    if (route.includes('[')) {
      // A dynamic route's pages come from its `.paths` loader, which only running it could tell.
      routes.addDynamicPrefix(route.slice(0, route.lastIndexOf('/', route.indexOf('[')) + 1));
      continue;
    }
    pages.set(path, [`${base}${route}`]);
    servedFolders.set(path, folderOf(served));
    routes.addPage(route, path);
  }
  addPublicFiles(files, srcDir === '' ? 'public' : `${srcDir}/public`, routes);

  const lookupRoute = (route: string): LinkTarget | null => {
    const withoutBase = base !== '' && route.startsWith(`${base}/`) ? route.slice(base.length) : route;
    const page = withoutBase.replace(/\.(md|html)$/i, '');
    return routes.lookup(page) ?? routes.lookup(withoutBase);
  };
  const ignored = (url: string): boolean => {
    if (ignoreDeadLinks === true) return true;
    if (ignoreDeadLinks === 'localhostLinks') return /^https?:\/\/localhost/.test(url);
    if (Array.isArray(ignoreDeadLinks))
      return ignoreDeadLinks.some((pattern) => typeof pattern !== 'string' || pattern === url);
    return ignoreDeadLinks !== undefined && ignoreDeadLinks !== false;
  };

  /** URLs written with a `target` attribute (`{target="_self"}`), which VitePress does not check. */
  const targetLinks = new Set<string>();
  const resolveLink = (from: string, url: string): LinkTarget => {
    if (isExternalUrl(url)) return { kind: 'external' };
    const { path } = splitUrl(url);
    if (path === '') return { kind: 'external' };
    const fileReference = resolveFileReference(files, from, path);
    if (fileReference !== null && (isAssetPath(path) || !pages.has(fileReference.file))) return fileReference;
    let found: LinkTarget | null = null;
    if (path.startsWith('/')) found = lookupRoute(path);
    else {
      const folders = [folderOf(relativeTo(srcDir, from)), servedFolders.get(from)];
      for (const folder of folders) {
        if (folder === undefined || found !== null) continue;
        found = lookupRoute(posix.join('/', folder, path));
      }
      if (found === null && !pages.has(from))
        return {
          kind: 'unchecked',
          reason: 'a relative link in an included file resolves against the page that includes it',
        };
    }
    if (found !== null) return found;
    // VitePress checks only links to pages; other files may come from the build or outside the repository's text.
    if (isAssetPath(path)) return { kind: 'unchecked', reason: `no file for ${path}` };
    // `[page](/pure.html){target="_self"}` leaves VitePress's router for a file it did not build
    // (https://vitepress.dev/guide/routing#linking-to-non-vitepress-pages): not checked at build.
    if (targetLinks.has(url))
      return { kind: 'unchecked', reason: `${path} is opened outside VitePress's router` };
    if (rewrites === null) return { kind: 'unchecked', reason: 'rewrites are not read' };
    if (ignored(url)) return { kind: 'unchecked', reason: '`ignoreDeadLinks` covers it' };
    return { kind: 'broken', reason: `no page is served at ${path}` };
  };

  // Navigation: the main configuration, each locale's `themeConfig`, and the additional
  // configuration files VitePress reads from `<srcDir>/config.*` and `<srcDir>/<locale>/config.*`.
  const navigation: VitePressNavigation = { entries: [], sidebarPrefixes: [], unsupported };
  const configFiles = [...(main.modules?.files ?? [configFile])];
  const problems: SiteProblem[] = [...main.problems];
  const resolveNavigation = (route: string) =>
    resolveLink(
      srcDir === '' ? 'index.md' : `${srcDir}/index.md`,
      route.startsWith('/') ? route : `/${route}`,
    );
  const defaultPrefixes: string[] = [];
  const read = (module: ReadModule, value: Record<string, unknown> | null, groups: string[]) => {
    const lines = new ModuleLines(module.modules ?? { files: [module.file], texts: new Map() });
    const before = navigation.sidebarPrefixes.length;
    readVitePressNavigation(value?.themeConfig, groups, lines, resolveNavigation, navigation);
    // A locale's own sidebar covers its locale's pages only.
    if (groups.length === 0) defaultPrefixes.push(...navigation.sidebarPrefixes.slice(before));
  };
  read(main, config, []);
  for (const [key, value] of Object.entries(locales)) {
    if (isPlainRecord(value)) read(main, value, key === 'root' ? [] : [key]);
  }
  for (const locale of ['', ...localeFolders]) {
    const folder = [srcDir, locale].filter((part) => part !== '').join('/');
    const file = configNames
      .slice(0, 4)
      .map((name) => (folder === '' ? name : `${folder}/${name}`))
      .find((path) => files.has(path));
    if (file === undefined) continue;
    const additional = await readConfigModule(files, file);
    configFiles.push(...(additional.modules?.files ?? [file]).filter((path) => !configFiles.includes(path)));
    problems.push(...additional.problems);
    read(additional, additional.value, locale === '' ? [] : [locale]);
  }

  const needsNavigationEntry = (file: string): boolean => {
    const route = pages.get(file)?.[0]?.slice(base.length);
    if (route === undefined) return false;
    if (localeFolders.some((locale) => route.startsWith(`/${locale}/`))) return false;
    return defaultPrefixes.some((prefix) => route.startsWith(prefix.replace(/^(?!\/)/, '/')));
  };

  let exampleLink: string | null = null;
  for (const page of pages.keys()) {
    const facts = await source.pageFacts(page);
    exampleLink ??=
      facts?.links.find((link) => !isExternalUrl(link.url) && !isAssetPath(splitUrl(link.url).path))?.url ??
      null;
    const text = (await files.read(page)) ?? '';
    if (!text.includes('target=')) continue;
    for (const match of text.matchAll(/\]\(([^()\s]{1,500})\)\{[^}\n]{0,200}target=/g))
      targetLinks.add(match[1] ?? '');
  }
  const navigationFile = navigation.entries[0]?.file ?? configFile;
  const model: SiteModel = {
    framework: 'vitepress',
    siteRoot,
    configFiles,
    pages,
    partials,
    navigation: navigation.entries,
    needsNavigationEntry,
    resolveLink,
    configurationProblems: problems,
    unsupported: navigation.unsupported,
    conventions: [
      `Links are routes or paths relative to the page's file, with or without \`.md\`, such as \`${exampleLink ?? '/guide/getting-started'}\`.`,
      `New pages are .md files under ${srcDir === '' ? 'the repository root' : `${srcDir}/`}; ${defaultPrefixes.length > 0 ? `add them to the sidebar in ${navigationFile}` : 'there is no sidebar to update'}.`,
      ...(localeFolders.length > 0
        ? [
            `Translations live in the locale folders ${localeFolders.join(', ')} under ${srcDir || 'the root'}, each with its own sidebar.`,
          ]
        : []),
    ],
  };
  return model;
};

/** `srcExclude` globs (`**` any folders, `*` within a segment) as expressions on source paths. */
function excludePatterns(srcExclude: unknown): RegExp[] {
  if (!Array.isArray(srcExclude)) return [];
  return srcExclude
    .filter((pattern): pattern is string => typeof pattern === 'string' && pattern.length < 200)
    .map((pattern) => {
      const expression = pattern
        .replace(/^\.\//, '')
        .split(/(\*\*\/?|\*)/)
        .map((part) =>
          part === '**/'
            ? '(?:.*/)?'
            : part === '**'
              ? '.*'
              : part === '*'
                ? '[^/]*'
                : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'),
        )
        .join('');
      return new RegExp(`^${expression}$`);
    });
}
