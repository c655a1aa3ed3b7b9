import { posix } from 'node:path';
import { parseDocument } from 'yaml';
import { ConfigLines } from '../config-lines.ts';
import { folderOf, isWithin, relativeTo } from '../link-urls.ts';
import type { LinkTarget, NavigationEntry, SiteModel, SiteModelBuilder, SiteProblem } from '../site-model.ts';
import { markdownLinkExample } from './link-example.ts';
import { readRedoclyAnchors } from './redocly-anchors.ts';
import { type ApiPages, maximumCharacters, readApiPages } from './redocly-api-pages.ts';
import { readRedoclyProject } from './redocly-project.ts';
import { buildSlugTable, parseBaseName } from './redocly-slugs.ts';
import { isRecord, yamlValue } from './yaml-problems.ts';

/** API descriptions Realm renders (load-definition.js, is-asyncapi-doc.js): by their top-level key. */
const apiKeys = new Set(['openapi', 'swagger', 'asyncapi']);
const apiKeyInYaml = /^(?:openapi|swagger|asyncapi)[ \t]*:/m;
const maximumRedirects = 20_000;
const maximumSidebarDepth = 32;

/** `normalizeRouteSlug` (dist/utils/path/normalize-route-slug.js): no query, fragment or trailing `/`, decoded. */
function normalizeRouteSlug(slug: string): string {
  let route = slug.split('?')[0]?.split('#')[0] ?? '';
  if (route.endsWith('/')) route = route.length > 1 ? route.replace(/\/+$/, '') : route;
  if (!route.startsWith('/')) route = `/${route}`;
  try {
    return decodeURI(route);
  } catch {
    return route;
  }
}

/** `isLocalLink` (dist/utils/path/is-local-link.js), with every other scheme left alone too (`tel:`). */
function isLocalLink(url: string): boolean {
  return !/^[A-Za-z][A-Za-z0-9+.-]*:/.test(url) && !url.startsWith('//');
}

/**
 * Redocly's docs-as-code projects (Realm, Revel, Reef: https://redocly.com/docs/realm), read as
 * @redocly/realm 0.135.2 builds them. Every `.md` file (Markdoc) of the project is a page, listed in a
 * sidebar or not, but partials (`_partials/`, or `markdown.partialsFolders`) and `ignore:`d files;
 * `.page.tsx` files and API descriptions (any YAML or JSON with a top-level `openapi`, `swagger` or
 * `asyncapi`) are pages too. A page's URL is its path, each segment slugged (lower case,
 * punctuation dropped, a space a `-`, taken names numbered), an `index` its folder's, a version folder
 * `@v1` `v1` (the default version's none), or its front matter's `slug`; each locale under
 * `@l10n/<locale>/` is under `/<locale>`, with every page the locale lacks shown in the default
 * language. Realm's link checker resolves a link with a file extension as a file (from the page's
 * folder, or the project's with a leading `/`) and one without as a URL (from the page's URL, or
 * absolute): a route, or a redirect one step from a route. It checks no anchor.
 */
export const buildRedoclySite: SiteModelBuilder = async (source, siteRoot) => {
  const { files } = source;
  /** A YAML or JSON file with a top-level `openapi`, `swagger` or `asyncapi` key (anywhere in it). */
  const isApiDescription = async (file: string): Promise<boolean> => {
    const text = (await files.read(file)) ?? (await files.readHead?.(file, 65_536)) ?? '';
    // YAML holds JSON too: a `.yaml` file is often a JSON document.
    if (!text.trimStart().startsWith('{')) return apiKeyInYaml.test(text);
    try {
      const value: unknown = JSON.parse(text);
      return isRecord(value) && Object.keys(value).some((key) => apiKeys.has(key));
    } catch {
      return /^\s*\{\s*"(?:openapi|swagger|asyncapi)"\s*:/.test(text);
    }
  };
  const project = await readRedoclyProject(files, siteRoot);
  const { config, copies } = project;
  const inRoot = (path: string) => (siteRoot === '' ? path : `${siteRoot}/${path}`);
  const fromRoot = (path: string) => relativeTo(siteRoot, path);
  /** The repository file a project path shows (a locale's copy shows the default-language file). */
  const repositoryFile = (path: string) => inRoot(copies.get(path) ?? path);
  const configFile = inRoot('redocly.yaml');
  const unsupported: string[] = [];
  const problems: SiteProblem[] = [...project.problems];
  const configFiles = [...project.configFiles];

  const skipped = new Set(project.skippedLocales);
  const skippedPrefixes = new Set(project.skippedLocales.map((locale) => locale.toLowerCase()));
  const visible = project.paths.filter(
    (path) =>
      !project.isIgnored(path) &&
      !(path.startsWith(`${project.localeFolder}/`) && skipped.has(path.split('/')[1] ?? '')),
  );
  if (project.skippedLocales.length > 0)
    unsupported.push(
      `${project.skippedLocales.length} locale folders beyond the first ${project.locales.length} under ${inRoot(project.localeFolder)}/ are not read (each copies every default-language file): links to their pages are unchecked`,
    );
  const table = buildSlugTable(visible, project.defaultVersionOf);
  const localeOf = (path: string) =>
    path.startsWith(`${project.localeFolder}/`) ? (path.split('/')[1] ?? null) : null;
  /** A path's slug before its front matter (`d()` in lifecycle.js). */
  const pathSlug = (path: string): string => {
    const key = path.replace(/^@(i18n|l10n)\//, '');
    const known = table.get(key);
    if (known !== undefined) return known;
    const { baseName, isIndexFile } = parseBaseName(key);
    const folder = posix.dirname(key);
    return normalizeRouteSlug(isIndexFile ? folder : posix.join(folder, baseName));
  };

  // Routes: route -> project path; project path -> its routes (the first canonical).
  const routes = new Map<string, string>();
  const routesOf = new Map<string, string[]>();
  /** API descriptions by their base route: their file, and whether all their pages are known. */
  const apiBases = new Map<string, { path: string; complete: boolean }>();
  const frontMatterSlugs = new Map<string, string[]>();
  const frontMatterRedirects: Array<{ from: string; path: string }> = [];
  const addRoutes = (path: string, slugs: string[]) => {
    const normalized = slugs.map(normalizeRouteSlug);
    routesOf.set(path, normalized);
    for (const route of normalized) {
      // The route registered last wins (React pages after Markdown, API descriptions last).
      const earlier = routes.get(route);
      if (earlier !== undefined && earlier !== path)
        routesOf.set(
          earlier,
          (routesOf.get(earlier) ?? []).filter((taken) => taken !== route),
        );
      routes.set(route, path);
    }
  };
  const slugList = (value: unknown) =>
    (Array.isArray(value)
      ? value
      : value === undefined || value === null || value === ''
        ? []
        : [value]
    ).filter((slug): slug is string => typeof slug === 'string');
  const markdownPages = visible.filter((path) => path.endsWith('.md') && !project.isPartial(path));
  for (const path of markdownPages) {
    if (copies.has(path)) continue;
    const facts = await source.pageFacts(inRoot(path));
    const frontMatter = facts?.frontMatter ?? {};
    const slugs = slugList(frontMatter.slug);
    if (slugs.length > 0) frontMatterSlugs.set(path, slugs);
    if (isRecord(frontMatter.redirects))
      for (const from of Object.keys(frontMatter.redirects)) frontMatterRedirects.push({ from, path });
  }
  /** `resolveFrontmatterSlugs`: from the site's root, a locale's under its prefix. */
  const slugRoutes = (path: string, slugs: string[]) => {
    const locale = localeOf(path);
    return slugs.length === 0
      ? [pathSlug(path)]
      : slugs.map((slug) =>
          locale === null ? normalizeRouteSlug(slug) : `/${locale.toLowerCase()}${normalizeRouteSlug(slug)}`,
        );
  };
  for (const path of markdownPages) {
    // A translation without a `slug` of its own takes its default-language file's.
    const own = frontMatterSlugs.get(copies.get(path) ?? path) ?? [];
    const original =
      localeOf(path) === null ? [] : (frontMatterSlugs.get(path.split('/').slice(2).join('/')) ?? []);
    addRoutes(path, slugRoutes(path, own.length > 0 ? own : original));
  }
  // React pages (`.page.tsx`, `.page.ts`): a `slug` in their exported `frontmatter`.
  for (const path of visible) {
    if (!/\.page\.tsx?$/.test(path)) continue;
    const text = (await files.read(repositoryFile(path))) ?? '';
    const exported =
      /\bexport\s+const\s+frontmatter\b[\s\S]{0,2000}?\bslug\s*:\s*(?:(["'`])([^"'`\n]*)\1|\[([^\]]{0,2000})\])/.exec(
        text,
      );
    const slugs =
      exported === null
        ? []
        : exported[2] !== undefined
          ? [exported[2]]
          : [...(exported[3] ?? '').matchAll(/(["'`])([^"'`\n]*)\1/g)].map((match) => match[2] ?? '');
    addRoutes(path, slugRoutes(path, slugs));
  }
  // Realm's file system knows every file, `ignore:`d ones too (content-fs.js `exists`).
  const existing = new Set(project.paths);
  // API descriptions: a page at their slug, and one per tag, operation and schema below it
  // (OpenAPI's and AsyncAPI's read: redocly-api-pages.ts; GraphQL's below it unchecked). A folder's
  // own `redocly.yaml` configures the descriptions below it: its `apis` entries (their `root` from
  // its folder), `decorators` and `openapi` options, beside the project's (nearest-redocly-config-loader.js).
  const settings = (value: unknown) => (isRecord(value) ? value : {});
  const configs = new Map<string, Record<string, unknown>>([['', config]]);
  for (const path of visible) {
    if (path === 'redocly.yaml' || !/(^|\/)redocly\.yaml$/.test(path)) continue;
    const text = await files.read(inRoot(path));
    if (text === null) continue;
    configFiles.push(inRoot(path));
    configs.set(
      posix.dirname(path),
      settings(yamlValue(parseDocument(text, { logLevel: 'silent' }), inRoot(path)).value),
    );
  }
  /** The nearest configuration of a project path: its folder, and its `apis` entries by their `root`. */
  const nearestConfig = (path: string) => {
    let folder = posix.dirname(path);
    while (folder !== '.' && !configs.has(folder)) folder = posix.dirname(folder);
    const at = folder === '.' ? '' : folder;
    const nearest = configs.get(at) ?? config;
    const entries = Object.values(settings(nearest.apis))
      .filter(isRecord)
      .flatMap((entry) =>
        typeof entry.root === 'string' ? [{ entry, root: posix.join(at, entry.root) }] : [],
      );
    return { folder: at, nearest, entries };
  };
  const apiPages = new Map<string, Promise<ApiPages>>();
  const budget = { characters: maximumCharacters };
  /** The pages of the description at a project path, as the `apis` entry naming it (if any) sets it. */
  const pagesOf = (path: string, entry: Record<string, unknown> | undefined) => {
    const key = `${path}\n${JSON.stringify(entry ?? null)}`;
    let pages = apiPages.get(key);
    if (pages === undefined) {
      const { folder, nearest } = nearestConfig(path);
      const own = nearest === config ? {} : nearest;
      const options = {
        ...settings(config.openapi),
        ...settings(own.openapi),
        ...settings(entry?.openapi ?? settings(entry?.theme).openapi),
      };
      pages = readApiPages(repositoryFile(path), (file) => files.read(file), {
        schemaDefinitionsTagName:
          typeof options.schemaDefinitionsTagName === 'string' ? options.schemaDefinitionsTagName : undefined,
        decorators: {
          ...settings(config.decorators),
          ...settings(own.decorators),
          ...settings(entry?.decorators),
        },
        configFolder: inRoot(folder),
        budget,
      });
      apiPages.set(key, pages);
    }
    return pages;
  };
  const addApi = (path: string, base: string, pages: ApiPages | null) => {
    const routesBelow = [...(pages?.routes ?? [])]
      .filter((route) => route !== '/')
      .map((route) => `${base === '/' ? '' : base}${route}`);
    apiBases.set(base, { path, complete: pages !== null && pages.incomplete === null });
    return [base, ...routesBelow];
  };
  for (const path of visible) {
    if (/(^|\/)redocly\.yaml$/.test(path)) continue;
    let api = false;
    if (/\.(graphql|gql)$/.test(path)) api = true;
    else if (/\.(ya?ml|json)$/.test(path)) api = await isApiDescription(repositoryFile(path));
    if (!api) continue;
    const entry = nearestConfig(path).entries.find(
      (candidate) => candidate.root === path && candidate.entry.output === undefined,
    )?.entry;
    const pages = /\.(graphql|gql)$/.test(path) ? null : await pagesOf(path, entry);
    addRoutes(path, addApi(path, pathSlug(path), pages));
  }
  // An `apis` entry with an `output` shows its root's description a second time, at the output's URL.
  for (const [folder] of configs)
    for (const { entry, root } of nearestConfig(posix.join(folder, 'redocly.yaml')).entries) {
      if (typeof entry.output !== 'string' || !existing.has(root)) continue;
      const pages = await pagesOf(root, entry);
      for (const route of addApi(root, pathSlug(posix.join(folder, entry.output)), pages))
        routes.set(route, root);
    }
  // Pages whose links are read: Markdown ones (React pages and API descriptions are routes only).
  const pages = new Map<string, string[]>();
  for (const path of markdownPages) {
    const list = routesOf.get(path) ?? [];
    const file = repositoryFile(path);
    pages.set(file, [...(pages.get(file) ?? []), ...list]);
  }
  const partials = new Set(
    visible
      .filter((path) => path.endsWith('.md') && project.isPartial(path) && !copies.has(path))
      .map(inRoot),
  );

  // Redirects: `redirects:` (its keys lower-cased; `$ref` to a file), and pages' front matter.
  const redirects = new Map<string, { to: string; line: number; file: string }>();
  const wildcardTree = new Map<string, unknown>();
  const redirectFiles = new Set<string>();
  const readRedirects = async (value: unknown, file: string, lines: ConfigLines) => {
    if (isRecord(value) && typeof value.$ref === 'string') {
      const target = posix.join(folderOf(file), value.$ref);
      // Each file once: one that names itself (or a cycle) is not read again.
      if (redirectFiles.has(target)) return;
      redirectFiles.add(target);
      const text = await files.read(target);
      if (text === null) return;
      configFiles.push(target);
      await readRedirects(
        yamlValue(parseDocument(text, { logLevel: 'silent' }), target).value,
        target,
        new ConfigLines(text),
      );
      return;
    }
    if (!isRecord(value)) return;
    for (const [written, entry] of Object.entries(value).slice(0, maximumRedirects)) {
      if (!isRecord(entry) || typeof entry.to !== 'string') continue;
      const from = (written.endsWith('*') ? written : normalizeRouteSlug(written)).toLowerCase();
      redirects.set(from, { to: entry.to, file, line: lines.lineOf(entry.to) });
    }
  };
  await readRedirects(config.redirects, configFile, project.configText);
  for (const source of redirects.keys()) {
    if (!source.endsWith('*')) continue;
    let node = wildcardTree;
    for (const segment of source
      .replace(/^\/+/, '')
      .replace(/\/?\*$/, '')
      .split('/')) {
      let next = node.get(segment);
      if (!(next instanceof Map)) {
        next = new Map<string, unknown>();
        node.set(segment, next);
      }
      node = next as Map<string, unknown>;
    }
    node.set('*', source);
  }
  const pageRedirects = new Map<string, string>();
  for (const { from, path } of frontMatterRedirects) {
    const route = routesOf.get(path)?.[0];
    if (route !== undefined) pageRedirects.set(normalizeRouteSlug(from).toLowerCase(), route);
  }
  /** `findRedirect`: the exact source, else the deepest wildcard on the path's way down the tree. */
  const redirectOf = (route: string): string | null => {
    const key = normalizeRouteSlug(route).toLowerCase();
    const exact = redirects.get(key)?.to ?? pageRedirects.get(key);
    if (exact !== undefined) return exact;
    let node: Map<string, unknown> = wildcardTree;
    for (const segment of key.replace(/^\/+/, '').split('/')) {
      const next = node.get(segment);
      if (!(next instanceof Map)) break;
      node = next as Map<string, unknown>;
    }
    const source = node.get('*');
    if (typeof source !== 'string') return null;
    const to = redirects.get(source)?.to ?? '';
    return to.endsWith('*') ? to.replace(/\*$/, key.slice(source.split('*')[0]?.length ?? 0)) : to;
  };
  // API catalogs (`catalog`, `catalogClassic`): a page at each one's `slug`, its scorecard below it.
  const catalogSlugs = [config.catalog, config.catalogClassic].flatMap((catalogs) =>
    isRecord(catalogs)
      ? Object.values(catalogs).flatMap((catalog) =>
          isRecord(catalog) && typeof catalog.slug === 'string' ? [normalizeRouteSlug(catalog.slug)] : [],
        )
      : [],
  );
  const catalogOf = (route: string) =>
    catalogSlugs.find((slug) => route === slug || route.startsWith(`${slug === '/' ? '' : slug}/`));
  /** `hasRouteOrRedirectBySlug`: a route, or a redirect to another site or one step from a route. */
  const routeTarget = (route: string): LinkTarget | null => {
    const page = routes.get(route);
    if (page !== undefined) return { kind: 'file', file: repositoryFile(page) };
    if (catalogOf(route) !== undefined) return { kind: 'served', reason: 'an API catalog’s page' };
    if (skippedPrefixes.has(route.split('/')[1] ?? ''))
      return { kind: 'unchecked', reason: 'a page of a locale not read' };
    for (const [base, api] of apiBases)
      if (!api.complete && route.startsWith(`${base === '/' ? '' : base}/`))
        return { kind: 'unchecked', reason: `a page of the API description ${inRoot(api.path)}` };
    const to = redirectOf(route);
    if (to === null) return null;
    if (!isLocalLink(to)) return { kind: 'served', reason: 'a redirect to another site' };
    const target = routes.get(normalizeRouteSlug(to));
    return target === undefined ? null : { kind: 'file', file: repositoryFile(target) };
  };

  const staticFiles = new Set(project.paths.filter((path) => path.startsWith('static/')));
  const resolveLink: SiteModel['resolveLink'] = (from, url, link) => {
    const written = url.trim();
    if (written === '' || written.startsWith('#') || !isLocalLink(written)) return { kind: 'external' };
    if (written.includes('{%'))
      return { kind: 'unchecked', reason: 'a link written with a Markdoc variable' };
    if (/^\/(_spec|_bundle|_spec-gql|_auth)(\/|$)/.test(written))
      return { kind: 'served', reason: 'a file Realm serves (an API description download, sign-in)' };
    const fromPath = fromRoot(from);
    if (link?.kind === 'import') return resolveInclude(fromPath, written, link.title);
    const match = /^([^?#]+)?([^#]+)?(.+)?/.exec(written);
    const path = match?.[1] ?? '';
    if (posix.extname(path) === '') {
      if (path.startsWith('/')) {
        const route = normalizeRouteSlug(path);
        return (
          routeTarget(route) ?? {
            kind: 'broken',
            reason: `no page or redirect is at ${route} (Realm: "Route ${path} does not exist")`,
          }
        );
      }
      // Relative to the page's URL: an index page's own, any other page's folder.
      const pageRoute = routesOf.get(fromPath)?.[0];
      if (pageRoute === undefined || !fromPath.endsWith('.md'))
        return { kind: 'unchecked', reason: 'a relative URL in a file that is no page' };
      const base = parseBaseName(fromPath).isIndexFile ? pageRoute : posix.join(pageRoute, '..');
      const route = normalizeRouteSlug(posix.join(base, path));
      return (
        routeTarget(route) ?? {
          kind: 'broken',
          reason: `no page or redirect is at ${route}, resolved from the page's URL ${pageRoute} (Realm: "Route ${path} does not exist")`,
        }
      );
    }
    // A file: from the project's folder with a leading `/`, else from the page's.
    let decoded = path;
    try {
      decoded = decodeURI(path);
    } catch {}
    const target = path.startsWith('/') ? path.slice(1) : posix.join(posix.dirname(fromPath), decoded);
    const staticPath = path.startsWith('/') ? posix.join('static', path.slice(1)) : '';
    const page = routesOf.has(target) ? target : null;
    if (page !== null) return { kind: 'file', file: repositoryFile(page) };
    if (existing.has(target) || staticFiles.has(staticPath))
      return { kind: 'served', reason: 'a file of the project' };
    return { kind: 'broken', reason: `no file ${inRoot(target)} (Realm: "File ${target} does not exist")` };
  };

  /** `{% partial file="..." %}`: a file in a partials folder, from the including file's folder (or the project's). */
  const resolveInclude = (fromPath: string, written: string, tag: string | undefined): LinkTarget => {
    const locale = localeOf(fromPath);
    // An absolute path is the page's locale's, unless it names a locale folder itself (resolve-relative-path.js).
    const target = written.startsWith('/')
      ? posix.join(
          locale === null || /^@(l10n|i18n)\//.test(written.slice(1))
            ? ''
            : `${project.localeFolder}/${locale}`,
          written.slice(1),
        )
      : posix.join(posix.dirname(fromPath), written);
    if (existing.has(target) && target.endsWith('.md') && project.isPartial(target))
      return { kind: 'file', file: repositoryFile(target) };
    return {
      kind: 'broken',
      reason: existing.has(target)
        ? `${inRoot(target)} is not in a partials folder (\`_partials/\` or \`markdown.partialsFolders\`): Realm stops the build ("Could not resolve partial")`
        : `no file ${inRoot(target)}: Realm stops the build (${tag === 'raw-partial' ? '"Raw partial file does not exist"' : '"Could not resolve partial"'})`,
    };
  };

  // Navigation: every `*sidebars.yaml` not pulled into another by `$ref`, and the navbar's and
  // footer's items in redocly.yaml (or a file it `$ref`s). Paths are read from their file's folder.
  const navigation: NavigationEntry[] = [];
  const sidebarFiles = visible.filter(
    (path) => /sidebars\.yaml$/.test(path) && !copies.has(path) && localeOf(path) === null,
  );
  const referenced = new Set<string>();
  const directoryFolders: string[] = [];
  const readYamlFile = async (path: string) => {
    const text = await files.read(inRoot(path));
    if (text === null) return null;
    if (!configFiles.includes(inRoot(path))) configFiles.push(inRoot(path));
    const document = parseDocument(text, { logLevel: 'silent', uniqueKeys: false });
    return { value: yamlValue(document, inRoot(path)).value, lines: new ConfigLines(text) };
  };
  const walkItems = async (
    items: unknown,
    path: string,
    lines: ConfigLines,
    trail: string[],
    depth: number,
    seen: Set<string>,
  ): Promise<void> => {
    // Groups nested deeper, or `$ref`s followed further, than any sidebar needs are not read.
    if (depth > maximumSidebarDepth) return;
    if (isRecord(items) && typeof items.$ref === 'string') {
      const target = posix.join(posix.dirname(path), items.$ref);
      const read = seen.has(target) ? null : await readYamlFile(target);
      if (read !== null)
        await walkItems(read.value, target, read.lines, trail, depth + 1, new Set([...seen, target]));
      return;
    }
    if (!Array.isArray(items)) return;
    for (const item of items) {
      const entry = typeof item === 'string' ? { page: item } : isRecord(item) ? item : null;
      if (entry === null) continue;
      if (typeof entry.$ref === 'string') {
        await walkItems(entry, path, lines, trail, depth, seen);
        continue;
      }
      if (typeof entry.directory === 'string')
        directoryFolders.push(posix.join(posix.dirname(path), entry.directory).replace(/^\.$/, ''));
      const label =
        typeof entry.group === 'string' ? entry.group : typeof entry.label === 'string' ? entry.label : null;
      if (typeof entry.page === 'string')
        navigation.push({
          reference: entry.page,
          file: inRoot(path),
          line: lines.lineOf(entry.page),
          groups: trail,
          target: navigationTarget(path, entry.page),
        });
      if (entry.items !== undefined)
        await walkItems(
          entry.items,
          path,
          lines,
          label === null ? trail : [...trail, label],
          depth + 1,
          seen,
        );
    }
  };
  /** `resolveItem` (nav-utils.js): a route as written, else a page's file from the item's file's folder. */
  const navigationTarget = (from: string, written: string): NavigationEntry['target'] => {
    const page = written.split('#')[0] ?? '';
    if (/^\/?api(\/|$)/.test(page)) return { unchecked: 'an API functions route', onlyFiles: [] };
    const byRoute = routes.get(normalizeRouteSlug(page));
    if (byRoute !== undefined) return repositoryFile(byRoute);
    if (catalogOf(normalizeRouteSlug(page)) !== undefined)
      return { unchecked: 'an API catalog’s page', onlyFiles: [] };
    const path = (page.startsWith('/') ? page.slice(1) : posix.join(posix.dirname(from), page)).replace(
      /\/+$/,
      '',
    );
    return routesOf.has(path) ? repositoryFile(path) : null;
  };
  // A file another sidebar pulls in by `$ref` is read only there.
  for (const path of sidebarFiles)
    for (const match of ((await files.read(inRoot(path))) ?? '').matchAll(/\$ref\s*:\s*["']?([^"'\s#]+)/g))
      referenced.add(posix.join(posix.dirname(path), match[1] ?? ''));
  for (const path of sidebarFiles) {
    if (referenced.has(path)) continue;
    const read = await readYamlFile(path);
    if (read !== null) await walkItems(read.value, path, read.lines, [], 0, new Set([path]));
  }
  const navbar = isRecord(config.navbar) ? config.navbar : {};
  await walkItems(navbar.items, 'redocly.yaml', project.configText, ['navbar'], 0, new Set());
  const footer = isRecord(config.footer) ? config.footer : {};
  for (const column of Array.isArray(footer.columns) ? footer.columns : [])
    if (isRecord(column))
      await walkItems(column.items, 'redocly.yaml', project.configText, ['footer'], 0, new Set());

  // Redirect destinations that name nothing (`validateRedirects`): no route, nor a redirect one step
  // from one, nor a file of the project or `static/` (its path matched without case).
  const lowerFiles = new Set([...existing].map((path) => path.toLowerCase()));
  for (const [from, redirect] of redirects) {
    const to = redirect.to.trim();
    if (!isLocalLink(to) || to.endsWith('*')) continue;
    if (routeTarget(normalizeRouteSlug(to)) !== null) continue;
    let file = to.split(/[?#]/)[0] ?? '';
    try {
      file = decodeURI(file);
    } catch {}
    file = file.replace(/^\/+/, '').toLowerCase();
    if (file !== '' && (lowerFiles.has(file) || lowerFiles.has(`static/${file}`))) continue;
    problems.push({
      file: redirect.file,
      line: redirect.line,
      message: `Redirect from ${from} to "${to}" names no page (Realm: "Redirect target does not exist")`,
      key: `redirect\0${to}`,
    });
  }

  if (files.paths.some((path) => path.startsWith(inRoot('@theme/markdoc/'))))
    unsupported.push(
      'Markdoc tags defined in @theme/markdoc are not read: links in their attributes are unchecked',
    );

  const hasSidebars = sidebarFiles.length > 0;
  return {
    framework: 'redocly',
    siteRoot,
    configFiles: [configFile, ...configFiles.filter((file) => file !== configFile)],
    pages,
    partials,
    navigation,
    needsNavigationEntry: (file) => {
      const path = fromRoot(file);
      return (
        hasSidebars &&
        localeOf(path) === null &&
        !directoryFolders.some((folder) => folder === '' || isWithin(folder, path))
      );
    },
    navigationFileFor: (file) => {
      const path = fromRoot(file);
      const nearest = sidebarFiles
        .filter((sidebar) => isWithin(posix.dirname(sidebar) === '.' ? '' : posix.dirname(sidebar), path))
        .sort((left, right) => right.length - left.length)[0];
      return inRoot(nearest ?? 'sidebars.yaml');
    },
    pageAnchors: (_file, text) => readRedoclyAnchors(text),
    resolveLink,
    configurationProblems: problems,
    unsupported,
    conventions: [
      `Link another page by its file, relative to this one${await markdownLinkExample(source, pages.keys(), resolveLink)}: \`[Install](../guides/install.md)\` or \`install.md#options\` (Realm resolves the file and reports the link when it is missing); a link without \`.md\` is a URL, resolved from the page’s URL.`,
      `Every \`.md\` file of the project is a page at its path without \`.md\` (segments lower-cased, a space a \`-\`; \`index.md\` is its folder’s page); files under \`_partials/\` are partials, included with \`{% partial file="../_partials/x.md" /%}\`.`,
      hasSidebars
        ? 'Sidebars are `sidebars.yaml` files: a new page appears in one only when it is listed there (`- page: guides/new-page.md`).'
        : 'Without a `sidebars.yaml`, the sidebar lists every page of its folder: a new page needs no navigation entry.',
      ...(project.locales.length > 0
        ? [
            `Translations live under \`${project.localeFolder}/<locale>/\` at the same paths as the default-language pages.`,
          ]
        : []),
    ],
  };
};
