import { posix } from 'node:path';
import { RE2JS } from 're2js';
import { ConfigLines } from '../config-lines.ts';
import { generatedPlace, readGitIgnored } from '../git-ignored.ts';
import { isPlainRecord } from '../javascript-config.ts';
import {
  decodePath,
  folderOf,
  isExternalUrl,
  isWithin,
  joinInside,
  relativeTo,
  splitUrl,
} from '../link-urls.ts';
import { frontMatterPattern, parseYamlMapping } from '../page-facts.ts';
import type {
  LinkTarget,
  NavigationEntry,
  RepositoryFiles,
  SiteModel,
  SiteModelBuilder,
} from '../site-model.ts';
import { createCheckoutCoverage } from './checkout-coverage.ts';
import { compileDocfxGlobs } from './docfx-config.ts';
import { readEleventyAnchors } from './eleventy-anchors.ts';
import { type EleventyConfig, readEleventyConfig } from './eleventy-config.ts';
import { readNetlifyRedirects } from './netlify-redirects.ts';
import { isAssetPath } from './starlight-routes.ts';
import { readConfigModule } from './vitepress-config.ts';

/** Files plugins commonly write (feeds, sitemaps, robots). */
const generatedFiles = /^\/(feed\.xml|feed\.json|atom\.xml|rss\.xml|sitemap\.xml|robots\.txt|404\.html)$/;
const maximumDataFileBytes = 1_000_000;

/**
 * Eleventy sites (https://www.11ty.dev/docs/), read as 11ty/eleventy v3.1.6 builds them
 * (src/TemplatePermalink.js, src/Template.js, src/EleventyFiles.js, src/Data/TemplateData.js):
 * every template under the input folder (the formats `templateFormats` names; not the includes,
 * layouts, data and output folders, nor what the ignore files name) is a page at its path with a
 * trailing slash (`docs/guide.md` is `/docs/guide/`, `docs/guide/guide.md` `/docs/guide/` too), or
 * at the `permalink` of the data cascade: its front matter, the data files beside it
 * (`guide.11tydata.json`, `docs/docs.json`), its layouts' front matter, global data. Links are left as written and the browser reads a relative one from the
 * page's URL; with the InputPathToUrl transform, a link to a template's file becomes its URL.
 * Markdown has no heading ids unless markdown-it-anchor adds them.
 */
export const buildEleventySite: SiteModelBuilder = async (source, siteRoot) => {
  const { files } = source;
  const config = await readEleventyConfig(files, siteRoot);
  const unsupported = [...config.unsupported];
  const { input } = config;

  // Data files that may set a permalink (src/Data/TemplateData.js): JSON and YAML read, JavaScript
  // read where it exports a literal value, unknown otherwise; layouts' front matter, once per layout.
  const readData = await createDataReader(files, config);
  const layouts = new Map<string, Record<string, unknown>>();

  const pages = new Map<string, string[]>();
  /** Every output URL (decoded, without the path prefix) and the template that writes it. */
  const urls = new Map<string, string>();
  const pageUrls = new Map<string, string>();
  /** Permalinks only running the templates could tell, as patterns (each template tag any text). */
  const urlPatterns: Array<{ test(path: string): boolean }> = [];
  let urlsUnknown = false;
  const unwritten = new Set<string>();
  const navigation: NavigationEntry[] = [];
  const navigationKeys = new Map<string, string>();
  const navigationParents: Array<{ file: string; parent: string }> = [];
  let navigationUnknown = false;
  const extensions = [...config.templateExtensions].sort((left, right) => right.length - left.length);

  for (const path of files.paths) {
    if (!isWithin(input, path) || config.ignored(path)) continue;
    const lower = path.toLowerCase();
    const extension = extensions.find((candidate) => lower.endsWith(`.${candidate}`));
    if (extension === undefined) continue;
    // Data files of templates are no templates (`x.11tydata.js` has the `11ty.js` shape too).
    if (/\.11tydata\.[cm]?js$/.test(lower)) continue;
    const relative = relativeTo(input, path);
    const stem = relative.slice(0, relative.length - extension.length - 1);
    const text = extension === '11ty.js' ? '' : ((await files.read(path)) ?? '');
    const frontMatter = readFrontMatter(text);
    const data = await readData(path, stem);
    // A layout's front matter is below the page's data (phpstan's user guide layout sets `.html`
    // permalinks); a layout chain is followed up to ten deep.
    const layoutName = frontMatter.layout ?? data.values.layout;
    const layoutKey = typeof layoutName === 'string' ? layoutName : '';
    let layoutData = layouts.get(layoutKey);
    if (layoutData === undefined) {
      layoutData = await readLayoutData(files, config, layoutName);
      layouts.set(layoutKey, layoutData);
    }
    // Global data, then layouts, then data files, then the front matter (src/Template.js).
    const cascade = { ...data.global, ...layoutData, ...data.values, ...frontMatter };
    const permalink = cascade.permalink;
    const computed = isPlainRecord(cascade.eleventyComputed) ? cascade.eleventyComputed : {};
    const navigationData = cascade.eleventyNavigation;
    if (data.unknown.includes('eleventyNavigation') || 'eleventyNavigation' in computed)
      navigationUnknown = true;
    else if (isPlainRecord(navigationData)) {
      // An entry without its `key` has one a plugin computes (x-govuk's, from the title).
      if (typeof navigationData.key !== 'string') navigationUnknown = true;
      else navigationKeys.set(navigationData.key, path);
      if (typeof navigationData.parent === 'string' && isPlainRecord(frontMatter.eleventyNavigation))
        navigationParents.push({ file: path, parent: navigationData.parent });
    }
    const unknownPermalink =
      data.unknown.includes('permalink') ||
      'permalink' in computed ||
      extension === '11ty.js' ||
      (typeof permalink !== 'string' && typeof permalink !== 'boolean' && permalink !== undefined);
    let url: string | null;
    if (unknownPermalink) url = null;
    else if (permalink === false) url = '';
    else if (typeof permalink === 'string') url = renderPermalink(permalink, stem);
    else url = defaultUrl(stem);
    const paginated = cascade.pagination !== undefined;
    if (url === '') {
      unwritten.add(path);
      continue;
    }
    if (url === null || paginated || url.includes('{')) {
      const pattern = url === null ? null : patternOf(url, paginated && typeof permalink !== 'string');
      if (pattern === null) urlsUnknown = true;
      else urlPatterns.push(pattern);
      if (url === null || url.includes('{')) {
        if (/\.(md|markdown)$/i.test(path)) pages.set(path, []);
        continue;
      }
    }
    const key = routeKey(url);
    if (!urls.has(key)) urls.set(key, path);
    pageUrls.set(path, url);
    if (/\.(md|markdown)$/i.test(path)) pages.set(path, [`${config.pathPrefix.replace(/\/$/, '')}${url}`]);
  }
  if (urlsUnknown)
    unsupported.push(
      `${config.file}: a permalink is computed by code (a JavaScript data file, eleventyComputed, a .11ty.js template); links to pages no file serves are unchecked`,
    );
  if (pages.size === 0) unsupported.push(`${input || '.'}/: no Markdown pages (nothing is checked)`);

  // Files copied to the output (src/TemplatePassthrough.js), and raw formats (`templateFormats: ['png']`).
  const copied = new Set<string>();
  const stripInput = (path: string) =>
    input !== '' && isWithin(input, path) ? relativeTo(input, path) : path;
  if (config.passthrough === null)
    unsupported.push(`${config.file}: a passthrough copy is computed by code; links to files are unchecked`);
  for (const { from, to } of config.passthrough ?? []) {
    const glob = /[*?{[]/.test(from);
    const matches = glob ? compileDocfxGlobs([from], { dot: true, caseSensitive: true }) : null;
    for (const path of files.paths) {
      if (matches !== null ? !matches(path) : path !== from && !isWithin(from, path)) continue;
      let output: string;
      if (to === '') output = stripInput(path);
      else if (glob) output = posix.join(to, posix.basename(path));
      else output = path === from ? to : posix.join(to, relativeTo(from, path));
      copied.add(`/${posix.normalize(output).replace(/^\.\/?/, '')}`);
    }
  }
  for (const path of files.paths)
    if (
      isWithin(input, path) &&
      !config.ignored(path) &&
      config.copiedExtensions.includes(posix.extname(path).slice(1).toLowerCase())
    )
      copied.add(`/${relativeTo(input, path)}`);

  const isNetlifyRedirect = await readNetlifyRedirects(files, {
    toml: [...new Set([joinInside(siteRoot, 'netlify.toml') ?? 'netlify.toml', 'netlify.toml'])].filter(
      (path) => files.has(path),
    ),
    rules: files.paths.filter((path) => isWithin(input, path) && /(^|\/)_redirects(\.[a-z]+)?$/.test(path)),
  });
  const hostRedirects = await readHostRedirects(files, siteRoot);
  const isExpected = createCheckoutCoverage(files.paths);
  const gitIgnored = await readGitIgnored(files);
  // Templates a build step writes before Eleventy runs: a folder under the input folder a
  // collection is made of, which `.gitignore` names and the checkout lacks (lit.dev's
  // `getFilteredByGlob(['site/docs/unversioned/**'])`, copied from the latest version's docs).
  const relativeInput = relativeTo(siteRoot, input);
  const collectionGlobs = [...config.text.matchAll(/\bgetFilteredByGlob\(([^)]{0,1000})\)/g)].map(
    (call) => call[1] ?? '',
  );
  for (const match of collectionGlobs.join('\n').matchAll(/(['"`])([^'"`\n*{]+)/g)) {
    const written = (match[2] ?? '').replace(/^\.\//, '').replace(/\/+$/, '');
    if (relativeInput !== '' && !written.startsWith(`${relativeInput}/`)) continue;
    const folder = joinInside(siteRoot, written);
    if (folder === null || files.paths.some((path) => isWithin(folder, path))) continue;
    if (!gitIgnored(`${folder}/`)) continue;
    urlsUnknown = true;
    unsupported.push(
      `${folder}/: a build step writes templates here (\`.gitignore\` names it); links to pages no file serves are unchecked`,
    );
    break;
  }
  // markdown-it-replace-link (angularfire) or another renderer rewrites links as it writes them.
  const linksRewritten = /markdown-it-replace-link|\breplaceLink\b/.test(config.text);
  // Templates a plugin adds, or URLs it transforms (moj-frontend's `addUrlTransform`).
  const addsPages = /\baddTemplate\s*\(|\baddUrlTransform\s*\(|\baddCollection\b[\s\S]*\bpermalink\b/.test(
    config.text,
  );
  if (addsPages)
    unsupported.push(
      `${config.file}: the configuration or a plugin adds templates or transforms URLs; links to pages no file serves are unchecked`,
    );

  const resolveUrl = (url: string): LinkTarget => {
    const decoded = decodePath(url);
    const candidates = decoded.endsWith('/') ? [decoded] : [decoded, `${decoded}/`, `${decoded}.html`];
    for (const candidate of candidates) {
      const file = urls.get(routeKey(candidate));
      if (file !== undefined)
        return pages.has(file) ? { kind: 'file', file } : { kind: 'served', reason: 'a page of the site' };
      if (copied.has(candidate) || copied.has(candidate.replace(/\/$/, '/index.html')))
        return { kind: 'served', reason: 'a file the site copies' };
    }
    if (urlPatterns.some((pattern) => pattern.test(decoded)))
      return { kind: 'unchecked', reason: 'a page whose permalink a template computes' };
    if (generatedFiles.test(decoded) || isNetlifyRedirect(decoded) || hostRedirects(decoded))
      return { kind: 'served', reason: 'a file a plugin writes, or a redirect' };
    if (urlsUnknown || addsPages)
      return { kind: 'unchecked', reason: 'pages this model cannot know may serve it' };
    // A place `.gitignore` names, under the input folder: a build step writes it (sass-site's
    // `documentation/js-api`, typedoc's pages).
    const written = joinInside(input, decoded.replace(/^\/+/, '').replace(/\/$/, '')) ?? '';
    if (written !== '' && generatedPlace(gitIgnored, written) !== null)
      return { kind: 'unchecked', reason: 'a place the build writes (`.gitignore` names it)' };
    if (isAssetPath(decoded) && !/\.html?$/i.test(decoded)) {
      // A file of the checkout no passthrough copy names: a build step may copy it (v8.dev's `_svg/`).
      if (files.has(written))
        return { kind: 'unchecked', reason: 'a file of the checkout a build step may copy' };
      if (config.passthrough === null)
        return { kind: 'unchecked', reason: 'a file a computed passthrough copy may serve' };
      const beside = joinInside(input, decoded.slice(1)) ?? '';
      if (
        !isExpected(beside) &&
        ![...config.passthrough].some(({ from }) =>
          isExpected(joinInside(from, posix.basename(decoded)) ?? ''),
        )
      )
        return { kind: 'unchecked', reason: 'a file this checkout may not hold (a build step)' };
    }
    return { kind: 'broken', reason: `no page or file is served at ${url}` };
  };

  // The InputPathToUrl transform: a link to a template's file is its URL (src/Plugins/InputPathToUrl.js).
  const templateExtension = new RegExp(
    `\\.(${config.templateExtensions.map((item) => item.replace(/\./g, '\\.')).join('|')})$`,
    'i',
  );
  const inputPathTarget = (from: string, path: string): LinkTarget | null => {
    if (!config.plugins.inputPathToUrl || !templateExtension.test(path)) return null;
    const decoded = decodePath(path);
    const candidates = [
      joinInside(siteRoot, decoded.replace(/^\/+/, '')),
      joinInside(input, decoded.replace(/^\/+/, '')),
      decoded.startsWith('/') ? null : joinInside(folderOf(from), decoded),
    ];
    for (const candidate of candidates) {
      if (candidate === null || !files.has(candidate)) continue;
      if (unwritten.has(candidate))
        return {
          kind: 'broken',
          reason: `${candidate} is not written (\`permalink: false\`): the link becomes href="false"`,
        };
      if (pageUrls.has(candidate) || pages.has(candidate))
        return pages.has(candidate)
          ? { kind: 'file', file: candidate }
          : { kind: 'served', reason: 'a page of the site' };
    }
    return null;
  };

  const resolveLink: SiteModel['resolveLink'] = (from, url) => {
    const trimmed = url.trim();
    if (isExternalUrl(trimmed)) return { kind: 'external' };
    const { path } = splitUrl(trimmed);
    if (path === '') return { kind: 'external' };
    const byFile = inputPathTarget(from, path);
    if (byFile !== null) return byFile;
    if (linksRewritten && !path.startsWith('/'))
      return { kind: 'unchecked', reason: 'the Markdown renderer rewrites links (markdown-it-replace-link)' };
    const pageUrl = pageUrls.get(from);
    if (!path.startsWith('/')) {
      if (pageUrl === undefined)
        return { kind: 'unchecked', reason: 'a relative link in a page whose URL is not known' };
      const target = resolveUrl(new URL(path, `http://site${pageUrl}`).pathname);
      return target.kind === 'broken'
        ? { kind: 'broken', reason: `${target.reason} (resolved from the page's URL, ${pageUrl})` }
        : target;
    }
    // Served under `pathPrefix`: a link from the host's root reaches the site only through the
    // prefix, or through the HTML base plugin, which adds it.
    const prefix = config.pathPrefix.replace(/\/$/, '');
    if (prefix === '' || config.plugins.htmlBase) return resolveUrl(path);
    if (path.startsWith(`${prefix}/`)) return resolveUrl(path.slice(prefix.length));
    // Another site of the host (ESLint's docs under `/docs/head/` link eleventy.org's `/team/`).
    return { kind: 'unchecked', reason: `outside the site's path prefix, ${prefix}/ (another site's)` };
  };

  // eleventy-navigation: an entry whose `parent` names no key is left out of every menu.
  if (!navigationUnknown)
    for (const { file, parent } of navigationParents) {
      const lines = new ConfigLines((await files.read(file)) ?? '');
      navigation.push({
        reference: parent,
        file,
        line: lines.lineOf(parent),
        groups: ['eleventyNavigation'],
        target: navigationKeys.get(parent) ?? null,
      });
    }

  // Layouts and includes render around every page: their ids are the page's too (a11yproject's
  // footer `#theme`); one a template computes is known by what it starts with, or not at all.
  const layoutIds = new Set<string>();
  const layoutPrefixes: string[] = [];
  let layoutIdsUnknown = false;
  for (const path of files.paths) {
    if (![config.includes, config.layouts].some((folder) => folder !== null && isWithin(folder, path)))
      continue;
    const text = (await files.read(path)) ?? '';
    for (const match of text.matchAll(/\b(?:id|name)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) {
      const value = match[1] ?? match[2] ?? '';
      const code = value.search(/\{\{|\{%/);
      if (code < 0) layoutIds.add(value);
      else if (code > 0) layoutPrefixes.push(value.slice(0, code));
      else layoutIdsUnknown = true;
    }
  }
  const pageAnchors: SiteModel['pageAnchors'] = (_file, text) => {
    const read = readEleventyAnchors(text, config.anchors, config.attributes, config.typographer);
    if (read === null) return null;
    return {
      anchors: new Set([...read.anchors, ...layoutIds]),
      complete: read.complete && !layoutIdsUnknown,
      knownPrefixes: layoutPrefixes,
    };
  };

  return {
    framework: 'eleventy',
    siteRoot,
    configFiles: [config.file],
    pages,
    partials: new Set(),
    navigation,
    needsNavigationEntry: () => false,
    pageAnchors,
    resolveLink,
    configurationProblems: config.problems,
    unsupported,
    conventions: [
      `Pages are templates under ${input || 'the project folder'}/ (Markdown, Nunjucks, Liquid, HTML); each is served at its path with a trailing slash (\`docs/guide.md\` is \`/docs/guide/\`), or at its \`permalink\`.`,
      config.plugins.inputPathToUrl
        ? 'Link another page by its file (`/docs/guide.md` from the input folder, or `./guide.md`): the InputPathToUrl transform makes it the page’s URL.'
        : 'Link another page by its URL (`/docs/guide/`); a relative link is read from the page’s URL, one folder deeper than its file (`../other/` from `docs/guide.md`).',
      'Navigation comes from layouts and `eleventyNavigation` front matter (`key`, `parent`): a new page needs an entry only where the site lists its pages that way.',
    ],
  };
};

/** The front matter of a layout and of the layouts it uses in turn, the nearest winning. */
async function readLayoutData(
  files: RepositoryFiles,
  config: EleventyConfig,
  layout: unknown,
): Promise<Record<string, unknown>> {
  const chain: Array<Record<string, unknown>> = [];
  let name = layout;
  for (let depth = 0; depth < 10 && typeof name === 'string' && name !== ''; depth += 1) {
    const folder = config.layouts ?? config.includes;
    const base = joinInside(folder, name.replace(/^\.\//, ''));
    const file =
      base === null
        ? undefined
        : [
            base,
            ...['.njk', '.liquid', '.html', '.md', '.11ty.js', '.webc'].map((end) => `${base}${end}`),
          ].find((path) => files.has(path));
    if (file === undefined) break;
    const frontMatter = readFrontMatter((await files.read(file)) ?? '');
    chain.push(frontMatter);
    name = frontMatter.layout;
  }
  return Object.assign({}, ...chain.reverse());
}

/** A page's front matter (YAML between `---` lines), or nothing. */
function readFrontMatter(text: string): Record<string, unknown> {
  const match = frontMatterPattern.exec(text);
  return match === null ? {} : (parseYamlMapping(match[1] ?? '') ?? {});
}

/**
 * Eleventy's default URL (src/TemplatePermalink.js): the path with a trailing slash, an `index`
 * file its folder's, a file named as its folder (`x/x.md`) its folder's.
 */
function defaultUrl(stem: string): string {
  const folder = posix.dirname(stem) === '.' ? '' : posix.dirname(stem);
  const base = posix.basename(stem);
  const same = folder !== '' && posix.basename(folder) === base;
  return `/${folder === '' ? '' : `${folder}/`}${base === 'index' || same ? '' : `${base}/`}`;
}

/**
 * A permalink as written, with what needs no data filled in (`{{ page.fileSlug }}`,
 * `{{ page.filePathStem }}`); other template code is left for `patternOf`. `x/` and `x/index.html`
 * are `/x/`.
 */
function renderPermalink(permalink: string, stem: string): string {
  const base = posix.basename(stem) === 'index' ? posix.basename(posix.dirname(stem)) : posix.basename(stem);
  const fileSlug = base.replace(/^\d{4}-\d{2}-\d{2}-/, '');
  const filePathStem = `/${stem.replace(/(^|\/)\d{4}-\d{2}-\d{2}-([^/]*)$/, '$1$2')}`;
  const rendered = permalink
    .trim()
    .replace(/\{\{-?\s*page\.fileSlug\s*-?\}\}/g, fileSlug === '.' ? '' : fileSlug)
    .replace(/\{\{-?\s*page\.filePathStem\s*-?\}\}/g, filePathStem)
    .replace(/\{\{-?\s*page\.outputFileExtension\s*-?\}\}/g, 'html');
  const url = rendered.startsWith('/') ? rendered : `/${rendered}`;
  return url.replace(/\/index(\.html)?$/, '/').replace(/\/{2,}/g, '/');
}

/**
 * A pattern for URLs only the templates can write: each template tag any part of one segment,
 * pages `N/` after; compiled for RE2 (a permalink is repository content: no backtracking). Null
 * when the permalink is all template code.
 */
function patternOf(url: string, numbered: boolean): { test(path: string): boolean } | null {
  // A tag's output may hold slashes (`{{ page.date | date: '%Y/%m/%d' }}`), and a `{% if %}` may
  // leave out what follows it: what comes after the first `{%` is anything.
  const known = url.includes('{%') ? `${url.slice(0, url.indexOf('{%'))}{{ }}` : url;
  const parts = known.split(/(\{\{[^}]*\}\})/).slice(0, 400);
  if (parts.every((part) => part.startsWith('{') || /^[/.]*$/.test(part))) return null;
  const source = parts.map((part) => (part.startsWith('{') ? '.*' : RE2JS.quote(part))).join('');
  try {
    const pattern = RE2JS.compile(
      `^${source.replace(/\/$/, '')}${numbered ? '(?:/\\d+)?' : ''}/?(?:index\\.html)?$`,
    );
    return { test: (path) => pattern.matches(path) };
  } catch {
    return null;
  }
}

/** A URL as the host looks it up: decoded, `x/index.html` as `x/`. */
function routeKey(url: string): string {
  return url.replace(/\/index\.html$/, '/');
}

/**
 * The data a template's permalink may come from besides its front matter (src/Data/TemplateData.js
 * `getLocalDataPaths`): `x.11tydata.json`, `x.json`, then each folder's `<folder>/<folder>.11tydata.json`
 * and `<folder>/<folder>.json` up to the input folder, the deepest first; JavaScript data files
 * (`.11tydata.js`) are code: the keys they may set are unknown.
 */
async function createDataReader(
  files: RepositoryFiles,
  config: EleventyConfig,
): Promise<
  (
    path: string,
    stem: string,
  ) => Promise<{ values: Record<string, unknown>; unknown: string[]; global: Record<string, unknown> }>
> {
  const cache = new Map<string, { values: Record<string, unknown>; unknown: string[] }>();
  const readFile = async (base: string) => {
    let entry = cache.get(base);
    if (entry !== undefined) return entry;
    entry = { values: {}, unknown: [] };
    // JavaScript data files win over JSON ones (src/Data/TemplateData.js): applied last.
    const fromCode: Record<string, unknown> = {};
    for (const suffix of ['.11tydata.js', '.11tydata.cjs', '.11tydata.mjs']) {
      const file = `${base}${suffix}`;
      if (!files.has(file)) continue;
      const text = (await files.read(file)) ?? '';
      // Code may set what it names (`eleventyComputed` of a11yproject's posts sets only their
      // `eleventyNavigation`): read when the module exports it as a literal value (a11yproject's
      // `permalink: false`), unknown otherwise (a function, an assignment after the object).
      const keys = ['permalink', 'eleventyNavigation'].filter((key) => text.includes(key));
      if (keys.length === 0) continue;
      const read = (await readConfigModule(files, file)).value;
      const assigned = /\.\s*(permalink|eleventyNavigation)\s*=/.test(text);
      for (const key of keys) {
        const value = read?.[key];
        const literal =
          typeof value === 'string' ||
          value === false ||
          (key === 'eleventyNavigation' &&
            isPlainRecord(value) &&
            Object.values(value).every((item) => typeof item === 'string' || typeof item === 'number'));
        const templated = key === 'permalink' && !literal ? permalinkFunction(text) : null;
        if (!assigned && literal) fromCode[key] = value;
        else if (!assigned && templated !== null) fromCode[key] = templated;
        else entry.unknown.push(key);
      }
    }
    // JSON, and the formats `addDataExtension` adds that this reader knows (YAML).
    const yaml: string[] = config.dataExtensions.filter(
      (extension) => extension === 'yml' || extension === 'yaml',
    );
    for (const suffix of [
      '.json',
      '.11tydata.json',
      ...yaml.flatMap((extension) => [`.${extension}`, `.11tydata.${extension}`]),
    ]) {
      if (!files.has(`${base}${suffix}`)) continue;
      const text = (await files.read(`${base}${suffix}`)) ?? '';
      if (text.length > maximumDataFileBytes) continue;
      // JSON is YAML; a file that does not read is empty here (Eleventy stops on it).
      Object.assign(entry.values, parseYamlMapping(text) ?? {});
    }
    Object.assign(entry.values, fromCode);
    // Another format's data file (`addDataExtension('ts')`) is code too.
    for (const extension of config.dataExtensions)
      if (!yaml.includes(extension) && files.has(`${base}.11tydata.${extension}`))
        entry.unknown.push('permalink', 'eleventyNavigation');
    cache.set(base, entry);
    return entry;
  };
  // Global data that sets every page's permalink: written out (pouchdb's
  // `addGlobalData('permalink', '/{{ page.filePathStem }}.html')`), or code (`_data/permalink.js`).
  const writtenGlobal = /\baddGlobalData\(\s*['"]permalink['"]\s*,\s*(['"`])([^'"`$]*)\1\s*\)/.exec(
    config.text,
  )?.[2];
  const globalPermalink =
    files.paths.some(
      (path) => isWithin(config.data, path) && /^permalink\.[a-z]+$/.test(posix.basename(path)),
    ) ||
    (writtenGlobal === undefined && /\baddGlobalData\(\s*['"]permalink['"]/.test(config.text));
  return async (path, stem) => {
    const values: Record<string, unknown> = {};
    const unknown: string[] = globalPermalink ? ['permalink'] : [];
    const bases: string[] = [];
    for (
      let folder = folderOf(path);
      isWithin(config.input, folder) || folder === config.input;
      folder = folderOf(folder)
    ) {
      bases.push(`${folder === '' ? '' : `${folder}/`}${posix.basename(folder)}`);
      if (folder === config.input || folder === '') break;
    }
    // The shallowest first, so deeper folders and the template's own file win.
    for (const base of [
      ...bases.reverse(),
      path.slice(0, path.length - (posix.basename(path).length - posix.basename(stem).length)),
    ]) {
      const entry = await readFile(base);
      Object.assign(values, entry.values);
      unknown.push(...entry.unknown);
    }
    return { values, unknown, global: writtenGlobal === undefined ? {} : { permalink: writtenGlobal } };
  };
}

/**
 * The sources of a host's redirects and rewrites written as paths: `vercel.json`'s (11ty.dev) and
 * Firebase Hosting's `firebase.json` (v8.dev's `/bug`).
 */
async function readHostRedirects(
  files: RepositoryFiles,
  siteRoot: string,
): Promise<(path: string) => boolean> {
  const sources = new Set<string>();
  for (const name of ['vercel.json', 'firebase.json']) {
    const file = joinInside(siteRoot, name);
    if (file === null || !files.has(file)) continue;
    let value: unknown;
    try {
      value = JSON.parse((await files.read(file)) ?? '');
    } catch {
      continue;
    }
    const hosting = isPlainRecord(value) && name === 'firebase.json' ? value.hosting : value;
    for (const site of Array.isArray(hosting) ? hosting : [hosting]) {
      if (!isPlainRecord(site)) continue;
      for (const key of ['redirects', 'rewrites'])
        for (const rule of Array.isArray(site[key]) ? site[key] : [])
          if (isPlainRecord(rule) && typeof rule.source === 'string' && !/[:(*{]/.test(rule.source))
            sources.add(rule.source.replace(/\/$/, ''));
    }
  }
  return (path) => sources.has(path.replace(/\/$/, ''));
}

/**
 * A JavaScript data file's `permalink` written as a function returning a template literal
 * (lit.dev's `(data) => \`/articles/${data.page.fileSlug}/\``), as the permalink string it makes:
 * the page's `fileSlug` and `filePathStem` kept, any other expression a template tag (a pattern).
 * Null for any other shape, or when `permalink` is named more than once.
 */
function permalinkFunction(text: string): string | null {
  if ((text.match(/\bpermalink\b/g) ?? []).length !== 1) return null;
  const match =
    /\bpermalink\s*:\s*(?:function\s*\(\s*(\w+)\s*\)\s*\{\s*return\s*|\(?\s*(\w+)\s*\)?\s*=>\s*)`([^`]{0,500})`/.exec(
      text,
    );
  if (match === null) return null;
  const name = match[1] ?? match[2] ?? '';
  return (match[3] ?? '').replace(/\$\{([^}]*)\}/g, (_expression, inner: string) => {
    const field = new RegExp(`^\\s*${name}\\.page\\.(fileSlug|filePathStem)\\s*$`).exec(inner)?.[1];
    return field === undefined ? '{{ x }}' : `{{ page.${field} }}`;
  });
}
