import { posix } from 'node:path';
import { parseDocument } from 'yaml';
import { generatedPlace, readGitIgnored } from '../git-ignored.ts';
import { type PageAnchors, readMdcAnchors } from '../heading-anchors.ts';
import { hasUnknownSpread, isPlainRecord } from '../javascript-config.ts';
import {
  createCaseInsensitiveLookup,
  decodePath,
  isExternalUrl,
  isWithin,
  joinInside,
  relativeTo,
  resolveFromPageUrl,
  splitUrl,
} from '../link-urls.ts';
import { nearestDependencies } from '../package-dependencies.ts';
import type { LinkTarget, NavigationEntry, SiteModel, SiteModelBuilder } from '../site-model.ts';
import { createCheckoutCoverage } from './checkout-coverage.ts';
import { contentVersion, readCollections } from './nuxt-content-collections.ts';
import { generatePath, normaliseLink } from './nuxt-content-paths.ts';
import { readRouteRules, readVuePages } from './nuxt-content-routes.ts';
import { isAssetPath } from './starlight-routes.ts';
import { configurationOf, readConfigModule } from './vitepress-config.ts';

const configNames = ['nuxt.config.ts', 'nuxt.config.js', 'nuxt.config.mjs', 'nuxt.config.mts'];
const contentConfigNames = [
  'content.config.ts',
  'content.config.js',
  'content.config.mjs',
  'content.config.mts',
];
/** Layers that bring no content of their own: Docus's collections are modelled; Nuxt UI Pro brings components. */
const docusLayers = new Set(['docus', '@nuxt-themes/docus']);
const componentLayers = new Set(['@nuxt/ui-pro', '@nuxt/ui']);
/** Files Nuxt Content parses (v3 src/utils/content/transformers/index.ts; v2 adds `.json5`). */
const contentExtensions = /\.(md|ya?ml|json5?|csv)$/i;
/** Routes a Nuxt site answers without a content file: Docus's raw Markdown and llms files, Nuxt's and Nitro's own. */
const generatedRoutes =
  /^\/(?:raw\/.+\.md|llms(?:-full)?\.txt|sitemap(?:_index)?\.xml|robots\.txt|mcp|200\.html|404\.html|_nuxt\/.*|__nuxt_content\/.*|api\/_content\/.*|api\/search|_og\/.*|__og-image__\/.*|opensearch\.xml)$/;

/**
 * Nuxt Content sites (https://content.nuxt.com), Docus's (https://docus.dev) among them, read as
 * Nuxt Content 2 and 3 build them (nuxt/content v2.13, v3.14; nuxt-themes/docus 1.x;
 * nuxt-content/docus 3 to 5). A page is a Markdown file of a page collection (v3's
 * `content.config.ts`, or Docus's `landing` and `docs` collections, per locale with `@nuxtjs/i18n`;
 * v2: every file under `content/` but names starting with `.` or `-`, drafts and `_` partials), at
 * the route its path makes (`generatePath`: `1.guide/2.install.md` is `/guide/install`), or its
 * front matter's `path` (v3) or `_path` (v2). The router finds a page by its exact route (case
 * included), a trailing slash aside. A Markdown link to a relative `.md` file is rewritten to a
 * route; every link then resolves against the page's URL, not its file (in `guide/index.md`, served
 * at `/guide`, `./install` is `/install`), as the router and the prerender crawler resolve it.
 * Nuxt's own pages (`pages/`, `app/pages/`), `routeRules` redirects and `public/` files are routes
 * too. The navigation is made from the pages; `_dir.yml` and `.navigation.yml` may set a
 * `navigation.redirect` that names a route.
 */
export const buildNuxtContentSite: SiteModelBuilder = async (source, siteRoot) => {
  const { files } = source;
  const inRoot = (path: string) => (siteRoot === '' ? path : `${siteRoot}/${path}`);
  const configFile = configNames.map(inRoot).find((path) => files.has(path)) ?? inRoot('nuxt.config.ts');
  const main = files.has(configFile) ? await readConfigModule(files, configFile) : null;
  const { config, unsupported, problems } = configurationOf(main, configFile);
  const configKnown = main?.value !== null && !hasUnknownSpread(config);

  const layers = (Array.isArray(config.extends) ? config.extends : [config.extends ?? config.theme]).flatMap(
    (layer) =>
      typeof layer === 'string'
        ? [layer]
        : Array.isArray(layer) && typeof layer[0] === 'string'
          ? [layer[0]]
          : layer === undefined
            ? []
            : ['(computed)'],
  );
  const dependencies = await nearestDependencies(files, siteRoot, [
    'docus',
    '@nuxt-themes/docus',
    '@nuxt/content',
  ]);
  const docus =
    layers.some((layer) => docusLayers.has(layer)) ||
    dependencies.some((dependency) => dependency.name !== '@nuxt/content');
  // A layer this model does not know may add pages, collections or routes of its own.
  const foreignLayers = layers.filter((layer) => !docusLayers.has(layer) && !componentLayers.has(layer));
  if (foreignLayers.length > 0)
    unsupported.push(
      `${configFile}: the layers ${foreignLayers.join(', ')} may add pages and routes; links to routes no file here serves are unchecked`,
    );
  const contentConfigFile = contentConfigNames.map(inRoot).find((path) => files.has(path));
  const version = contentVersion(dependencies, contentConfigFile !== undefined);
  const contentDir = inRoot('content');

  // Collections (v3) or the content folder's files (v2): each page with its routes.
  const pages = new Map<string, string[]>();
  const partials = new Set<string>();
  /** Routes of content files that are no Markdown page (YAML, JSON, CSV pages), and of drafts (v2: 404 in a build). */
  const dataRoutes = new Set<string>();
  const drafts = new Set<string>();
  let collectionsKnown = true;
  const frontMatterOf = async (path: string) => (await source.pageFacts(path))?.frontMatter ?? null;
  const addPage = async (path: string, stem: string) => {
    const frontMatter = /\.md$/i.test(path) ? await frontMatterOf(path) : null;
    const written = version === 3 ? frontMatter?.path : frontMatter?._path;
    // Nuxt Content takes a front matter's path as written: one without a leading `/`, or with a
    // trailing one, is a route the router never asks for.
    const route = typeof written === 'string' ? written : generatePath(stem);
    if (!/\.md$/i.test(path)) {
      dataRoutes.add(route);
      return;
    }
    if (
      version === 2 &&
      (/\.draft(\/|\.|$)/.test(stem) || frontMatter?.draft === true || frontMatter?._draft === true)
    ) {
      drafts.add(route);
      partials.add(path);
      return;
    }
    if (pages.has(path)) return;
    pages.set(path, [route]);
  };
  if (version === 3) {
    const collections = await readCollections(files, siteRoot, contentConfigFile, docus, config, unsupported);
    if (collections === null) collectionsKnown = false;
    for (const collection of collections ?? [])
      for (const { cwd, include, exclude, fixed, prefix } of collection.sources)
        for (const path of files.paths) {
          if (!isWithin(cwd, path) || path === cwd || !contentExtensions.test(path)) continue;
          const key = relativeTo(cwd, path);
          if (!include(key) || exclude(key) || /(^|\/)\.navigation\.ya?ml$/.test(key)) continue;
          const stem = posix.join(prefix, key.slice(fixed.length)).replace(/\.[^./]+$/, '');
          await addPage(path, stem);
        }
  } else {
    // v2: every parsed file but those with a segment starting with `.` or `-` (and `ignores`).
    const content = isPlainRecord(config.content) ? config.content : {};
    const locales = Array.isArray(content.locales)
      ? content.locales.filter((locale) => typeof locale === 'string')
      : [];
    if (content.sources !== undefined || content.ignores !== undefined) {
      collectionsKnown = false;
      unsupported.push(
        `${configFile}: \`content.sources\` and \`content.ignores\` are not read; links to routes no file here serves are unchecked`,
      );
    }
    for (const path of files.paths) {
      if (!isWithin(contentDir, path) || path === contentDir || !contentExtensions.test(path)) continue;
      const key = relativeTo(contentDir, path);
      if (key.split('/').some((segment) => segment.startsWith('.') || segment.startsWith('-'))) continue;
      if (key.split('/').some((segment) => segment.startsWith('_'))) {
        if (/\.md$/i.test(key)) partials.add(path);
        continue;
      }
      // `content.locales`: a locale's folder is no part of the route.
      const parts = key.split('/');
      if (parts.length > 1 && locales.includes(parts[0] ?? '')) parts.shift();
      await addPage(path, parts.join('/').replace(/\.[^./]+$/, ''));
    }
  }
  if (pages.size === 0 && collectionsKnown)
    unsupported.push(`${contentDir || 'content'}/: no pages (nothing is checked)`);

  // Routes: pages (exactly, as the database compares them), Nuxt pages, redirects, public files.
  const routes = new Map<string, string>();
  for (const [page, served] of pages)
    for (const route of served) if (!routes.has(route)) routes.set(route, page);
  const anyCaseRoute = new Map<string, string>();
  for (const route of routes.keys())
    if (!anyCaseRoute.has(route.toLowerCase())) anyCaseRoute.set(route.toLowerCase(), route);
  const vuePages = readVuePages(files, siteRoot);
  const redirects = readRouteRules(config.routeRules);
  if (redirects === null)
    unsupported.push(
      `${configFile}: \`routeRules\` are computed by code; a route no page serves may be redirected and is unchecked`,
    );
  const publicDir = inRoot('public');
  const publicFiles = createCaseInsensitiveLookup(files.paths.filter((path) => isWithin(publicDir, path)));
  const ignored = await readGitIgnored(files);
  const isExpected = createCheckoutCoverage(files.paths);
  const routesKnown = configKnown && collectionsKnown && foreignLayers.length === 0 && redirects !== null;

  const resolveRoute = (route: string): LinkTarget => {
    const path = route.length > 1 ? route.replace(/\/+$/, '') : route;
    const page = routes.get(path) ?? routes.get(decodePath(path));
    if (page !== undefined) return { kind: 'file', file: page };
    if (dataRoutes.has(path) || vuePages.serves(path))
      return { kind: 'served', reason: 'a route of the site' };
    if (vuePages.dynamic(path)) return { kind: 'unchecked', reason: 'a route a dynamic Nuxt page serves' };
    if (redirects?.(path) === true) return { kind: 'served', reason: 'a redirect in `routeRules`' };
    const publicFile = joinInside(publicDir, decodePath(path).slice(1));
    if (publicFile !== null && publicFiles(publicFile) !== undefined)
      return { kind: 'served', reason: 'a public file' };
    // A file this checkout may not hold (no files of its kind here, as in a copy of the text files only).
    if (
      publicFile !== null &&
      isAssetPath(publicFile) &&
      !/\/\d+\.[^/]*$/.test(publicFile) &&
      !isExpected(publicFile)
    )
      return { kind: 'unchecked', reason: 'a public file of a kind this checkout does not hold' };
    if (generatedRoutes.test(path)) return { kind: 'unchecked', reason: 'a route Nuxt or Docus generates' };
    if (!routesKnown) return { kind: 'unchecked', reason: 'routes this model cannot know may serve it' };
    if (drafts.has(path))
      return { kind: 'broken', reason: 'a draft, which Nuxt Content leaves out of a build' };
    if (publicFile !== null && generatedPlace(ignored, publicFile) !== null)
      return {
        kind: 'unchecked',
        reason: 'a public file a build step writes (the .gitignore lists its place)',
      };
    const otherCase = anyCaseRoute.get(path.toLowerCase());
    if (otherCase !== undefined)
      return {
        kind: 'broken',
        reason: `no page at ${path}; the router tells case apart (${otherCase} is ${routes.get(otherCase)})`,
      };
    return { kind: 'broken', reason: `no page at ${path}` };
  };

  const routeOfPage = (file: string): string | null => pages.get(file)?.[0] ?? null;
  const resolveLink: SiteModel['resolveLink'] = (from, url, link) => {
    const trimmed = url.trim();
    if (trimmed === '' || trimmed.startsWith('#') || isExternalUrl(trimmed)) return { kind: 'external' };
    if (version === 1) return { kind: 'unchecked', reason: 'Nuxt Content 1: the site’s own pages route it' };
    const kind = link?.kind ?? 'link';
    // Markdown links to `.md` files are rewritten to routes; HTML and components' props are not.
    const written = kind === 'link' ? normaliseLink(trimmed, version) : trimmed;
    const { path } = splitUrl(written);
    if (path === '') return { kind: 'external' };
    if (path.startsWith('/')) {
      const resolved = resolveRoute(path);
      return resolved.kind === 'broken' && /\.md$/i.test(path)
        ? {
            ...resolved,
            reason: `${resolved.reason}; Nuxt Content rewrites only relative links to \`.md\` files`,
          }
        : resolved;
    }
    // Relative: from the page's URL (a partial's is unknown).
    const pageUrl = routeOfPage(from);
    if (pageUrl === null) return { kind: 'unchecked', reason: 'a relative link in a file that is no page' };
    const target = resolveFromPageUrl(pageUrl, path);
    const resolved = resolveRoute(target);
    if (resolved.kind !== 'broken') return resolved;
    const rewritten = written === trimmed ? '' : ` (Nuxt Content rewrites the link to ${path})`;
    return {
      kind: 'broken',
      reason: `${resolved.reason}${rewritten}, resolved from the page’s URL, ${pageUrl}`,
    };
  };

  // `_dir.yml` (v2) and `.navigation.yml` (v3) may redirect a folder's entry to a route.
  const navigation: NavigationEntry[] = [];
  for (const path of files.paths) {
    if (!isWithin(contentDir, path) || !/(^|\/)(_dir|\.navigation)\.ya?ml$/.test(path)) continue;
    const text = await files.read(path);
    if (text === null) continue;
    const document = parseDocument(text, { uniqueKeys: false });
    const value = document.toJS({ maxAliasCount: 100 }) as unknown;
    const redirect = isPlainRecord(value)
      ? ((isPlainRecord(value.navigation) ? value.navigation.redirect : undefined) ??
        value['navigation.redirect'])
      : undefined;
    if (typeof redirect !== 'string' || isExternalUrl(redirect)) continue;
    const line = text.split('\n').findIndex((line) => line.includes(redirect)) + 1;
    const target = resolveRoute(splitUrl(redirect).path);
    navigation.push({
      reference: redirect,
      file: path,
      line: Math.max(line, 1),
      groups: [],
      target:
        target.kind === 'file'
          ? target.file
          : target.kind === 'broken'
            ? null
            : {
                unchecked:
                  target.kind === 'served'
                    ? target.reason
                    : target.kind === 'unchecked'
                      ? target.reason
                      : 'external',
              },
    });
  }

  return {
    framework: 'nuxt-content',
    siteRoot,
    configFiles: [configFile, ...(contentConfigFile === undefined ? [] : [contentConfigFile])],
    pages,
    partials,
    navigation,
    // The sidebar is made from the pages themselves.
    needsNavigationEntry: () => false,
    pageAnchors: (_file: string, text: string): PageAnchors => readMdcAnchors(text),
    resolveLink,
    configurationProblems: problems,
    unsupported,
    conventions: [
      `Pages are Markdown files under ${contentDir || 'content'}/, each at its path without numbers and extension, in lower case (\`1.guide/2.install.md\` is \`/guide/install\`; \`index.md\` serves its folder).`,
      'Links between pages are routes (`/guide/install`); a relative link resolves from the page’s URL, not its file (a link in `guide/index.md` resolves from `/`), and only relative links to `.md` files are rewritten to routes.',
      'The sidebar is made from the pages: a new page needs no navigation entry (a `.navigation.yml` or `_dir.yml` sets a folder’s title).',
    ],
  };
};
