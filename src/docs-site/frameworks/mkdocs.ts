import { posix } from 'node:path';
import { ConfigLines } from '../config-lines.ts';
import { readGitIgnored } from '../git-ignored.ts';
import {
  folderOf,
  isExternalUrl,
  isWithin,
  joinInside,
  listFolders,
  normalizeRoute,
  relativeTo,
  splitUrl,
} from '../link-urls.ts';
import { readPythonMarkdownAnchors } from '../python-markdown-anchors.ts';
import type {
  LinkTarget,
  NavigationEntry,
  PageLink,
  SiteModel,
  SiteModelBuilder,
  SiteProblem,
  SiteSource,
  Unchecked,
} from '../site-model.ts';
import { createCheckoutCoverage } from './checkout-coverage.ts';
import { checksAnchors } from './mkdocs-anchors.ts';
import { readMarkdownExtensions, readPlugins, tomlKeySpan, topLevelYamlSpan } from './mkdocs-config.ts';
import { gitignoreMatcher, readMkDocsNav } from './mkdocs-navigation.ts';
import {
  findMkDocsSites,
  isMkDocsDocument,
  type MkDocsFlavor,
  type MkDocsSite,
  siteOf,
} from './mkdocs-sites.ts';
import { isRecord } from './yaml-problems.ts';

// Plugins that make the navigation from the files (so a page needs no `nav` entry) or generate pages.
const navigationPlugins = ['awesome-pages', 'literate-nav', 'awesome-nav', 'monorepo', 'i18n', 'multirepo'];
const pageGeneratingPlugins = ['gen-files', 'monorepo', 'multirepo', 'i18n', 'mkdocs-simple'];

/**
 * MkDocs (https://www.mkdocs.org/user-guide/configuration/, writing-your-docs/): every Markdown
 * file under `docs_dir` is a page at `/path/` (`index.md` and `README.md` serve their folder),
 * `nav` lists pages relative to docs_dir, and links are file paths relative to the linking page.
 * Translations in sibling folders that inherit the configuration are sites of their own under
 * `/<language>/`, falling back to the primary language's files.
 */
export const buildMkDocsSite: SiteModelBuilder = (source, siteRoot) =>
  buildPythonMarkdownSite(source, siteRoot, 'mkdocs');

/**
 * Zensical (https://zensical.org/docs/setup/basics/), by Material for MkDocs' authors: the same
 * settings read from `zensical.toml` (preferred to `mkdocs.yml` beside it, as its `build` command
 * looks for them), the same pages and links, but `.md` files only, no `INHERIT`, no `exclude_docs`
 * or `not_in_nav`, and none of MkDocs' plugins run. Its build validates every relative link whose
 * path ends in `.md` (https://zensical.org/docs/setup/validation/, zensical/src/python/issues.rs),
 * absolute ones included, which it does not rewrite.
 */
export const buildZensicalSite: SiteModelBuilder = (source, siteRoot) =>
  buildPythonMarkdownSite(source, siteRoot, 'zensical');

async function buildPythonMarkdownSite(
  source: SiteSource,
  siteRoot: string,
  flavor: MkDocsFlavor,
): Promise<SiteModel> {
  const files = source.files;
  // Zensical's `build` looks for `zensical.toml`, then `mkdocs.yml` (zensical/main.py).
  const names =
    flavor === 'zensical' ? ['zensical.toml', 'mkdocs.yml', 'mkdocs.yaml'] : ['mkdocs.yml', 'mkdocs.yaml'];
  const configFile = names
    .map((name) => `${siteRoot}/${name}`.replace(/^\//, ''))
    .find((path) => files.has(path));
  const sites = configFile === undefined ? [] : await findMkDocsSites(source, configFile, flavor);
  const primary = sites[0];
  const unsupported: string[] = [];
  const configFiles = new Set<string>();
  const pages = new Map<string, string[]>();
  const problems = new Map<string, SiteProblem>();
  for (const site of sites) {
    for (const file of [site.config.file, ...site.config.inherited])
      if (files.has(file)) configFiles.add(file);
    for (const [page, route] of site.routes) pages.set(page, [route]);
    // Translations read the primary configuration again: each problem once.
    for (const problem of site.config.problems)
      problems.set(`${problem.file}\0${problem.line}\0${problem.key}`, problem);
  }
  const values = primary?.config.values ?? {};
  // Zensical runs none of MkDocs' plugins: a `redirects` or `awesome-pages` entry does nothing there.
  const plugins = flavor === 'zensical' ? new Map<string, Record<string, unknown>>() : readPlugins(values);
  // mkdocs-static-i18n's folders, when read (mkdocs-sites.ts), are sites of their own.
  const read = (name: string) => plugins.has(name) && !(name === 'i18n' && primary?.staticI18n === true);
  const hasNavigationPlugin = navigationPlugins.some(read);
  const generatesPages = pageGeneratingPlugins.some(read);
  const redirects = readRedirects(plugins.get('redirects'));
  if (primary !== undefined) {
    for (const problem of brokenRedirectTargets(primary, plugins.get('redirects'), files))
      problems.set(`${problem.file}\0${problem.line}\0${problem.key}`, problem);
  }
  const configName = configFile ?? names[0] ?? '';
  describeUnsupported(
    values,
    primary?.staticI18n === true ? withoutI18n(plugins) : plugins,
    configName,
    unsupported,
  );
  if (primary === undefined)
    unsupported.push(`No readable ${flavorName[flavor]} configuration: pages and links are not checked`);

  const isGitIgnored = await readGitIgnored(files);
  const madeByBuildStep = (path: string) => buildStepReason(path, files, isGitIgnored);
  const navigation = readNavigation(sites, files, hasNavigationPlugin || generatesPages, madeByBuildStep);
  const notInNav = gitignoreMatcher(
    flavor === 'mkdocs' && typeof values.not_in_nav === 'string' ? values.not_in_nav : '',
  );
  const folders = listFolders(files.paths);
  const isExpected = createCheckoutCoverage(files.paths);

  const resolveLink = (from: string, url: string, link?: Pick<PageLink, 'attribute'>): LinkTarget => {
    if (isExternalUrl(url)) return { kind: 'external' };
    const { path } = splitUrl(url);
    if (path === '') return { kind: 'external' };
    if (path.startsWith('/')) {
      if (flavor === 'zensical' && /\.md$/i.test(path))
        return { kind: 'broken', reason: `Zensical does not rewrite absolute links: ${path} is not served` };
      return { kind: 'unchecked', reason: `${flavorName[flavor]} does not validate absolute links` };
    }
    const site = siteOf(sites, from);
    if (site === null) return { kind: 'unchecked', reason: 'the linking file is outside docs_dir' };
    const target = joinInside(folderOf(from), path);
    // MkDocs rewrites the links Python-Markdown makes, not raw HTML's: an attribute's path is relative
    // to the page's URL, a folder below its file's with directory URLs (`a/b.md` is `/a/b/`), unless
    // md_in_html made the tag an element MkDocs rewrites; either reading that names a file is taken.
    // Zensical rewrites both from the file (zensical/extensions/links.py, LinksPostprocessor).
    if (
      flavor === 'mkdocs' &&
      link?.attribute === true &&
      site.useDirectoryUrls &&
      !/(^|\/)(index|README)\.[^/]+$/i.test(from) &&
      (target === null || !files.has(target))
    ) {
      const fromPageUrl = joinInside(from.replace(/\.[^/.]+$/, ''), path);
      if (fromPageUrl !== null && isWithin(site.docsDir, fromPageUrl) && files.has(fromPageUrl))
        return { kind: 'file', file: fromPageUrl };
    }
    if (target === null || !isWithin(site.docsDir, target))
      return { kind: 'unchecked', reason: 'the link leaves docs_dir' };
    if (files.has(target)) return { kind: 'file', file: target };
    const relative = relativeTo(site.docsDir, target);
    const fallback =
      site.language !== null && primary !== undefined ? `${primary.docsDir}/${relative}` : null;
    if (fallback !== null && files.has(fallback))
      return { kind: 'served', reason: `the translation falls back to ${fallback}` };
    if (redirects.has(relative)) return { kind: 'served', reason: 'a redirect of the redirects plugin' };
    // A page's built name (`workers.html` with `use_directory_urls: false`, conductor's raw HTML cards).
    if (/\.html?$/i.test(path)) {
      const page = site.files.get(routeRelative(site, from, path));
      if (page !== undefined) return { kind: 'file', file: page };
    }
    if (isMkDocsDocument(target) || /\.[a-z0-9]+$/i.test(target.slice(target.lastIndexOf('/') + 1))) {
      if (generatesPages)
        return { kind: 'unchecked', reason: 'a plugin generates files this model does not see' };
      if (site.isExcluded(target)) return { kind: 'unchecked', reason: 'an excluded file' };
      const madeBy = madeByBuildStep(target);
      if (madeBy !== null) return { kind: 'unchecked', reason: madeBy };
      // An image or download this checkout may not hold at all (see checkout-coverage.ts).
      if (!isMkDocsDocument(target) && !isExpected(target))
        return {
          kind: 'unchecked',
          reason: 'this checkout may not hold such files (LFS, sparse or text-only)',
        };
      return { kind: 'broken', reason: `no file ${target}` };
    }
    // Not a file path: MkDocs leaves it as written; it may still name a page's URL.
    const byFolder = pageOfFolder(site, target);
    if (byFolder !== null) return { kind: 'file', file: byFolder };
    const byRoute = site.files.get(routeRelative(site, from, path));
    if (byRoute !== undefined) return { kind: 'file', file: byRoute };
    if (site.blogDir !== null && isWithin(site.blogDir, target))
      return { kind: 'served', reason: 'a page the blog plugin generates (archive, category, pagination)' };
    if (folders.has(target))
      return { kind: 'unchecked', reason: 'MkDocs does not validate links to folders' };
    return { kind: 'unchecked', reason: 'MkDocs does not validate links that are not file paths' };
  };

  const needsNavigationEntry = (file: string): boolean => {
    const site = siteOf(sites, file);
    if (site === null || !isMkDocsDocument(file, flavor) || site.isExcluded(file)) return false;
    if (hasNavigationPlugin || site.config.navFile === null) return false;
    if (site.postsDir !== null && isWithin(site.postsDir, file)) return false;
    return !notInNav(relativeTo(site.docsDir, file));
  };

  const anchorsChecked = primary !== undefined && checksAnchors(primary, flavor);
  const model: SiteModel = {
    framework: flavor,
    siteRoot,
    configFiles: [...configFiles],
    pages,
    partials: new Set(),
    navigation,
    needsNavigationEntry,
    resolveLink,
    ...(anchorsChecked
      ? {
          pageAnchors: (file: string, text: string) =>
            isMkDocsDocument(file, flavor) ? readPythonMarkdownAnchors(text) : null,
        }
      : {}),
    configurationProblems: [...problems.values()],
    unsupported,
    conventions: await describeConventions(source, sites, resolveLink, anchorsChecked),
  };
  return model;
}

const flavorName: Record<MkDocsFlavor, string> = { mkdocs: 'MkDocs', zensical: 'Zensical' };

/**
 * Why a file missing from the repository may still be built, or null: a notebook beside it
 * (`guide/intro.ipynb` for `guide/intro.md`: leafmap converts its notebooks before `zensical build`)
 * or the repository's `.gitignore` (takopi copies its changelog into `docs/` first).
 */
function buildStepReason(
  path: string,
  files: SiteSource['files'],
  isGitIgnored: (path: string) => boolean,
): string | null {
  if (isGitIgnored(path)) return 'the repository ignores this file: a build step may write it';
  // A page or an HTML export of the notebook beside it (owid/etl's `food_trade/food_trade.html`).
  const stem = /^(.*)\.(md|html)$/i.exec(path)?.[1];
  const notebook = stem === undefined ? null : `${stem}.ipynb`;
  return notebook !== null && files.has(notebook) ? `a build step may make it from ${notebook}` : null;
}

/** The page serving a folder link (`guide/`): its `index.md` or `README.md`. */
function pageOfFolder(site: MkDocsSite, folder: string): string | null {
  const route = site.routes.get(`${folder}/index.md`) ?? site.routes.get(`${folder}/README.md`);
  return route === undefined ? null : (site.files.get(route) ?? null);
}

/** A link read as a URL relative to the linking page's own URL (`../other/` from `/guide/setup/`). */
function routeRelative(site: MkDocsSite, from: string, path: string): string {
  // Zensical rewrites every relative link from the page's file (zensical/extensions/links.py).
  if (site.flavor === 'zensical')
    return normalizeRoute(posix.join(`${site.routePrefix}/`, relativeTo(site.docsDir, folderOf(from)), path));
  const route = site.routes.get(from) ?? '/';
  // An index page's route is its folder (`/guide/index.html` is `/guide`), whatever the URL style.
  const isIndex = /(^|\/)(index|README)\.[^/]+$/i.test(from);
  const base = site.useDirectoryUrls || isIndex || route.endsWith('/') ? route : posix.dirname(route);
  return normalizeRoute(posix.join(base === '' ? '/' : base, path));
}

/**
 * `redirect_maps` entries whose new page does not exist: mkdocs-redirects warns "Redirect target ...
 * does not exist" (a build with `strict: true` fails), and readers get a 404. Targets that are URLs
 * or no Markdown page path are not checked.
 */
function brokenRedirectTargets(
  site: MkDocsSite,
  options: Record<string, unknown> | undefined,
  files: SiteSource['files'],
): SiteProblem[] {
  const maps = options?.redirect_maps;
  if (!isRecord(maps)) return [];
  const text = site.config.texts.get(site.config.file) ?? '';
  const lines = new ConfigLines(text);
  const within = topLevelYamlSpan(text, 'plugins');
  const problems: SiteProblem[] = [];
  for (const target of Object.values(maps)) {
    if (typeof target !== 'string' || isExternalUrl(target)) continue;
    const path = target.split('#')[0] ?? '';
    if (!/\.md$/i.test(path)) continue;
    const page = joinInside(site.docsDir, path);
    if (page !== null && files.has(page)) continue;
    problems.push({
      file: site.config.file,
      line: lines.lineOf(target, within),
      message: `Redirect target "${target}" names no page in ${site.docsDir === '' ? 'the site' : site.docsDir}`,
      key: `redirect\0${target}`,
    });
  }
  return problems;
}

/** `redirect_maps` of mkdocs-redirects: old page path → new page or URL, relative to docs_dir. */
function readRedirects(options: Record<string, unknown> | undefined): Set<string> {
  const maps = options?.redirect_maps;
  return new Set(isRecord(maps) ? Object.keys(maps) : []);
}

/**
 * A Zensical nav entry that names no page is kept as a link, as written (zensical/src/structure/nav.rs):
 * `api/covid/` reaches the page served there. A file name that names nothing is a broken entry; a
 * folder-like URL that no page serves (GeoLibre's `demo/`, an app deployed beside the site) is unknown.
 */
function navigationUrlTarget(site: MkDocsSite, reference: string): string | Unchecked | null {
  const name = reference
    .replace(/[?#].*$/, '')
    .replace(/^(\.\/)+/, '')
    .replace(/(?<!\/)\/+$/, '');
  const page = site.files.get(normalizeRoute(`${site.routePrefix}/${name}`));
  if (page !== undefined) return page;
  if (/\.[^/]+$/.test(name.slice(name.lastIndexOf('/') + 1))) return null;
  // A page added at that URL would be listed by it.
  const folder = joinInside(site.docsDir, name);
  return {
    unchecked: 'Zensical keeps a nav entry that names no page as a link, as written',
    onlyFiles: folder === null ? [] : [`${folder}.md`, `${folder}/index.md`, `${folder}/README.md`],
  };
}

function readNavigation(
  sites: readonly MkDocsSite[],
  files: SiteSource['files'],
  generated: boolean,
  madeByBuildStep: (path: string) => string | null,
) {
  const navigation: NavigationEntry[] = [];
  const primary = sites[0];
  // Lines are found once per navigation: translations share the primary's `nav`, unless each
  // language writes its own (mkdocs-static-i18n's `languages`).
  const placed = new Map<string, Array<{ reference: string; groups: string[]; line: number }>>();
  for (const site of sites) {
    const navFile = site.config.navFile;
    if (navFile === null) continue;
    const key = site.navWithin === undefined ? navFile : `${navFile}\0${site.navWithin.join(':')}`;
    let items = placed.get(key);
    if (items === undefined) {
      const text = site.config.texts.get(navFile) ?? '';
      const lines = new ConfigLines(text);
      // Only within `nav:`: a redirect map or a plugin's option may name the same page before it.
      const within =
        site.navWithin ??
        (navFile.endsWith('.toml') ? tomlKeySpan(text, 'nav') : topLevelYamlSpan(text, 'nav'));
      items = readMkDocsNav(site.config.values.nav, site.flavor === 'zensical').map((item) => ({
        ...item,
        line: lines.lineOf(item.reference, within),
      }));
      placed.set(key, items);
    }
    for (const item of items) {
      const page = joinInside(site.docsDir, item.reference);
      const fallback =
        site.language !== null && primary !== undefined ? joinInside(primary.docsDir, item.reference) : null;
      const madeBy = page === null || files.has(page) ? null : madeByBuildStep(page);
      const target =
        page !== null && files.has(page)
          ? page
          : fallback !== null && files.has(fallback)
            ? fallback
            : generated
              ? { unchecked: 'a plugin may generate this page' }
              : madeBy !== null
                ? { unchecked: madeBy, ...(page === null ? {} : { onlyFiles: [page] }) }
                : site.flavor === 'zensical' && !isMkDocsDocument(item.reference, 'zensical')
                  ? navigationUrlTarget(site, item.reference)
                  : null;
      navigation.push({
        reference: item.reference,
        file: navFile,
        line: item.line,
        groups: site.language === null ? item.groups : [site.language, ...item.groups],
        target,
      });
    }
  }
  return navigation;
}

function describeUnsupported(
  values: Record<string, unknown>,
  plugins: Map<string, Record<string, unknown>>,
  configFile: string,
  unsupported: string[],
): void {
  for (const name of [...navigationPlugins, ...pageGeneratingPlugins]) {
    if (plugins.has(name))
      unsupported.push(
        `${configFile}: the \`${name}\` plugin is not read; pages it adds or lists are unchecked`,
      );
  }
  const extensions = readMarkdownExtensions(values);
  for (const name of [
    'pymdownx.snippets',
    'mdx_include',
    'markdown_include_variants',
    'markdown_include.include',
  ]) {
    if (extensions.has(name))
      unsupported.push(
        `${configFile}: files included by \`${name}\` are not followed; their links are not checked`,
      );
  }
  if (Array.isArray(values.hooks) && values.hooks.length > 0)
    unsupported.push(`${configFile}: hooks (${values.hooks.join(', ')}) are not run`);
}

async function describeConventions(
  source: SiteSource,
  sites: readonly MkDocsSite[],
  resolveLink: (from: string, url: string) => LinkTarget,
  anchorsChecked: boolean,
): Promise<string[]> {
  const primary = sites[0];
  if (primary === undefined) return [];
  let example = '';
  let checked = 0;
  for (const page of primary.routes.keys()) {
    if (example !== '' || checked > 200) break;
    // A documentation page shows the site's habits better than a blog post.
    if (primary.postsDir !== null && isWithin(primary.postsDir, page)) continue;
    checked += 1;
    for (const link of (await source.pageFacts(page))?.links ?? []) {
      const target = resolveLink(page, link.url);
      if (
        target.kind === 'file' &&
        isMkDocsDocument(target.file) &&
        isMkDocsDocument(splitUrl(link.url).path)
      ) {
        example = ` (for example \`${page}\` links to \`${link.url}\`)`;
        break;
      }
    }
  }
  const conventions = [
    primary.flavor === 'zensical'
      ? `Links are file paths relative to the linking page, to the Markdown file itself${example}; Zensical turns them into URLs (never \`/absolute.md\`, which it leaves as written).`
      : `Links are file paths relative to the linking page, to the Markdown file itself${example}; MkDocs turns them into URLs.`,
  ];
  const navFile = primary.config.navFile;
  conventions.push(
    navFile === null
      ? `New pages go under \`${primary.docsDir}/\`; there is no \`nav\`, so every page appears in the navigation.`
      : `New pages go under \`${primary.docsDir}/\` and must be added to \`nav\` in \`${navFile}\` (paths relative to \`${primary.docsDir}/\`).`,
  );
  if (anchorsChecked)
    conventions.push(
      'The build checks link fragments: `page.md#section` must name an id of that page, the slug the `toc` extension makes of a heading (by default `## Set up the CLI` is `#set-up-the-cli`) or an id set with `{#id}`.',
    );
  if (primary.postsDir !== null)
    conventions.push(
      `Blog posts go in \`${primary.postsDir}/\` with a \`date\` in front matter; they need no \`nav\` entry.`,
    );
  if (sites.length > 1)
    conventions.push(
      `Translations live in ${sites
        .slice(1)
        .map((site) => `\`${site.docsDir}/\``)
        .join(
          ', ',
        )} with the same paths as \`${primary.docsDir}/\`; a missing translation falls back to the primary page.`,
    );
  return conventions.slice(0, 4);
}

function withoutI18n(plugins: Map<string, Record<string, unknown>>): Map<string, Record<string, unknown>> {
  const rest = new Map(plugins);
  rest.delete('i18n');
  return rest;
}
