import { ConfigLines } from '../config-lines.ts';
import { readGitIgnored } from '../git-ignored.ts';
import { isPlainRecord, propertyPlace, readJavaScriptConfig, UnknownValue } from '../javascript-config.ts';
import { folderOf, isWithin, joinInside, listFolders, normalizeRoute, relativeTo } from '../link-urls.ts';
import type {
  NavigationEntry,
  RepositoryFiles,
  SiteModel,
  SiteModelBuilder,
  SiteProblem,
} from '../site-model.ts';
import { createCheckoutCoverage } from './checkout-coverage.ts';
import { createNextLinkResolver, isRouteWithin, readNextRedirects, routeBelow } from './next-app.ts';

/** Where Nextra finds pages: which folder, how its files become routes, and under which URL. */
interface Source {
  folder: string;
  kind: 'content' | 'app' | 'pages';
  basePath: string;
}

const metaFile = /(^|\/)_meta\.(json|js|jsx|ts|tsx|mjs)$/;
const markdownFile = /\.(md|mdx)$/i;
const codePage = /\.(js|jsx|ts|tsx)$/i;

/**
 * Nextra (https://nextra.site/docs/file-conventions): Markdown pages in the `content` folder (served
 * under `contentDirBasePath`, default `/`), `page.md`/`page.mdx` files in the `app` folder (Nextra 4),
 * or any `.md`/`.mdx` file in the `pages` folder (Nextra 2 and 3), each at its path without the
 * extension, `index` being its folder's page. `_meta` files (`_meta.json`, or `_meta.js`/`.ts` and
 * the like, read without running them) order and title a folder's items; a key naming no page, folder,
 * link, separator or menu fails Nextra's build ("refers to a page that cannot be found"), and pages a
 * `_meta` file does not name still appear after the named ones. Links are resolved as Next.js serves
 * them (next-app.ts).
 */
export const buildNextraSite: SiteModelBuilder = async (source, siteRoot) => {
  const files = source.files;
  const inRoot = (path: string) => joinInside(siteRoot, path) ?? path;
  const nextConfig = await readNextRedirects(files, siteRoot);
  const configText = nextConfig.file === null ? '' : ((await files.read(nextConfig.file)) ?? '');
  const basePath = normalizeRoute(
    /\bcontentDirBasePath\s*:\s*["'`]([^"'`]+)["'`]/.exec(configText)?.[1] ?? '/',
  );
  const folders = listFolders(files.paths);
  const sources: Source[] = [];
  for (const [kind, names] of [
    ['content', ['content', 'src/content']],
    ['app', ['app', 'src/app']],
    ['pages', ['pages', 'src/pages']],
  ] as const) {
    const folder = names.map(inRoot).find((candidate) => folders.has(candidate));
    if (folder !== undefined) sources.push({ folder, kind, basePath: kind === 'content' ? basePath : '/' });
  }
  const unsupported: string[] = [];
  // Next.js i18n (`i18n: { locales: ['en', 'zh'] }`): with Nextra 4 the app's top `[lang]` folder is
  // the locale and `content/<locale>/` its pages, and an absolute link without a locale is sent to
  // the page's own (Nextra's locale middleware and `unstable_shouldAddLocaleToLinks`).
  const locales = readLocales(configText);
  const isLocaleSegment = (segment: string) =>
    locales.length > 0 && /^\[(lang|locale|locales|language)\]$/.test(segment);
  if (/\bi18n\s*:/.test(configText) && locales.length === 0)
    unsupported.push('Next.js i18n locales: translated pages are not told apart, each is checked on its own');

  const pages = new Map<string, string[]>();
  const servedRoutes = new Map<string, string>();
  // Next.js pages written as code (`pages/blog.tsx`, `app/showcase/page.tsx`): routes, not docs pages.
  const codeRoutes = new Map<string, string>();
  // Routes under a dynamic segment (`[slug]`) cannot be listed: links into them are unchecked.
  const dynamicPrefixes: string[] = [];
  for (const path of files.paths) {
    const owner = sources.find((candidate) => isWithin(candidate.folder, path));
    if (owner === undefined || metaFile.test(path)) continue;
    const relative = relativeTo(owner.folder, path);
    const segments = relative.split('/');
    const name = segments.at(-1) ?? '';
    if (owner.kind === 'app') {
      if (!/^page\.(md|mdx|js|jsx|ts|tsx)$/.test(name)) continue;
      // Under the locale folder, a page is served once per locale.
      const folderSegments = segments.slice(0, -1);
      const routes = isLocaleSegment(folderSegments[0] ?? '')
        ? locales.map((locale) => routeOf('/', [locale, ...folderSegments.slice(1)], dynamicPrefixes))
        : [routeOf('/', folderSegments, dynamicPrefixes)];
      for (const route of routes) {
        if (markdownFile.test(name)) pages.set(path, [...(pages.get(path) ?? []), route]);
        else {
          servedRoutes.set(route, `a Next.js page ${path}`);
          codeRoutes.set(route, path);
        }
      }
      continue;
    }
    const withoutExtension = [...segments.slice(0, -1), name.replace(/\.[^.]+$/, '')];
    if (markdownFile.test(name)) {
      // `content/<locale>/x` is served at `/<locale><contentDirBasePath>/x`.
      const locale =
        owner.kind === 'content' && locales.includes(withoutExtension[0] ?? '') ? withoutExtension[0] : null;
      pages.set(path, [
        locale === null || locale === undefined
          ? routeOf(owner.basePath, withoutExtension, dynamicPrefixes)
          : normalizeRoute(
              `/${locale}${routeOf(owner.basePath, withoutExtension.slice(1), dynamicPrefixes)}`,
            ),
      ]);
    } else if (
      owner.kind === 'pages' &&
      codePage.test(name) &&
      !/^_(app|document|error)$/.test(withoutExtension[0] ?? '')
    ) {
      const route = routeOf('/', withoutExtension, dynamicPrefixes);
      servedRoutes.set(route, `a Next.js page ${path}`);
      codeRoutes.set(route, path);
    }
  }

  const codePages = new Set(codeRoutes.values());
  const ignored = await readGitIgnored(files);
  const navigation: NavigationEntry[] = [];
  const configurationProblems: SiteProblem[] = [];
  const metaFiles = files.paths.filter(
    (path) => metaFile.test(path) && sources.some((candidate) => isWithin(candidate.folder, path)),
  );
  for (const file of metaFiles) {
    const meta = await readMeta(files, file);
    if (meta === null) {
      unsupported.push(`${file} could not be read without running it; its entries are not checked`);
      continue;
    }
    if ('error' in meta) {
      configurationProblems.push({
        file,
        line: meta.line,
        message: `${file} is not valid ${file.endsWith('.json') ? 'JSON' : 'JavaScript'}: ${meta.error}`,
        key: 'configuration\0syntax',
      });
      continue;
    }
    const folder = folderOf(file);
    for (const [key, value] of Object.entries(meta.value)) {
      // `*` sets defaults; separators and links name no page of this folder.
      if (key === '*' || (isPlainRecord(value) && (value.type === 'separator' || value.href !== undefined)))
        continue;
      // Nextra merges `content` and `app` into one page map: a key may name a route the other serves.
      const target =
        itemTarget(folder, key, folders, pages, codePages) ??
        servedAt(routeOfKey(sources, folder, key), pages, codeRoutes);
      const path = joinInside(folder, key);
      // A menu of links needs no page of its own, and what a build generates is in no checkout.
      if (target === null && isPlainRecord(value) && value.type === 'menu') continue;
      if (target === null && path !== null && (ignored(`${path}/`) || ignored(`${path}.mdx`))) continue;
      navigation.push({
        reference: key,
        file,
        line: meta.lineOf(key),
        groups: [],
        target,
      });
    }
  }

  const resolveRoute = createNextLinkResolver({
    files,
    siteRoot,
    pages,
    servedRoutes,
    redirects: nextConfig.sources,
    isExpected: createCheckoutCoverage(files.paths),
    docsOf: (route) => {
      if (dynamicPrefixes.some((prefix) => isRouteWithin(prefix, route)) || isRouteWithin('/api', route))
        return null;
      // A content folder serves its base path, under each locale too.
      const servesRoute = (candidate: Source) =>
        isRouteWithin(candidate.basePath, route) ||
        (candidate.kind === 'content' &&
          locales.some((locale) => isRouteWithin(normalizeRoute(`/${locale}${candidate.basePath}`), route)));
      const owners = sources.filter(servesRoute);
      if (owners.length === 0) return null;
      const generated = owners
        .map((owner) =>
          owner.kind === 'app' ? null : joinInside(owner.folder, routeBelow(owner.basePath, route)),
        )
        .find(
          (base) => base !== null && base !== undefined && (ignored(`${base}/`) || ignored(`${base}.mdx`)),
        );
      return { label: owners.map((owner) => owner.folder).join(' or '), generated: generated ?? null };
    },
  });

  const localeOf = (file: string) => {
    const route = pages.get(file)?.[0] ?? '';
    return locales.find((locale) => isRouteWithin(`/${locale}`, route)) ?? null;
  };
  const resolveLink = (from: string, url: string) => {
    const locale = localeOf(from);
    const path = url.trim();
    if (
      locale !== null &&
      path.startsWith('/') &&
      !path.startsWith('//') &&
      !locales.some((code) => isRouteWithin(`/${code}`, path.split(/[?#]/)[0] ?? ''))
    ) {
      const localized = resolveRoute(from, `/${locale}${path === '/' ? '' : path}`);
      if (localized.kind !== 'broken' && localized.kind !== 'unchecked') return localized;
    }
    return resolveRoute(from, url);
  };

  const model: SiteModel = {
    framework: 'nextra',
    siteRoot,
    configFiles: [...(nextConfig.file === null ? [] : [nextConfig.file]), ...metaFiles],
    pages,
    partials: new Set(),
    navigation,
    // Pages a `_meta` file does not name are listed after those it names.
    needsNavigationEntry: () => false,
    resolveLink,
    configurationProblems,
    unsupported,
    conventions: [
      `Pages are \`.mdx\` files in ${sources.map((owner) => `\`${owner.folder}/\``).join(', ') || 'the content folder'}; a page's URL is its path without the extension (\`index.mdx\` is its folder's page${sources.some((owner) => owner.kind === 'app') ? '; in `app/`, a folder with a `page.mdx`' : ''}).`,
      "Links between pages are absolute URLs of the site (`/docs/guide`); a folder's `_meta` file orders and titles its pages: add a new page's key there where the order matters, and remove a key whose page goes, as Nextra's build fails on it.",
    ],
  };
  return model;
};

/** The route a `_meta` key names: its folder's route, then the key (`index` is the folder itself). */
function routeOfKey(sources: readonly Source[], folder: string, key: string): string | null {
  const owner = sources.find((candidate) => isWithin(candidate.folder, folder));
  if (owner === undefined) return null;
  const segments = relativeTo(owner.folder, folder).split('/');
  return routeOf(owner.basePath, [...segments, key], []);
}

/** The page or Next.js page at `route`, or a page under it (the key names a folder of routes). */
function servedAt(
  route: string | null,
  pages: ReadonlyMap<string, readonly string[]>,
  codeRoutes: ReadonlyMap<string, string>,
): string | null {
  if (route === null) return null;
  const code = codeRoutes.get(route);
  if (code !== undefined) return code;
  for (const [page, routes] of pages) {
    const served = routes[0];
    if (served === route) return page;
    if (served !== undefined && route !== '/' && served.startsWith(`${route}/`)) return folderOf(page);
  }
  return null;
}

/** The locales of a Next.js configuration's `i18n: { locales: [...] }`, written as literals. */
function readLocales(configText: string): string[] {
  const list = /\bi18n\s*:\s*\{[^}]{0,1000}?\blocales\s*:\s*\[([^\]]{0,2000})\]/.exec(configText)?.[1];
  return list === undefined
    ? []
    : [...list.matchAll(/["'`]([A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})?)["'`]/g)].map((match) => match[1] ?? '');
}

/** A route from path segments: `index` is its folder, `(group)` folders leave the URL alone. */
function routeOf(basePath: string, segments: readonly string[], dynamicPrefixes: string[]): string {
  const kept = segments.filter((segment) => !/^\(.*\)$/.test(segment) && segment !== '');
  if (kept.at(-1) === 'index') kept.pop();
  const dynamic = kept.findIndex((segment) => /^\[.*\]$/.test(segment));
  // `[[...mdxPath]]` (or `[...mdxPath]`) is Nextra's gateway to the content folder, whose pages are known.
  if (dynamic >= 0 && !/^\[\[?\.\.\.mdxPath\]\]?$/.test(kept[dynamic] ?? '')) {
    const prefix = normalizeRoute(`${basePath}/${kept.slice(0, dynamic).join('/')}`);
    if (!dynamicPrefixes.includes(prefix)) dynamicPrefixes.push(prefix);
  }
  return normalizeRoute(`${basePath}/${kept.join('/')}`);
}

/**
 * A `_meta` file's object and where each key is written; a syntax error (which fails Nextra's build)
 * with its line; null when the object is computed by code this does not run.
 */
async function readMeta(
  files: RepositoryFiles,
  file: string,
): Promise<
  { value: Record<string, unknown>; lineOf(key: string): number } | { error: string; line: number } | null
> {
  const text = (await files.read(file)) ?? '';
  if (file.endsWith('.json')) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error: unknown) {
      return { error: error instanceof Error ? error.message : String(error), line: 1 };
    }
    if (!isPlainRecord(value)) return null;
    const lines = new ConfigLines(text);
    return { value, lineOf: (key) => lines.lineOf(key) };
  }
  const value = readJavaScriptConfig(
    text,
    file.replace(/\.(jsx|tsx)$/, (extension) => extension.slice(0, -1)),
  ).value;
  // The reason ends with the place: "Unexpected token (16:16)". JSX (in a `.tsx`/`.jsx` file) is not
  // read, so a file that may hold some is not said to be invalid.
  const mayHoldJsx = /\.(jsx|tsx)$/.test(file) && /<[A-Za-z>]/.test(text);
  if (value instanceof UnknownValue && value.reason.includes('could not be parsed') && !mayHoldJsx) {
    const place = /\((\d+):\d+\)\s*$/.exec(value.reason);
    return { error: value.reason.replace(/^.*could not be parsed: /, ''), line: Number(place?.[1] ?? 1) };
  }
  if (!isPlainRecord(value)) return null;
  return {
    value,
    lineOf: (key) => {
      const place = propertyPlace(value, key);
      return place === undefined ? 1 : text.slice(0, place.offset).split('\n').length;
    },
  };
}

/**
 * What a `_meta` key names in its folder: a page (`key.mdx`, `key.md`, `key/page.mdx`), a folder's
 * index page, a Next.js page written as code, or a folder (no page itself, but no mistake either).
 */
function itemTarget(
  folder: string,
  key: string,
  folders: ReadonlySet<string>,
  pages: ReadonlyMap<string, readonly string[]>,
  codePages: ReadonlySet<string>,
): string | null {
  const path = joinInside(folder, key);
  if (path === null) return null;
  for (const candidate of [
    `${path}.mdx`,
    `${path}.md`,
    `${path}/index.mdx`,
    `${path}/index.md`,
    `${path}/page.mdx`,
    `${path}/page.md`,
  ]) {
    if (pages.has(candidate)) return candidate;
  }
  if (folders.has(path)) return path;
  for (const extension of ['.tsx', '.ts', '.jsx', '.js']) {
    if (codePages.has(`${path}${extension}`)) return `${path}${extension}`;
  }
  return null;
}
