import { posix } from 'node:path';
import { parseDocument } from 'yaml';
import { ConfigLines } from '../config-lines.ts';
import { generatedPlace, readGitIgnored } from '../git-ignored.ts';
import { CallValue, hasUnknownSpread, isPlainRecord, UnknownValue } from '../javascript-config.ts';
import { ModuleLines } from '../javascript-modules.ts';
import {
  decodePath,
  folderOf,
  isExternalUrl,
  isWithin,
  joinInside,
  listFolders,
  relativeTo,
  splitUrl,
} from '../link-urls.ts';
import { majorOf, nearestDependencies } from '../package-dependencies.ts';
import {
  type LinkTarget,
  type NavigationEntry,
  navigationTarget,
  type SiteModel,
  type SiteModelBuilder,
  type SiteProblem,
} from '../site-model.ts';
import { createCheckoutCoverage } from './checkout-coverage.ts';
import { readNetlifyRedirects } from './netlify-redirects.ts';
import { addPublicFiles, isAssetPath, RouteTable, resolveFileReference } from './starlight-routes.ts';
import { tomlValue } from './toml-value.ts';
import { readConfigModule } from './vitepress-config.ts';
import { yamlValue } from './yaml-problems.ts';

const configNames = ['config.ts', 'config.js', 'config.mjs', 'config.cjs', 'config.mts', 'config.cts'];
const dataConfigNames = ['config.yml', 'config.yaml', 'config.toml'];
const maximumEntries = 20_000;
const maximumDepth = 32;

/**
 * VuePress sites (https://vuepress.vuejs.org/guide/page.html#routing, v1.vuepress.vuejs.org), read
 * as VuePress 2's `inferRoutePath` and `linksPlugin` (vuepress/core) and VuePress 1's `link.js` and
 * default theme (vuejs/vuepress) read them: the site root is the folder holding `.vuepress/`; every
 * `.md` file under it (outside dot folders and `node_modules/`) is a page at its path with `.html`
 * (`README.md` and `index.md` serve their folder), or at its front matter's `permalink`;
 * `.vuepress/public/` files are served at the root. A Markdown link ending in `.md`, `.html` or `/`
 * is a route link to exactly one route, relative to the page's file or absolute (written without the
 * `base`); any other link is left as written and served as is. VuePress checks no link at build: a
 * link to no page is a 404 for the reader.
 */
export const buildVuePressSite: SiteModelBuilder = async (source, siteRoot) => {
  const { files } = source;
  const inRoot = (path: string) => (siteRoot === '' ? path : `${siteRoot}/${path}`);
  const configFile =
    [...configNames, ...dataConfigNames]
      .map((name) => inRoot(`.vuepress/${name}`))
      .find((path) => files.has(path)) ?? inRoot('.vuepress/config.js');
  const unsupported: string[] = [];
  const problems: SiteProblem[] = [];
  let config: Record<string, unknown> = {};
  let known = true;
  /** A configuration a helper other than `defineUserConfig` returns (a theme's wrapper) may set `base`. */
  let wrapped = false;
  let lines: ModuleLines;
  const configFiles = [configFile];
  const dataConfig = /\.(ya?ml|toml)$/.test(configFile);
  if (dataConfig) {
    const text = (await files.read(configFile)) ?? '';
    const read = configFile.endsWith('.toml')
      ? tomlValue(text, configFile)
      : yamlValue(parseDocument(text), configFile);
    problems.push(...read.problems);
    config = isPlainRecord(read.value) ? read.value : {};
    lines = new ModuleLines({ files: [configFile], texts: new Map([[configFile, text]]) });
  } else {
    const main = await readConfigModule(files, configFile);
    problems.push(...main.problems);
    known = main.value !== null && !hasUnknownSpread(main.value);
    const raw = main.modules?.config.value;
    wrapped = raw instanceof CallValue && !/^(defineUserConfig|defineConfig)$/.test(raw.callee);
    config = main.value ?? {};
    configFiles.splice(0, 1, ...(main.modules?.files ?? [configFile]));
    lines = new ModuleLines(main.modules ?? { files: [configFile], texts: new Map() });
  }
  const major = await vuepressMajor(files, siteRoot, configFile);
  const base = typeof config.base === 'string' ? `/${trimSlashes(config.base)}`.replace(/^\/$/, '') : '';
  if (Array.isArray(config.pagePatterns))
    unsupported.push(
      `${configFile}: \`pagePatterns\` choose the pages; pages are read as the default patterns find them`,
    );

  const localePaths = isPlainRecord(config.locales)
    ? Object.keys(config.locales).filter((key) => key.startsWith('/') && key !== '/')
    : [];
  // Permalinks made from patterns (`permalink: /:year/:slug`, VuePress 1's global `permalink`,
  // VuePress 2's `permalinkPattern`) are not followed: routes they make are not known.
  let patternPermalinks = typeof config.permalink === 'string' || typeof config.permalinkPattern === 'string';
  const routes = new RouteTable();
  const pages = new Map<string, string[]>();
  const pageRoutes = new Map<string, string>();
  /** Every page's route and inferred path, as VuePress's router takes them. */
  const exactRoutes = new Set<string>();
  for (const path of files.paths) {
    if (!isWithin(siteRoot, path)) continue;
    const relative = relativeTo(siteRoot, path);
    // Both versions' globs (`**/*.md`) leave out dot folders (`.vuepress/`, `.github/`) and `node_modules`.
    if (/(^|\/)(\.|node_modules\/)/.test(relative)) continue;
    if (major === 1 && relative.endsWith('.vue')) {
      // VuePress 1 makes a page of every `.vue` file too.
      routes.addServed(
        routeKey(inferRoutePath(`/${relative.slice(0, -4)}.md`)),
        `a page written in Vue (${path})`,
      );
      continue;
    }
    if (!relative.endsWith('.md')) continue;
    const inferred = inferRoutePath(`/${relative}`);
    const facts = await source.pageFacts(path);
    const permalink = facts?.frontMatter?.permalink;
    let served = inferred;
    if (typeof permalink === 'string' && permalink.trim() !== '') {
      if (permalink.includes(':')) patternPermalinks = true;
      else if (major === 1) {
        // VuePress 1 (`getPermalink`): the page's locale, then the permalink, ending in a slash.
        const locale = localePaths.find((candidate) => inferred.startsWith(candidate)) ?? '/';
        const written = trimSlashes(permalink);
        served = `${locale}${written}${written.endsWith('.html') || written === '' ? '' : '/'}`;
      } else if (permalink.startsWith('/')) served = permalink;
      else patternPermalinks = true;
    }
    pages.set(path, [`${base}${served}`]);
    pageRoutes.set(path, served);
    exactRoutes.add(inferred);
    exactRoutes.add(served);
    routes.addPage(routeKey(inferred), path);
    if (served !== inferred) routes.addPage(routeKey(served), path);
    // VuePress 2 serves a page at its path with each segment sanitised (`_posts/x.md` at `/posts/x.html`).
    const sanitised = served
      .split('/')
      .map((segment) => segment.replace(/["#$%&*+,:;<=>?[\]^`{|}]/g, '_').replace(/^_+/, ''))
      .join('/');
    if (major === 2 && sanitised !== served) {
      routes.addPage(routeKey(sanitised), path);
      exactRoutes.add(sanitised);
    }
  }
  const publicFolder = typeof config.public === 'string' ? joinInside(siteRoot, config.public) : null;
  addPublicFiles(files, publicFolder ?? inRoot('.vuepress/public'), routes);
  routes.addServed('/404.html', 'the page VuePress writes for routes it does not serve');
  // Redirects the server answers: a Netlify `_redirects` among the public files, and the
  // `.vuepress/redirects` file of @vuepress/plugin-html-redirect (`from to` per line).
  const isNetlifyRedirect = await readNetlifyRedirects(files, {
    toml: [inRoot('netlify.toml'), 'netlify.toml'].filter((path) => files.has(path)),
    rules: [`${publicFolder ?? inRoot('.vuepress/public')}/_redirects`, inRoot('.vuepress/redirects')].filter(
      (path) => files.has(path),
    ),
  });
  // Pages vuepress-theme-hope and blog plugins write: a catalog for each folder, blog type pages.
  const generatedRoutes =
    themeKind(config, major) === 'other'
      ? ['/article/', '/category/', '/categories/', '/tag/', '/tags/', '/star/', '/timeline/', '/blog/']
      : [];
  for (const page of Array.isArray(config.additionalPages) ? config.additionalPages : []) {
    if (isPlainRecord(page) && typeof page.path === 'string')
      routes.addServed(page.path, 'an additional page');
  }
  // vuepress-plugin-redirect's `redirectors` send their `base` to a default page under it.
  for (const base of redirectorBases(config.plugins))
    routes.addServed(base, 'redirected by vuepress-plugin-redirect');
  const baseKnown = !wrapped && !(config.base instanceof UnknownValue);
  const isExpected = createCheckoutCoverage(files.paths);
  const ignored = await readGitIgnored(files);

  const exactRoutesFolded = new Set([...exactRoutes].map((route) => route.toLowerCase()));
  const withoutBase = (route: string) =>
    base !== '' && route.startsWith(`${base}/`) ? route.slice(base.length) : route;
  /** Where the build writes the page of `route`, when the `.gitignore` names that place (typedoc). */
  const generatedFor = (route: string) =>
    generatedPlace(ignored, `${siteRoot === '' ? '' : `${siteRoot}/`}${routeKey(route).replace(/^\/+/, '')}`);
  const folders = listFolders(files.paths);
  const lookup = (written: string): LinkTarget | null => {
    const route = withoutBase(written);
    const found = routes.lookup(routeKey(route)) ?? routes.lookup(route);
    if (found !== null) return found;
    if (isNetlifyRedirect(route)) return { kind: 'served', reason: 'a redirect the server answers' };
    if (generatedRoutes.some((prefix) => `${route}/`.startsWith(prefix)))
      return { kind: 'unchecked', reason: 'a page the theme or a blog plugin writes' };
    // vuepress-theme-hope writes a catalog page for a folder without a README.
    if (
      generatedRoutes.length > 0 &&
      route.endsWith('/') &&
      folders.has(joinInside(siteRoot, trimSlashes(route)) ?? '')
    )
      return { kind: 'unchecked', reason: 'a catalog page the theme writes for the folder' };
    if (patternPermalinks)
      return { kind: 'unchecked', reason: 'permalink patterns make routes not followed here' };
    return null;
  };
  const resolveLink: SiteModel['resolveLink'] = (from, url, link) => {
    if (isExternalUrl(url)) return { kind: 'external' };
    const { path } = splitUrl(url);
    if (path === '') return { kind: 'external' };
    const kind = link?.kind ?? 'link';
    const fromFolder = `/${folderOf(relativeTo(siteRoot, from))}`;
    if (kind === 'image' || kind === 'import') {
      const reference = resolveFileReference(files, from, path);
      if (reference !== null) return reference;
      if (kind === 'import' && !/^\.{0,2}\//.test(path)) return { kind: 'external' };
      if (path.startsWith('/'))
        return lookup(path) ?? { kind: 'unchecked', reason: `${path} is not in .vuepress/public` };
      const file = posix.join(folderOf(from), path);
      if (!isExpected(file)) return { kind: 'unchecked', reason: `${file} is not in this checkout` };
      return { kind: 'broken', reason: `no file ${file}` };
    }
    const reference = resolveFileReference(files, from, path);
    if (reference !== null && !pages.has(reference.file) && isAssetPath(path)) {
      // A link (not an image) to a file that is no page: VuePress copies only its public files.
      if (kind === 'link' && !path.startsWith('/') && isExpected(reference.file))
        return {
          kind: 'broken',
          reason: `${reference.file} is not published: VuePress serves pages and its public folder only`,
        };
      return reference;
    }
    // VuePress 2 leaves an absolute link outside the `base` (not to a `.md` file) to the server.
    if (
      (major === 2 || !/(\.md|\.html|\/)$/.test(path)) &&
      base !== '' &&
      path.startsWith('/') &&
      !path.startsWith(`${base}/`) &&
      !path.endsWith('.md')
    )
      return { kind: 'unchecked', reason: `${path} is outside the site's base ${base}/` };
    const target = path.startsWith('/') ? path : posix.join(fromFolder, path);
    // Raw HTML is not converted: `<a href="./x.md">` asks the server for the Markdown file itself.
    if (kind === 'html' && /\.md$/i.test(path))
      return {
        kind: 'broken',
        reason: `${path} is written in HTML, which VuePress does not turn into the page's route`,
      };
    const found = lookup(target);
    // A route link (`x.md`, `x.html`, `x/`) names one route exactly: `x.html` once the page became
    // `x/README.md`, or `x/` for `x.md`, is a 404 (the router takes only the page's route and its
    // inferred path).
    if (found?.kind === 'file' && kind === 'link' && /(\.md|\.html|\/)$/.test(path)) {
      const route = inferRoutePath(withoutBase(target).replace(/(^|\/)index\.html$/, '$1'));
      // VuePress 1's vue-router 3 matches routes without case; VuePress 2 looks its routes up exactly.
      const known =
        major === 1
          ? (candidate: string) => exactRoutesFolded.has(candidate.toLowerCase())
          : (candidate: string) => exactRoutes.has(candidate);
      if (!known(route) && !known(decodePath(route)))
        return {
          kind: 'broken',
          reason: `no page is served at ${route} (the page is at ${pageRoutes.get(found.file) ?? 'another route'})`,
        };
    }
    if (found !== null) return found;
    if (!baseKnown && path.startsWith('/'))
      return { kind: 'unchecked', reason: "the site's base is set by code; the link may include it" };
    if (isAssetPath(path)) return { kind: 'unchecked', reason: `no file for ${path}` };
    const generated = generatedFor(target);
    if (generated !== null)
      return { kind: 'unchecked', reason: `${generated} is written by the build (the .gitignore names it)` };
    return { kind: 'broken', reason: `no page is served at ${routeKey(target) || '/'}` };
  };

  // Navigation: VuePress 1's `themeConfig` (`sidebar`, `nav`, `locales`), VuePress 2's default theme
  // and vuepress-theme-hope (`theme: defaultTheme({ sidebar, navbar, locales })`). Other themes
  // (vdoing's) build navigation their own way: unchecked, said so.
  const entries: NavigationEntry[] = [];
  const sidebarPrefixes: string[] = [];
  // VuePress 1 takes a local theme (`.vuepress/theme/`) before the configured one; one that extends
  // the default theme reads the same navigation.
  const localTheme = ['index.js', 'index.ts']
    .map((name) => inRoot(`.vuepress/theme/${name}`))
    .find((path) => files.has(path));
  const hasLocalTheme = files.paths.some((path) => path.startsWith(inRoot('.vuepress/theme/')));
  const localThemeText =
    localTheme === undefined ? (hasLocalTheme ? '' : null) : ((await files.read(localTheme)) ?? '');
  const themeOptions =
    major === 1 && localThemeText !== null
      ? /\bextends?\s*:\s*['"]@vuepress\/(theme-)?default['"]/.test(localThemeText)
        ? isPlainRecord(config.themeConfig)
          ? config.themeConfig
          : {}
        : null
      : themeOptionsOf(config, major);
  const resolveItem = (link: string): NavigationEntry['target'] => {
    if (isExternalUrl(link)) return navigationTarget({ kind: 'external' });
    const { path } = splitUrl(link);
    const found = lookup(path);
    if (found !== null) return navigationTarget(found);
    if (generatedFor(path) !== null || !baseKnown)
      return { unchecked: 'a page the build writes, or under a base set by code' };
    return null;
  };
  // VuePress 1's sidebar (`resolvePage`) matches a page by its path without `.md`/`.html` exactly:
  // `/guide/README.md` or `intro/` name no page (`/guide/` and `/guide/intro` do).
  const regularPaths = new Map<string, string>();
  for (const file of pages.keys())
    regularPaths.set(v1Normalize(inferRoutePath(`/${relativeTo(siteRoot, file)}`)), file);
  const resolveSidebarPage = (route: string): NavigationEntry['target'] => {
    if (isExternalUrl(route)) return { unchecked: 'external link' };
    const file = regularPaths.get(v1Normalize(route));
    if (file !== undefined) return file;
    const lenient = resolveItem(route);
    // A page written another way (`README.md`, a trailing slash) is no match either.
    return typeof lenient === 'string' ? null : lenient;
  };
  const push = (
    reference: string,
    route: string,
    groups: string[],
    owner: object | undefined,
    key: string | number,
  ) => {
    if (entries.length >= maximumEntries) return;
    entries.push({
      reference,
      // A YAML or TOML configuration keeps no places: its values are found by their text.
      ...(dataConfig
        ? lines.locate(reference)
        : typeof key === 'number'
          ? lines.locate(reference, undefined, owner, key)
          : lines.locate(reference, owner === undefined ? undefined : key, owner)),
      groups,
      target: major === 1 && groups.includes('sidebar') ? resolveSidebarPage(route) : resolveItem(route),
    });
  };
  const computed = (reason: string) => {
    entries.push({
      reference: '(computed)',
      file: configFile,
      line: 1,
      groups: [],
      target: { unchecked: reason },
    });
    if (unsupported.length < 5)
      unsupported.push(
        `${configFile}: the navigation is partly computed by code (${reason}); it is unchecked`,
      );
  };
  const visit = (
    item: unknown,
    prefix: string,
    groups: string[],
    depth: number,
    parent?: readonly unknown[],
    index?: number,
  ): void => {
    if (depth > maximumDepth || entries.length >= maximumEntries) return;
    // vuepress-theme-hope's `'structure'`: the folder's pages, listed by the theme.
    if (item === 'structure') {
      computed('a sidebar the theme builds from a folder');
      return;
    }
    if (typeof item === 'string') {
      push(item, joinPrefix(prefix, item), groups, parent, index ?? '');
      return;
    }
    if (Array.isArray(item)) {
      for (const [position, child] of item.entries()) {
        // VuePress 1's `[path, title]`, an element of a list (VuePress 2 has no such form).
        if (major === 1 && Array.isArray(child) && child.length === 2 && typeof child[0] === 'string')
          push(child[0], joinPrefix(prefix, child[0]), groups, child, 0);
        else visit(child, prefix, groups, depth + 1, item, position);
      }
      return;
    }
    // vuepress-theme-hope's typing helpers (`sidebar({...})`, `navbar([...])`) hold the value itself.
    if (item instanceof CallValue && configHelpers.test(item.callee) && item.arguments_.length === 1) {
      visit(item.arguments_[0], prefix, groups, depth + 1, parent, index);
      return;
    }
    if (item instanceof UnknownValue || item instanceof CallValue) {
      computed(item instanceof UnknownValue ? item.reason : `a call to ${item.callee}`);
      return;
    }
    if (!isPlainRecord(item)) return;
    const title =
      typeof item.text === 'string' ? item.text : typeof item.title === 'string' ? item.title : '';
    // A link opened in a new window leaves the router (and the base); a VuePress 1 dropdown (an
    // item with `items`) shows no link of its own.
    const shown = item.target !== '_blank' && !(major === 1 && Array.isArray(item.items));
    for (const key of ['link', 'path']) {
      const value = item[key];
      if (shown && typeof value === 'string' && !isExternalUrl(value))
        push(value, joinPrefix(prefix, value), groups, item, key);
    }
    const childPrefix = typeof item.prefix === 'string' ? joinPrefix(prefix, item.prefix) : prefix;
    for (const key of ['children', 'items']) {
      if (Array.isArray(item[key]))
        visit(item[key], childPrefix, title === '' ? groups : [...groups, title], depth + 1);
    }
  };
  const readTheme = (options: Record<string, unknown>, groups: string[]) => {
    const sidebar = unwrapHelper(options.sidebar);
    if (sidebar === 'structure') computed('a sidebar the theme builds from the folders');
    for (const value of [sidebar, unwrapHelper(options.navbar ?? options.nav)])
      if (value instanceof UnknownValue || value instanceof CallValue)
        computed(value instanceof UnknownValue ? value.reason : `a call to ${value.callee}`);
    if (Array.isArray(sidebar)) {
      const locale = groups.length === 0 ? '/' : (groups[0] ?? '/');
      sidebarPrefixes.push(locale);
      // VuePress 1 resolves an array sidebar's items from `/`, VuePress 2 from the locale.
      visit(sidebar, major === 1 ? '/' : locale, [...groups, 'sidebar'], 0);
    } else if (isPlainRecord(sidebar)) {
      for (const [prefix, value] of Object.entries(sidebar)) {
        if (value === 'auto' || value === 'heading' || value === false) continue;
        // A sidebar computed by code may list any page under its prefix.
        if (!(value instanceof UnknownValue || value instanceof CallValue || value === 'structure'))
          sidebarPrefixes.push(prefix);
        visit(value, prefix, [...groups, 'sidebar', prefix], 0);
      }
    }
    const nav = unwrapHelper(options.navbar ?? options.nav);
    // Navbar links are resolved from `/` (VuePress 2's `resolveNavbarItem` gets no prefix).
    if (Array.isArray(nav)) visit(nav, '/', [...groups, 'nav'], 0);
  };
  if (themeOptions === null) {
    entries.push({
      reference: '(computed)',
      file: configFile,
      line: 1,
      groups: [],
      target: { unchecked: 'a theme whose navigation is not read' },
    });
    unsupported.push(
      `${configFile}: the theme's navigation is not read (only the default theme's and theme-hope's are); it is unchecked`,
    );
  } else if (!known) computed('configuration computed by code');
  else {
    readTheme(themeOptions, []);
    if (isPlainRecord(themeOptions.locales)) {
      for (const [locale, options] of Object.entries(themeOptions.locales)) {
        if (isPlainRecord(options)) readTheme(options, locale === '/' ? [] : [locale]);
      }
    }
  }

  // The home page's buttons (the default theme's and theme-hope's hero): VuePress 1's `actionLink`,
  // VuePress 2's `actions: [{ text, link }]` in the front matter, links a reader follows like a nav's.
  if (themeOptions !== null) {
    for (const page of pages.keys()) {
      const frontMatter = (await source.pageFacts(page))?.frontMatter;
      if (frontMatter === null || frontMatter === undefined) continue;
      const links = [
        frontMatter.actionLink,
        ...(Array.isArray(frontMatter.actions)
          ? frontMatter.actions.map((action) => (isPlainRecord(action) ? action.link : undefined))
          : []),
      ].filter((link): link is string => typeof link === 'string' && !isExternalUrl(link));
      if (links.length === 0) continue;
      const pageLines = new ConfigLines((await files.read(page)) ?? '');
      const folder = (pageRoutes.get(page) ?? '/').replace(/[^/]*$/, '');
      for (const link of links.slice(0, 50)) {
        if (entries.length >= maximumEntries) break;
        entries.push({
          reference: link,
          file: page,
          line: pageLines.lineOf(link),
          groups: ['home'],
          target: resolveItem(joinPrefix(folder, link)),
        });
      }
    }
  }

  const navigationFileFor = (file: string): string => {
    const served = pageRoutes.get(file) ?? '';
    const entry = entries.find((candidate) =>
      candidate.groups.some((group) => group.startsWith('/') && group !== '/' && served.startsWith(group)),
    );
    return entry?.file ?? configFile;
  };
  const needsNavigationEntry = (file: string): boolean => {
    const served = pageRoutes.get(file);
    if (served === undefined) return false;
    return sidebarPrefixes.some((prefix) => prefix !== '/' && served !== prefix && served.startsWith(prefix));
  };
  const exampleLink =
    [...pages.keys()].length > 0
      ? ((await source.pageFacts([...pages.keys()][0] ?? ''))?.links.find(
          (link) => link.kind === 'link' && !isExternalUrl(link.url),
        )?.url ?? null)
      : null;
  return {
    framework: 'vuepress',
    siteRoot,
    configFiles,
    pages,
    partials: new Set(),
    navigation: entries,
    needsNavigationEntry,
    navigationFileFor,
    resolveLink,
    configurationProblems: problems,
    unsupported,
    conventions: [
      `Link pages by their file, relative (\`./install.md\`, \`../guide/README.md\`) or from the site's root (\`/guide/install.md\`), or by their URL ending in \`.html\` or \`/\`${exampleLink === null ? '' : `, such as \`${exampleLink}\``}; \`README.md\` serves its folder.`,
      `Pages are .md files under ${siteRoot === '' ? 'the repository root' : `${siteRoot}/`} (not \`.vuepress/\`); ${sidebarPrefixes.length > 0 ? `add a new page to the sidebar in ${configFile}` : 'there is no sidebar list to update'}.`,
      'VuePress checks no link when it builds: a link to no page is a 404 for the reader.',
    ],
  };
};

/** `inferRoutePath`: `/foo/bar.md` is `/foo/bar.html`, `README.md` and `index.md` their folder. */
function inferRoutePath(path: string): string {
  if (path === '' || path.endsWith('/')) return path;
  let route = path.replace(/(^|\/)README\.md$/i, '$1index.html');
  if (/\.md$/i.test(route)) route = `${route.slice(0, -3)}.html`;
  else if (!route.endsWith('.html')) route = `${route}.html`;
  return route.endsWith('/index.html') ? route.slice(0, -10) : route;
}

/** A route in one form for lookups: no `.md`/`.html`, no `index`/`README`, no trailing slash. */
function routeKey(route: string): string {
  return route
    .replace(/(^|\/)(index|README)(\.md|\.html)?$/i, '$1')
    .replace(/\.(md|html)$/i, '')
    .replace(/(?<!\/)\/+$/, '');
}

/** A sidebar item's path under its prefix (VuePress 1's `resolvePath`, VuePress 2's `resolvePrefix`). */
function joinPrefix(prefix: string, path: string): string {
  if (path.startsWith('/') || isExternalUrl(path)) return path;
  // As a URL resolves: a prefix without a trailing slash names a page, its folder is the base.
  const folder = prefix.endsWith('/') ? prefix : `${posix.dirname(prefix)}/`.replace(/^\/\/$/, '/');
  return posix.join(folder, path) + (path === '' || path.endsWith('/') ? '/' : '');
}

/**
 * The default theme's options: VuePress 1's `themeConfig` (its default theme unless `theme` names
 * another), VuePress 2's `theme: defaultTheme({...})`. Null for another theme.
 */
function themeOptionsOf(config: Record<string, unknown>, major: 1 | 2): Record<string, unknown> | null {
  if (major === 1) {
    if (themeKind(config, major) === 'other') return null;
    return isPlainRecord(config.themeConfig) ? config.themeConfig : {};
  }
  const theme = config.theme;
  if (theme === undefined) return {};
  // vuepress-theme-hope reads the default theme's sidebar and navbar shapes (plus `structure`).
  if (theme instanceof CallValue && /^(defaultTheme|default|hopeTheme)$/.test(theme.callee)) {
    const options = theme.arguments_[0];
    if (options === undefined) return {};
    return isPlainRecord(options) && !hasUnknownSpread(options) ? options : null;
  }
  return theme instanceof UnknownValue || theme !== undefined ? null : {};
}

/** VuePress 1 or 2, from the nearest `package.json` that names it, else from the configuration. */
async function vuepressMajor(
  files: { read(path: string): Promise<string | null>; has(path: string): boolean },
  siteRoot: string,
  configFile: string,
): Promise<1 | 2> {
  const names = ['vuepress-theme-hope', 'vuepress', '@vuepress/core', 'vuepress-vite', 'vuepress-webpack'];
  for (const { name, range } of await nearestDependencies(files, siteRoot, names)) {
    if (name === 'vuepress-theme-hope') return 2;
    const major = majorOf(range);
    if (major !== null) return major <= 1 ? 1 : 2;
  }
  const text = (await files.read(configFile)) ?? '';
  return /defineUserConfig|from ['"](vuepress|@vuepress\/)/.test(text) ? 2 : 1;
}

/** The `base` of each of vuepress-plugin-redirect's `redirectors` (`['redirect', { redirectors }]`). */
function redirectorBases(plugins: unknown): string[] {
  const entries = Array.isArray(plugins)
    ? plugins.map((plugin) => (Array.isArray(plugin) ? [plugin[0], plugin[1]] : [plugin, undefined]))
    : isPlainRecord(plugins)
      ? Object.entries(plugins)
      : [];
  const bases: string[] = [];
  for (const [name, options] of entries) {
    if (typeof name !== 'string' || !/^(vuepress-plugin-)?redirect$/.test(name) || !isPlainRecord(options))
      continue;
    if (!Array.isArray(options.redirectors)) continue;
    for (const redirector of options.redirectors)
      if (isPlainRecord(redirector) && typeof redirector.base === 'string') bases.push(redirector.base);
  }
  return bases;
}

/** `text` without slashes at either end (one pass each). */
function trimSlashes(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && text.charCodeAt(start) === 47) start += 1;
  while (end > start && text.charCodeAt(end - 1) === 47) end -= 1;
  return text.slice(start, end);
}

/** The theme: VuePress 1's default (or none), VuePress 2's `defaultTheme(...)`, or another. */
function themeKind(config: Record<string, unknown>, major: 1 | 2): 'default' | 'other' {
  const theme = config.theme;
  if (theme === undefined) return 'default';
  if (major === 1) return typeof theme === 'string' && defaultThemeNames.test(theme) ? 'default' : 'other';
  return theme instanceof CallValue && /^(defaultTheme|default)$/.test(theme.callee) ? 'default' : 'other';
}

/** VuePress 1's default theme by name, and VuePress's own docs theme (`@vuepress/vue`), which extends it. */
const defaultThemeNames = /^(@vuepress\/(theme-)?(default|vue)|default)$/;

/** VuePress 1's `normalize`: decoded, without the fragment and a `.md`/`.html` ending. */
function v1Normalize(path: string): string {
  let decoded = path;
  try {
    decoded = decodeURI(path);
  } catch {
    // As written.
  }
  return decoded.replace(/#.*$/, '').replace(/\.(md|html)$/, '');
}

/** vuepress-theme-hope's and the default theme's typing helpers, which return their argument. */
const configHelpers =
  /^(sidebar|navbar|arraySidebar|objectSidebar|defineSidebarConfig|defineNavbarConfig|defineSidebarArrayConfig|defineSidebarObjectConfig|defineNavbarArrayConfig)$/;

function unwrapHelper(value: unknown): unknown {
  return value instanceof CallValue && configHelpers.test(value.callee) && value.arguments_.length === 1
    ? value.arguments_[0]
    : value;
}
