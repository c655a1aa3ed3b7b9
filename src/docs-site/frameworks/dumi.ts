import { posix } from 'node:path';
import { ConfigLines } from '../config-lines.ts';
import { hasUnknownSpread, isPlainRecord } from '../javascript-config.ts';
import { ModuleLines } from '../javascript-modules.ts';
import {
  decodePath,
  escapeRegExp,
  folderOf,
  isExternalUrl,
  isWithin,
  joinInside,
  relativeTo,
  splitUrl,
} from '../link-urls.ts';
import { nearestDependencies } from '../package-dependencies.ts';
import {
  type LinkTarget,
  type NavigationEntry,
  navigationTarget,
  type SiteModel,
  type SiteModelBuilder,
} from '../site-model.ts';
import { createCheckoutCoverage } from './checkout-coverage.ts';
import {
  readDumiAnchors,
  readFolders,
  readLocales,
  readLocalModule,
  readNavigation,
  routeHooks,
  routeThemes,
} from './dumi-config.ts';
import {
  type DumiOneRoute,
  dumiOneRoutes,
  readDumiOneNavigation,
  readDumiOneOptions,
} from './dumi-one-routes.ts';
import { conventionalPath, createRoutePath, localizedAbsPath, plural } from './dumi-routes.ts';
import { configurationOf, readConfigModule } from './vitepress-config.ts';

const version2Configs = ['.dumirc.ts', '.dumirc.js'];
const version1Configs = ['.umirc.ts', '.umirc.js', 'config/config.ts', 'config/config.js'];
/** What dumi's resolver tries for a demo's or an embed's file (rehypeDemo, remarkEmbed). */
const resolvedExtensions = ['.tsx', '.ts', '.jsx', '.js', '.md'];
const pageExtensions = /\.(tsx|ts|js|jsx|md|mdx|vue)$/;

/**
 * dumi sites (https://d.umijs.org), read as dumi 2 builds them (umijs/dumi v2.4.49
 * src/features/routes.ts on umi 4): pages are every `.md` file of `resolve.docDirs` (`docs/` by
 * default; no name starting with `.` or `_`), the `X.md`, `X/index*.md` and `X/README*.md` files of
 * `resolve.atomDirs` (`src/`, at `/components/x`), and `.dumi/pages/`; each at umi's conventional
 * path (every `.` a `/`, a last `index` or `README` dropped), localised (`x.en-US.md` under the
 * locale's base, or with its suffix) and kebab-cased (`HelloWorld` is `hello-world`). The router
 * finds routes without case, a trailing slash aside. A Markdown or HTML link to a `.md` file becomes
 * that file's route, or stays as written (and leads nowhere) when no route has it; another relative
 * link resolves from the page's URL. A demo's (`<code src>`), an embed's (`<embed src>`) or an
 * image's file that is missing stops the build. `themeConfig.nav` and `themeConfig.sidebar` name
 * routes. dumi 1 (`.umirc.ts`, `config/config.ts`) moves pages by their front matter; only its files
 * are checked.
 */
export const buildDumiSite: SiteModelBuilder = async (source, siteRoot) => {
  const { files } = source;
  const inRoot = (path: string) => (siteRoot === '' ? path : `${siteRoot}/${path}`);
  const configFile =
    [...version2Configs, ...version1Configs].map(inRoot).find((path) => files.has(path)) ??
    inRoot('.dumirc.ts');
  const major = version2Configs.map(inRoot).includes(configFile) ? 2 : 1;
  const main = await readConfigModule(files, configFile);
  const { config, unsupported, problems } = configurationOf(main, configFile);
  const resolve = isPlainRecord(config.resolve) ? config.resolve : {};
  let routesKnown = main.value !== null && !hasUnknownSpread(config);

  const pages = new Map<string, string[]>();
  const routes = new Map<string, string>();
  const dynamicRoutes: RegExp[] = [];
  /** Paths dumi 1 redirects from (a group's or nav's path without a page, `legacy`). */
  const redirects = new Set<string>();
  let dumiOne: {
    routes: readonly DumiOneRoute[];
    includes: readonly string[];
    includesKnown: boolean;
  } | null = null;
  const addRoute = (file: string, absPath: string) => {
    if (absPath.includes(':') || absPath.includes('*')) {
      const pattern = absPath
        .split('/')
        .map((segment) => (segment.startsWith(':') || segment === '*' ? '[^/]+' : escapeRegExp(segment)))
        .join('/');
      dynamicRoutes.push(new RegExp(`^${pattern}$`, 'i'));
      return;
    }
    const key = routeKey(absPath);
    if (/\.mdx?$/.test(file)) {
      const served = pages.get(file) ?? [];
      served.push(absPath);
      pages.set(file, served);
    }
    if (!routes.has(key)) routes.set(key, file);
  };

  if (major === 2) {
    const locales = readLocales(config.locales);
    if (locales === null) {
      routesKnown = false;
      unsupported.push(`${configFile}: \`locales\` is computed by code; the default locale is read`);
    }
    const kebab = resolve.forceKebabCaseRouting !== false;
    const localize = (file: string, path: string) =>
      localizedAbsPath(path, posix.parse(file).name, locales ?? [{ id: 'zh-CN', base: '/' }], kebab);
    const docDirs = readFolders(resolve.docDirs, [{ dir: 'docs' }]);
    const atomDirs = readFolders(resolve.atomDirs, [{ dir: 'src', type: 'component' }]);
    if (docDirs === null || atomDirs === null) {
      routesKnown = false;
      unsupported.push(`${configFile}: \`resolve.docDirs\` or \`resolve.atomDirs\` is computed by code`);
    }
    const invalid = (file: string, path: string) => {
      // umi stops on a route path that is not a URL as it is (a space, a letter outside ASCII).
      if (path === encodeURI(path)) return false;
      problems.push({
        file,
        line: 1,
        message: `dumi stops the build on this file's route "${path}" (Invalid route path): name the file with ASCII letters, digits and \`-\` only`,
        key: `configuration\0invalid route ${path}`,
      });
      return true;
    };
    // A docDir's route ids are `<dir>/<id>`: a later folder's file wins over an earlier's (x's
    // `docs` and `docs/x-sdk`).
    const docRoutes = new Map<string, { file: string; path: string }>();
    for (const { dir, type } of docDirs ?? []) {
      const folder = joinInside(siteRoot, dir);
      if (folder === null) continue;
      const ids = new Map<string, string>();
      for (const path of files.paths) {
        if (!isWithin(folder, path) || path === folder || !path.endsWith('.md')) continue;
        const relative = relativeTo(folder, path);
        if (/(\/|^)(\.|_)/.test(relative) || relative.includes('$tab-')) continue;
        ids.set(relative.replace(/\.[a-z0-9]+$/i, ''), path);
      }
      for (const [id, path] of ids) {
        const { abs, own } = conventionalPath(id, ids);
        // umi nests `guide/intro` under `guide` when both are files; a typed folder prefixes a
        // nested route's own path only (dumi's `${plural(type)}/${route.path}`).
        const routePath = type === undefined ? abs.slice(1) : `${plural(type)}/${own}`.replace(/\/+$/, '/');
        docRoutes.set(`${dir.replace(/\/+$/, '')}/${id}`, { file: path, path: routePath });
      }
    }
    for (const { file, path } of docRoutes.values()) {
      if (invalid(file, path)) continue;
      addRoute(file, localize(file, path));
    }
    for (const { dir, type = 'component', subType = '' } of atomDirs ?? []) {
      const folder = joinInside(siteRoot, dir);
      if (folder === null) continue;
      for (const path of files.paths) {
        if (!isWithin(folder, path)) continue;
        const relative = relativeTo(folder, path);
        if (!/^[^/.][^/]*\.md$|^[^/.][^/]*\/(index|README)(\.[^/]*)?\.md$/.test(relative)) continue;
        if (relative.includes('$tab-')) continue;
        const routePath = posix
          .join(plural(type), subType, relative)
          .replace(/(\/index|\/README)?\.md$/, '')
          .replace(/\./g, '/');
        if (invalid(path, routePath)) continue;
        addRoute(path, localize(path, routePath));
      }
    }
    // `.dumi/pages/`: umi's conventional routes (React pages and Markdown).
    const pagesFolder = inRoot('.dumi/pages');
    const userExclude =
      isPlainRecord(config.conventionRoutes) && config.conventionRoutes.exclude !== undefined;
    if (config.conventionRoutes !== false)
      for (const path of files.paths) {
        if (!isWithin(pagesFolder, path) || !pageExtensions.test(path)) continue;
        const relative = relativeTo(pagesFolder, path);
        // A `conventionRoutes.exclude` of the site's replaces dumi's default (umi merges arrays by index).
        if (!userExclude && /(\/|^)(\.|_\/)/.test(relative)) continue;
        const routePath = createRoutePath(relative.replace(/\.[a-z0-9]+$/i, ''));
        if (routePath === '404' || invalid(path, routePath)) continue;
        addRoute(path, localize(path, routePath));
      }
    // A local theme's plugin (`.dumi/theme/plugin.ts`) may add routes (ant-design/x's changelog),
    // and so does @antv/dumi-theme-antv (`/examples/...`, read in its 0.7.6 plugin).
    for (const name of ['.dumi/theme/plugin', '.dumi/theme/plugins/routes']) {
      const text = await readLocalModule(files, siteRoot, `./${name}`);
      if (text === null || !routeHooks.test(text)) continue;
      routesKnown = false;
      unsupported.push(
        `${inRoot(name)}: the theme's plugin adds routes; links to routes no file serves are unchecked`,
      );
      break;
    }
    if ((await nearestDependencies(files, siteRoot, routeThemes)).length > 0) {
      routesKnown = false;
      unsupported.push(
        `${configFile}: the theme adds routes of its own; links to routes no file serves are unchecked`,
      );
    }
    if (main.value !== null && hasUnknownSpread(config))
      unsupported.push(
        `${configFile}: part of the configuration is computed by code; links to routes no file serves are unchecked`,
      );
    for (const extension of ['ts', 'tsx', 'js', 'jsx']) {
      const text = await files.read(inRoot(`.dumi/app.${extension}`));
      if (text === null || !routeHooks.test(text)) continue;
      routesKnown = false;
      unsupported.push(
        `${inRoot(`.dumi/app.${extension}`)}: runtime code changes the routes; links to routes no file serves are unchecked`,
      );
    }
  } else {
    const options = await readDumiOneOptions(config, files, siteRoot);
    if (options === null) {
      routesKnown = false;
      unsupported.push(
        `${configFile}: \`locales\` or \`resolve\` is computed by code; the defaults are read`,
      );
    }
    if (config.routes !== undefined) {
      routesKnown = false;
      unsupported.push(
        `${configFile}: \`routes\` replaces dumi's routes; links to routes no file serves are unchecked`,
      );
    }
    const read = await dumiOneRoutes(
      files.paths,
      siteRoot,
      options ?? {
        mode: 'doc',
        locales: ['en-US', 'zh-CN'],
        includes: ['src', 'docs'],
        examples: ['examples'],
        excludes: [],
      },
      async (file) => (await source.pageFacts(file))?.frontMatter ?? null,
    );
    dumiOne = {
      routes: read.routes,
      includes: options?.includes ?? ['src', 'docs'],
      includesKnown: options !== null,
    };
    for (const route of read.routes) addRoute(route.file, route.path);
    for (const path of read.redirects) redirects.add(routeKey(path));
  }
  // Plugins and runtime code may add routes this model cannot see: a package's plugin, or a
  // local one (or `.dumi/app.*`) that uses umi's route hooks.
  const plugins = Array.isArray(config.plugins) ? config.plugins : config.plugins === undefined ? [] : null;
  for (const plugin of plugins ?? [undefined]) {
    const text = await readLocalModule(files, siteRoot, plugin);
    if (text !== null && !routeHooks.test(text)) continue;
    routesKnown = false;
    unsupported.push(`${configFile}: a plugin may add routes; links to routes no file serves are unchecked`);
    break;
  }
  if (pages.size === 0) unsupported.push(`${configFile}: no Markdown pages found (nothing is checked)`);

  const publicDir = inRoot('public');
  const isExpected = createCheckoutCoverage(files.paths);
  const routeOf = (file: string) => pages.get(file.replace(/\$tab-[^./]+\./, ''))?.[0] ?? null;

  const resolveRoute = (route: string): LinkTarget => {
    const key = routeKey(route);
    const file = routes.get(key) ?? routes.get(routeKey(decodePath(route)));
    if (file !== undefined)
      return /\.mdx?$/.test(file)
        ? { kind: 'file', file }
        : { kind: 'served', reason: 'a page of `.dumi/pages/`' };
    if (redirects.has(key)) return { kind: 'served', reason: 'a redirect dumi adds' };
    if (dynamicRoutes.some((pattern) => pattern.test(key)))
      return { kind: 'served', reason: 'a dynamic route' };
    if (/^\/~demos(\/|$)/.test(key) || key === '/404') return { kind: 'served', reason: 'a route dumi adds' };
    const publicFile = joinInside(publicDir, decodePath(key).slice(1));
    if (publicFile !== null && files.has(publicFile)) return { kind: 'served', reason: 'a public file' };
    if (publicFile !== null && /\.[A-Za-z0-9]+$/.test(publicFile) && !isExpected(publicFile))
      return { kind: 'unchecked', reason: 'a public file of a kind this checkout does not hold' };
    if (!routesKnown) return { kind: 'unchecked', reason: 'routes this model cannot know may serve it' };
    return { kind: 'broken', reason: `no page at ${route}` };
  };

  const resolveFile = (from: string, path: string): LinkTarget => {
    // umi's `@` alias is the project's `src/`.
    const base = path.startsWith('@/')
      ? joinInside(siteRoot, `src/${path.slice(2)}`)
      : /^\.{1,2}\//.test(path)
        ? joinInside(folderOf(from), path)
        : null;
    if (base === null) return { kind: 'unchecked', reason: 'a module the bundler resolves' };
    const decoded = decodePath(base);
    for (const candidate of [
      decoded,
      ...resolvedExtensions.map((extension) => `${decoded}${extension}`),
      ...resolvedExtensions.map((extension) => `${decoded}/index${extension}`),
    ])
      if (files.has(candidate)) return { kind: 'file', file: candidate };
    if (/\.[A-Za-z0-9]+$/.test(decoded) && !isExpected(decoded))
      return { kind: 'unchecked', reason: 'a file of a kind this checkout does not hold' };
    return { kind: 'broken', reason: `no file ${decoded}: dumi cannot resolve it and the build fails` };
  };

  // Tabs (`x.$tab-api.md`, read from their page) and Markdown files pages embed: their links count.
  const partials = new Set<string>();
  for (const path of files.paths)
    if (path.includes('$tab-') && path.endsWith('.md') && pages.has(path.replace(/\$tab-[^./]+\./, '')))
      partials.add(path);
  // `<code src>` and `<embed src>` lines: dumi reads them as a demo or an embed only as blocks of their
  // own, not inside other HTML or a list item (where the build leaves them be).
  const nestedTags = new Map<string, Set<number>>();
  for (const page of [...pages.keys(), ...partials]) {
    const text = (await files.read(page)) ?? '';
    if (!/<(code|embed)\b/i.test(text)) continue;
    const nested = new Set<number>();
    const lines = text.split('\n');
    for (const [index, line] of lines.entries()) {
      if (!/<(code|embed)\b[^>]*\bsrc\s*=/i.test(line)) continue;
      const previous = index === 0 ? '' : (lines[index - 1] ?? '');
      if (!/^<(code|embed)\b/i.test(line) || !/^\s*$|^---\s*$|^<(code|embed)\b/i.test(previous))
        nested.add(index + 1);
    }
    nestedTags.set(page, nested);
    for (const link of (await source.pageFacts(page))?.links ?? []) {
      const { path } = splitUrl(link.url);
      if (link.kind !== 'image' || !/\.md$/i.test(path) || nested.has(link.line)) continue;
      const target = resolveFile(page, path);
      if (target.kind === 'file' && !pages.has(target.file)) partials.add(target.file);
    }
  }

  const resolveLink: SiteModel['resolveLink'] = (from, url, link) => {
    const trimmed = url.trim();
    // Another scheme or host, the page's own anchor, a template's placeholder, nothing.
    if (isExternalUrl(trimmed)) return { kind: 'external' };
    const { path } = splitUrl(trimmed);
    if (path === '') return { kind: 'external' };
    // `<code src>`, `<embed src>` and images: files beside the page, or under `public/` when absolute.
    if (link?.kind === 'image' || link?.kind === 'import') {
      if (link.line !== undefined && nestedTags.get(from)?.has(link.line) === true)
        return {
          kind: 'unchecked',
          reason: 'a `<code src>` or `<embed>` inside other HTML, which dumi does not read',
        };
      if (path.startsWith('/')) {
        const publicFile = joinInside(publicDir, decodePath(path).slice(1));
        return publicFile !== null && files.has(publicFile)
          ? { kind: 'served', reason: 'a public file' }
          : { kind: 'unchecked', reason: 'an absolute file the site serves from elsewhere' };
      }
      return resolveFile(from, path);
    }
    const host = from.replace(/\$tab-[^./]+\./, '');
    if (major === 2 && /\.md$/i.test(path)) {
      const file = path.startsWith('/') ? null : joinInside(folderOf(host), decodePath(path));
      // A tab's own file (`x.$tab-api.md`) is no route: the link stays as written.
      const route = file === null || file.includes('$tab-') ? null : routeOf(file);
      if (route !== null && file !== null) return { kind: 'file', file };
      if (file !== null && !routesKnown && !files.has(file))
        return { kind: 'unchecked', reason: 'routes this model cannot know may serve it' };
      return {
        kind: 'broken',
        reason: `${file === null ? 'an absolute link to a `.md` file' : files.has(file) ? `${file} is no page` : `no file ${file}`}: dumi leaves the link as written, and it leads to no page`,
      };
    }
    // dumi 1 drops a link's `.md` and looks the rest up as a route (transformer/remark/link.ts).
    const routePath = major === 1 ? path.replace(/\.md$/i, '') : path;
    const dropped =
      routePath === path ? '' : ' (dumi 1 drops the link’s `.md` and looks the rest up as a route)';
    if (routePath.startsWith('/')) {
      const target = resolveRoute(routePath);
      return target.kind === 'broken' ? { kind: 'broken', reason: `${target.reason}${dropped}` } : target;
    }
    const current = routeOf(host);
    if (current === null) return { kind: 'unchecked', reason: 'a relative link in a file that is no page' };
    // As `url.resolve` from the page's URL; then as react-router resolves it (dumi warns of the ambiguity).
    const fromUrl = new URL(routePath, `http://site${current}`).pathname;
    const resolved = resolveRoute(fromUrl);
    if (resolved.kind !== 'broken') return resolved;
    const routerWay = posix.resolve(current, routePath);
    const second = resolveRoute(routerWay);
    return second.kind === 'broken'
      ? {
          kind: 'broken',
          reason: `no page at ${fromUrl} (resolved from the page’s URL, ${current})${dropped}`,
        }
      : second;
  };

  // `themeConfig.nav` and `themeConfig.sidebar` name routes.
  const navigation: NavigationEntry[] = [];
  if (dumiOne !== null && main.value !== null)
    readDumiOneNavigation(
      config,
      new ModuleLines(main.modules ?? { files: [configFile], texts: new Map() }),
      configFile,
      { ...dumiOne, siteRoot },
      resolveRoute,
      navigation,
      unsupported,
    );
  if (major === 2) {
    readNavigation(config.themeConfig, main, configFile, resolveRoute, navigation, unsupported);
    // A home page's `hero.actions[].link` and `features[].link` name routes too.
    for (const page of pages.keys()) {
      const frontMatter = (await source.pageFacts(page))?.frontMatter;
      const actions = isPlainRecord(frontMatter?.hero) ? frontMatter.hero.actions : undefined;
      const items = [
        ...(Array.isArray(actions) ? actions : []),
        ...(Array.isArray(frontMatter?.features) ? frontMatter.features : []),
      ];
      const written = items
        .slice(0, 200)
        .flatMap((item) => (isPlainRecord(item) && typeof item.link === 'string' ? [item.link] : []));
      if (written.length === 0) continue;
      const lines = new ConfigLines((await files.read(page)) ?? '');
      for (const reference of written) {
        if (!reference.startsWith('/') || reference.startsWith('//')) continue;
        navigation.push({
          reference,
          file: page,
          line: lines.lineOf(reference),
          groups: ['front matter'],
          target: navigationTarget(resolveRoute(splitUrl(reference).path || '/')),
        });
      }
    }
  }

  return {
    framework: 'dumi',
    siteRoot,
    configFiles: [...(main.modules?.files ?? [configFile])],
    pages,
    partials,
    navigation,
    needsNavigationEntry: () => false,
    pageAnchors: (_file: string, text: string) => readDumiAnchors(text, major),
    resolveLink,
    configurationProblems: problems,
    unsupported,
    conventions: [
      'Pages are Markdown files under `docs/` (at their path, kebab-cased: `guide/HelloWorld.md` is `/guide/hello-world`) and components’ `src/<Name>/index.md` (at `/components/<name>`); a translation is `x.<locale>.md`.',
      'Link to another page by its file (`./install.md`, `../components/button/index.md`): dumi makes it the page’s route; a route written out (`/guide/install`) works too. Demos are `<code src="./demos/x.tsx"></code>`.',
      'The sidebar is made from the pages and their front matter (`nav`, `group`, `order`): a new page needs no navigation entry unless `themeConfig.sidebar` lists its group.',
    ],
  };
};

/** A route as the router compares it: lower case, no trailing slash, `/` for the home page. */
function routeKey(route: string): string {
  const trimmed = route
    .toLowerCase()
    .replace(/\/{2,}/g, '/')
    .replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}
