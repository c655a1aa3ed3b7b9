import { posix } from 'node:path';
import Permalink from 'hexo-util/dist/permalink.js';
import slugize from 'hexo-util/dist/slugize.js';
import { ConfigLines } from '../config-lines.ts';
import { isPlainRecord } from '../javascript-config.ts';
import {
  decodePath,
  escapeRegExp,
  isExternalUrl,
  isWithin,
  joinInside,
  relativeTo,
  splitUrl,
} from '../link-urls.ts';
import { parseYamlMapping } from '../page-facts.ts';
import type {
  LinkTarget,
  NavigationEntry,
  RepositoryFiles,
  SiteModel,
  SiteModelBuilder,
} from '../site-model.ts';
import { readHexoPostLink } from '../template-links.ts';
import { createCheckoutCoverage } from './checkout-coverage.ts';
import { readHexoAnchors } from './hexo-anchors.ts';
import { type HexoConfig, type HexoRenderer, readHexoConfig } from './hexo-config.ts';
import { readNetlifyRedirects } from './netlify-redirects.ts';
import { isAssetPath } from './starlight-routes.ts';

/** Files generator plugins write at the site's root (feeds, sitemaps, search indexes). */
const generatedFiles =
  /^(index\.html|atom\.xml|rss2?\.xml|feed\.xml|sitemap\.xml|sitemap\.txt|baidusitemap\.xml|search\.(xml|json)|content\.json|robots\.txt|404\.html)$/;
const maximumNavigationEntries = 5_000;

/**
 * Hexo sites (https://hexo.io/docs/), read as hexojs/hexo v8.1.2 builds them (lib/plugins/processor/
 * asset.ts, post.ts, common.ts; lib/hexo/router.ts): under `source/`, a file Hexo renders (Markdown
 * with a renderer installed, HTML, Nunjucks, the installed renderers' kinds) is a page at its path
 * with the output's extension (`docs/setup.md` is `docs/setup.html`), or its front matter's
 * `permalink`; a post in `_posts/` at the site's `permalink` pattern (`:year/:month/:day/:title/`,
 * `:title` its file's name); other files are copied as they are. A name starting with `_` or `.`
 * is never published (unless `include` names it); `exclude` drops a file, `skip_render` copies it
 * raw. Links are left as written (no `.md` becomes `.html`) and the browser reads a relative one
 * from the page's URL; hosts serve `/x` from `x.html` and `/x/` from `x/index.html`. Markdown
 * images go through `url_for` with hexo-renderer-marked 5 and later: from the site's root.
 * `{% post_link slug %}` names a post by its file's name (Hexo 7 stops the build on one it cannot find).
 */
export const buildHexoSite: SiteModelBuilder = async (source, siteRoot) => {
  const { files } = source;
  const config = await readHexoConfig(files, siteRoot);
  const inRoot = (path: string) => (siteRoot === '' ? path : `${siteRoot}/${path}`);
  const unsupported: string[] = [];
  const { root, sourceDir, renderer } = config;
  if (renderer.kind === 'none')
    unsupported.push(
      `${config.file}: no Markdown renderer is installed (package.json); Markdown files are copied as they are`,
    );
  else if (renderer.kind === 'other')
    unsupported.push(`${config.file}: ${renderer.name} renders Markdown; its heading anchors are not known`);

  /** Every route the build writes (its path under the output folder, decoded) and the file that makes it. */
  const routes = new Map<string, string>();
  const pages = new Map<string, string[]>();
  const postsBySlug = new Map<string, string>();
  const postsByTitle = new Map<string, string>();
  const aliases = new Set<string>(config.aliases.map(formatRoute));
  /** Posts whose URL depends on what the checkout does not hold (a file's creation time, an id). */
  let uncertainPosts = false;
  const frontMatterOf = async (file: string) => (await source.pageFacts(file))?.frontMatter ?? {};
  const isHidden = (path: string) => /(^|\/)[_.]/.test(path);
  const outputOf = (path: string) => config.outputExtensions.get(posix.extname(path).slice(1));
  const addRoute = (route: string, file: string) => {
    if (!routes.has(route)) routes.set(route, file);
    if (/\.(md|markdown|mkd|mkdn|mdwn|mdtxt|mdtext)$/.test(file))
      pages.set(file, [...(pages.get(file) ?? []), `${root}${route}`]);
  };
  const postRule = compilePostName(config.newPostName);

  for (const path of files.paths) {
    if (!isWithin(sourceDir, path) || path === sourceDir) continue;
    const relative = relativeTo(sourceDir, path);
    if (/[%~]$/.test(relative)) continue;
    const post = /^_posts\//.test(relative) || (config.renderDrafts && /^_drafts\//.test(relative));
    if (post) {
      const inside = relative.slice(relative.indexOf('/') + 1);
      const output = outputOf(path);
      if (isHidden(inside) || output === undefined || config.skipRender(relative)) continue;
      const frontMatter = await frontMatterOf(path);
      if (frontMatter.published === false) continue;
      const slug = postRule(inside.slice(0, inside.length - posix.extname(inside).length));
      postsBySlug.set(slug.title, path);
      if (typeof frontMatter.title === 'string') postsByTitle.set(frontMatter.title, path);
      const route = postRoute(config, slug, frontMatter);
      if (route === null) uncertainPosts = true;
      else addRoute(formatRoute(route), path);
      for (const alias of aliasesOf(frontMatter)) aliases.add(formatRoute(alias));
      continue;
    }
    if ((isHidden(relative) && !config.include(relative)) || config.exclude(relative)) continue;
    const output = outputOf(path);
    if (output === undefined || config.skipRender(relative)) {
      routes.set(relative, path);
      continue;
    }
    const frontMatter = await frontMatterOf(path);
    let route = `${relative.slice(0, relative.length - posix.extname(relative).length)}.${output}`;
    if (typeof frontMatter.permalink === 'string' && frontMatter.permalink.trim() !== '') {
      route = frontMatter.permalink.trim();
      if (route.endsWith('/')) route += 'index';
      if (posix.extname(route) === '') route += `.${output}`;
    }
    addRoute(formatRoute(route), path);
    for (const alias of aliasesOf(frontMatter)) aliases.add(formatRoute(alias));
  }
  if (pages.size === 0) unsupported.push(`${sourceDir}/: no Markdown pages (nothing is checked)`);
  // A source folder that is a symbolic link (meteor/guide's `source -> ../content`) is not followed.
  const sourceHere = files.paths.some((path) => isWithin(sourceDir, path) && path !== sourceDir);

  // The theme's `source/` is served from the root (its renderable files with their output's extension).
  const themeDir = config.theme === null ? null : inRoot(`themes/${config.theme}`);
  const themeSource = themeDir === null ? null : `${themeDir}/source`;
  const themeHere = themeDir !== null && files.paths.some((path) => isWithin(themeDir, path));
  if (themeSource !== null)
    for (const path of files.paths) {
      if (!isWithin(themeSource, path)) continue;
      const relative = relativeTo(themeSource, path);
      if (isHidden(relative) || relative.includes('node_modules')) continue;
      const output = outputOf(path);
      const route = output === undefined ? relative : relative.replace(/\.[^./]+$/, `.${output}`);
      if (!routes.has(route)) routes.set(route, path);
    }

  // Scripts may write routes of their own (`generator.register`, `route.set`) or render Markdown
  // their way; what they do is not read.
  /** The script that adds routes this model cannot know, or renders Markdown its own way. */
  let routesUnknown: string | false = false;
  let filesUnknown = false;
  const generatedRoutes = new Set<string>();
  let linksRewritten: string | false = false;
  /** A script reads `source/_data/sidebar.yml` (the navy theme's `doc_sidebar` helper). */
  let readsSidebar = false;
  for (const script of config.scripts) {
    const text = (await files.read(script)) ?? '';
    readsSidebar ||= /\bdata\.sidebar\b/.test(text);
    if (/\bgenerator\.register\s*\(/.test(text)) {
      // A generator whose every `path:` is written out adds those routes (hexojs/site's
      // `validate_theme.txt`); any other may write anything.
      const written = [...text.matchAll(/\bpath\s*:\s*(?:'([^'\n$]*)'|"([^"\n$]*)")/g)];
      const paths = text.match(/\bpath\s*:/g) ?? [];
      if (written.length > 0 && written.length === paths.length)
        for (const match of written) generatedRoutes.add(formatRoute(match[1] ?? match[2] ?? ''));
      else routesUnknown ||= script;
    }
    // `route.set` of a computed path (hexojs/site's image variants): files this model cannot know.
    if (/\broute\.set\s*\(\s*[^'"\s]/.test(text)) filesUnknown = true;
    if (
      /\brenderer\.register\s*\(\s*['"`](md|markdown)['"`]|filter\.register\s*\(\s*['"`](before_post_render|after_post_render|after_render:html|marked:renderer|markdown-it:renderer)/.test(
        text,
      )
    )
      linksRewritten ||= script;
  }
  // A theme whose scripts set heading ids at run time, or send a fragment to the nearest id
  // (vuejs/v2.vuejs.org's `initApiSpecLinks` and its Levenshtein match): anchors are the page's to tell.
  let anchorsAtRunTime = false;
  if (themeSource !== null)
    for (const path of files.paths) {
      if (!isWithin(themeSource, path) || !/\.js$/.test(path) || /\.min\.js$/.test(path)) continue;
      if (/setAttribute\(\s*['"]id['"]|levenshtein/i.test((await files.read(path)) ?? '')) {
        anchorsAtRunTime = true;
        unsupported.push(
          `${path}: the theme sets ids or follows a fragment to the nearest id as the page runs; anchors are unchecked`,
        );
        break;
      }
    }
  if (routesUnknown)
    unsupported.push(
      `${routesUnknown}: a generator writes routes of its own; links to routes no file serves are unchecked`,
    );
  if (linksRewritten)
    unsupported.push(
      `${linksRewritten}: this script changes how Markdown is rendered; links to \`.md\` files and anchors are unchecked`,
    );
  const isNetlifyRedirect = await readNetlifyRedirects(files, {
    toml: [...new Set([inRoot('netlify.toml'), 'netlify.toml'])].filter((path) => files.has(path)),
    rules: [`${sourceDir}/_redirects`].filter((path) => files.has(path) && config.include('_redirects')),
  });
  const isExpected = createCheckoutCoverage(files.paths);
  const permalinkShape = new RegExp(
    `^${escapeRegExp(config.permalink.replace(/^\/+/, '')).replace(/:(\w*[^_\W])/g, '[^/]+')}`,
  );

  /**
   * A route as a host answers it (hexo-server, Netlify): `x` from `x`, `x.html` or `x/index.html`;
   * `x/` from `x/index.html`, or `x.html` (hexo-server redirects to it).
   */
  const lookup = (route: string): string | 'served' | null => {
    const candidates =
      route === ''
        ? ['index.html']
        : route.endsWith('/')
          ? [`${route}index.html`, `${route.slice(0, -1)}.html`]
          : [route, `${route}.html`, `${route}/index.html`];
    for (const candidate of candidates) {
      const file = routes.get(candidate);
      if (file !== undefined) return file;
      if (aliases.has(candidate) || generatedRoutes.has(candidate)) return 'served';
    }
    return null;
  };

  const resolveRoute = (route: string, written: string): LinkTarget => {
    const decoded = decodePath(route);
    // The home page: hexo-generator-index's, unless a page takes it.
    if (decoded === '' && !routes.has('index.html'))
      return { kind: 'served', reason: 'the home page a generator writes' };
    const file = lookup(decoded);
    if (file === 'served') return { kind: 'served', reason: 'an alias (hexo-generator-alias)' };
    if (file !== null)
      return pages.has(file) ? { kind: 'file', file } : { kind: 'served', reason: 'a file the site writes' };
    const first = decoded.split('/')[0] ?? '';
    if (config.generatedFolders.includes(first) || generatedFiles.test(decoded))
      return { kind: 'served', reason: 'a page a generator plugin writes' };
    if (isNetlifyRedirect(`${root}${decoded}`)) return { kind: 'served', reason: 'a Netlify redirect' };
    if (routesUnknown) return { kind: 'unchecked', reason: 'a script adds routes this model cannot know' };
    if (uncertainPosts && permalinkShape.test(decoded))
      return { kind: 'unchecked', reason: 'a post’s URL this checkout cannot tell (its date or id)' };
    if (isAssetPath(`/${decoded}`) && !/\.html?$/i.test(decoded)) {
      if (filesUnknown) return { kind: 'unchecked', reason: 'a script writes files this model cannot know' };
      const fromSource = joinInside(sourceDir, decoded) ?? '';
      const fromTheme = themeSource === null ? '' : (joinInside(themeSource, decoded) ?? '');
      if (!themeHere || (!isExpected(fromSource) && !isExpected(fromTheme)))
        return { kind: 'unchecked', reason: 'a file this checkout may not hold (a theme, a build step)' };
    }
    const mdPage = /\.md$/i.test(decoded) ? lookup(decoded.replace(/\.md$/i, '.html')) : null;
    return {
      kind: 'broken',
      reason: `no page or file is served at ${root}${decoded}${
        mdPage !== null && mdPage !== 'served'
          ? ` (Hexo leaves links as written; ${mdPage} is served at ${root}${decoded.replace(/\.md$/i, '.html')})`
          : ''
      }${written.startsWith('/') ? '' : ` (resolved from ${written})`}`,
    };
  };

  const pageUrls = new Map<string, string>();
  for (const [file, urls] of pages) if (urls[0] !== undefined) pageUrls.set(file, urls[0]);

  const resolveLink: SiteModel['resolveLink'] = (from, url, link) => {
    const trimmed = url.trim();
    const postLink = readHexoPostLink(trimmed);
    if (postLink !== null) {
      const slug = postLink.split('#')[0] ?? '';
      const file =
        postsBySlug.get(slug) ?? ((config.hexoMajor ?? 0) >= 7 ? postsByTitle.get(slug) : undefined);
      if (file !== undefined)
        return pages.has(file) ? { kind: 'file', file } : { kind: 'served', reason: 'a post' };
      return {
        kind: 'broken',
        reason: `no post in _posts/ is named ${slug}${(config.hexoMajor ?? 8) >= 7 ? ': Hexo stops the build (Post not found)' : ': Hexo writes "Post not found" in its place'}`,
      };
    }
    // Another scheme or host, the page's own anchor, a template's placeholder, nothing.
    if (isExternalUrl(trimmed)) return { kind: 'external' };
    const { path } = splitUrl(trimmed);
    if (path === '') return { kind: 'external' };
    if (linksRewritten && /\.md$/i.test(path))
      return { kind: 'unchecked', reason: 'a script may rewrite links' };
    const pageUrl = pageUrls.get(from);
    // A Markdown image goes through `url_for` (hexo-renderer-marked 5 and later): from the root.
    const fromRoot = link?.kind === 'image' && !path.startsWith('/') ? imagesFromRoot(renderer) : 'no';
    const candidates: string[] = [];
    if (fromRoot !== 'no') candidates.push(`${root}${path}`);
    if (fromRoot !== 'yes') {
      if (path.startsWith('/')) candidates.push(path);
      else if (pageUrl !== undefined) candidates.push(new URL(path, `http://site${pageUrl}`).pathname);
    }
    if (candidates.length === 0)
      return { kind: 'unchecked', reason: 'a relative link in a file that is no page' };
    let first: LinkTarget | null = null;
    for (const candidate of candidates) {
      let target: LinkTarget;
      if (!candidate.startsWith(root) && `${candidate}/` !== root) {
        // From the host's root but outside the site's: another site's, unless the site serves the
        // same path under its root (the link forgot the root: khadas' `/vim1/...` for `/linux/vim1/...`).
        const rest = decodePath(candidate.replace(/^\/+/, ''));
        // The host's home page is its own (an organisation's site), whatever the site holds.
        const under = /^(index\.html?)?$/.test(rest) ? null : lookup(rest);
        target =
          under !== null && under !== 'served'
            ? {
                kind: 'broken',
                reason: `outside the site's root, ${root} (its \`root\`): the site serves this at ${root}${candidate.replace(/^\/+/, '')}`,
              }
            : { kind: 'unchecked', reason: `outside the site's root, ${root} (its \`root\`)` };
      } else target = resolveRoute(candidate.slice(root.length).replace(/^\/+/, ''), path);
      if (target.kind !== 'broken') return target;
      first ??= target;
    }
    return first ?? { kind: 'unchecked', reason: 'not resolved' };
  };

  const navigation: NavigationEntry[] = !sourceHere
    ? []
    : await readMenus(
        config,
        files,
        (reference) => {
          const { path } = splitUrl(reference);
          if (isExternalUrl(path) || /^[a-z][a-z0-9+.-]*:/i.test(path)) return { unchecked: 'external link' };
          // `url_for`: the root before a path, which is read from the root.
          const target = resolveRoute(path.replace(/^\/+/, ''), path);
          return target.kind === 'file'
            ? target.file
            : target.kind === 'broken'
              ? null
              : { unchecked: target.kind === 'unchecked' ? target.reason : 'served' };
        },
        (value) => {
          // `sidebar_categories` (meteor/hexo-theme-meteor): pages by their path without `.html`.
          const file = routes.get(`${value}.html`);
          return file ?? null;
        },
      );
  // The navy theme's sidebar (hexojs/site, learning-rust, bhdirect): `source/_data/sidebar.yml`
  // lists by type (`docs`, `api`) the pages of that folder by their file name (`setup.html`), each
  // linked from the type's pages as written.
  const sidebarFile = `${sourceDir}/_data/sidebar.yml`;
  if (sourceHere && readsSidebar && files.has(sidebarFile)) {
    const text = (await files.read(sidebarFile)) ?? '';
    const sidebar = parseYamlMapping(text);
    const lines = new ConfigLines(text);
    if (isPlainRecord(sidebar))
      for (const [type, sections] of Object.entries(sidebar)) {
        if (!isPlainRecord(sections)) continue;
        for (const [section, items] of Object.entries(sections)) {
          if (!isPlainRecord(items)) continue;
          for (const [key, value] of Object.entries(items)) {
            if (typeof value !== 'string' || navigation.length >= maximumNavigationEntries) continue;
            const { path } = splitUrl(value);
            if (isExternalUrl(value) || path.startsWith('/')) continue;
            const found = lookup(decodePath(posix.join(type, path)));
            navigation.push({
              reference: value,
              file: sidebarFile,
              line: lines.lineOf(value),
              groups: [type, section, key],
              target: found === 'served' ? { unchecked: 'an alias' } : found,
            });
          }
        }
      }
  }

  return {
    framework: 'hexo',
    siteRoot,
    configFiles: [config.file, ...config.themeConfigFiles],
    pages,
    partials: new Set(),
    navigation,
    needsNavigationEntry: () => false,
    pageAnchors: (_file, text) =>
      linksRewritten || anchorsAtRunTime ? null : readHexoAnchors(text, renderer),
    resolveLink,
    configurationProblems: config.problems,
    unsupported,
    conventions: [
      `Pages are Markdown files under ${sourceDir}/, each served at its path with \`.html\` (\`docs/setup.md\` is \`${root}docs/setup.html\`); posts are in ${sourceDir}/_posts/, at the site's \`permalink\` (${config.permalink}).`,
      'Link to a page by its URL: `setup.html` from a page beside it, or `/docs/setup.html`; Hexo leaves links as written, so a link to a `.md` file leads nowhere. Link to a post with `{% post_link file-name %}`.',
      `Heading anchors keep the heading's case (\`## Getting Started\` is \`#Getting-Started\`)${renderer.kind === 'markdown-it' ? '' : '; a repeated heading takes `-1`'}.`,
    ],
  };
};

/** How Markdown images are read with this renderer: from the site's root (`url_for`), from the page, or either. */
function imagesFromRoot(renderer: HexoRenderer): 'yes' | 'no' | 'either' {
  if (renderer.kind === 'marked') return renderer.prependRoot;
  if (renderer.kind === 'markdown-it') return renderer.prependRoot ? 'yes' : 'no';
  return 'either';
}

/** `route.format` (lib/hexo/router.ts): no leading `/`, no query, `index.html` after a trailing `/`. */
function formatRoute(path: string): string {
  let route = path.replace(/^\/+/, '').replace(/\\/g, '/').replace(/\?.*$/, '');
  if (route === '' || route.endsWith('/')) route += 'index.html';
  return decodePath(route);
}

function aliasesOf(frontMatter: Readonly<Record<string, unknown>>): string[] {
  return [frontMatter.alias, frontMatter.aliases].flatMap((value) =>
    (Array.isArray(value) ? value : [value]).filter((item): item is string => typeof item === 'string'),
  );
}

/**
 * A post's file name read with `new_post_name` (lib/plugins/processor/post.ts): its `:title` (the
 * slug, as written) and the date parts it holds. Patterns with more than two open parts are not
 * read (each is a lazy group: the match could take long); the name is then the slug.
 */
function compilePostName(newPostName: string): (name: string) => Record<string, string> & { title: string } {
  const rule = newPostName.replace(/\.[^./:]+$/, '');
  const open = (rule.match(/:(\w*[^_\W])/g) ?? []).filter(
    (param) => !/^:(year|month|day|i_month|i_day|hash)$/.test(param),
  );
  const permalink =
    rule.length <= 200 && open.length <= 2
      ? new Permalink(rule, {
          segments: {
            year: /(\d{4})/,
            month: /(\d{2})/,
            day: /(\d{2})/,
            i_month: /(\d{1,2})/,
            i_day: /(\d{1,2})/,
            hash: /([0-9a-f]{12})/,
          },
        })
      : null;
  return (name) => {
    const data = permalink?.parse(name) as Record<string, string> | undefined;
    if (data === undefined) return { title: slugize(name) };
    return { ...data, title: data.title ?? slugize(name) };
  };
}

/**
 * A post's route from the site's `permalink` (lib/plugins/filter/post_permalink.ts), or null when
 * it needs what the checkout does not hold: a date no front matter or file name gives (Hexo takes
 * the file's creation time), an `:id` or a `:hash`.
 */
function postRoute(
  config: HexoConfig,
  slug: Record<string, string> & { title: string },
  frontMatter: Readonly<Record<string, unknown>>,
): string | null {
  if (typeof frontMatter.permalink === 'string' && frontMatter.permalink.trim() !== '') {
    let route = frontMatter.permalink.trim();
    if (config.postAssetFolder && !route.endsWith('/') && !route.endsWith('.html')) route += '/';
    return route;
  }
  const written =
    frontMatter.date instanceof Date
      ? frontMatter.date.toISOString()
      : typeof frontMatter.date === 'string'
        ? frontMatter.date
        : slug.year !== undefined
          ? `${slug.year}-${slug.month ?? slug.i_month ?? '01'}-${slug.day ?? slug.i_day ?? '01'}`
          : '';
  const date = /^(\d{4})-(\d{1,2})-(\d{1,2})/.exec(written);
  const pad = (value: string | undefined) => (value ?? '').padStart(2, '0');
  // The post processor reads `category` as `categories` (lib/plugins/processor/post.ts).
  const writtenCategories = frontMatter.categories ?? frontMatter.category;
  const categories = Array.isArray(writtenCategories) ? writtenCategories : [writtenCategories];
  const lastCategory = categories
    .flat()
    .filter((item) => typeof item === 'string')
    .at(-1);
  const meta: Record<string, string | undefined> = {
    title: slug.title,
    name: posix.basename(slug.title),
    post_title:
      typeof frontMatter.title === 'string' ? slugize(frontMatter.title, { transform: 1 }) : undefined,
    year: date?.[1],
    month: date === null ? undefined : pad(date[2]),
    day: date === null ? undefined : pad(date[3]),
    i_month: date === null ? undefined : String(Number(date[2])),
    i_day: date === null ? undefined : String(Number(date[3])),
    category:
      typeof lastCategory === 'string'
        ? slugize(lastCategory)
        : typeof config.values.default_category === 'string'
          ? config.values.default_category
          : 'uncategorized',
  };
  for (const [key, value] of Object.entries(frontMatter))
    if (!(key in meta) && (typeof value === 'string' || typeof value === 'number')) meta[key] = String(value);
  const defaults = isPlainRecord(config.values.permalink_defaults) ? config.values.permalink_defaults : {};
  for (const [key, value] of Object.entries(defaults))
    if (meta[key] === undefined && typeof value === 'string') meta[key] = value;
  let unknown = false;
  let route = config.permalink.replace(/:(\w*[^_\W])/g, (_match, name: string) => {
    const value = meta[name];
    if (value === undefined) unknown = true;
    return value ?? '';
  });
  if (unknown) return null;
  if (config.postAssetFolder && !route.endsWith('/') && !route.endsWith('.html')) route += '/';
  return route;
}

/**
 * Menus that name routes: the theme's (and, before Hexo 5, the site's) `menu` (`Home: /` or NexT's
 * `Docs: /docs/ || fa fa-book`), read with `url_for`; and `sidebar_categories` (meteor's theme:
 * pages by their path without `.html`, left out of the sidebar when missing).
 */
async function readMenus(
  config: HexoConfig,
  files: RepositoryFiles,
  resolveMenu: (reference: string) => NavigationEntry['target'],
  resolvePage: (path: string) => string | null,
): Promise<NavigationEntry[]> {
  const entries: NavigationEntry[] = [];
  // NexT's nested menus (`Docs: { default: /docs/ || icon, Setup: /setup.html }`): a group's
  // `default` is its own path, and its items' paths follow it (`/docs/setup.html`).
  const add = async (
    file: string,
    values: unknown,
    read: (value: string) => NavigationEntry['target'],
    groups: string[],
    prefix = '',
    depth = 0,
  ) => {
    if (!isPlainRecord(values) || depth > 4) return;
    const lines = new ConfigLines((await files.read(file)) ?? '');
    const push = (written: string, key: string) => {
      const reference = written.split('||')[0]?.trim() ?? '';
      if (reference === '' || entries.length >= maximumNavigationEntries) return;
      const path = prefix === '' ? reference : `${prefix}/${reference}`.replace(/\/{2,}/g, '/');
      entries.push({
        reference,
        file,
        line: lines.lineOf(reference),
        groups: [...groups, key],
        target: read(path),
      });
    };
    for (const [key, value] of Object.entries(values)) {
      if (isPlainRecord(value)) {
        const own = typeof value.default === 'string' ? value.default : '';
        if (own !== '') push(own, key);
        const ownPath = own.split('||')[0]?.trim() ?? '';
        const { default: _default, ...items } = value;
        await add(
          file,
          items,
          read,
          [...groups, key],
          ownPath === '' ? prefix : `${prefix}/${ownPath}`.replace(/\/{2,}/g, '/'),
          depth + 1,
        );
        continue;
      }
      for (const item of Array.isArray(value) ? value : [value])
        if (typeof item === 'string') push(item, key);
    }
  };
  const menuFile = config.themeConfigFiles.at(-1) ?? config.file;
  if (isPlainRecord(config.themeConfig.menu))
    await add(menuFile, config.themeConfig.menu, resolveMenu, ['menu']);
  else if ((config.hexoMajor ?? 5) < 5 && isPlainRecord(config.values.menu))
    await add(config.file, config.values.menu, resolveMenu, ['menu']);
  if (isPlainRecord(config.values.sidebar_categories))
    await add(config.file, config.values.sidebar_categories, resolvePage, ['sidebar_categories']);
  return entries;
}
