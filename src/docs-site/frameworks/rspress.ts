import { posix } from 'node:path';
import { RE2JS } from 're2js';
import { ConfigLines } from '../config-lines.ts';
import { generatedPlace, readGitIgnored } from '../git-ignored.ts';
import { expandBraces } from '../glob-braces.ts';
import { readHeadingAnchors } from '../heading-anchors.ts';
import { hasUnknownSpread, isPlainRecord, UnknownValue } from '../javascript-config.ts';
import { ModuleLines } from '../javascript-modules.ts';
import {
  folderOf,
  isExternalUrl,
  isWithin,
  joinInside,
  listFolders,
  relativeTo,
  splitUrl,
} from '../link-urls.ts';
import { majorOf, nearestDependencies } from '../package-dependencies.ts';
import { type LinkTarget, navigationTarget, type SiteModel, type SiteModelBuilder } from '../site-model.ts';
import { createCheckoutCoverage } from './checkout-coverage.ts';
import { filePathValue } from './docusaurus-config.ts';
import { type RspressLayout, readRspressMeta } from './rspress-meta.ts';
import { addPublicFiles, RouteTable, resolveFileReference } from './starlight-routes.ts';
import { configurationOf, readConfigModule } from './vitepress-config.ts';
import { readVitePressNavigation, type VitePressNavigation } from './vitepress-navigation.ts';

const configExtensions = ['.ts', '.js', '.mjs', '.mts', '.cjs', '.cts'];
const defaultExtensions = ['.js', '.jsx', '.ts', '.tsx', '.md', '.mdx'];
/** Languages and versions read (each pair is a folder to walk). */
const maximumFolders = 100;

/**
 * Rspress sites (https://rspress.rs/guide/basic/conventional-route, /guide/basic/auto-nav-sidebar,
 * /api/config/config-basic), read as `RouteService` and the `remarkLink` plugin of
 * web-infra-dev/rspress read them: every file under `root` (default `docs`) with a page extension is
 * a route at its path without the extension, `index` serving its folder, except names starting with
 * one `_` (partials and components, `route.excludeConvention`), `route.exclude` globs and `public/`.
 * Languages (`locales`) and versions (`multiVersion`) are folders; the default's prefix is dropped
 * from routes. Markdown links are routes or paths relative to the page's file, with or without
 * extension; an absolute link without a version or language prefix gets the page's (`autoPrefix`).
 * Rspress 2 fails its build on a link to no route (`markdown.link.checkDeadLinks`, on by default);
 * Rspress 1 resolves a link without `./` from the root and does not check links unless asked.
 * The sidebar is the configuration's `themeConfig.sidebar`, or else the `_meta.json` files.
 */
export const buildRspressSite: SiteModelBuilder = async (source, siteRoot) => {
  const { files } = source;
  const inRoot = (path: string) => (siteRoot === '' ? path : `${siteRoot}/${path}`);
  const configFile =
    ['rspress.config', 'rstack.config']
      .flatMap((name) => configExtensions.map((extension) => inRoot(`${name}${extension}`)))
      .find((path) => files.has(path)) ?? inRoot('rspress.config.ts');
  const main = await readConfigModule(files, configFile);
  // Rstack passes the configuration to `define.doc(...)` instead of exporting it.
  const given = main.modules?.config.named.get('define.doc');
  if (main.value === null && isPlainRecord(given)) main.value = given;
  const { config, unsupported, problems } = configurationOf(main, configFile);
  const major = await rspressMajor(files, siteRoot, configFile);

  const rootValue = config.root === undefined ? 'docs' : filePathValue(config.root, siteRoot);
  let docsRoot =
    typeof rootValue === 'string' ? (config.root === undefined ? inRoot('docs') : rootValue) : null;
  if (docsRoot === null) {
    unsupported.push(`${configFile}: \`root\` is computed by code; the \`docs\` folder is read`);
    docsRoot = inRoot('docs');
  }
  const base = typeof config.base === 'string' ? config.base.replace(/(?<!\/)\/+$/, '') : '';
  const themeConfig = isPlainRecord(config.themeConfig) ? config.themeConfig : {};
  // The languages are `locales` (or `themeConfig.locales`); each language's nav and sidebar come from
  // `themeConfig.locales` only (RouteService, normalizeThemeConfig).
  const localeList = Array.isArray(config.locales)
    ? config.locales
    : Array.isArray(themeConfig.locales)
      ? themeConfig.locales
      : [];
  const themeLocales = Array.isArray(themeConfig.locales) ? themeConfig.locales.filter(isPlainRecord) : [];
  const langs = localeList
    .flatMap((locale) => (isPlainRecord(locale) && typeof locale.lang === 'string' ? [locale.lang] : []))
    .slice(0, maximumFolders);
  // Rspress 2 sets `lang` to `en` when it is not given (PluginDriver); Rspress 1 leaves it empty.
  const lang = typeof config.lang === 'string' ? config.lang : major === 2 ? 'en' : '';
  const multiVersion = isPlainRecord(config.multiVersion) ? config.multiVersion : {};
  const versions = Array.isArray(multiVersion.versions)
    ? multiVersion.versions
        .filter((version): version is string => typeof version === 'string')
        .slice(0, maximumFolders)
    : [];
  const defaultVersion = typeof multiVersion.default === 'string' ? multiVersion.default : '';
  const layout: RspressLayout = { docsRoot, lang, langs, version: defaultVersion, versions };
  // Languages or versions computed by code (`versions: ['main', ...fromFile]`) leave the routes'
  // prefixes unknown: an absolute link that names no page is then unchecked.
  const computed = (value: unknown): boolean =>
    value instanceof UnknownValue ||
    (Array.isArray(value) && value.some((item) => computed(item))) ||
    (isPlainRecord(value) && Object.values(value).some((item) => item instanceof UnknownValue));
  const prefixesKnown =
    main.value !== null &&
    !hasUnknownSpread(config) &&
    !computed(config.lang) &&
    !computed(config.locales ?? themeConfig.locales) &&
    !computed(config.multiVersion);

  const route = isPlainRecord(config.route) ? config.route : {};
  const extensions = Array.isArray(route.extensions)
    ? route.extensions.filter((extension): extension is string => typeof extension === 'string').slice(0, 20)
    : defaultExtensions;
  const excluded = compileIgnoreGlobs(stringList(route.exclude));
  // Rspress 2 leaves out names starting with one `_` (`**/_[^_]*`); Rspress 1 had no such convention.
  const convention =
    route.excludeConvention === undefined || major === 1
      ? null
      : compileIgnoreGlobs(stringList(route.excludeConvention));
  if (route.include !== undefined)
    unsupported.push(
      `${configFile}: \`route.include\` adds files from elsewhere; links to them are unchecked`,
    );
  const isExcluded = (relative: string): boolean => {
    if (excluded(relative)) return true;
    if (convention !== null) return convention(relative);
    return major === 2 && relative.split('/').some((segment) => /^_[^_]/.test(segment));
  };

  const routes = new RouteTable();
  const pages = new Map<string, string[]>();
  /** Files left out of the routes: partials once a page imports them (only then does Rspress compile them). */
  const excludedMarkdown = new Set<string>();
  /** Each route and its file, exactly as written: Rspress 2's check is case-sensitive. */
  const exactRoutes = new Map<string, string>();
  for (const path of files.paths) {
    if (!isWithin(docsRoot, path) || path === docsRoot) continue;
    const relative = relativeTo(docsRoot, path);
    if (/(^|\/)node_modules\//.test(relative) || relative.startsWith('public/') || relative.endsWith('.d.ts'))
      continue;
    const extension = extensions.find((candidate) => relative.endsWith(candidate));
    if (extension === undefined) continue;
    const isMarkdown = /\.mdx?$/.test(extension);
    if (isExcluded(relative)) {
      if (isMarkdown) excludedMarkdown.add(path);
      continue;
    }
    const served = routePathOf(relative, layout, extensions);
    const other = exactRoutes.get(served);
    if (other !== undefined && major === 2) {
      problems.push({
        file: path,
        line: 1,
        message: `${path} is served at ${served}, as ${other} is: Rspress stops ("routePath ${served} has already been added")`,
        key: `configuration\0duplicate route ${served}`,
      });
      continue;
    }
    exactRoutes.set(served, path);
    if (isMarkdown) {
      pages.set(path, [`${base}${served}`]);
      routes.addPage(served, path);
    } else routes.addServed(served, `a page written as code (${path})`);
  }
  addPublicFiles(files, `${docsRoot}/public`, routes);
  const partials = new Set<string>();
  const importers = [...pages.keys()];
  while (importers.length > 0) {
    const importer = importers.pop() as string;
    for (const link of (await source.pageFacts(importer))?.links ?? []) {
      if (link.kind !== 'import') continue;
      const { path } = splitUrl(link.url);
      const imported = ['', '.mdx', '.md']
        .map((extension) => resolveFileReference(files, importer, `${path}${extension}`)?.file)
        .find((file) => file !== undefined && excludedMarkdown.has(file));
      if (imported === undefined || partials.has(imported)) continue;
      partials.add(imported);
      importers.push(imported);
    }
  }
  if (pages.size === 0)
    unsupported.push(
      `${configFile}: no pages under ${docsRoot}/; a preset or code may set the site's \`root\` (nothing is checked)`,
    );

  const markdown = isPlainRecord(config.markdown) ? config.markdown : {};
  const linkOptions = isPlainRecord(markdown.link) ? markdown.link : {};
  const checkOption = major === 1 ? markdown.checkDeadLinks : linkOptions.checkDeadLinks;
  const checksLinks = checkOption === undefined ? major !== 1 : checkOption !== false;
  const excludes = isPlainRecord(checkOption) ? checkOption.excludes : undefined;
  const excludedUrls = new Set(stringList(excludes));
  const autoPrefix = linkOptions.autoPrefix !== false;
  // `checkAnchors: { excludes }` leaves some links alone, which the shared anchor check cannot tell:
  // anchors are then not checked at all.
  const checksAnchors = linkOptions.checkAnchors === true;

  const isExpected = createCheckoutCoverage(files.paths);
  const ignored = await readGitIgnored(files);
  const lookup = (path: string): LinkTarget | null =>
    routes.lookup(routePathOf(path, layout, extensions)) ?? routes.lookup(path);
  /**
   * Where a page a plugin writes before the build (typedoc's API pages) would be, when the
   * `.gitignore` names that place itself: a folder name ignored anywhere (`coverage/`, `dist/`) is
   * no sign of it.
   */
  const generatedPage = (served: string): string | null => {
    const pure = served.replace(/^\/+/, '').replace(/(?<!\/)\/+$/, '');
    if (pure === '') return null;
    const [version, lang, rest] = splitRoutePath(pure, layout);
    const folders = [version || layout.version, lang || layout.lang];
    for (const candidate of [
      joinInside(docsRoot, [...folders, rest].filter((part) => part !== '').join('/')),
      joinInside(docsRoot, pure),
    ]) {
      const place = candidate === null ? null : generatedPlace(ignored, candidate);
      if (place !== null) return place;
    }
    return null;
  };
  /** The file at exactly this route (Rspress 2's `isExistRoute`: case-sensitive, `/x` or `/x/`). */
  const exactFile = (path: string): string | undefined => {
    const route = routePathOf(path, layout, extensions);
    const other = route.endsWith('/') ? route.replace(/(?<!\/)\/+$/, '') || '/' : `${route}/`;
    return exactRoutes.get(route) ?? exactRoutes.get(other);
  };
  const resolveLink: SiteModel['resolveLink'] = (from, url, link) => {
    if (isExternalUrl(url)) return { kind: 'external' };
    const { path } = splitUrl(url);
    if (path === '') return { kind: 'external' };
    const kind = link?.kind ?? 'link';
    if (kind === 'image' || kind === 'import') {
      // Rspress's bundler also resolves an import of an MDX or Markdown file without its extension.
      const reference =
        resolveFileReference(files, from, path) ??
        (kind === 'import'
          ? (resolveFileReference(files, from, `${path}.mdx`) ??
            resolveFileReference(files, from, `${path}.md`))
          : null);
      if (reference !== null) return reference;
      // A package or an alias (`@theme`, `@/components`), which the bundler resolves.
      if (kind === 'import' && !/^\.{0,2}\//.test(path)) return { kind: 'external' };
      if (path.startsWith('/'))
        return lookup(path) ?? { kind: 'unchecked', reason: `${path} is not in ${docsRoot}/public` };
      const file = joinInside(folderOf(from), path);
      if (file === null) return { kind: 'unchecked', reason: 'outside the repository' };
      // The bundler fails on a file it cannot import, if this checkout can tell it is missing.
      const module = kind === 'import' && posix.extname(file) === '';
      if (!module && !isExpected(file))
        return { kind: 'unchecked', reason: `${file} is not in this checkout` };
      return { kind: 'broken', reason: `no file ${file}` };
    }
    const fileReference = resolveFileReference(files, from, path);
    if (fileReference !== null && !pages.has(fileReference.file) && isAsset(path)) return fileReference;
    const fromRelative = isWithin(docsRoot, from) ? relativeTo(docsRoot, from) : null;
    const fromFolder = `/${folderOf(fromRelative ?? '')}`;
    // Rspress 1 checks no link unless asked, and its runtime router forgives more: a link is found
    // when any of the ways of reading it names a page.
    const targets =
      kind === 'html'
        ? [path.startsWith('/') ? path : posix.join(fromFolder, path)]
        : major === 1
          ? [
              rspress1Link(path, fromRelative, layout),
              path.startsWith('/') ? path : posix.join(fromFolder, path),
              // mdx-rs, Rspress 1's default compiler, reads any link without `.` from the root as written.
              ...(path.startsWith('.') || path.startsWith('/') ? [] : [`/${path}`]),
            ]
          : path.startsWith('/')
            ? [autoPrefix ? prefixLink(path, fromRelative, layout) : path]
            : fromRelative === null
              ? []
              : [posix.join(fromFolder, path)];
    if (targets.length === 0) return { kind: 'unchecked', reason: 'the page is outside the docs folder' };
    const target = targets[0] ?? path;
    for (const candidate of targets) {
      const found = lookup(candidate);
      if (found === null) continue;
      // A link whose case differs from its page's route fails Rspress 2's build, whatever a host serves.
      if (
        kind === 'link' &&
        major === 2 &&
        found.kind === 'file' &&
        checksLinks &&
        exactFile(candidate) === undefined
      )
        return {
          kind: 'broken',
          reason: `no page is served at ${routePathOf(candidate, layout, extensions)} (the route's case differs: Rspress compares routes exactly)`,
        };
      return found;
    }
    // Rspress checks links to pages; other files come from the build, a plugin or another site.
    if (isAsset(path)) return { kind: 'unchecked', reason: `no file for ${path}` };
    // Rspress leaves raw HTML and components' `href`s as written: one relative to the page's URL
    // (a component may resolve it its own way) or written with the base (the build may copy files
    // there) is not known to be broken.
    if (kind === 'html' && (!path.startsWith('/') || (base !== '' && path.startsWith(`${base}/`))))
      return { kind: 'unchecked', reason: 'a link written as HTML that names no page' };
    if (!checksLinks && major !== 1)
      return { kind: 'unchecked', reason: '`markdown.link.checkDeadLinks` is off' };
    if (excludedUrls.has(url) || (excludes !== undefined && !Array.isArray(excludes)))
      return { kind: 'unchecked', reason: '`checkDeadLinks.excludes` covers it' };
    if (!prefixesKnown && path.startsWith('/'))
      return { kind: 'unchecked', reason: 'the languages or versions are computed by code' };
    if (route.include !== undefined) return { kind: 'unchecked', reason: '`route.include` may add the page' };
    const generated = generatedPage(routePathOf(target, layout, extensions));
    if (generated !== null)
      return { kind: 'unchecked', reason: `${generated} is written by the build (the .gitignore names it)` };
    return { kind: 'broken', reason: `no page is served at ${routePathOf(target, layout, extensions)}` };
  };

  // Navigation: the configuration's sidebar and nav when it has one (Rspress then reads no
  // `_meta.json`), else the `_meta.json` and `_nav.json` files.
  const resolveRoute = (link: string): LinkTarget => {
    const { path } = splitUrl(link);
    if (path === '') return { kind: 'external' };
    const found = lookup(path.startsWith('/') ? path : `/${path}`);
    if (found !== null) return found;
    return isAsset(path)
      ? { kind: 'unchecked', reason: `no file for ${path}` }
      : { kind: 'broken', reason: 'no page' };
  };
  // Rspress's own test (auto-nav-sidebar's `haveNavSidebarConfig`): the theme's nav or sidebar, or
  // the first of `themeConfig.locales`'; `_meta.json` files are read only without one.
  const configured = [themeConfig, ...themeLocales];
  const hasConfiguredNavigation =
    themeConfig.sidebar !== undefined ||
    themeConfig.nav !== undefined ||
    themeLocales[0]?.sidebar !== undefined ||
    themeLocales[0]?.nav !== undefined;
  const navigationKnown =
    main.value !== null &&
    !hasUnknownSpread(config) &&
    !hasUnknownSpread(themeConfig) &&
    !(config.themeConfig instanceof UnknownValue);
  const navigation: VitePressNavigation = { entries: [], sidebarPrefixes: [], unsupported };
  const configFiles = [...(main.modules?.files ?? [configFile])];
  let needsNavigationEntry: (file: string) => boolean = () => false;
  let navigationFileFor: ((file: string) => string) | undefined;
  if (!navigationKnown) {
    unsupported.push(`${configFile}: \`themeConfig\` is partly computed by code; navigation is unchecked`);
    navigation.entries.push({
      reference: '(computed)',
      file: configFile,
      line: 1,
      groups: [],
      target: { unchecked: 'themeConfig computed by code' },
    });
  } else if (hasConfiguredNavigation) {
    const lines = new ModuleLines(main.modules ?? { files: [configFile], texts: new Map() });
    for (const value of configured) {
      const group = value === themeConfig ? [] : [typeof value.lang === 'string' ? value.lang : 'locale'];
      readVitePressNavigation(value, group, lines, resolveRoute, navigation, { stringItems: true });
    }
    const prefixes = navigation.sidebarPrefixes.map((prefix) => prefix.replace(/^(?!\/)/, '/'));
    needsNavigationEntry = (file) => {
      const served = pages.get(file)?.[0]?.slice(base.length);
      return (
        served !== undefined &&
        served !== '/' &&
        prefixes.some((prefix) => prefix !== '/' && served.startsWith(prefix))
      );
    };
  } else {
    const meta = await readRspressMeta(files, layout, major, { isExcluded, resolveRoute, extensions });
    navigation.entries.push(...meta.entries);
    problems.push(...meta.problems);
    configFiles.push(...meta.files);
    needsNavigationEntry = meta.needsNavigationEntry;
    navigationFileFor = meta.navigationFileFor;
  }

  const pageFolders = listFolders([...pages.keys()]);
  const inPageFolder = (route: string): boolean => {
    const folder = posix.dirname(`/${route.replace(/^\/+/, '').replace(/(?<!\/)\/+$/, '')}`).slice(1);
    if (folder === '') return false;
    return [layout.version, layout.lang, ''].some((prefix) => {
      const path = joinInside(docsRoot, [prefix, folder].filter((part) => part !== '').join('/'));
      return path !== null && pageFolders.has(path);
    });
  };
  // A home page's hero buttons and feature cards (`pageType: home`; HomeHero renders `hero.actions`
  // as links, written with or without the page's language prefix).
  for (const page of pages.keys()) {
    const frontMatter = (await source.pageFacts(page))?.frontMatter;
    if (frontMatter?.pageType !== 'home') continue;
    const hero = isPlainRecord(frontMatter.hero) ? frontMatter.hero : {};
    const links = [
      ...(Array.isArray(hero.actions) ? hero.actions : []),
      ...(Array.isArray(frontMatter.features) ? frontMatter.features : []),
    ]
      .map((item) => (isPlainRecord(item) ? item.link : undefined))
      .filter(
        (link): link is string => typeof link === 'string' && !isExternalUrl(link) && link.startsWith('/'),
      )
      .slice(0, 50);
    if (links.length === 0) continue;
    const pageLines = new ConfigLines((await files.read(page)) ?? '');
    const fromRelative = relativeTo(docsRoot, page);
    for (const link of links) {
      const served = routePathOf(link, layout, extensions);
      const asWritten = resolveRoute(link);
      const target =
        asWritten.kind === 'broken' ? resolveRoute(prefixLink(link, fromRelative, layout)) : asWritten;
      navigation.entries.push({
        reference: link,
        file: page,
        line: pageLines.lineOf(link),
        groups: ['home'],
        // A route outside every folder of pages may be a build output (bull-board copies a demo app
        // to `/demo/`); one inside a folder of pages that names none is a broken link.
        target: navigationTarget(
          target.kind === 'broken' &&
            (!prefixesKnown || generatedPage(served) !== null || !inPageFolder(served))
            ? { kind: 'unchecked', reason: 'a route this check cannot tell' }
            : target,
        ),
      });
    }
  }

  let exampleLink: string | null = null;
  for (const page of pages.keys()) {
    const facts = await source.pageFacts(page);
    exampleLink =
      facts?.links.find(
        (link) => link.kind === 'link' && !isExternalUrl(link.url) && !isAsset(splitUrl(link.url).path),
      )?.url ?? null;
    if (exampleLink !== null) break;
  }
  const folders = [...langs, ...versions].filter((folder) => folder !== '');
  return {
    framework: 'rspress',
    siteRoot,
    configFiles,
    pages,
    partials,
    navigation: navigation.entries,
    needsNavigationEntry,
    ...(navigationFileFor === undefined ? {} : { navigationFileFor }),
    // `markdown.link.checkAnchors` (Rspress 2, off by default) fails the build on a link to a heading
    // its page lacks: ids are github-slugger's slugs of the headings' text, or `{#custom-id}`.
    ...(major === 2 && checksAnchors
      ? {
          pageAnchors: (file: string, text: string) =>
            pages.has(file)
              ? readHeadingAnchors(text, {
                  mdx: /\.mdx$/i.test(file),
                  customIds: true,
                  maintainCase: false,
                  always: [],
                  rspress: true,
                })
              : null,
        }
      : {}),
    resolveLink,
    configurationProblems: problems,
    unsupported: navigation.unsupported,
    conventions: [
      major === 1
        ? `Links are routes from the site's root (\`/guide/start\`, a link without \`./\` is read from the root too) or paths starting with \`./\` or \`../\`, with or without \`.md\`/\`.mdx\`${exampleLink === null ? '' : `, such as \`${exampleLink}\``}.`
        : `Links are routes (\`/guide/start\`) or paths relative to the page's file, with or without \`.md\`/\`.mdx\`${exampleLink === null ? '' : `, such as \`${exampleLink}\``}; the build fails on a link to no page.`,
      `Pages are .md/.mdx files under ${docsRoot}/; files and folders whose names start with \`_\` are partials, not pages.`,
      hasConfiguredNavigation
        ? `The sidebar is \`themeConfig.sidebar\` in ${configFile}: add new pages there.`
        : `The sidebar comes from each folder's \`_meta.json\` (a folder without one lists all its pages): add a new page's name to its folder's \`_meta.json\` when it has one.`,
      ...(folders.length > 0
        ? [
            `${langs.length > 0 ? `Languages (${langs.join(', ')})` : ''}${langs.length > 0 && versions.length > 0 ? ' and ' : ''}${versions.length > 0 ? `versions (${versions.join(', ')})` : ''} are folders under ${docsRoot}/; a link without their prefix stays in the page's own.`,
          ]
        : []),
    ],
  };
};

/**
 * Files a link may name besides pages. Rspress reads any other link as a route, dots and all
 * (`/api/rspeedy/rspeedy.tools.rspack` is a page), so only these are taken for files.
 */
const assetExtension =
  /\.(png|jpe?g|gif|svg|webp|avif|ico|bmp|pdf|zip|gz|tgz|tar|json|ya?ml|toml|txt|csv|xml|css|s[ac]ss|less|m?js|cjs|ts|tsx|jsx|wasm|mp4|webm|mov|mp3|wav|ogg|woff2?|ttf|otf|eot|map|sh|ps1|py|rs|go|java|kt|swift|c|h|cpp|dmg|exe|apk|ipa|whl|deb|rpm|msi|riv|lottie)$/i;

function isAsset(path: string): boolean {
  return assetExtension.test(path.replace(/(?<!\/)\/+$/, ''));
}

function stringList(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (!Array.isArray(value)) return [];
  return value.filter((item): item is string => typeof item === 'string' && item.length < 1024).slice(0, 200);
}

/** Version and language prefixes of a path relative to the docs folder (`splitRoutePathParts`). */
export function splitRoutePath(
  path: string,
  layout: Pick<RspressLayout, 'lang' | 'langs' | 'version' | 'versions'>,
): [string, string, string] {
  const parts = path.split('/').filter((part) => part !== '');
  const version =
    layout.version !== '' && layout.versions.includes(parts[0] ?? '') ? (parts.shift() ?? '') : '';
  const lang = layout.lang !== '' && layout.langs.includes(parts[0] ?? '') ? (parts.shift() ?? '') : '';
  return [version, lang, parts.join('/') + (path.endsWith('/') && parts.length > 0 ? '/' : '')];
}

/** `getRoutePathParts`: the prefixes, the default version's and language's as ''. */
function routePathParts(path: string, layout: RspressLayout): [string, string, string] {
  const [version, lang, rest] = splitRoutePath(path, layout);
  return [version === layout.version ? '' : version, lang === layout.lang ? '' : lang, rest];
}

/**
 * `normalizeRoutePath`: a path relative to the docs folder (or a link's path) as its route: no page
 * extension or `.html`, `index` as its folder, without the default version's and language's prefix.
 */
export function routePathOf(path: string, layout: RspressLayout, extensions: readonly string[]): string {
  let route = path;
  for (const extension of extensions) {
    if (route.toLowerCase().endsWith(extension.toLowerCase())) {
      route = route.slice(0, -extension.length);
      break;
    }
  }
  route = route.replace(/\.html$/, '');
  if (route.endsWith('/') || route === '') route = `${route}index`;
  const [version, lang, rest] = routePathParts(route, layout);
  let pure = rest.replace(/\/index$/, '/');
  if (pure === 'index') pure = '';
  return `/${[version, lang, pure].filter((part) => part !== '').join('/')}`.replace(/\/{2,}/g, '/');
}

/** Rspress 2's `looseMarkdownLink`: the page's version and language added to an absolute link without them. */
function prefixLink(path: string, fromRelative: string | null, layout: RspressLayout): string {
  if (fromRelative === null) return path;
  const [version, lang, rest] = splitRoutePath(path, layout);
  if (version !== '') return path;
  const [pageVersion, pageLang] = routePathParts(fromRelative, layout);
  const prefix = [pageVersion, lang === '' ? pageLang : lang].filter((part) => part !== '').join('/');
  return `/${prefix}${prefix === '' ? '' : '/'}${rest.replace(/^\/+/, '')}`;
}

/**
 * Rspress 1's `remarkPluginNormalizeLink`: a path starting with `.` is relative to the page's file;
 * any other is read from the root, with the page's language and version added when it names others.
 */
function rspress1Link(path: string, fromRelative: string | null, layout: RspressLayout): string {
  if (path.startsWith('.')) return posix.join(`/${folderOf(fromRelative ?? '')}`, path);
  const [urlVersion, urlLang, rest] = routePathParts(path, layout);
  const [pageVersion, pageLang] = fromRelative === null ? ['', ''] : routePathParts(fromRelative, layout);
  let url = `/${rest.replace(/^\/+/, '')}`;
  if (pageLang !== '' && urlLang !== pageLang) url = `/${pageLang}${url}`;
  if (pageVersion !== '' && urlVersion !== pageVersion) url = `/${pageVersion}${url}`;
  return url;
}

/**
 * The major version of Rspress that builds the site: its `package.json` (or the nearest one above
 * it) depends on `@rspress/core` (2) or `rspress` (1 before 2.0); else the configuration's imports
 * tell (`rspress/config` is 1's); else 2.
 */
async function rspressMajor(
  files: { read(path: string): Promise<string | null>; has(path: string): boolean },
  siteRoot: string,
  configFile: string,
): Promise<1 | 2> {
  for (const { range } of await nearestDependencies(files, siteRoot, ['@rspress/core', 'rspress'])) {
    const major = majorOf(range);
    if (major !== null) return major === 1 ? 1 : 2;
  }
  const text = (await files.read(configFile)) ?? '';
  return /from\s+['"]rspress\/config['"]/.test(text) && !/@rspress\/core/.test(text) ? 1 : 2;
}

/**
 * `route.exclude` globs as tinyglobby's `ignore` reads them (picomatch): `**` as a whole segment
 * spans any folders, none too (a `fragments` folder at the top matches `**` + `/fragments/` + `**`),
 * elsewhere it is `*`; `*` and `?` within a segment; `{a,b}` alternatives; a pattern that names a
 * folder leaves out all under it. At most 200 patterns of 1 KiB, compiled for RE2 (repository content is hostile).
 */
function compileIgnoreGlobs(patterns: readonly string[]): (path: string) => boolean {
  const expressions = patterns
    .slice(0, 200)
    .filter((pattern) => pattern.length <= 1024)
    .flatMap((pattern) => expandBraces(pattern.replace(/^\.\//, '').replace(/(?<!\/)\/+$/, '')))
    .map((pattern) => {
      let expression = '';
      for (let index = 0; index < pattern.length; index += 1) {
        const character = pattern[index] ?? '';
        if (character === '*' && pattern[index + 1] === '*') {
          const starts = index === 0 || pattern[index - 1] === '/';
          const ends = index + 2 === pattern.length || pattern[index + 2] === '/';
          index += 1;
          if (starts && ends && pattern[index + 1] === '/') {
            expression += '(?:[^/]*/)*';
            index += 1;
          } else expression += starts && ends ? '.*' : '[^/]*';
        } else if (character === '*') expression += '[^/]*';
        else if (character === '?') expression += '[^/]';
        else if (character === '[' && pattern.indexOf(']', index + 2) > 0) {
          const close = pattern.indexOf(']', index + 2);
          const inside = pattern.slice(index + 1, close).replace(/\\/g, '\\\\');
          expression += `[${inside.startsWith('!') ? `^${inside.slice(1)}` : inside}]`;
          index = close;
        } else expression += character.replace(/[.+(){}|^$\\\]]/g, '\\$&');
      }
      try {
        return RE2JS.compile(`^(?:${expression})(?:/.*)?$`, RE2JS.DOTALL);
      } catch {
        return null;
      }
    })
    .filter((expression) => expression !== null);
  return (path) => expressions.some((expression) => expression.matches(path));
}
