import { posix } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { ConfigLines } from '../config-lines.ts';
import { readGitIgnored } from '../git-ignored.ts';
import {
  decodePath,
  isExternalUrl,
  isWithin,
  joinInside,
  listFolders,
  relativeTo,
  resolveFromPageUrl,
  splitUrl,
} from '../link-urls.ts';
import type {
  LinkTarget,
  NavigationEntry,
  PageLink,
  SiteModel,
  SiteModelBuilder,
  SiteSource,
} from '../site-model.ts';
import { readHugoRef } from '../template-links.ts';
import { type HugoConfig, readHugoConfig } from './hugo-config.ts';
import { readNetlifyRedirects } from './netlify-redirects.ts';

const pageExtension = /\.(md|markdown|html?)$/i;
const otherContentFormats = /\.(adoc|asciidoc|org|pandoc|rst|ipynb)$/i;

interface HugoPage {
  file: string;
  /** The page's path in the content tree, without extension (`docs/setup`, `docs/_index`). */
  logical: string;
  language: string;
  /** The URL it is published at; null when its permalink has a token this model does not fill. */
  url: string | null;
  /** The folder its bundle's resources are in: a leaf bundle's own, or the section's. */
  bundle: string | null;
}

/**
 * Hugo (https://gohugo.io): content files become pages at URLs Hugo computes from their place in the
 * content tree (resources/page/page_paths.go): `_index.md` is its section's page (`/docs/`),
 * `index.md` a leaf bundle's (its folder's URL, its other files its resources), any other file
 * `/section/name/` (`name.html` with `uglyURLs`), with front matter `slug`, `url`, `aliases`, `draft`
 * and `build`, `permalinks` per section, lower-cased paths, and a language prefix for every language
 * but the default one. `static/` (and mounted folders) are published at the root. A link leads where
 * the browser takes it from the page's URL, except `{{< ref >}}`/`{{< relref >}}`, which name a page
 * (Hugo's build fails with REF_NOT_FOUND when it finds none), and Markdown links under a link render
 * hook that resolves pages (Hugo's embedded one, on by default for multilingual single-host sites).
 */
export const buildHugoSite: SiteModelBuilder = async (source, siteRoot) => {
  const files = source.files;
  const config = await readHugoConfig(files, siteRoot);
  const unsupported = [...config.unsupported];
  const pages: HugoPage[] = [];
  const aliases: Array<{ alias: string; page: HugoPage }> = [];
  // Drafts are built only with --buildDrafts; links to them are left unchecked.
  const drafts = new Set<string>();
  // Taxonomy term pages Hugo generates from front matter (`tags: [upgrade]` → `/tags/upgrade/`).
  const taxonomyUrls = new Set<string>();
  let skippedFormats = 0;

  // Sections whose `_index.md` cascades `build: {render: never}` to every page below (headless).
  const headlessSections: string[] = [];
  for (const mount of config.content) {
    for (const path of files.paths) {
      if (isWithin(mount.source, path) && /(^|\/)_index\.(md|markdown|html?)$/i.test(path)) {
        if (cascadesHeadless(await frontMatterOf(source, path))) headlessSections.push(posix.dirname(path));
      }
    }
  }
  for (const mount of config.content) {
    for (const path of files.paths) {
      // A mount's source is a folder, or one file (docsy.dev mounts its repository's README).
      if (!isWithin(mount.source, path)) continue;
      // A cascade reaches the section's descendants, not its own page.
      const isOwnPage = (folder: string) =>
        posix.dirname(path) === folder && /(^|\/)_index\.(md|markdown|html?)$/i.test(path);
      if (headlessSections.some((folder) => isWithin(folder, path) && !isOwnPage(folder))) continue;
      const inside =
        path === mount.source ? mount.target : joinInside(mount.target, relativeTo(mount.source, path));
      if (inside === null) continue;
      if (otherContentFormats.test(path)) {
        skippedFormats += 1;
        continue;
      }
      if (!pageExtension.test(path)) continue;
      const suffix = /\.([a-z]{2}(?:-[a-z0-9]+)?)\.(md|markdown|html?)$/i.exec(path)?.[1]?.toLowerCase();
      const language =
        mount.language ??
        (suffix !== undefined && config.languages.includes(suffix) ? suffix : config.defaultLanguage);
      const translated = suffix !== undefined && config.languages.includes(suffix);
      const withoutLanguage = inside.replace(pageExtension, '');
      const withoutExtension = translated
        ? withoutLanguage.slice(0, withoutLanguage.length - (suffix?.length ?? 0) - 1)
        : withoutLanguage;
      const frontMatter = await frontMatterOf(source, path);
      if (frontMatter.draft === true) {
        const url = pageUrl(config, withoutExtension, language, frontMatter);
        if (url !== null) for (const variant of urlVariants(url)) drafts.add(variant);
        continue;
      }
      if (isHeadless(frontMatter)) continue;
      for (const [plural, terms] of taxonomyTerms(config, frontMatter)) {
        for (const term of terms)
          taxonomyUrls.add(withLanguagePrefix(config, `/${plural}/${urlize(term).toLowerCase()}/`, language));
        taxonomyUrls.add(withLanguagePrefix(config, `/${plural}/`, language));
      }
      const page: HugoPage = {
        file: path,
        logical: withoutExtension,
        language,
        url: pageUrl(config, withoutExtension, language, frontMatter),
        bundle: /(^|\/)(_?index)$/.test(withoutExtension) ? posix.dirname(path) : null,
      };
      pages.push(page);
      for (const alias of aliasesOf(frontMatter)) aliases.push({ alias, page });
    }
  }
  // A mounted folder this checkout does not hold (a Git submodule not checked out): its pages are unknown.
  const missingContent = config.content
    .map((mount) => mount.source)
    .filter((folder) => !files.paths.some((path) => isWithin(folder, path)));
  const missingTargets = config.content
    .filter((mount) => missingContent.includes(mount.source))
    .map((mount) => ({ target: mount.target.toLowerCase(), language: mount.language }));
  const mayHold = (page: HugoPage | undefined) =>
    missingTargets.filter(
      (missing) =>
        missing.language === null || missing.language === (page?.language ?? config.defaultLanguage),
    );
  if (missingContent.length > 0)
    unsupported.push(
      `content mounted from ${missingContent.slice(0, 5).join(', ')}${missingContent.length > 5 ? ` and ${missingContent.length - 5} more folders` : ''} is not in this checkout (a Git submodule?); links that may lead there are unchecked`,
    );
  if (skippedFormats > 0)
    unsupported.push(
      `${skippedFormats} content files in AsciiDoc, Org, reStructuredText or notebooks are not read`,
    );

  // Every URL the built site answers, and the file behind it.
  const served = new Map<string, string>();
  const serve = (url: string, file: string) => {
    for (const variant of urlVariants(url)) if (!served.has(variant)) served.set(variant, file);
  };
  const redirects = new Set<string>();
  let unknownUrls = 0;
  for (const page of pages) {
    if (page.url === null) unknownUrls += 1;
    else serve(page.url, page.file);
  }
  // `aliases`: old URLs answered with a redirect page (relative ones from the page's folder).
  for (const { alias, page } of aliases) {
    const joined = alias.startsWith('/') ? alias : posix.join(posix.dirname(page.url ?? '/'), alias);
    // An alias is written as a folder's index page unless it names an HTML file.
    const url = joined.endsWith('/') || /\.html?$/i.test(joined) ? joined : `${joined}/`;
    for (const variant of urlVariants(withLanguagePrefix(config, url, page.language))) redirects.add(variant);
  }
  // Page resources: the other files of a bundle's folder, published beside the page.
  const pageFiles = new Set(pages.map((page) => page.file));
  const bundles = new Map<string, HugoPage>();
  for (const page of pages)
    if (page.bundle !== null && !bundles.has(page.bundle)) bundles.set(page.bundle, page);
  /** The nearest bundle above a file: its folder or a parent's, up to the mount. */
  const bundleOf = (path: string, mount: string): HugoPage | undefined => {
    for (let folder = posix.dirname(path); isWithin(mount, folder); folder = posix.dirname(folder)) {
      const bundle = bundles.get(folder);
      if (bundle !== undefined || folder === mount || folder === '.') return bundle;
    }
    return undefined;
  };
  for (const mount of config.content) {
    for (const path of files.paths) {
      if (!isWithin(mount.source, path) || pageFiles.has(path) || pageExtension.test(path)) continue;
      const bundle = bundleOf(path, mount.source);
      const inside =
        path === mount.source ? mount.target : joinInside(mount.target, relativeTo(mount.source, path));
      if (bundle?.url == null || bundle.bundle === null) serve(`/${inside ?? ''}`, path);
      else serve(posix.join(bundle.url, relativeTo(bundle.bundle, path)), path);
    }
  }
  for (const mount of config.static) {
    for (const path of files.paths) {
      if (isWithin(mount.source, path) && path !== mount.source)
        serve(`/${joinInside(mount.target, relativeTo(mount.source, path)) ?? ''}`, path);
    }
  }
  const assets = joinInside(siteRoot, 'assets');
  const inSite = (path: string) => (siteRoot === '' ? path : `${siteRoot}/${path}`);
  const isNetlifyRedirect = await readNetlifyRedirects(files, {
    toml: [inSite('netlify.toml'), 'netlify.toml'].filter((path) => files.has(path)),
    rules: files.paths.filter(
      (path) =>
        path === inSite('static/_redirects') ||
        (isWithin(inSite('layouts'), path) && /\.(redir|redirects)$/.test(path)),
    ),
  });
  if (unknownUrls > 0)
    unsupported.push(
      `${unknownUrls} pages have a permalink with tokens this check does not fill; links to URLs no known page has are unchecked`,
    );
  const linkHook = await readLinkRenderHook(source, siteRoot);
  const resolvesPages = config.embeddedLinkHook || linkHook === 'resolves-pages';
  if (linkHook === 'unknown')
    unsupported.push(
      `${siteRoot === '' ? '' : `${siteRoot}/`}layouts/…/render-link.html: a link render hook rewrites Markdown links; links not naming a page are unchecked`,
    );
  const isGitIgnored = await readGitIgnored(files);
  const folders = listFolders(files.paths);

  const pageOf = new Map(pages.map((page) => [page.file, page]));
  // Pages by language and lower-cased logical path (`docs/setup`, `docs` for `docs/_index` and a bundle).
  const byPath = new Map<string, HugoPage>();
  const byName = new Map<string, HugoPage[]>();
  for (const page of pages) {
    const key = page.logical.replace(/(^|\/)_?index$/, '').toLowerCase();
    if (!byPath.has(`${page.language}\0${key}`)) byPath.set(`${page.language}\0${key}`, page);
    const name = `${page.language}\0${posix.basename(key)}`;
    const named = byName.get(name);
    if (named === undefined) byName.set(name, [page]);
    else named.push(page);
  }
  /**
   * Hugo's page lookup (hugolib/pagecollections.go, getContentNode): lower-cased, extension and
   * `index`/`_index` dropped; a relative path from the page's container folder (its own for a
   * section, or with an extension and `../`), never further when it starts with `.`; then from the
   * content root; then, for `ref` only and a path without `/`, a unique page of that name.
   */
  const lookupPage = (
    from: HugoPage | undefined,
    reference: string,
    byUniqueName: boolean,
  ): HugoPage | null => {
    const language = from?.language ?? config.defaultLanguage;
    const hasExtension = pageExtension.test(reference);
    const path = reference
      .replace(/\\/g, '/')
      .replace(/(?<!\/)\/+$/, '')
      .replace(pageExtension, '')
      .toLowerCase();
    const find = (logical: string | null) =>
      logical === null ? null : (byPath.get(`${language}\0${logical.replace(/(^|\/)_?index$/, '')}`) ?? null);
    if (path === '' || path === '/') return find('');
    if (path.startsWith('/')) return find(joinInside('', path.slice(1)));
    if (from !== undefined) {
      const logical = from.logical.toLowerCase();
      const isSection = /(^|\/)_index$/.test(logical);
      const isLeaf = /(^|\/)index$/.test(logical);
      const own = logical.replace(/(^|\/)_?index$/, '');
      const container = isSection ? own : isLeaf ? folderOfLogical(own) : folderOfLogical(logical);
      const base = hasExtension && path.startsWith('../') && isLeaf ? own : container;
      // With an extension, a file beside the page's own file, wherever it is mounted from.
      const beside = hasExtension
        ? joinInside(posix.dirname(from.file), reference.replace(/[#?].*$/, ''))
        : null;
      const found = find(joinInside(base, path)) ?? (beside === null ? null : (pageOf.get(beside) ?? null));
      if (found !== null || path.startsWith('.')) return found;
    }
    const fromRoot = find(joinInside('', path));
    if (fromRoot !== null || !byUniqueName || path.includes('/')) return fromRoot;
    const named = byName.get(`${language}\0${path}`) ?? [];
    return named.length === 1 ? (named[0] ?? null) : null;
  };

  const urlTarget = (url: string): LinkTarget => {
    const file = served.get(url) ?? served.get(decodePath(url));
    if (file !== undefined) return { kind: 'file', file };
    if (redirects.has(url)) return { kind: 'served', reason: 'an alias of a page' };
    if (taxonomyUrls.has(url) || taxonomyUrls.has(`${url}/`))
      return { kind: 'served', reason: 'a taxonomy page Hugo generates from front matter' };
    if (isNetlifyRedirect(url)) return { kind: 'served', reason: 'a Netlify redirect' };
    if (drafts.has(url)) return { kind: 'unchecked', reason: 'a draft page, built only with --buildDrafts' };
    if (missingTargets.some((missing) => isRouteUnder(missing, url, config)))
      return {
        kind: 'unchecked',
        reason: 'content this checkout does not hold (a Git submodule?) is published there',
      };
    const generated = joinInside(siteRoot, `static${url}`);
    if (generated !== null && isGitIgnored(generated))
      return { kind: 'unchecked', reason: `${generated} is generated: .gitignore keeps it out of Git` };
    if (unknownUrls > 0)
      return { kind: 'unchecked', reason: 'some pages have URLs this check cannot compute' };
    if (config.hasTheme && /\.[a-z0-9]+$/i.test(url) && !/\.(html?|md|markdown)$/i.test(url))
      return { kind: 'unchecked', reason: 'the theme may publish this file' };
    return { kind: 'broken', reason: `the built site has no page or file at ${url}` };
  };

  const resolveLink = (from: string, url: string, link?: Pick<PageLink, 'kind' | 'title'>): LinkTarget => {
    const page = pageOf.get(from);
    const reference = readHugoRef(url.trim());
    if (reference !== null) {
      const path = reference.replace(/[#?].*$/, '');
      if (path === '') return { kind: 'external' };
      const target = lookupPage(page, path, true);
      if (target !== null) return { kind: 'file', file: target.file };
      // A page of content this checkout does not hold: named alone (found anywhere) or under its folder.
      const logical = path.toLowerCase().replace(pageExtension, '').replace(/^\/+/, '');
      if (
        mayHold(page).length > 0 &&
        (!path.includes('/') || mayHold(page).some((missing) => isWithin(missing.target, logical)))
      )
        return {
          kind: 'unchecked',
          reason: 'content this checkout does not hold (a Git submodule?) may have it',
        };
      return {
        kind: 'broken',
        reason: `${config.refErrorsStopBuild ? "Hugo's build fails: " : ''}REF_NOT_FOUND: Ref "${path}": no page of ${page?.language ?? config.defaultLanguage} content is found at that path`,
      };
    }
    const trimmed = url.trim();
    if (isExternalUrl(trimmed)) return { kind: 'external' };
    const { path } = splitUrl(trimmed);
    if (path === '') return { kind: 'external' };
    // A render hook that resolves pages: the page, then a resource of the page, then an asset.
    if (resolvesPages && link?.kind !== 'html') {
      const target = lookupPage(page, path, false);
      if (target !== null) return { kind: 'file', file: target.file };
      const resource = page?.bundle == null ? null : joinInside(page.bundle, path.replace(/^\.\//, ''));
      if (resource !== null && files.has(resource)) return { kind: 'file', file: resource };
      const asset = assets === null ? null : joinInside(assets, path.replace(/^\/+/, ''));
      if (asset !== null && files.has(asset)) return { kind: 'file', file: asset };
      // The site's own hook may give a bare word a meaning of its own (hugoDocs' `(g)` glossary links).
      if (linkHook !== null && !/[./]/.test(path))
        return { kind: 'unchecked', reason: "the site's link render hook decides where it leads" };
    }
    let absolute: string;
    if (path.startsWith('/')) {
      if (config.rewritesRootLinks || config.basePath === '') absolute = path;
      else if (path === config.basePath || path.startsWith(`${config.basePath}/`))
        absolute = path.slice(config.basePath.length) || '/';
      else
        return {
          kind: 'broken',
          reason: `the site is served under ${config.basePath} (baseURL); this link leaves it`,
        };
    } else {
      if (page?.url == null) return { kind: 'unchecked', reason: 'the page is not published at a known URL' };
      absolute = resolveFromPageUrl(page.url, path);
    }
    const target = urlTarget(absolute);
    if (target.kind === 'broken' && /\.md$/i.test(path)) {
      const named = lookupPage(page, path, false);
      if (named !== null)
        return {
          kind: 'broken',
          reason: `${named.file} is published at ${named.url ?? 'another URL'}, not at ${absolute}: link that URL or use {{< ref "${path}" >}}`,
        };
    }
    if (target.kind === 'broken' && folders.has(joinInside(siteRoot, absolute.slice(1)) ?? ''))
      return { kind: 'unchecked', reason: 'a folder of the repository, not of the built site' };
    return target;
  };

  // The configuration's menus: a `pageRef` must name a page (else the entry leads nowhere), a `url`
  // of the site must be served. Each is reported at the line it is written on.
  const navigation: NavigationEntry[] = [];
  const menuLines = new Map<string, ConfigLines>();
  for (const entry of config.menus) {
    let lines = menuLines.get(entry.file);
    if (lines === undefined) {
      lines = new ConfigLines((await files.read(entry.file)) ?? '');
      menuLines.set(entry.file, lines);
    }
    let target: string | null;
    if (entry.kind === 'pageRef')
      target = lookupPage(undefined, entry.reference.replace(/[#?].*$/, ''), false)?.file ?? null;
    else {
      const found = resolveLink(config.files[0] ?? entry.file, entry.reference, { kind: 'html' });
      if (found.kind !== 'file' && found.kind !== 'broken') continue;
      target = found.kind === 'file' ? found.file : null;
    }
    navigation.push({
      reference: entry.reference,
      file: entry.file,
      line: lines.lineOf(entry.reference),
      groups: [entry.menu],
      target,
    });
  }

  const model: SiteModel = {
    framework: 'hugo',
    siteRoot,
    configFiles: config.files,
    pages: new Map(pages.map((page) => [page.file, page.url === null ? [] : [page.url]])),
    partials: new Set(),
    navigation,
    needsNavigationEntry: () => false,
    resolveLink,
    configurationProblems: config.problems,
    unsupported,
    conventions: [
      `Hugo publishes \`${config.content[0]?.source ?? 'content'}/docs/setup.md\` at \`/docs/setup/\` (\`_index.md\` is its section's page, \`index.md\` a page bundle with its images beside it). Link pages with \`{{< ref "docs/setup.md" >}}\` (the build fails if the page is missing)${resolvesPages ? ' or as paths to the `.md` file (this site resolves them)' : ', or with URLs relative to the page’s URL, which is a folder (`../other/`)'}.`,
    ],
  };
  return model;
};

/** A page's URL: `url`, or `permalinks`, or its place in the content tree with `slug`. */
function pageUrl(
  config: HugoConfig,
  logical: string,
  language: string,
  frontMatter: Readonly<Record<string, unknown>>,
): string | null {
  const folder = posix.dirname(logical) === '.' ? '' : posix.dirname(logical);
  const name = posix.basename(logical);
  const isSection = name === '_index';
  const isBundle = name === 'index';
  if (typeof frontMatter.url === 'string' && frontMatter.url.trim() !== '') {
    const url = frontMatter.url.trim();
    return withLanguagePrefix(config, url.startsWith('/') ? url : `/${url}`, language);
  }
  const sectionPath = isSection || isBundle ? folder : logical;
  const section = sectionPath.split('/')[0] ?? '';
  const slug =
    typeof frontMatter.slug === 'string' && frontMatter.slug.trim() !== '' ? frontMatter.slug.trim() : null;
  const template = config.permalinks.get(isSection ? `${section}/_index` : section);
  let path: string | null;
  if (template !== undefined && !isSection && section !== '' && sectionPath.includes('/')) {
    path = fillPermalink(template, { logical: sectionPath, slug, frontMatter });
  } else if (isSection || isBundle) {
    path = folder === '' ? '/' : `/${folder}/`;
  } else {
    const base = slug ?? name;
    path = config.uglyURLs
      ? `/${folder === '' ? '' : `${folder}/`}${base}.html`
      : `/${folder === '' ? '' : `${folder}/`}${base}/`;
  }
  if (path === null) return null;
  path = urlize(path);
  if (config.lowerCasePaths) path = path.toLowerCase();
  return withLanguagePrefix(config, path, language);
}

/** A `permalinks` template filled for a page (https://gohugo.io/configuration/permalinks/#tokens). */
function fillPermalink(
  template: string,
  page: { logical: string; slug: string | null; frontMatter: Readonly<Record<string, unknown>> },
): string | null {
  const sections = posix.dirname(page.logical).split('/');
  const filename = posix.basename(page.logical);
  const title = typeof page.frontMatter.title === 'string' ? page.frontMatter.title : filename;
  // YAML gives a date as written; TOML front matter (`date = 2024-05-01`) as a Date.
  const written = page.frontMatter.date;
  const date = /^(\d{4})-(\d{2})-(\d{2})/.exec(
    written instanceof Date && !Number.isNaN(written.getTime())
      ? written.toISOString()
      : String(written ?? ''),
  );
  const values: Record<string, string | undefined> = {
    section: sections[0],
    sections: sections.join('/'),
    filename,
    contentbasename: filename,
    slug: page.slug ?? slugOf(title),
    slugorfilename: page.slug ?? filename,
    slugorcontentbasename: page.slug ?? filename,
    title: slugOf(title),
    year: date?.[1],
    month: date?.[2],
    day: date?.[3],
  };
  let unknown = false;
  const filled = template.replace(/:([a-z]+)(\[[^\]]*\])?/g, (whole, token: string, range?: string) => {
    const value = range === undefined && Object.hasOwn(values, token) ? values[token] : undefined;
    if (value === undefined) {
      unknown = true;
      return whole;
    }
    return value;
  });
  if (unknown) return null;
  const url = `/${filled}`.replace(/\/{2,}/g, '/');
  return /\.[a-z0-9]+$/i.test(url) || url.endsWith('/') ? url : `${url}/`;
}

/** Whether a URL is under a content folder's URL, in the folder's language. */
function isRouteUnder(
  missing: { target: string; language: string | null },
  url: string,
  config: HugoConfig,
): boolean {
  const prefix = config.languages.find((code) => url.startsWith(`/${code}/`));
  const language = prefix ?? config.defaultLanguage;
  if (missing.language !== null && missing.language !== language) return false;
  const path = prefix === undefined ? url : url.slice(prefix.length + 1);
  return missing.target === '' || path === `/${missing.target}` || path.startsWith(`/${missing.target}/`);
}

function folderOfLogical(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

/** The taxonomy terms a page names (`tags`, `categories` by default, or the site's `taxonomies`). */
function taxonomyTerms(
  config: HugoConfig,
  frontMatter: Readonly<Record<string, unknown>>,
): Array<[string, string[]]> {
  return config.taxonomies.map((plural) => {
    const value = frontMatter[plural];
    const terms = (Array.isArray(value) ? value : typeof value === 'string' ? [value] : []).filter(
      (term): term is string => typeof term === 'string' && term.trim() !== '',
    );
    return [plural, terms];
  });
}

function slugOf(text: string): string {
  return text.trim().toLowerCase().replace(/\s+/g, '-');
}

/** Hugo's urlize of a path: spaces become hyphens. */
function urlize(path: string): string {
  return path.replace(/ /g, '-');
}

function withLanguagePrefix(config: HugoConfig, url: string, language: string): string {
  if (language === config.defaultLanguage && !config.defaultLanguageInSubdir) return url;
  return `/${language}${url}`.replace(/\/{2,}/g, '/');
}

/** The URLs a host answers for a page written at `url` (`/a/` is `/a/index.html`, `/a` redirects to it). */
function urlVariants(url: string): string[] {
  if (url.endsWith('/')) return [url, `${url}index.html`, url.length > 1 ? url.slice(0, -1) : url];
  if (/\.html$/i.test(url)) return [url, url.slice(0, -5)];
  if (/\.[a-z0-9]+$/i.test(posix.basename(url))) return [url];
  return [url, `${url}/`, `${url}/index.html`];
}

function isHeadless(frontMatter: Readonly<Record<string, unknown>>): boolean {
  if (frontMatter.headless === true) return true;
  const build = frontMatter.build ?? frontMatter._build;
  if (typeof build !== 'object' || build === null) return false;
  const render = (build as Record<string, unknown>).render;
  return render === false || render === 'never';
}

/** Whether a section's front matter cascades `build: {render: never}` (or `headless`) to its pages. */
function cascadesHeadless(frontMatter: Readonly<Record<string, unknown>>): boolean {
  const cascade = frontMatter.cascade;
  const entries = Array.isArray(cascade) ? cascade : [cascade];
  return entries.some(
    (entry) =>
      typeof entry === 'object' &&
      entry !== null &&
      !('_target' in entry) &&
      !('target' in entry) &&
      isHeadless(entry as Record<string, unknown>),
  );
}

function aliasesOf(frontMatter: Readonly<Record<string, unknown>>): string[] {
  const aliases = frontMatter.aliases;
  return (Array.isArray(aliases) ? aliases : typeof aliases === 'string' ? [aliases] : []).filter(
    (alias): alias is string => typeof alias === 'string' && alias.trim() !== '',
  );
}

/** A page's front matter: YAML from its facts, or TOML between `+++` lines, read here. */
export async function frontMatterOf(
  source: SiteSource,
  path: string,
): Promise<Readonly<Record<string, unknown>>> {
  const facts = await source.pageFacts(path);
  if (facts?.frontMatter != null) return facts.frontMatter;
  const text = (await source.files.read(path)) ?? '';
  const toml = /^\+\+\+[ \t]*\r?\n([\s\S]*?)\r?\n\+\+\+[ \t]*(?:\r?\n|$)/.exec(text);
  if (toml === null) return {};
  try {
    return parseToml(toml[1] ?? '') as Record<string, unknown>;
  } catch {
    return {};
  }
}

/**
 * The site's link render hook (`layouts/_markup/render-link.html`, or under `_default/`), which
 * decides what a Markdown link's URL becomes: `resolves-pages` when it looks pages up (`GetPage`,
 * like Hugo's embedded hook), `unknown` for any other, null without one.
 */
async function readLinkRenderHook(
  source: SiteSource,
  siteRoot: string,
): Promise<'resolves-pages' | 'unknown' | null> {
  for (const candidate of ['layouts/_markup/render-link.html', 'layouts/_default/_markup/render-link.html']) {
    const text = await source.files.read(siteRoot === '' ? candidate : `${siteRoot}/${candidate}`);
    if (text === null) continue;
    return /\.GetPage\b|\brelref\b/.test(text) ? 'resolves-pages' : 'unknown';
  }
  return null;
}
