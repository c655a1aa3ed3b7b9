import {
  folderOf,
  isExternalUrl,
  isWithin,
  joinInside,
  listFolders,
  relativeTo,
  splitUrl,
} from '../link-urls.ts';
import {
  isUnchecked,
  type LinkTarget,
  type NavigationEntry,
  type PageLink,
  type SiteModel,
  type SiteModelBuilder,
  type SiteSource,
  type Unchecked,
} from '../site-model.ts';
import { createCheckoutCoverage } from './checkout-coverage.ts';
import { applyAlias, type DocsifyConfig, readDocsifyConfig } from './docsify-config.ts';
import { readSummary } from './mdbook-summary.ts';

/** Docsify's `isAbsolutePath`: a scheme, a port or `//` anywhere means the URL is left alone. */
const isAbsolutePath = (url: string) => /:|\/\//.test(url);

/** Docsify's `getParentPath`: a route's folder, with its trailing slash. */
function parentRoute(route: string): string {
  if (route.endsWith('/')) return route;
  const slash = route.lastIndexOf('/');
  return slash < 0 ? '' : route.slice(0, slash + 1);
}

/** The options Docsify reads from a link's title (`':include :type=code'`, `':ignore'`). */
function linkOptions(title: string | undefined): Set<string> {
  const options = new Set<string>();
  for (const match of (title ?? '').matchAll(/(?:^|\s):([\w-]+)/g)) options.add(match[1] ?? '');
  return options;
}

type Fetched = { file: string } | { remote: string } | Unchecked;

/**
 * Docsify (https://docsify.js.org): no build. The page that loads it (`index.html`) configures it in
 * `window.$docsify`, and every route fetches a Markdown file: `/guide` is `guide.md`, `/guide/` is
 * `guide/README.md`, `/` is `homepage` (`README.md`), under `basePath`, after `alias`. What Docsify's
 * source does with each kind of link (src/core/render/compiler/link.js, image.js, compiler.js,
 * router/history/base.js; the same in Docsify 4 and 5):
 * - a Markdown link is a route from the site's root, not from the linking page (`relativePath`
 *   changes that), `.md` dropped: `[x](guide.md)` in `zh-cn/a.md` opens `/guide`, not `/zh-cn/guide`;
 * - images and `:include` embeds are files in the current page's folder (a leading slash too);
 * - `:ignore` links, `noCompileLinks` and HTML attributes are left to the browser, which resolves
 *   them against the page that loads Docsify (`#/route` is a route);
 * - a route no file serves falls back to the default language's file under `fallbackLanguages`.
 * Sidebars (`loadSidebar`) are looked up from the page's folder up to the root, so a new page belongs
 * in the nearest `_sidebar.md`.
 */
export const buildDocsifySite: SiteModelBuilder = async (source, siteRoot) => {
  const files = source.files;
  const entry = await findEntryPage(source, siteRoot);
  const config = await readDocsifyConfig(files, entry);
  const unsupported = [...config.unsupported];
  const base = config.basePath.trim();
  const folders = listFolders(files.paths);
  let contentRoot: string | null = siteRoot;
  if (/^([a-z][a-z0-9+.-]*:)?\/\//i.test(base)) {
    unsupported.push(`${entry}: \`basePath\` ${base} is another site; no page of this repository is served`);
    contentRoot = null;
  } else if (base !== '') {
    contentRoot = joinInside(siteRoot, base.replace(/^\/+/, ''));
    if (contentRoot === null || !folders.has(contentRoot)) {
      unsupported.push(`${entry}: \`basePath\` ${base} names no folder of the site; links are unchecked`);
      contentRoot = null;
    }
  }
  const ext = config.ext;
  const partialNames = new Set(
    [config.loadSidebar, config.loadNavbar, ...config.coverpages].filter((name) => name !== null),
  );
  const isPartialName = (file: string) => partialNames.has(file.slice(file.lastIndexOf('/') + 1));
  const isExpected = createCheckoutCoverage(files.paths);

  /** The file a route fetches (`History.getFile`): alias, the file name, the home page, the base path. */
  const fetchedBy = (route: string): Fetched => {
    if (contentRoot === null) return { unchecked: 'the site is fetched from elsewhere (`basePath`)' };
    const aliased = applyAlias(config, route);
    if (isUnchecked(aliased)) return aliased;
    let path = aliased;
    if (!path.endsWith(ext) && !path.endsWith('.html'))
      path = path.endsWith('/') ? `${path}README${ext}` : `${path}${ext}`;
    if (path === `/README${ext}`) path = config.homepage || path;
    if (isAbsolutePath(path)) return { remote: path };
    const file = joinInside(contentRoot, path.replace(/^\/+/, ''));
    if (file === null || !isWithin(contentRoot, file))
      return {
        unchecked: 'it climbs above the site root; where it lands depends on where the site is served',
      };
    return { file };
  };
  const homepage = fetchedBy('/');
  const homepageFile = 'file' in homepage ? homepage.file : null;

  // A folder below with a Docsify page of its own (a demo, a test app) is another site.
  const nestedSites = contentRoot === null ? [] : await findNestedSites(source, contentRoot, entry);
  const inSite = (path: string) =>
    contentRoot !== null &&
    isWithin(contentRoot, path) &&
    !path.split('/').includes('node_modules') &&
    !nestedSites.some((folder) => isWithin(folder, path));
  const pages = new Map<string, string[]>();
  for (const path of files.paths) {
    if (inSite(path) && path.endsWith(ext) && !isPartialName(path)) pages.set(path, routesOf(path));
  }
  function routesOf(file: string): string[] {
    if (file === homepageFile) return ['/'];
    const relative = relativeTo(contentRoot ?? '', file);
    // The root README is served only as the home page.
    if (relative === `README${ext}`) return [];
    if (relative.endsWith(`/README${ext}`)) return [`/${relative.slice(0, -`README${ext}`.length)}`];
    return [`/${relative.slice(0, -ext.length)}`];
  }
  /** The route a link in `from` is compiled against: the page's own, or its folder's for a sidebar. */
  const currentRoute = (from: string): string => {
    const route = pages.get(from)?.[0];
    if (route !== undefined) return route;
    const folder = folderOf(relativeTo(contentRoot ?? '', from));
    return folder === '' ? '/' : `/${folder}/`;
  };

  /** Where a route leads once fetched: a file, another site, a fallback language, a virtual route. */
  const routeTarget = (route: string, url: string): LinkTarget => {
    const fetched = fetchedBy(route);
    if (isUnchecked(fetched)) return { kind: 'unchecked', reason: fetched.unchecked };
    if ('remote' in fetched) return { kind: 'served', reason: `\`alias\` fetches it from ${fetched.remote}` };
    if (files.has(fetched.file)) return { kind: 'file', file: fetched.file };
    const language = route.split('/')[1] ?? '';
    if (config.fallbackLanguages.includes(language)) {
      const fallback = routeTarget(route.replace(`/${language}`, config.fallbackDefaultLanguage), url);
      if (fallback.kind !== 'broken') return fallback;
    }
    if (config.virtualRoutes.some((pattern) => pattern.matches(route)))
      return { kind: 'served', reason: 'a route of the `routes` or `alias` option' };
    const name = fetched.file.slice(0, -ext.length);
    if (folders.has(name))
      return {
        kind: 'broken',
        reason: `${name} is a folder: Docsify opens the page ${fetched.file}, which does not exist; link \`${route.split('/').pop()}/\` for its README, or a full URL`,
      };
    if (/\.[a-z0-9]+$/i.test(name) && fetched.file.endsWith(ext) && !url.endsWith(ext))
      return {
        kind: 'broken',
        reason: `Docsify routes a link to ${name} to the page ${fetched.file}, which does not exist; link the file with ':ignore' or a full URL`,
      };
    return { kind: 'broken', reason: `no page ${fetched.file} (Docsify's route ${route})` };
  };

  /** `History.toURL`: a link's route, from the root unless `relativePath` is on. */
  const linkRoute = (from: string, path: string): string => {
    const stripped = path.replace(/\.md$/, '');
    if (config.relativePath && !stripped.startsWith('/')) {
      const resolved: string[] = [];
      for (const segment of (parentRoute(currentRoute(from)) + stripped).replace(/^\//, '').split('/')) {
        if (segment === '..') resolved.pop();
        else if (segment !== '.') resolved.push(segment);
      }
      return `/${resolved.join('/')}`;
    }
    return `/${stripped}`.replace(/^\/+/, '/');
  };

  /** A file the browser fetches itself, from the page that loads Docsify (HTML, `:ignore`d links). */
  const documentFile = (url: string): LinkTarget => {
    if (isExternalUrl(url) && !url.trim().startsWith('#')) return { kind: 'external' };
    const { path, fragment } = splitUrl(url);
    if ((path === '' || path === '/') && fragment?.startsWith('/')) {
      return routeTarget(linkRoute('', splitUrl(fragment.replace('?', '#')).path), fragment);
    }
    if (path === '') return { kind: 'external' };
    if (config.routerMode === 'history' || path.startsWith('/'))
      return { kind: 'unchecked', reason: 'where it leads depends on where the site is served' };
    const file = joinInside(siteRoot, path);
    if (file === null || !isWithin(siteRoot, file))
      return { kind: 'unchecked', reason: 'it leaves the site' };
    if (files.has(file)) return { kind: 'file', file };
    if (folders.has(file))
      return { kind: 'unchecked', reason: 'a folder: what the host serves for it is unknown' };
    if (/\.[a-z0-9]+$/i.test(file) && isExpected(file))
      return { kind: 'broken', reason: `no file ${file} (the browser fetches it from the site's root)` };
    return { kind: 'unchecked', reason: 'not a file of this checkout' };
  };

  /** Images and `:include` embeds: a file in the current page's folder (`getPath(base, parent, href)`). */
  const pageFile = (from: string, url: string): LinkTarget => {
    if (isAbsolutePath(url.trim())) return { kind: 'external' };
    const { path } = splitUrl(url);
    if (path === '' || contentRoot === null) return { kind: 'external' };
    const folder = parentRoute(currentRoute(from)).replace(/^\/+/, '');
    const file = joinInside(contentRoot, `${folder}${path.replace(/^\/+/, '')}`);
    if (file === null || !isWithin(contentRoot, file))
      return { kind: 'unchecked', reason: 'it climbs above the site root' };
    if (files.has(file)) return { kind: 'file', file };
    if (isExpected(file))
      return { kind: 'broken', reason: `no file ${file} (Docsify reads it from the page's folder)` };
    return { kind: 'unchecked', reason: 'not a file of this checkout' };
  };

  const resolveLink = (from: string, url: string, link?: Pick<PageLink, 'kind' | 'title'>): LinkTarget => {
    const trimmed = url.trim();
    const options = linkOptions(link?.title);
    if (options.has('disabled') || trimmed === '') return { kind: 'external' };
    if (contentRoot === null)
      return { kind: 'unchecked', reason: 'the site is fetched from elsewhere (`basePath`)' };
    const kind = link?.kind ?? 'link';
    if (kind === 'import') return { kind: 'external' };
    if (kind === 'image' || options.has('include')) return pageFile(from, trimmed);
    if (
      kind === 'html' ||
      options.has('ignore') ||
      config.noCompileLinks.some((pattern) => pattern.matches(trimmed))
    )
      return documentFile(trimmed);
    if (isAbsolutePath(trimmed) || trimmed.startsWith('#')) return { kind: 'external' };
    const { path } = splitUrl(trimmed === config.homepage ? 'README' : trimmed);
    if (path === '') return { kind: 'external' };
    return routeTarget(linkRoute(from, path), path);
  };

  /** The sidebar a page shows (`loadNested`): the nearest one from its folder up to the root. */
  const sidebarOf = (file: string): string | null => {
    if (config.loadSidebar === null) return null;
    let folder = parentRoute(currentRoute(file));
    for (let depth = 0; folder !== '' && depth < 64; depth += 1) {
      const fetched = fetchedBy(`${folder}${config.loadSidebar}`);
      if ('file' in fetched && files.has(fetched.file)) return fetched.file;
      folder = parentRoute(folder.replace(/\/$/, ''));
    }
    return null;
  };

  const navigationFiles: string[] = [];
  const partials = new Set<string>();
  for (const path of files.paths) {
    if (!inSite(path) || !isPartialName(path)) continue;
    const name = path.slice(path.lastIndexOf('/') + 1);
    if (name === config.loadSidebar || name === config.loadNavbar) navigationFiles.push(path);
    else partials.add(path);
  }
  const navigation: NavigationEntry[] = [];
  for (const file of navigationFiles) {
    for (const item of readSummary((await files.read(file)) ?? '')) {
      if (item.path === '') continue;
      const target = resolveLink(file, item.path);
      // Links to other sites and pages fetched from elsewhere are not navigation to a page here.
      if (target.kind === 'external' || target.kind === 'served') continue;
      navigation.push({
        reference: item.path,
        file,
        line: item.line,
        groups: item.groups,
        target:
          target.kind === 'file'
            ? target.file
            : target.kind === 'unchecked'
              ? { unchecked: target.reason }
              : null,
      });
    }
  }
  if (config.routerMode === 'history')
    unsupported.push(`${entry}: \`routerMode: 'history'\`: links in HTML are not checked`);

  const model: SiteModel = {
    framework: 'docsify',
    siteRoot,
    configFiles: [...config.files, ...navigationFiles],
    pages,
    partials,
    navigation,
    needsNavigationEntry: (file) => pages.has(file) && file !== homepageFile && sidebarOf(file) !== null,
    navigationFileFor: (file) => sidebarOf(file) ?? config.files[0] ?? entry,
    resolveLink,
    configurationProblems: [],
    unsupported,
    conventions: describeConventions(config, contentRoot ?? siteRoot),
  };
  return model;
};

/** The page that loads Docsify: `index.html` in the site's folder, or another page there that does. */
async function findEntryPage(source: SiteSource, siteRoot: string): Promise<string> {
  const prefix = siteRoot === '' ? '' : `${siteRoot}/`;
  const candidates = source.files.paths.filter(
    (path) => path.startsWith(prefix) && /^[^/]+\.html?$/i.test(path.slice(prefix.length)),
  );
  candidates.sort(
    (left, right) =>
      Number(!left.endsWith('/index.html') && left !== 'index.html') -
      Number(!right.endsWith('/index.html') && right !== 'index.html'),
  );
  for (const candidate of candidates.slice(0, 20)) {
    if (isDocsifyPage((await source.files.read(candidate)) ?? '')) return candidate;
  }
  return `${prefix}index.html`;
}

const maximumNestedPages = 50;

/** Folders below the site with an `index.html` of their own that loads Docsify. */
async function findNestedSites(source: SiteSource, contentRoot: string, entry: string): Promise<string[]> {
  const candidates = source.files.paths
    .filter((path) => path !== entry && isWithin(contentRoot, path) && /(^|\/)index\.html$/.test(path))
    .slice(0, maximumNestedPages);
  const nested: string[] = [];
  for (const candidate of candidates) {
    const folder = folderOf(candidate);
    if (folder !== folderOf(entry) && isDocsifyPage((await source.files.read(candidate)) ?? ''))
      nested.push(folder);
  }
  return nested;
}

/** Whether an HTML page loads Docsify: its script or its configuration. */
export function isDocsifyPage(text: string): boolean {
  // Bounded repeats: a page of unclosed `<script` tags cannot make this quadratic.
  return /\$docsify\b|<script[^>]{0,300}\bsrc\s*=\s*["'][^"']{0,300}docsify(@[^"'/]{0,40})?\/(lib|dist)\/docsify(\.min)?\.js/i.test(
    text,
  );
}

function describeConventions(config: DocsifyConfig, contentRoot: string): string[] {
  const root = contentRoot === '' ? 'the repository root' : `\`${contentRoot}/\``;
  const sentences = [
    config.relativePath
      ? `Links between pages are paths relative to the linking page (\`relativePath\` is on), to the \`${config.ext}\` file or without it; a folder link (\`guide/\`) opens its README.`
      : `Links between pages are paths from the site's root (${root}), not from the linking page: \`[Setup](guide/setup.md)\` in any page opens \`guide/setup${config.ext}\`; a folder link (\`guide/\`) opens its README.`,
    "Images and `':include'` embeds are paths relative to the page's own folder; a link to a file that is not a page needs `':ignore'` (or a full URL), or Docsify opens it as a page.",
  ];
  if (config.loadSidebar !== null)
    sentences.push(
      `New pages go into the sidebar: \`${config.loadSidebar}\` in their folder or the nearest folder above it that has one, as \`- [Title](path${config.ext})\`.`,
    );
  return sentences;
}
