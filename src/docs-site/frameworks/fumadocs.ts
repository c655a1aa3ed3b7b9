import { ConfigLines } from '../config-lines.ts';
import { readGitIgnored } from '../git-ignored.ts';
import { folderOf, isWithin, joinInside, listFolders, normalizeRoute, relativeTo } from '../link-urls.ts';
import {
  isPagePath,
  type NavigationEntry,
  type SiteModel,
  type SiteModelBuilder,
  type SiteProblem,
} from '../site-model.ts';
import { createCheckoutCoverage } from './checkout-coverage.ts';
import { type FumadocsCollection, readFumadocsConfig } from './fumadocs-config.ts';
import { createNextLinkResolver, isRouteWithin, routeBelow } from './next-app.ts';

/** A `meta.json` whose `pages` lists its folder's items, and whether a rest item (`...`) takes the others. */
interface FolderMeta {
  file: string;
  listsAll: boolean;
}

/**
 * Fumadocs (https://fumadocs.dev/docs/page-conventions): each collection's content folder holds the
 * pages, `.mdx` or `.md`, served under the loader's `baseUrl` at their path without the extension,
 * `index` being its folder's page and a folder in parentheses (`(guides)`) leaving the URL alone. A
 * folder's `meta.json` orders its items in `pages` (names, `./paths`, `...folder` extractions,
 * `---separators---`, `[links](url)`, `...` for the rest, `!name` exceptions); with `pages` and no
 * rest item, a page it does not list is served but missing from the sidebar. Links are URLs: absolute
 * routes (`/docs/guide`), relative ones resolved by the browser against the page's URL, or paths to
 * the `.mdx` file.
 */
export const buildFumadocsSite: SiteModelBuilder = async (source, siteRoot) => {
  const files = source.files;
  const configFile =
    ['source.config.ts', 'source.config.mts', 'source.config.js', 'source.config.mjs']
      .map((name) => (siteRoot === '' ? name : `${siteRoot}/${name}`))
      .find((file) => files.has(file)) ?? 'source.config.ts';
  const config = await readFumadocsConfig(files, siteRoot, configFile);
  const pages = new Map<string, string[]>();
  const collectionOf = (path: string) =>
    config.collections.find((collection) => isWithin(collection.dir, path));
  const i18n = config.i18n;
  // Translations: beside their page (`page.cn.mdx`, the `dot` parser: a suffix is a language when the
  // untranslated page exists), or in a language's folder (`cn/page.mdx`, the `dir` parser).
  const translationOf = (collection: FumadocsCollection, path: string) => {
    if (i18n === null) return null;
    if (i18n.parser === 'dir') {
      const relative = relativeTo(collection.dir, path);
      const language = relative.split('/')[0] ?? '';
      if (!i18n.languages.includes(language)) return null;
      const page = joinInside(collection.dir, relative.slice(language.length + 1)) ?? path;
      return { language, page };
    }
    const match = /^(.*)\.([a-z]{2,3}(?:-[A-Za-z]{2,4})?)\.(mdx|md)$/.exec(path);
    if (match === null || !(files.has(`${match[1]}.mdx`) || files.has(`${match[1]}.md`))) return null;
    return { language: match[2] ?? '', page: `${match[1]}.${match[3]}` };
  };
  // A language's prefix (`hideLocale`): none for the default one unless `never`, none at all with
  // `always`. Pages of the default language are served unprefixed too (the middleware's redirect).
  const routesOf = (language: string, route: string): string[] => {
    const prefixed = normalizeRoute(`/${language}${route}`);
    if (i18n === null || i18n.hideLocale === 'always') return [route];
    const isDefault = language === i18n.defaultLanguage;
    if (!isDefault) return [prefixed];
    return i18n.hideLocale === 'default-locale' ? [route, prefixed] : [prefixed, route];
  };
  const languages = new Set<string>();
  for (const path of files.paths) {
    const collection = collectionOf(path);
    if (collection === undefined || !isPagePath(path)) continue;
    const translation = translationOf(collection, path);
    if (translation === null) {
      const route = routeOf(collection, path);
      pages.set(
        path,
        i18n?.parser === 'dot' && i18n.defaultLanguage !== null
          ? routesOf(i18n.defaultLanguage, route)
          : [route],
      );
    } else {
      languages.add(translation.language);
      pages.set(path, routesOf(translation.language, routeOf(collection, translation.page)));
    }
  }
  /** The default language's folder for a folder of another language's (`dir` parser), or null. */
  const defaultLanguageFolder = (folder: string): string | null => {
    if (i18n?.parser !== 'dir' || i18n.defaultLanguage === null) return null;
    const collection = collectionOf(`${folder}/x`);
    if (collection === undefined) return null;
    const [language, ...rest] = relativeTo(collection.dir, folder).split('/');
    if (language === undefined || language === i18n.defaultLanguage || !i18n.languages.includes(language))
      return null;
    return joinInside(collection.dir, [i18n.defaultLanguage, ...rest].join('/'));
  };
  const isExpected = createCheckoutCoverage(files.paths);
  const ignored = await readGitIgnored(files);
  // A path within its collection without its language folder, and without `(group)` folders for a
  // URL's path (a URL does not show them).
  const pathOf = (relative: string, asUrl: boolean) =>
    relative
      .split('/')
      .filter((segment) => !(asUrl && /^\(.*\)$/.test(segment)))
      .filter(
        (segment, index) => !(index === 0 && i18n?.parser === 'dir' && i18n.languages.includes(segment)),
      )
      .join('/');
  // Pages fumadocs-openapi builds from an OpenAPI document are in no checkout either.
  const isVirtual = (base: string, asUrl: boolean) => {
    const collection = collectionOf(`${base}/x`);
    if (collection === undefined || config.virtualDirs.length === 0) return false;
    const path = pathOf(relativeTo(collection.dir, base), asUrl);
    return config.virtualDirs.some((dir) => isWithin(pathOf(dir, asUrl), path));
  };
  const isIgnored = (base: string) =>
    [`${base}.mdx`, `${base}.md`, `${base}/`, `${base}/index.mdx`].some((path) => ignored(path));
  const isGenerated = (base: string) => isVirtual(base, false) || isIgnored(base);
  const metaFiles = files.paths.filter(
    // A translated `meta.cn.json` lists the same items as its `meta.json`.
    (path) => collectionOf(path) !== undefined && /(^|\/)meta\.json$/.test(path),
  );
  const navigation: NavigationEntry[] = [];
  const folders = listFolders(files.paths);
  const configurationProblems: SiteProblem[] = [];
  const metas = new Map<string, FolderMeta>();
  for (const file of metaFiles) {
    const text = (await files.read(file)) ?? '';
    let meta: unknown;
    try {
      meta = JSON.parse(text);
    } catch (error: unknown) {
      configurationProblems.push({
        file,
        line: 1,
        message: `${file} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
        key: 'configuration\0json',
      });
      continue;
    }
    if (typeof meta !== 'object' || meta === null || !Array.isArray((meta as { pages?: unknown }).pages))
      continue;
    const items = (meta as { pages: unknown[] }).pages.filter(
      (item): item is string => typeof item === 'string',
    );
    const title =
      typeof (meta as { title?: unknown }).title === 'string' ? (meta as { title: string }).title : null;
    const folder = folderOf(file);
    metas.set(folder, {
      file,
      listsAll: items.some((item) => item.trim() === '...' || item.trim() === 'z...a'),
    });
    const lines = new ConfigLines(text);
    for (const item of items) {
      const reference = item.trim();
      const name = reference.startsWith('...') ? reference.slice(3) : reference;
      // Separators, links, rest items and exceptions name no page of their own.
      if (name === '' || name === 'z...a' || /^(---|!|\[|external:)/.test(name)) continue;
      const line = lines.lineOf(reference);
      // A language's folder falls back to the default language's pages (Fumadocs' page tree).
      const fallback = defaultLanguageFolder(folder);
      const target =
        itemTarget(folder, name, folders, pages) ??
        (fallback === null ? null : itemTarget(fallback, name, folders, pages));
      // What a build generates is in no checkout, and no entry of it is checked or edited.
      if (
        target === null &&
        (isBuildOutput(folder, name, reference, isGenerated) ||
          (fallback !== null && isBuildOutput(fallback, name, reference, isGenerated)))
      )
        continue;
      navigation.push({ reference, file, line, groups: title === null ? [] : [title], target });
    }
  }

  const resolveLink = createNextLinkResolver({
    files,
    siteRoot,
    pages,
    redirects: config.redirects,
    languages: [...languages],
    isExpected,
    docsOf: (route) => {
      const collection = config.collections.find((candidate) => isRouteWithin(candidate.baseUrl, route));
      if (collection === undefined) return null;
      // fumadocs-openapi writes its pages into a folder of the collection that .gitignore keeps out of Git.
      const base = joinInside(collection.dir, routeBelow(collection.baseUrl, route));
      const generated = base !== null && (isVirtual(base, true) || isIgnored(base));
      return { label: collection.dir, generated: generated ? base : null };
    },
  });

  const model: SiteModel = {
    framework: 'fumadocs',
    siteRoot,
    configFiles: [...config.files, ...metaFiles],
    pages,
    partials: new Set(),
    navigation,
    navigationFileFor: (file) => metas.get(folderOf(file))?.file ?? configFile,
    // A translation is listed through its page's entry.
    needsNavigationEntry: (file) => {
      const meta = metas.get(folderOf(file));
      const collection = collectionOf(file);
      return (
        pages.has(file) &&
        collection !== undefined &&
        translationOf(collection, file) === null &&
        meta !== undefined &&
        !meta.listsAll
      );
    },
    resolveLink,
    configurationProblems,
    unsupported: config.unsupported,
    conventions: [
      `Pages are \`.mdx\` files in ${config.collections.map((collection) => `\`${collection.dir}/\` (served under \`${collection.baseUrl}\`)`).join(', ')}; a page's URL is its path without the extension, \`index.mdx\` being its folder's page and a folder in parentheses leaving the URL unchanged.`,
      `Links between pages are absolute URLs such as \`${config.collections[0]?.baseUrl ?? '/docs'}/guides/setup\`; a folder whose \`meta.json\` lists its \`pages\` without \`...\` shows only those in the sidebar, so add a new page there.`,
    ],
  };
  return model;
};

/** The URL of a page: the collection's base URL, then its path without extension, groups or `index`. */
function routeOf(collection: FumadocsCollection, path: string): string {
  const segments = withoutGroups(collection, path.replace(/\.(mdx|md|markdown)$/i, '')).split('/');
  if (segments.at(-1) === 'index') segments.pop();
  return normalizeRoute(segments.join('/'));
}

/** A path of the collection as its URL reads it: the base URL's folder, without `(group)` folders. */
function withoutGroups(collection: FumadocsCollection, path: string): string {
  return (
    joinInside(
      collection.baseUrl.slice(1),
      relativeTo(collection.dir, path)
        .split('/')
        .filter((segment) => !/^\(.*\)$/.test(segment))
        .join('/'),
    ) ?? ''
  );
}

/**
 * Whether an item naming nothing in the checkout names what a build generates: a path .gitignore
 * keeps out of Git, or a folder extracted with `...` that no checkout has (fumadocs-openapi's
 * `(generated)`). Any other such item is a navigation entry naming no page.
 */
function isBuildOutput(
  folder: string,
  name: string,
  reference: string,
  isGenerated: (path: string) => boolean,
): boolean {
  const path = joinInside(folder, name);
  return reference.startsWith('...') || (path !== null && isGenerated(path));
}

/**
 * What a `meta.json` item names: a page (`name.mdx`, `name.md`), a folder (its `index` page, or the
 * folder itself, which is no page but is no mistake either), or nothing (null).
 */
function itemTarget(
  folder: string,
  name: string,
  folders: ReadonlySet<string>,
  pages: ReadonlyMap<string, readonly string[]>,
): string | null {
  const path = joinInside(folder, name);
  if (path === null) return null;
  for (const extension of ['.mdx', '.md']) {
    if (pages.has(`${path}${extension}`)) return `${path}${extension}`;
  }
  for (const extension of ['.mdx', '.md']) {
    if (pages.has(`${path}/index${extension}`)) return `${path}/index${extension}`;
  }
  return folders.has(path) ? path : null;
}
