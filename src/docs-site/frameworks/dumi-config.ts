import { type PageAnchors, readHeadingAnchors } from '../heading-anchors.ts';
import { CallValue, hasUnknownSpread, isPlainRecord, UnknownValue } from '../javascript-config.ts';
import { ModuleLines } from '../javascript-modules.ts';
import { isExternalUrl, joinInside, splitUrl } from '../link-urls.ts';
import {
  type LinkTarget,
  type NavigationEntry,
  navigationTarget,
  type RepositoryFiles,
} from '../site-model.ts';
import type { DumiLocale } from './dumi-routes.ts';
import type { readConfigModule } from './vitepress-config.ts';

/** dumi's configuration as a model reads it: folders, locales, plugins, navigation; and its anchors. */

const maximumNavigationEntries = 5_000;

/** Theme packages whose plugin adds routes (@antv/dumi-theme-antv 0.7.6 dist/plugin/index.js: `/examples`, `/api`). */
export const routeThemes = ['@antv/dumi-theme-antv'];

/** umi's hooks that add or change routes, at build time or at run time. */
export const routeHooks =
  /\b(modifyRoutes|patchRoutes|patchClientRoutes|onPatchRoutes?|modifyExportHTMLFiles|addRuntimePlugin)\b/;

/**
 * The text of a plugin the configuration names by a path in the repository (`'./plugin'`,
 * `path.join(__dirname, 'plugin')`, `require.resolve('./plugin')`), or null for a package or a
 * path only running the code could tell.
 */
export async function readLocalModule(
  files: RepositoryFiles,
  siteRoot: string,
  value: unknown,
): Promise<string | null> {
  let written: string | undefined;
  if (typeof value === 'string') written = value;
  else if (value instanceof CallValue && /^(path\.)?(join|resolve)$|^require\.resolve$/.test(value.callee)) {
    const parts = value.arguments_.filter((argument) => typeof argument === 'string');
    const rest = value.arguments_.filter((argument) => typeof argument !== 'string');
    // `__dirname` (unknown to the reader) is the configuration's folder.
    if (rest.length <= 1 && parts.length > 0) written = `./${parts.join('/').replace(/^\.\//, '')}`;
  }
  if (written === undefined || !/^\.{1,2}\//.test(written)) return null;
  const base = joinInside(siteRoot, written);
  if (base === null) return null;
  for (const candidate of [
    base,
    ...['.ts', '.js', '.tsx', '.mjs', '/index.ts', '/index.js'].map((end) => `${base}${end}`),
  ]) {
    const text = files.has(candidate) ? await files.read(candidate) : null;
    if (text !== null) return text;
  }
  return null;
}

/** `resolve.docDirs` or `resolve.atomDirs`: folders, typed or not; null when computed. */
export function readFolders(
  value: unknown,
  fallback: Array<{ dir: string; type?: string; subType?: string }>,
): Array<{ dir: string; type?: string; subType?: string }> | null {
  if (value === undefined) return fallback;
  if (!Array.isArray(value) || hasUnknownSpread(value)) return null;
  const folders: Array<{ dir: string; type?: string; subType?: string }> = [];
  for (const item of value) {
    if (typeof item === 'string') folders.push({ dir: item });
    else if (isPlainRecord(item) && typeof item.dir === 'string')
      folders.push({
        dir: item.dir,
        ...(typeof item.type === 'string' ? { type: item.type } : {}),
        ...(typeof item.subType === 'string' ? { subType: item.subType } : {}),
      });
    else return null;
  }
  return folders;
}

/** `locales` as dumi normalises them (src/features/locales.ts): base mode's `base` defaults to `/` then `/<id>`. */
export function readLocales(value: unknown): DumiLocale[] | null {
  if (value === undefined) return [{ id: 'zh-CN', base: '/' }];
  if (!Array.isArray(value) || hasUnknownSpread(value)) return null;
  const locales: DumiLocale[] = [];
  for (const [index, item] of value.entries()) {
    if (!isPlainRecord(item) || typeof item.id !== 'string') return null;
    if (typeof item.suffix === 'string') locales.push({ id: item.id, suffix: item.suffix });
    else
      locales.push({
        id: item.id,
        base: typeof item.base === 'string' ? item.base : index === 0 ? '/' : `/${item.id}`,
      });
  }
  return locales;
}

/**
 * `themeConfig.nav` (items `{ title, link, children }`, a map by locale, or `{ mode, value }`) and
 * `themeConfig.sidebar` (`{ '/guide': [{ title, children: [{ title, link }] }] }`): each `link`
 * written as a route the router looks up as it is.
 */
export function readNavigation(
  themeConfig: unknown,
  main: Awaited<ReturnType<typeof readConfigModule>>,
  configFile: string,
  resolveRoute: (route: string) => LinkTarget,
  navigation: NavigationEntry[],
  unsupported: string[],
): void {
  if (themeConfig === undefined || main.value === null) return;
  const lines = new ModuleLines(main.modules ?? { files: [configFile], texts: new Map() });
  const unknown = (what: string) => {
    unsupported.push(`${configFile}: \`themeConfig.${what}\` is computed by code; its links are unchecked`);
    navigation.push({
      reference: '(computed)',
      file: configFile,
      line: 1,
      groups: [],
      target: { unchecked: `themeConfig.${what} is computed by code` },
    });
  };
  if (!isPlainRecord(themeConfig)) {
    if (themeConfig instanceof UnknownValue) unknown('nav');
    return;
  }
  const addItems = (items: unknown, groups: string[], depth: number, what: string) => {
    if (items instanceof UnknownValue || (Array.isArray(items) && hasUnknownSpread(items)))
      return unknown(what);
    if (!Array.isArray(items) || depth > 6) return;
    for (const item of items) {
      if (navigation.length >= maximumNavigationEntries || !isPlainRecord(item)) continue;
      const title = typeof item.title === 'string' ? item.title : '';
      if (typeof item.link === 'string' && !isExternalUrl(item.link) && !/^(mailto|tel):/.test(item.link)) {
        const place = lines.locate(item.link, 'link', item);
        navigation.push({
          reference: item.link,
          file: place.file,
          line: place.line,
          groups,
          target: navigationTarget(resolveRoute(splitUrl(item.link).path || '/')),
        });
      } else if (item.link instanceof UnknownValue) unknown(what);
      addItems(item.children, title === '' ? groups : [...groups, title], depth + 1, what);
    }
  };
  const nav =
    isPlainRecord(themeConfig.nav) && 'value' in themeConfig.nav ? themeConfig.nav.value : themeConfig.nav;
  if (isPlainRecord(nav))
    for (const [locale, items] of Object.entries(nav)) addItems(items, [locale], 0, 'nav');
  else addItems(nav, [], 0, 'nav');
  const sidebar = themeConfig.sidebar;
  if (sidebar instanceof UnknownValue) unknown('sidebar');
  else if (isPlainRecord(sidebar))
    for (const [key, groups] of Object.entries(sidebar)) addItems(groups, [key], 0, 'sidebar');
}

/**
 * The anchors dumi gives a page (src/loaders/markdown/transformer/rehypeSlug.ts): github-slugger of
 * each heading's text, `<Badge>` left out and an image adding nothing; an element's written `id`;
 * a demo's `<atom>-demo-<name>` (known by its `-demo-`); footnotes'. A page that embeds another,
 * or has an HTML heading (slugged in an order this reader does not follow), has its anchors unchecked.
 * dumi 1 (src/transformer/remark/slug.ts) slugs alike with github-slugger `^1.3.0`: 1.3's ids count too.
 */
export function readDumiAnchors(text: string, major: 1 | 2 = 2): PageAnchors {
  const shown = text.replace(/^#{1,6}[ \t].*$/gm, (line) =>
    line.replace(/<Badge\b[^>]*>[^<]*<\/Badge>/g, '').replace(/!\[[^\]]*\]/g, '![]'),
  );
  const read = readHeadingAnchors(shown, {
    mdx: false,
    customIds: false,
    maintainCase: false,
    always: [],
    legacySlugger: major === 1,
  });
  const demos = /<code\b[^>]*\bsrc\s*=/.test(text);
  const footnotes = /\[\^[^\]\s]+\]/.test(text);
  return {
    anchors: footnotes ? new Set([...read.anchors, 'footnote-label']) : read.anchors,
    // dumi 1's demos are previewers whose ids this reader does not know.
    complete:
      read.complete && !/<embed\b/i.test(text) && !/<h[1-6][\s>]/i.test(text) && !(major === 1 && demos),
    ...(demos ? { knownInfixes: ['-demo-'] } : {}),
    ...(footnotes ? { knownPrefixes: ['user-content-fn'] } : {}),
  };
}
