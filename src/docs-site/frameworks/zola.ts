import { isPlainRecord } from '../javascript-config.ts';
import {
  decodePath,
  escapeRegExp,
  folderOf,
  isWithin,
  joinInside,
  relativeTo,
  splitUrl,
} from '../link-urls.ts';
import type { LinkTarget, SiteModel, SiteModelBuilder } from '../site-model.ts';
import { createCheckoutCoverage } from './checkout-coverage.ts';
import { compileDocfxGlobs } from './docfx-config.ts';
import { frontMatterOf } from './hugo.ts';
import { isAssetPath } from './starlight-routes.ts';
import { tomlValue } from './toml-value.ts';
import { readZolaAnchors, type SlugStrategy, slugifyPath } from './zola-slugs.ts';

/**
 * Zola sites (https://www.getzola.org/documentation/), read as getzola/zola v0.21 builds them
 * (components/content, components/markdown, components/site). Every `.md` file under `content/` is a
 * page (`_index.md` a section) at `/<folders>/<slug>/` (folders as written, the slug from the front
 * matter's `slug` or the file's name without a date prefix, through the `slug` crate: lower case,
 * every other character a `-`; a bundle `x/index.md` takes its folder's name), or its front
 * matter's `path`; `x.fr.md` under `/fr/`. Zola checks `@/path/to/file.md` links against the files
 * (a missing one fails the build unless `link_checker.internal_level` is `warn`) and their anchors
 * (heading ids, and on pages any `id` or `name` in the content, without case); it leaves every
 * other link as written, prefixing a relative one with the page's URL.
 */
export const buildZolaSite: SiteModelBuilder = async (source, siteRoot) => {
  const { files } = source;
  const inRoot = (path: string) => (siteRoot === '' ? path : `${siteRoot}/${path}`);
  const configFile =
    ['zola.toml', 'config.toml'].map(inRoot).find((path) => files.has(path)) ?? inRoot('config.toml');
  const { value: config, problems } = tomlValue((await files.read(configFile)) ?? '', configFile);
  const unsupported: string[] = [];
  const table = (value: unknown) => (isPlainRecord(value) ? value : {});
  const slugify = table(config.slugify);
  const strategy = (value: unknown): SlugStrategy => (value === 'safe' || value === 'off' ? value : 'on');
  const pathStrategy = strategy(slugify.paths);
  const anchorStrategy = strategy(slugify.anchors);
  const keepDates = slugify.paths_keep_dates === true;
  const defaultLanguage = typeof config.default_language === 'string' ? config.default_language : 'en';
  const languages = new Set(Object.keys(table(config.languages)).filter((code) => code !== defaultLanguage));
  const warnOnly = table(config.link_checker).internal_level === 'warn';
  const contentDir = inRoot('content');

  // The `@/` map: each content file's path under `content/` (language suffix included) to its route.
  const pages = new Map<string, string[]>();
  const permalinks = new Map<string, string>();
  const drafts = new Set<string>();
  /** Each file's URL, rendered or not (`render = false`): what Zola prefixes its relative links with. */
  const urls = new Map<string, string>();
  const served = new Set<string>();
  /** Pages Zola does not write (`render = false`): only their `@/` links are resolved. */
  const unrendered = new Set<string>();
  let uncertainRoutes = false;
  // A draft section leaves its whole folder out (Zola skips the directory as it walks).
  const draftFolders: string[] = [];
  for (const path of files.paths)
    if (
      isWithin(contentDir, path) &&
      /(^|\/)_index\.md$/.test(path) &&
      (await frontMatterOf(source, path)).draft === true
    )
      draftFolders.push(folderOf(path));
  // `ignored_content` globs match the whole path as walked, so only a pattern starting with `*`
  // (which spans folders in Zola's globs) can match; those are read.
  const ignoredContent = compileDocfxGlobs(
    (Array.isArray(config.ignored_content) ? config.ignored_content : []).flatMap((pattern) =>
      typeof pattern === 'string' && pattern.startsWith('*') ? [`**/${pattern.replace(/^\*+/, '*')}`] : [],
    ),
    { dot: true, caseSensitive: true },
  );
  for (const path of files.paths) {
    if (!isWithin(contentDir, path) || !path.endsWith('.md') || ignoredContent(path)) continue;
    if (draftFolders.some((folder) => isWithin(folder, path))) continue;
    const relative = relativeTo(contentDir, path);
    const name = relative.slice(relative.lastIndexOf('/') + 1);
    if (name.startsWith('.')) continue;
    // Zola reads `_index.md`, and `_index.<code>.md` of each other configured language, as sections.
    if (name.startsWith('_index.') && name !== '_index.md' && !languages.has(name.slice(7, -3))) continue;
    const components = relative.split('/').slice(0, -1);
    let stem = name.slice(0, -3);
    let language: string | null = null;
    const dot = stem.indexOf('.');
    if (languages.size > 0 && dot > 0 && languages.has(stem.slice(dot + 1))) {
      language = stem.slice(dot + 1);
      stem = stem.slice(0, dot);
    }
    const frontMatter = await frontMatterOf(source, path);
    if (frontMatter.draft === true) {
      drafts.add(relative);
      continue;
    }
    const prefix = language === null ? '' : `/${language}`;
    let route: string;
    if (stem === '_index') route = `${prefix}/${components.join('/')}/`.replace(/\/+/g, '/');
    else {
      // A bundle (`x/index.md`) is its folder's page.
      const bundle = stem === 'index' && components.length > 0;
      const folders = bundle ? components.slice(0, -1) : components;
      const written = typeof frontMatter.path === 'string' ? frontMatter.path.trim() : '';
      if (written !== '') route = `/${written.replace(/^\/+/, '')}`.replace(/\/?$/, '/');
      else {
        let slug =
          typeof frontMatter.slug === 'string' ? frontMatter.slug : bundle ? (components.at(-1) ?? '') : stem;
        const dated =
          /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])(?:T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2}))?\s?[_-](.+)$/.exec(
            slug,
          );
        if (dated !== null && !keepDates && typeof frontMatter.slug !== 'string') slug = dated[1] ?? slug;
        if (pathStrategy === 'on' && /[^ -~]/.test(slug)) uncertainRoutes = true;
        route = `${prefix}/${[...folders, slugifyPath(slug, pathStrategy)].join('/')}/`.replace(/\/+/g, '/');
      }
    }
    permalinks.set(relative, path);
    pages.set(path, frontMatter.render === false ? [] : [route]);
    if (frontMatter.render === false) unrendered.add(path);
    urls.set(path, route);
    for (const alias of Array.isArray(frontMatter.aliases) ? frontMatter.aliases : [])
      if (typeof alias === 'string') served.add(routeKey(alias));
  }
  if (pages.size === 0) unsupported.push(`${contentDir}/: no pages (nothing is checked)`);

  const routes = new Map<string, string>();
  for (const [page, urls] of pages) for (const url of urls) routes.set(routeKey(url), page);
  // Files a route serves: `static/`; a bundle's other files, below it too, beside each of its
  // pages (translations included); a section folder's own files beside its section.
  const assets = new Set<string>();
  const staticDir = inRoot('static');
  const owners = new Map<string, { bundles: string[]; sections: string[] }>();
  for (const [path, route] of urls) {
    if (
      pages.get(path)?.length === 0 &&
      !/(^|\/)_index(\.[^/]+)?\.md$/.test(path) &&
      !/(^|\/)index(\.[^/]+)?\.md$/.test(path)
    )
      continue;
    const name = path.slice(path.lastIndexOf('/') + 1);
    const kind = /^_index(\.[^/]+)?\.md$/.test(name)
      ? 'sections'
      : /^index(\.[^/]+)?\.md$/.test(name)
        ? 'bundles'
        : null;
    if (kind === null) continue;
    const entry = owners.get(folderOf(path)) ?? { bundles: [], sections: [] };
    entry[kind].push(route);
    owners.set(folderOf(path), entry);
  }
  for (const path of files.paths) {
    if (isWithin(staticDir, path)) assets.add(routeKey(`/${relativeTo(staticDir, path)}`));
    else if (isWithin(contentDir, path) && !path.endsWith('.md')) {
      for (
        let folder = folderOf(path);
        isWithin(contentDir, folder) && folder !== contentDir;
        folder = folderOf(folder)
      ) {
        const entry = owners.get(folder);
        const inside = path.slice(folder.length + 1);
        for (const route of entry?.bundles ?? []) assets.add(routeKey(`${route}${inside}`));
        if (folder === folderOf(path))
          for (const route of entry?.sections ?? []) assets.add(routeKey(`${route}${inside}`));
        if ((entry?.bundles.length ?? 0) > 0) break;
      }
    }
  }
  const taxonomies = (Array.isArray(config.taxonomies) ? config.taxonomies : []).flatMap((taxonomy) =>
    isPlainRecord(taxonomy) && typeof taxonomy.name === 'string'
      ? [slugifyPath(taxonomy.name, pathStrategy)]
      : [],
  );
  // Routes Zola writes without a content file, as the configuration turns them on.
  const feeds = config.generate_feeds === true || config.generate_feed === true;
  const generatedNames = [
    '404\\.html',
    'robots\\.txt',
    'sitemap\\d*\\.xml',
    'processed_images/.*',
    ...(feeds ? ['(?:atom|rss)\\.xml'] : []),
    ...(config.build_search_index === true
      ? ['search_index\\.[^/]+\\.(?:js|json)', 'elasticlunr\\.min\\.js']
      : []),
    ...(taxonomies.length > 0
      ? [`(?:${taxonomies.map(escapeRegExp).join('|')})(?:/[^/.]+(?:/page/\\d+|/[^/]+\\.xml)?)?`]
      : []),
  ];
  const generated = new RegExp(
    `^(?:/(?:${[...languages].map(escapeRegExp).join('|') || '(?!)'}))?/(?:${generatedNames.join('|')})$`,
    'i',
  );
  // A section's feed (its `generate_feeds`), which this model does not read per section.
  const sectionFeed = /^\/.+\/(?:atom|rss)\.xml$/i;
  const theme = typeof config.theme === 'string' ? config.theme : null;
  const themeMissing =
    theme !== null && !files.paths.some((path) => isWithin(inRoot(`themes/${theme}`), path));
  const isExpected = createCheckoutCoverage(files.paths);

  // The site is served under `base_url`'s path (a GitHub Pages project site): a link from the
  // host's root is the site's only below that path.
  const basePath = (() => {
    try {
      return new URL(typeof config.base_url === 'string' ? config.base_url : '').pathname.replace(/\/+$/, '');
    } catch {
      return '';
    }
  })();
  const resolveRoute = (written: string, relativeFrom?: string, checkedFile = false): LinkTarget => {
    let route = written;
    if (basePath !== '' && relativeFrom === undefined) {
      // The host's other paths are another site's, unknown here.
      if (route !== basePath && !route.startsWith(`${basePath}/`))
        return { kind: 'unchecked', reason: `outside the site's path, ${basePath}/ (its \`base_url\`)` };
      route = route.slice(basePath.length) || '/';
    }
    const key = routeKey(decodePath(route));
    const page = routes.get(key);
    if (page !== undefined) return { kind: 'file', file: page };
    if (served.has(key) || assets.has(key) || generated.test(key))
      return { kind: 'served', reason: 'a route of the site' };
    // A section's pager (`/blog/page/2/`).
    const pager = /^(.*\/)page\/\d+$/.exec(key);
    if (pager !== null && routes.has(routeKey(pager[1] ?? '/')))
      return { kind: 'served', reason: 'a page of a section' };
    if (/\.css$/.test(key) && config.compile_sass === true)
      return { kind: 'unchecked', reason: 'a stylesheet Zola compiles' };
    if (sectionFeed.test(key)) return { kind: 'unchecked', reason: 'a section’s feed' };
    if (
      !checkedFile &&
      isAssetPath(key) &&
      (themeMissing || !isExpected(joinInside(staticDir, key.slice(1)) ?? ''))
    )
      return { kind: 'unchecked', reason: 'a file this checkout may not hold (a theme, a build step)' };
    if (uncertainRoutes) return { kind: 'unchecked', reason: 'routes of names outside ASCII are not known' };
    return {
      kind: 'broken',
      reason: `no page or file is served at ${written}${relativeFrom === undefined ? '' : ` (resolved from the page's URL, ${relativeFrom})`}; Zola leaves this link as written and does not check it`,
    };
  };

  const resolveLink: SiteModel['resolveLink'] = (from, url, link) => {
    const trimmed = url.trim();
    // Zola reads `@/` in Markdown links only; in HTML it is a path like any other.
    if (trimmed.startsWith('@/') && (link?.kind ?? 'link') === 'link') return resolveInternal(trimmed);
    // A page Zola does not write leads nowhere but through its `@/` links, which it still resolves.
    if (unrendered.has(from))
      return { kind: 'unchecked', reason: 'a page Zola does not write (`render = false`)' };
    if (
      trimmed === '' ||
      trimmed.startsWith('#') ||
      /^[A-Za-z][A-Za-z0-9+.-]*:/.test(trimmed) ||
      trimmed.startsWith('//')
    )
      return { kind: 'external' };
    const { path } = splitUrl(trimmed);
    if (path === '') return { kind: 'external' };
    // Zola checks no anchor but those of `@/` links and of the page itself: another link's may be an
    // element of the page's template, which this model does not read.
    const target = resolveRelative(from, path);
    return target.kind === 'file' && splitUrl(trimmed).fragment !== null
      ? { kind: 'served', reason: 'a page (its anchor may be its template’s)' }
      : target;
  };

  const resolveRelative = (from: string, path: string): LinkTarget => {
    if (path.startsWith('/')) return resolveRoute(path);
    // Relative: a Markdown link's is prefixed with the page's URL (`x.png` of `/blog/post/` is
    // `/blog/post/x.png`), as the browser resolves an HTML one; `..` is left to the browser too.
    const pageUrl = urls.get(from);
    if (pageUrl === undefined)
      return { kind: 'unchecked', reason: 'a relative link in a file that is no page' };
    const target = new URL(path, `http://site${pageUrl}`).pathname;
    // A file beside the page that this checkout should hold (its folder and kind are here).
    const besideFile = joinInside(folderOf(from), path) ?? '';
    if (isAssetPath(target) && !assets.has(routeKey(target)) && !isExpected(besideFile))
      return { kind: 'unchecked', reason: 'a file this checkout may not hold' };
    return resolveRoute(target, pageUrl, isAssetPath(target));
  };

  /** `@/path.md#anchor`: the file under `content/` (the path decoded, case kept). */
  const resolveInternal = (url: string): LinkTarget => {
    const written = url.slice(2).split('#')[0] ?? '';
    const relative = decodePath(written);
    const file = permalinks.get(relative);
    if (file !== undefined) return { kind: 'file', file };
    const outcome = warnOnly
      ? 'Zola warns and leaves the link as written'
      : 'Zola stops the build (Broken relative link)';
    return {
      kind: 'broken',
      reason: drafts.has(relative)
        ? `content/${relative} is a draft, which Zola leaves out: ${outcome}`
        : `no file content/${relative}: ${outcome}`,
    };
  };

  return {
    framework: 'zola',
    siteRoot,
    configFiles: [configFile],
    pages,
    partials: new Set(),
    navigation: [],
    needsNavigationEntry: () => false,
    pageAnchors: (file, text) =>
      readZolaAnchors(text, anchorStrategy, !/(^|\/)_index(\.[^/]+)?\.md$/.test(file)),
    resolveLink,
    configurationProblems: problems,
    unsupported,
    conventions: [
      'Link another page by its file under `content/`: `[x](@/guide/install.md)` or `@/guide/install.md#anchor` (Zola checks these and fails the build on one that names no file or heading); a section is its `_index.md`.',
      `Pages are \`.md\` files under ${contentDir}/ with TOML front matter between \`+++\` lines; each is served at \`/<folders>/<slug>/\`, and a folder's \`_index.md\` is its section.`,
      'Sections list their pages themselves: a new page needs no navigation entry.',
    ],
  };
};

/** A route as Zola serves it: decoded, one trailing slash dropped (hosts answer both). */
function routeKey(route: string): string {
  const path = route.startsWith('/') ? route : `/${route}`;
  return path.length > 1 ? path.replace(/\/+$/, '') || '/' : path;
}
