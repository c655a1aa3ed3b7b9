import { posix } from 'node:path';
import ignore from 'ignore';
import { hasUnknownSpread, isPlainRecord, UnknownValue } from '../javascript-config.ts';
import type { ModuleLines } from '../javascript-modules.ts';
import { escapeRegExp, folderOf, isExternalUrl, isWithin, relativeTo, splitUrl } from '../link-urls.ts';
import { parseYamlMapping } from '../page-facts.ts';
import {
  type LinkTarget,
  type NavigationEntry,
  navigationTarget,
  type RepositoryFiles,
} from '../site-model.ts';
import { compileDocfxGlobs } from './docfx-config.ts';

/**
 * dumi 1's routes, ported from umijs/dumi dumi@1.1.54 packages/preset-dumi/src/routes/:
 * getRouteConfigFromDir.ts makes a route of every `.md` file of `resolve.includes` (and `.tsx`/`.jsx`
 * examples of `resolve.examples`), then the decorators of decorator/index.ts run in order: flat,
 * frontMatter, hide, locale, nav, group, title, fallback, integrate, redirect, relative. Only the
 * ones that move a route or add one are ported (hide, locale, nav, group, fallback, redirect).
 */

export interface DumiOneOptions {
  mode: 'doc' | 'site';
  /** Locale names in order, the default first (`locales: [['en-US', 'English'], ...]`). */
  locales: readonly string[];
  /** `resolve.includes` and `resolve.examples`: folders relative to the site's root. */
  includes: readonly string[];
  examples: readonly string[];
  /** `resolve.excludes`: gitignore patterns on paths relative to the site's root. */
  excludes: readonly string[];
}

export interface DumiOneRoute {
  path: string;
  /** The repository path of the route's file. */
  file: string;
  /** A clone of another locale's route (fallback.ts), served by the same file. */
  fallback: boolean;
  meta: RouteMeta;
}

interface RouteMeta {
  locale?: string;
  nav?: { path?: string };
  group?: { path?: string; title?: string };
  legacy?: string;
  hide?: unknown;
}

/** Folder names dumi never reads (getRouteConfigFromDir.ts `IGNORE_DIR`, `isValidPath`). */
const skippedNames = new Set(['node_modules', 'fixtures']);

/**
 * The routes dumi 1 builds for production (`hide: true` pages left out) and the paths its
 * redirects serve (a group's or a nav's path without a page of its own, `legacy` paths).
 */
export async function dumiOneRoutes(
  paths: readonly string[],
  siteRoot: string,
  options: DumiOneOptions,
  frontMatterOf: (file: string) => Promise<Readonly<Record<string, unknown>> | null>,
): Promise<{ routes: DumiOneRoute[]; redirects: Set<string> }> {
  const inRoot = (path: string) => posix.join(siteRoot, path).replace(/^\.$/, '').replace(/\/$/, '');
  const excluded = ignore().add([...options.excludes]);
  const [defaultLocale = 'en-US'] = options.locales;
  const localeAlternatives = options.locales.map(escapeRegExp).join('|');
  const entryName = new RegExp(`^(index|readme)(\\.(${localeAlternatives}))?$`, 'i');
  const entryPath = new RegExp(`/(index|readme)(\\.(${localeAlternatives}))?$`, 'i');
  const locales = new Set(options.locales);
  let routes: DumiOneRoute[] = [];
  for (const [index, include] of [...options.includes, ...options.examples].entries()) {
    const folder = inRoot(include);
    const isExampleDir = index >= options.includes.length;
    const within = paths.filter((path) => isWithin(folder, path) && path !== folder);
    for (const path of sortAsWalked(within.map((path) => relativeTo(folder, path)))) {
      const segments = path.split('/');
      // An example folder's subfolders are not read.
      if (isExampleDir && segments.length > 1) continue;
      if (segments.some((segment) => /^[._]./.test(segment) || skippedNames.has(segment))) continue;
      const file = `${folder === '' ? '' : `${folder}/`}${path}`;
      if (options.excludes.length > 0 && excluded.ignores(relativeTo(siteRoot, file))) continue;
      const { name, ext } = posix.parse(path);
      const isExample = isExampleDir && (ext === '.tsx' || ext === '.jsx');
      if (ext !== '.md' && !isExample) continue;
      const dotted = /^(.+)\.([^.]+)$/.exec(name);
      const suffix = dotted?.[2] ?? '';
      const localePath = locales.has(suffix) && suffix !== defaultLocale ? `/${suffix}` : '';
      const realName = dotted?.[1] ?? name;
      let routePath = posix.join('/', ...segments.slice(0, -1), realName);
      if (isExampleDir && options.mode === 'site')
        routePath = posix.join('/', posix.basename(folder), routePath);
      const normalized = posix
        .join(
          localePath,
          routePath
            .replace(entryPath, '/')
            .replace(/([a-z])([A-Z])/g, '$1-$2')
            .toLowerCase(),
        )
        .replace(/^(.+)\/$/, '$1');
      const frontMatter = ext === '.md' ? ((await frontMatterOf(file)) ?? {}) : {};
      routes.push({ path: normalized, file, fallback: false, meta: readMeta(frontMatter) });
    }
  }
  // hide.ts: production builds leave `hide: true` pages out.
  routes = routes.filter((route) => route.meta.hide !== true);

  // locale.ts: a file's last dot-separated name part, when it is a configured locale.
  const usedLocales = new Set([defaultLocale]);
  for (const route of routes) {
    const suffix = /[^.]+$/.exec(posix.parse(route.file).name)?.[0];
    if (suffix !== undefined && locales.has(suffix)) {
      route.meta.locale = suffix;
      usedLocales.add(suffix);
    }
  }

  // nav.ts (site mode): a page without `nav.path` is under its path's first segment.
  if (options.mode === 'site')
    for (const route of routes) {
      const { meta } = route;
      if (!meta.nav?.path) {
        const clearPath = meta.locale ? discardLocalePrefix(route.path, meta.locale) : route.path;
        if (clearPath && clearPath !== '/') meta.nav = { ...meta.nav, path: `/${clearPath.split('/')[1]}` };
      }
      const navPath = meta.nav?.path;
      if (
        navPath &&
        meta.locale &&
        meta.locale !== defaultLocale &&
        !isPrefixLocalePath(navPath, meta.locale)
      )
        meta.nav = { ...meta.nav, path: `/${meta.locale}${navPath}` };
    }

  // group.ts: a page two levels deep (or a folder's index) is in its parent's group, and a group's
  // path (written or made) moves the page under it.
  for (const route of routes) {
    const { meta } = route;
    let groupPath = meta.group?.path;
    const groupTitle = meta.group?.title;
    let clearPath = route.path;
    if (meta.nav?.path) clearPath = clearPath.replace(meta.nav.path, '');
    if (meta.locale) clearPath = discardLocalePrefix(clearPath, meta.locale);
    if (!groupPath) {
      const isEntry = entryName.test(posix.parse(route.file).name);
      if ((clearPath && clearPath.lastIndexOf('/') !== 0) || (clearPath.length > 1 && isEntry)) {
        // dumi's `/^([^]+?)(\/[^/]+)?$/`: all but a last segment, when one follows a slash after
        // the first character (a lazy pattern, quadratic on a long path: written out).
        const slash = clearPath.lastIndexOf('/');
        groupPath = slash > 0 && slash < clearPath.length - 1 ? clearPath.slice(0, slash) : clearPath;
        clearPath = clearPath.replace(groupPath, '');
      }
    }
    if (groupPath) {
      if (meta.nav?.path && !groupPath.startsWith(meta.nav.path)) groupPath = `${meta.nav.path}${groupPath}`;
      else if (meta.locale && meta.locale !== defaultLocale && !isPrefixLocalePath(groupPath, meta.locale))
        groupPath = `/${meta.locale}${groupPath}`;
      meta.group = { ...meta.group, path: groupPath };
    } else if (groupTitle && (meta.nav?.path || meta.locale))
      meta.group = { ...meta.group, path: meta.nav?.path || `/${meta.locale}` };
    const finalGroup = meta.group?.path;
    if (finalGroup && route.path !== finalGroup)
      route.path = posix.join(finalGroup, /([^/]*)$/.exec(clearPath)?.[1] ?? '');
  }

  // fallback.ts: a locale without a home page takes the site root's README; a page with no
  // translation is served under each other locale too.
  const fallbacks: DumiOneRoute[] = [];
  for (const locale of usedLocales) {
    const localePrefix = locale === defaultLocale ? '/' : `/${locale}`;
    if (!routes.some((route) => route.path === localePrefix)) {
      const readme = inRoot(`README${locale === defaultLocale ? '' : `.${locale}`}.md`);
      if (paths.includes(readme))
        routes.unshift({
          path: localePrefix,
          file: readme,
          fallback: false,
          meta: { locale, ...readMeta((await frontMatterOf(readme)) ?? {}) },
        });
    }
    if (localePrefix === '/') continue;
    const taken = new Set(routes.map((route) => route.path));
    for (const route of routes) {
      const localized = replaceLocaleForPath(route.path, route.meta.locale, locale);
      if (isPrefixLocalePath(route.path, locale) || taken.has(localized)) continue;
      const meta: RouteMeta = { ...route.meta, locale };
      if (meta.group?.path)
        meta.group = {
          ...meta.group,
          path: replaceLocaleForPath(meta.group.path, route.meta.locale, locale),
        };
      if (meta.nav?.path)
        meta.nav = { ...meta.nav, path: replaceLocaleForPath(meta.nav.path, route.meta.locale, locale) };
      fallbacks.push({ path: localized, file: route.file, fallback: true, meta });
    }
  }
  routes = routes.concat(fallbacks);

  // redirect.ts: a group's or nav's path with no page of its own redirects to its first page, and
  // a `legacy` path to its page.
  const redirects = new Set<string>();
  const served = new Set(routes.map((route) => route.path));
  for (const { meta } of routes) {
    for (const path of [meta.group?.path, meta.nav?.path]) if (path && !served.has(path)) redirects.add(path);
    if (meta.legacy) redirects.add(meta.legacy);
  }
  return { routes, redirects };
}

/** The front matter's keys the decorators read, copied (the decorators change them). */
function readMeta(frontMatter: Readonly<Record<string, unknown>>): RouteMeta {
  const meta: RouteMeta = {};
  const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
  if (typeof frontMatter.locale === 'string') meta.locale = frontMatter.locale;
  if (isPlainRecord(frontMatter.nav)) {
    const path = text(frontMatter.nav.path);
    meta.nav = path === undefined ? {} : { path };
  }
  if (isPlainRecord(frontMatter.group)) {
    const path = text(frontMatter.group.path);
    const title = text(frontMatter.group.title);
    meta.group = { ...(path === undefined ? {} : { path }), ...(title === undefined ? {} : { title }) };
  } else if (typeof frontMatter.group === 'string') meta.group = { title: frontMatter.group };
  const legacy = text(frontMatter.legacy);
  if (legacy !== undefined) meta.legacy = legacy;
  if (frontMatter.hide !== undefined) meta.hide = frontMatter.hide;
  return meta;
}

/**
 * Paths in the order dumi walks them (getRouteConfigFromDir.ts `findChildRoutes`): a folder's
 * files, by name, before its subfolders, each read in turn.
 */
function sortAsWalked(paths: readonly string[]): string[] {
  return [...paths].sort((left, right) => {
    const a = left.split('/');
    const b = right.split('/');
    for (let index = 0; index < Math.max(a.length, b.length); index++) {
      const x = a[index] ?? '';
      const y = b[index] ?? '';
      if (x === y) continue;
      const xFile = index === a.length - 1;
      const yFile = index === b.length - 1;
      if (xFile !== yFile) return xFile ? -1 : 1;
      return x < y ? -1 : 1;
    }
    return 0;
  });
}

function isPrefixLocalePath(routePath: string, locale: string): boolean {
  return routePath === `/${locale}` || routePath.startsWith(`/${locale}/`);
}

function discardLocalePrefix(routePath: string, locale: string): string {
  return locale && isPrefixLocalePath(routePath, locale) ? routePath.replace(`/${locale}`, '') : routePath;
}

function replaceLocaleForPath(path: string, previous: string | undefined, next: string): string {
  const bare = previous ? discardLocalePrefix(path, previous) : path;
  return `/${next}${bare}`.replace(/\/$/, '');
}

/**
 * dumi 1's options from `.umirc.ts` (preset-dumi src/plugins/features/{mode,locales,resolve}.ts):
 * `mode` (`doc`), `locales` (English, then Chinese), `resolve.includes` (each workspace package's
 * `src`, or the project's, then `docs`; utils/getHostPkgAlias.ts), `resolve.examples`
 * (`examples`) and `resolve.excludes`; null where one is computed by code.
 */
export async function readDumiOneOptions(
  config: Readonly<Record<string, unknown>>,
  files: RepositoryFiles,
  siteRoot: string,
): Promise<DumiOneOptions | null> {
  const resolve = isPlainRecord(config.resolve) ? config.resolve : {};
  const strings = (value: unknown, fallback: string[]): string[] | null =>
    value === undefined
      ? fallback
      : Array.isArray(value) && value.every((item) => typeof item === 'string')
        ? value
        : null;
  const locales =
    config.locales === undefined
      ? ['en-US', 'zh-CN']
      : Array.isArray(config.locales) &&
          config.locales.length > 0 &&
          config.locales.every((item) => Array.isArray(item) && typeof item[0] === 'string')
        ? config.locales.map((item) => String((item as unknown[])[0]))
        : null;
  const includes = strings(resolve.includes, [...(await hostPackageSources(files, siteRoot)), 'docs']);
  const examples = strings(resolve.examples, ['examples']);
  const excludes = strings(resolve.excludes, []);
  if (locales === null || includes === null || examples === null || excludes === null) return null;
  return { mode: config.mode === 'site' ? 'site' : 'doc', locales, includes, examples, excludes };
}

/**
 * The `src` folders of the packages dumi documents by default: a Lerna repository's packages
 * (`lerna.json`'s `packages`, `packages/*` by default), a pnpm workspace's (`pnpm-workspace.yaml`,
 * the root left out), or the project's own.
 */
async function hostPackageSources(files: RepositoryFiles, siteRoot: string): Promise<string[]> {
  const inRoot = (path: string) => (siteRoot === '' ? path : `${siteRoot}/${path}`);
  let patterns: string[] | null = null;
  if (files.has(inRoot('lerna.json'))) {
    const lerna = parseYamlMapping((await files.read(inRoot('lerna.json'))) ?? '');
    patterns = Array.isArray(lerna?.packages)
      ? lerna.packages.filter((item) => typeof item === 'string')
      : ['packages/*'];
  } else if (files.has(inRoot('pnpm-workspace.yaml'))) {
    const workspace = parseYamlMapping((await files.read(inRoot('pnpm-workspace.yaml'))) ?? '');
    patterns = Array.isArray(workspace?.packages)
      ? workspace.packages.filter((item) => typeof item === 'string')
      : [];
  }
  if (patterns === null) return ['src'];
  const matches = compileDocfxGlobs(patterns, { caseSensitive: true });
  return files.paths.flatMap((path) => {
    if (!isWithin(siteRoot, path) || !path.endsWith('/package.json')) return [];
    const folder = relativeTo(siteRoot, folderOf(path));
    return folder !== '' && !folder.includes('node_modules') && matches(folder) ? [`${folder}/src`] : [];
  });
}

/**
 * dumi 1's navigation in `.umirc.ts`: `navs` (items `{ title, path, children }`, or a map by locale)
 * name routes; `menus` (`{ '/guide': [{ title, children: ['guide/intro.md', { title, path }] }] }`)
 * name files by a part of their path under an include folder, and one that names no page's file
 * stops the build ("cannot find ... from menu config", routes/getMenuFromRoutes.ts).
 */
export function readDumiOneNavigation(
  config: Readonly<Record<string, unknown>>,
  lines: ModuleLines,
  configFile: string,
  context: {
    routes: readonly DumiOneRoute[];
    includes: readonly string[];
    includesKnown: boolean;
    siteRoot: string;
  },
  resolveRoute: (route: string) => LinkTarget,
  navigation: NavigationEntry[],
  unsupported: string[],
): void {
  const unknown = (what: string) => {
    unsupported.push(`${configFile}: \`${what}\` is computed by code; its entries are unchecked`);
    navigation.push({
      reference: '(computed)',
      file: configFile,
      line: 1,
      groups: [],
      target: { unchecked: `${what} is computed by code` },
    });
  };
  const addRoutes = (items: unknown, groups: string[], depth: number) => {
    if (items instanceof UnknownValue || (Array.isArray(items) && hasUnknownSpread(items)))
      return unknown('navs');
    if (!Array.isArray(items) || depth > 6) return;
    for (const item of items) {
      if (navigation.length >= maximumEntries || !isPlainRecord(item)) continue;
      const title = typeof item.title === 'string' ? item.title : '';
      const path = item.path;
      if (
        typeof path === 'string' &&
        path !== '' &&
        !isExternalUrl(path) &&
        !/^[a-z][a-z0-9+.-]*:/i.test(path)
      ) {
        const place = lines.locate(path, 'path', item);
        navigation.push({
          reference: path,
          file: place.file,
          line: place.line,
          groups,
          target: navigationTarget(resolveRoute(splitUrl(path).path || '/')),
        });
      }
      addRoutes(item.children, title === '' ? groups : [...groups, title], depth + 1);
    }
  };
  if (config.navs instanceof UnknownValue) unknown('navs');
  else if (isPlainRecord(config.navs))
    for (const [locale, items] of Object.entries(config.navs)) addRoutes(items, [locale], 0);
  else addRoutes(config.navs, [], 0);

  if (config.menus instanceof UnknownValue) {
    unknown('menus');
    return;
  }
  if (!isPlainRecord(config.menus)) return;
  // A menu's file names a route's file when its path, from the site's root, holds `<include>/<name>`.
  const routeFiles = [...new Set(context.routes.map((route) => relativeTo(context.siteRoot, route.file)))];
  for (const [key, menus] of Object.entries(config.menus)) {
    if (menus instanceof UnknownValue || (Array.isArray(menus) && hasUnknownSpread(menus))) {
      unknown('menus');
      continue;
    }
    if (!Array.isArray(menus)) continue;
    for (const menu of menus) {
      if (!isPlainRecord(menu)) continue;
      const title = typeof menu.title === 'string' ? menu.title : '';
      const groups = title === '' ? [key] : [key, title];
      if (!Array.isArray(menu.children)) continue;
      for (const [index, child] of menu.children.entries()) {
        if (navigation.length >= maximumEntries) return;
        if (typeof child === 'string') {
          const fragments = context.includes.map((include) => posix.join(include, child));
          const found = routeFiles.find((file) => fragments.some((fragment) => file.includes(fragment)));
          const place = lines.locate(child, undefined, menu.children, index);
          navigation.push({
            reference: child,
            file: place.file,
            line: place.line,
            groups,
            target: !context.includesKnown
              ? { unchecked: '`resolve.includes` is computed by code' }
              : found === undefined
                ? null
                : context.siteRoot === ''
                  ? found
                  : `${context.siteRoot}/${found}`,
          });
        } else addRoutes([child], groups, 1);
      }
    }
  }
}

const maximumEntries = 5_000;
