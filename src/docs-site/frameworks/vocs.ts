import { RE2JS } from 're2js';
import { generatedPlace, readGitIgnored } from '../git-ignored.ts';
import { hasUnknownSpread, isPlainRecord, UnknownValue } from '../javascript-config.ts';
import { ModuleLines } from '../javascript-modules.ts';
import {
  createCaseInsensitiveLookup,
  folderOf,
  isExternalUrl,
  isWithin,
  joinInside,
  listFolders,
  relativeTo,
  splitUrl,
} from '../link-urls.ts';
import { majorOf, nearestDependencies, packageManifests } from '../package-dependencies.ts';
import {
  isUnchecked,
  type LinkTarget,
  type RepositoryFiles,
  type SiteModel,
  type SiteModelBuilder,
} from '../site-model.ts';
import { createCheckoutCoverage } from './checkout-coverage.ts';
import { filePathValue } from './docusaurus-config.ts';
import { resolveFileReference } from './starlight-routes.ts';
import { configurationOf, readConfigModule } from './vitepress-config.ts';
import { readVitePressNavigation, type VitePressNavigation } from './vitepress-navigation.ts';

const configNames = [
  'vocs.config.ts',
  'vocs.config.tsx',
  'vocs.config.js',
  'vocs.config.jsx',
  'vocs.config.mjs',
  'vocs.config.mts',
];
// Vocs 1 globs pages as `pages/**/*.{md,mdx,ts,tsx,js,jsx}` (src/vite/plugins/virtual-routes.ts) and
// finds a link's page with the same extensions and `.html` (remark/links.ts); Vocs 2 as
// src/internal/mdx.ts's `extensions`.
const version1Extensions = ['.html', '.md', '.mdx', '.js', '.jsx', '.ts', '.tsx'];
const version2Extensions = ['.js', '.ts', '.tsx', '.jsx', '.mjs', '.cjs', '.md', '.mdx'];

/**
 * Vocs (https://vocs.dev/docs/structure, /docs/api/config), read as wevm/vocs builds a site. Vocs 1
 * (`vocs` 1.x): pages are the files under `<rootDir>/pages/` (`rootDir` defaults to `docs`) with a
 * page extension, each at its path without the extension (`index` serves its folder); its
 * `remarkLinks` plugin checks every Markdown link that starts with `/`, `./`, `../` (a link without
 * one is left as written): `/x` names `pages/x`, a relative one the file beside the page, and it is
 * found as a file, as `x.{md,mdx,...}` or `x/index.{...}`; `checkDeadlinks` (on by default) fails
 * the build on any other. Vocs 2 keeps pages in `<srcDir>/pages/` (`src` by default) and its
 * `rehypeLinks` checks every link but `http(s):`, `mailto:`, `tel:` and fragments, relative ones from
 * the page's folder, and a folder that exists passes. The sidebar (`sidebar`, an array of
 * `{text, link, items}` or an object keyed by route prefix) and `topNav` are VitePress's shapes.
 */
export const buildVocsSite: SiteModelBuilder = async (source, siteRoot) => {
  const { files } = source;
  const inRoot = (path: string) => (siteRoot === '' ? path : `${siteRoot}/${path}`);
  const configFile = configNames.map(inRoot).find((path) => files.has(path)) ?? inRoot('vocs.config.ts');
  const main = await readConfigModule(files, configFile);
  const { config, unsupported, problems } = configurationOf(main, configFile);
  const major = await vocsMajor(files, siteRoot);

  // Vocs 1: `rootDir` (default `docs`) holds `pages/` and `public/`; Vocs 2: `rootDir` (the
  // configuration's folder) holds `srcDir` (default `src`), which holds `pages/` and `public/`.
  const folderSetting = (value: unknown, fallback: string): string | null => {
    if (value === undefined) return joinInside(siteRoot, fallback);
    const path = filePathValue(value, siteRoot);
    return typeof path === 'string' ? path : null;
  };
  // Vocs 2 sets `rootDir` to the folder it runs in, whatever the configuration says (config.ts `resolve`).
  const rootDir = major === 1 ? folderSetting(config.rootDir, 'docs') : siteRoot;
  const srcDir =
    rootDir === null
      ? null
      : major === 1
        ? rootDir
        : typeof config.srcDir === 'string'
          ? joinInside(rootDir, config.srcDir)
          : config.srcDir === undefined
            ? joinInside(rootDir, 'src')
            : null;
  if (srcDir === null)
    unsupported.push(`${configFile}: the pages' folder is computed by code; the default one is read`);
  const contentDir = srcDir ?? (major === 1 ? inRoot('docs') : inRoot('src'));
  const pagesDir = contentDir === '' ? 'pages' : `${contentDir}/pages`;
  const publicDir = contentDir === '' ? 'public' : `${contentDir}/public`;
  const extensions = major === 1 ? version1Extensions : version2Extensions;
  // As Vocs 1's `parseBasePath`: a leading `/`, no trailing one.
  const basePath =
    typeof config.basePath === 'string' && config.basePath.replace(/^\/+|\/+$/g, '') !== ''
      ? `/${config.basePath.replace(/^\/+|\/+$/g, '')}`
      : '';
  const checkDeadlinks = config.checkDeadlinks;
  const checksLinks = checkDeadlinks === undefined || checkDeadlinks === true || checkDeadlinks === 'warn';

  const pages = new Map<string, string[]>();
  /** Folders under which a dynamic page (`[slug].tsx`, `[...rest].mdx`) serves routes Vocs 2 makes at request time. */
  const dynamicFolders = new Set<string>();
  const routeOf = (relative: string) =>
    `/${relative.replace(/\.[^./]*$/, '')}`.replace(/\/index$/, '').replace(/^$/, '/') || '/';
  for (const path of files.paths) {
    if (!isWithin(pagesDir, path) || path === pagesDir || !/\.mdx?$/.test(path)) continue;
    const relative = relativeTo(pagesDir, path);
    // Vocs 2 leaves dynamic segments (`[slug].mdx`) to its runtime.
    if (relative.includes('[')) continue;
    const route = routeOf(relative);
    pages.set(path, route === '/' ? [`${basePath}/`] : [`${basePath}${route}`, `${basePath}${route}.html`]);
  }
  for (const path of files.paths) {
    if (!isWithin(pagesDir, path) || !relativeTo(pagesDir, path).includes('[')) continue;
    const relative = relativeTo(pagesDir, path);
    dynamicFolders.add(
      joinInside(pagesDir, relative.slice(0, relative.indexOf('[')).replace(/\/[^/]*$/, '')) ?? pagesDir,
    );
  }
  if (pages.size === 0) unsupported.push(`${configFile}: no pages under ${pagesDir}/ (nothing is checked)`);

  /** The file a path names as Vocs looks for it: itself, with a page extension, or its folder's index. */
  const findPage = (path: string): string | null => {
    if (files.has(path)) return path;
    for (const extension of extensions) {
      if (files.has(`${path}/index${extension}`)) return `${path}/index${extension}`;
      if (files.has(`${path}${extension}`)) return `${path}${extension}`;
    }
    return null;
  };
  const folders = listFolders(files.paths);
  const ignored = await readGitIgnored(files);
  const isExpected = createCheckoutCoverage(files.paths);
  const openapi = config.openapi !== undefined;

  const resolveLink: SiteModel['resolveLink'] = (from, url, link) => {
    const kind = link?.kind ?? 'link';
    const trimmed = url.trim();
    if (kind === 'image' || kind === 'import') {
      if (isExternalUrl(trimmed) || !/^\.{0,2}\//.test(splitUrl(trimmed).path)) return { kind: 'external' };
      const { path } = splitUrl(trimmed);
      if (path.startsWith('/')) {
        const publicFile = joinInside(publicDir, path.slice(1));
        return publicFile !== null && files.has(publicFile)
          ? { kind: 'file', file: publicFile }
          : { kind: 'unchecked', reason: `${path} is not in ${publicDir}/` };
      }
      const reference = resolveFileReference(files, from, path);
      if (reference !== null) return reference;
      // The bundler fails on an import of a file that is not there, when this checkout can tell.
      const file = joinInside(folderOf(from), path);
      // A file the `.gitignore` names is one a build step writes (ENS's generated JSON).
      if (
        kind === 'import' &&
        file !== null &&
        /\.[A-Za-z0-9]+$/.test(file) &&
        isExpected(file) &&
        !ignored(file)
      )
        return { kind: 'broken', reason: `no file ${file} to import` };
      return { kind: 'unchecked', reason: 'a file the bundler resolves' };
    }
    if (trimmed.startsWith('#') || trimmed === '') return { kind: 'external' };
    // Vocs 1 checks only links starting with `/`, `./` or `../` (`//host` too); Vocs 2 all but
    // `http(s)://`, `mailto:` and `tel:`, written in lower case: `HTTPS://`, `ftp:` and `//host` are
    // paths to it, and dead.
    const schemeAsPath =
      major === 2 &&
      /^([a-z][a-z0-9+.-]*:|\/\/)/i.test(trimmed) &&
      !/^(https?:\/\/|mailto:|tel:)/.test(trimmed);
    if (schemeAsPath && checksLinks)
      return {
        kind: 'broken',
        reason: `Vocs 2 reads it as a path (it skips only \`http(s)://\`, \`mailto:\` and \`tel:\`, in lower case) and finds no page${checkDeadlinks === 'warn' ? '' : '; the build fails'}`,
      };
    if (
      major === 1
        ? !/^\.*\//.test(trimmed)
        : /^(https?:\/\/|mailto:|tel:)/.test(trimmed) || isExternalUrl(trimmed)
    )
      return isExternalUrl(trimmed)
        ? { kind: 'external' }
        : { kind: 'unchecked', reason: 'Vocs 1 leaves a link without `/`, `./` or `../` as written' };
    if (trimmed.includes('%60')) return { kind: 'unchecked', reason: 'a Twoslash type link' };
    // JSX and raw HTML links are no Markdown links: neither version checks them.
    if (kind === 'html') return { kind: 'unchecked', reason: 'Vocs checks Markdown links only' };
    // Vocs takes the part before `#` as a path, as written (no decoding).
    const written = trimmed.split('#')[0] ?? '';
    if (major === 2 && written === '/TODO') return { kind: 'served', reason: 'Vocs allows /TODO links' };
    const target = written.startsWith('/')
      ? joinInside(pagesDir, written.slice(1))
      : joinInside(folderOf(from), written);
    if (target === null) return { kind: 'unchecked', reason: 'the link leaves the repository' };
    const found = findPage(target.replace(/(?<!\/)\/+$/, ''));
    if (found !== null) return { kind: 'file', file: found };
    // Vocs 2 takes a folder that exists, index page or not.
    if (major === 2 && folders.has(target.replace(/(?<!\/)\/+$/, '')))
      return { kind: 'served', reason: 'Vocs 2 takes a folder that exists' };
    if (openapi && written.startsWith('/'))
      return { kind: 'unchecked', reason: 'a route the OpenAPI specification generates' };
    if (generatedPlace(ignored, target.replace(/\.(mdx?|html)$/, '')) !== null)
      return { kind: 'unchecked', reason: 'a page a build step writes (the .gitignore lists its place)' };
    if (!checksLinks) return { kind: 'unchecked', reason: '`checkDeadlinks` is off' };
    return {
      kind: 'broken',
      reason: `no page or file at ${relativeTo(siteRoot, target) || '/'}; Vocs reports a dead link${checkDeadlinks === 'warn' ? '' : ' and the build fails'}`,
    };
  };

  // MDX files pages import (`import Snippet from './snippet.mdx'`): Vocs compiles them, links too.
  const partials = new Set<string>();
  const importers = [...pages.keys()];
  while (importers.length > 0 && partials.size < 10_000) {
    const importer = importers.pop() as string;
    for (const link of (await source.pageFacts(importer))?.links ?? []) {
      if (link.kind !== 'import' || !/\.mdx?$/.test(splitUrl(link.url).path)) continue;
      const imported = resolveFileReference(files, importer, splitUrl(link.url).path)?.file;
      if (imported === undefined || pages.has(imported) || partials.has(imported)) continue;
      partials.add(imported);
      importers.push(imported);
    }
  }

  // Navigation: `sidebar` and `topNav`, routes written without the `basePath`. The router matches
  // them without case (React Router's default), and a redirect (Vocs 2's `redirects`, a
  // `vercel.json` beside the site) serves a moved page to a reader.
  const redirected = await readRedirectSources(files, siteRoot, config.redirects);
  const redirectsKnown =
    config.redirects === undefined ||
    (Array.isArray(config.redirects) &&
      !hasUnknownSpread(config.redirects) &&
      config.redirects.every((redirect) => isPlainRecord(redirect) && typeof redirect.source === 'string'));
  const writesAfterBuild = await runsStepsAfterBuild(files, siteRoot);
  const anyCase = createCaseInsensitiveLookup(files.paths);
  const pageFolders = new Set([...folders].filter((folder) => isWithin(pagesDir, folder)));
  // Sections the navigation names on their own (a sidebar's key, a top-nav item): a route at the
  // top that no page serves may be another tool's output there (reth's `/docs`: its Rust API docs).
  const sections = new Set<string>();
  const firstSegment = (route: string) => route.replace(/^\/+/, '').split('/')[0] ?? '';
  if (isPlainRecord(config.sidebar))
    for (const key of Object.keys(config.sidebar)) sections.add(firstSegment(key));
  const addTopNav = (items: unknown, depth: number) => {
    if (!Array.isArray(items) || depth > 3) return;
    for (const item of items.slice(0, 500)) {
      if (!isPlainRecord(item)) continue;
      if (typeof item.link === 'string' && !isExternalUrl(item.link)) sections.add(firstSegment(item.link));
      addTopNav(item.items, depth + 1);
    }
  };
  addTopNav(config.topNav, 0);
  sections.delete('');
  /** The page at a route as the router matches it: exactly, then without case (React Router's default). */
  const pageAtRoute = (route: string): string | null => {
    const target = joinInside(pagesDir, route.replace(/^\/+/, '').replace(/\.html$/, ''));
    if (target === null) return null;
    const bare = target.replace(/(?<!\/)\/+$/, '');
    return (
      findPage(bare) ??
      [bare, ...extensions.flatMap((extension) => [`${bare}${extension}`, `${bare}/index${extension}`])]
        .map((candidate) => anyCase(candidate))
        .find((candidate) => candidate !== undefined) ??
      null
    );
  };
  const resolveRoute = (link: string): LinkTarget => {
    const { path } = splitUrl(link);
    if (path === '' || isExternalUrl(link)) return { kind: 'external' };
    // The router adds the `basePath` itself (`basename`): a link is a route as written.
    const found = pageAtRoute(path);
    if (found !== null) return { kind: 'file', file: found };
    const route = `/${path.replace(/^\/+/, '').replace(/(?<!\/)\/+$/, '')}`;
    if (
      basePath !== '' &&
      route.startsWith(`${basePath}/`) &&
      pageAtRoute(route.slice(basePath.length)) !== null
    )
      return { kind: 'unchecked', reason: 'a route written with the basePath, which the router adds again' };
    if (redirected(route)) return { kind: 'served', reason: 'a redirect' };
    if (openapi) return { kind: 'unchecked', reason: 'a route the OpenAPI specification generates' };
    const target = joinInside(pagesDir, route.slice(1).replace(/\.html$/, ''));
    if (target === null) return { kind: 'unchecked', reason: 'outside the repository' };
    if ([...dynamicFolders].some((folder) => isWithin(folder, target)) || /^\/_api(\/|$)/.test(route))
      return { kind: 'unchecked', reason: 'a route a dynamic page or an API route serves' };
    // When the build runs steps after `vocs build`, a route into no folder of pages, or a section of
    // its own at the top, may be what they write (reth copies its Rust API docs to `/docs`).
    const parent = folderOf(target);
    if (
      writesAfterBuild &&
      (parent === pagesDir ? sections.has(firstSegment(route)) : !pageFolders.has(parent))
    )
      return { kind: 'unchecked', reason: outsidePages };
    if (generatedPlace(ignored, target) !== null)
      return { kind: 'unchecked', reason: 'a page a build step writes (the .gitignore lists its place)' };
    const publicFile = joinInside(publicDir, route.slice(1));
    if (publicFile !== null && files.has(publicFile)) return { kind: 'served', reason: 'a public file' };
    if (!redirectsKnown) return { kind: 'unchecked', reason: 'redirects computed by code may serve it' };
    return { kind: 'broken', reason: 'no page' };
  };
  const navigation: VitePressNavigation = { entries: [], sidebarPrefixes: [], unsupported };
  const navigationKnown = main.value !== null && !hasUnknownSpread(config);
  if (!navigationKnown || config.sidebar instanceof UnknownValue || config.topNav instanceof UnknownValue) {
    unsupported.push(`${configFile}: the sidebar is computed by code; navigation is unchecked`);
    navigation.entries.push({
      reference: '(computed)',
      file: configFile,
      line: 1,
      groups: [],
      target: { unchecked: 'the sidebar is computed by code' },
    });
  } else {
    const lines = new ModuleLines(main.modules ?? { files: [configFile], texts: new Map() });
    readVitePressNavigation(
      { sidebar: config.sidebar, nav: config.topNav },
      [],
      lines,
      resolveRoute,
      navigation,
      { vocs: true },
    );
  }
  // What is unchecked for being outside the pages is no new page.
  for (const entry of navigation.entries) {
    if (isUnchecked(entry.target) && entry.target.unchecked === outsidePages)
      entry.target = { unchecked: outsidePages, onlyFiles: [] };
  }
  const prefixes = navigation.sidebarPrefixes.map((prefix) => prefix.replace(/^(?!\/)/, '/'));
  const needsNavigationEntry = (file: string): boolean => {
    if (!pages.has(file) || !isWithin(pagesDir, file)) return false;
    const route = routeOf(relativeTo(pagesDir, file));
    return route !== '/' && prefixes.some((prefix) => prefix === '/' || route.startsWith(prefix));
  };

  return {
    framework: 'vocs',
    siteRoot,
    configFiles: [...(main.modules?.files ?? [configFile])],
    pages,
    partials,
    navigation: navigation.entries,
    needsNavigationEntry,
    resolveLink,
    configurationProblems: problems,
    unsupported: navigation.unsupported,
    conventions: [
      major === 1
        ? `Links between pages start with \`/\` (a route under ${pagesDir}/, without the \`basePath\`) or \`./\`/\`../\` (a file beside the page), with or without \`.md\`/\`.mdx\`; Vocs fails the build on one that names no page (\`checkDeadlinks\`).`
        : `Links between pages are routes under ${pagesDir}/ (\`/guide/start\`) or paths relative to the page's file, with or without \`.md\`/\`.mdx\`; Vocs fails the build on one that names no page (\`checkDeadlinks\`).`,
      `Pages are .md/.mdx files under ${pagesDir}/, each at its path without the extension (\`index\` serves its folder).`,
      prefixes.length > 0
        ? `The sidebar is \`sidebar\` in ${configFile}: add new pages there (\`{ text, link: '/route' }\`).`
        : 'The site has no sidebar in its configuration: new pages need no navigation entry.',
    ],
  };
};

const outsidePages = 'a route into no folder of pages, which a build step may write';

/**
 * The routes redirects serve: Vocs 2's `redirects` (`{ source, destination }`, URLPattern sources)
 * and a `vercel.json`'s beside the site or at the repository's root (path-to-regexp sources): a
 * `:name` is one segment, `:name*` any rest, `:name+` at least one. A source with groups or other
 * syntax is not read. At most 2,000 sources of 1 KiB, one RE2 expression (repository content is hostile).
 */
async function readRedirectSources(
  files: RepositoryFiles,
  siteRoot: string,
  configured: unknown,
): Promise<(route: string) => boolean> {
  const sources: unknown[] = Array.isArray(configured) ? [...configured] : [];
  for (const file of new Set([siteRoot === '' ? 'vercel.json' : `${siteRoot}/vercel.json`, 'vercel.json'])) {
    try {
      const value: unknown = JSON.parse((await files.read(file)) ?? 'null');
      if (isPlainRecord(value) && Array.isArray(value.redirects))
        sources.push(...value.redirects.slice(0, 2_000));
    } catch {}
  }
  const expressions = sources.slice(0, 2_000).flatMap((redirect) => {
    const source = isPlainRecord(redirect) ? redirect.source : undefined;
    if (typeof source !== 'string' || !source.startsWith('/') || source.length > 1_024) return [];
    // Syntax this reader does not follow (`(.*)`, `:slug?`, `{...}`, a bare `*`): the source is read
    // as covering everything under its fixed start, so nothing it may serve is reported.
    const special = /[()[\]{}?]|(?<!:[A-Za-z0-9_]*)\*/.exec(source);
    // Up to the segment that holds it: `/gone/:slug?` covers `/gone` and all under it.
    const readable = special === null ? source : source.slice(0, source.lastIndexOf('/', special.index));
    const expression = readable
      .replace(/(?<!\/)\/+$/, '')
      .split(/(\/?:[A-Za-z_][A-Za-z0-9_]*[*+]?)/)
      .map((part) => {
        if (!/^\/?:/.test(part)) return part.replace(/[.*+?^$|\\]/g, '\\$&');
        const slash = part.startsWith('/') ? '/' : '';
        // `/:path*` matches the prefix itself too (URLPattern, path-to-regexp).
        if (part.endsWith('*')) return slash === '' ? '.*' : '(?:/.*)?';
        return `${slash}${part.endsWith('+') ? '.+' : '[^/]+'}`;
      })
      .join('');
    return [special === null ? expression || '/' : `${expression}(?:/.*)?`];
  });
  if (expressions.length === 0) return () => false;
  try {
    const regex = RE2JS.compile(`^(?:${expressions.join('|')})/?$`);
    return (route) => regex.matches(route);
  } catch {
    return () => false;
  }
}

/**
 * Whether the nearest `package.json` script that runs `vocs build` runs other commands after it
 * (reth's `vocs build && bun scripts/inject-cargo-docs.ts`), which may add routes to the output.
 */
async function runsStepsAfterBuild(files: RepositoryFiles, siteRoot: string): Promise<boolean> {
  for await (const manifest of packageManifests(files, siteRoot)) {
    const scripts = isPlainRecord(manifest.scripts) ? manifest.scripts : {};
    for (const script of Object.values(scripts)) {
      if (typeof script !== 'string' || script.length > 4_096) continue;
      // `vocs build` as a command (`create-vocs build` is another package's script).
      const at = script.search(/(?:^|[\s;&|(])vocs\s+build\b/);
      if (at < 0) continue;
      const after = script
        .slice(at)
        .split(/&&|;|\|\|/)
        .slice(1);
      // Environment assignments (`NODE_OPTIONS=... vocs search-index`) before another `vocs` command.
      return after.some((step) => step.trim() !== '' && !/^\s*(?:[^\s=]+=\S*\s+)*vocs\b/.test(step));
    }
  }
  return false;
}

async function vocsMajor(files: RepositoryFiles, siteRoot: string): Promise<1 | 2> {
  for (const { range } of await nearestDependencies(files, siteRoot, ['vocs'])) {
    const major = majorOf(range);
    if (major !== null) return major >= 2 ? 2 : 1;
  }
  // Without a version, the layout tells: Vocs 2 keeps pages in `src/pages/`.
  const inRoot = (path: string) => (siteRoot === '' ? path : `${siteRoot}/${path}`);
  return files.paths.some((path) => path.startsWith(inRoot('src/pages/'))) &&
    !files.paths.some((path) => path.startsWith(inRoot('docs/pages/')))
    ? 2
    : 1;
}
