import { posix } from 'node:path';
import { readGitIgnored } from '../git-ignored.ts';
import {
  decodePath,
  folderOf,
  isExternalUrl,
  isWithin,
  joinInside,
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
import { readLiquidUrl } from '../template-links.ts';
import { type JekyllConfig, readJekyllConfig } from './jekyll-config.ts';

const markdownExtension = /\.(md|markdown|mkdn|mkd|mdown)$/i;
const frontMatterStart = /^---[ \t]*\r?\n/;

interface Rendered {
  file: string;
  /** The URL Jekyll writes it at; null when its permalink has a placeholder this model cannot fill. */
  url: string | null;
  /** A Markdown page or document whose links jekyll-relative-links rewrites. */
  markdown: boolean;
  collection: string | null;
}

/**
 * Jekyll (https://jekyllrb.com), the engine of GitHub Pages. What it renders and where, as Jekyll's
 * source decides (lib/jekyll/page.rb, url.rb, entry_filter.rb, document.rb): files with front matter
 * (and Markdown without it under jekyll-optional-front-matter, a GitHub Pages default) become pages
 * at `/:path/:basename.html`, `/:path/:basename/` with `permalink: pretty`, or their own
 * `permalink`; collections (`_posts` and `collections:` with `output: true`) at their templates;
 * everything else not excluded is copied as it is. A link leads where the browser takes it from the
 * page's URL (not its file), except that Liquid writes most links first: `{% link path %}` (the build
 * stops when the file is not in the site), `{{ site.baseurl }}`, `relative_url`, and that
 * jekyll-relative-links (a GitHub Pages default) rewrites a Markdown link to a file of the site, from
 * the page's folder, into that file's URL. Just the Docs' navigation is the pages' `parent` and
 * `grand_parent` front matter, which must name a page's title.
 */
export const buildJekyllSite: SiteModelBuilder = async (source, siteRoot) => {
  const files = source.files;
  const config = await readJekyllConfig(files, siteRoot);
  const unsupported: string[] = [];
  const rendered = new Map<string, Rendered>();
  const staticFiles = new Set<string>();
  const posts = new Map<string, string>();
  const frontMatters = new Map<string, Readonly<Record<string, unknown>>>();
  const collectionFolders = [...config.collections].map(([label, collection]) => ({ label, ...collection }));

  for (const path of files.paths) {
    if (!isWithin(siteRoot, path) || path === config.file) continue;
    const entry = relativeTo(siteRoot, path);
    const collection = collectionFolders.find(({ folder }) => entry.startsWith(`${folder}/`));
    if (collection !== undefined) {
      const inside = entry.slice(collection.folder.length + 1);
      if (inside.split('/').some((segment) => /^[._#]|~$/.test(segment))) continue;
      if (collection.label === 'posts') {
        const name = inside.replace(/^.*\//, '').replace(/\.[^.]+$/, '');
        // A post's file name starts with its date; Jekyll reads no other file of `_posts` as a post.
        if (!/^\d{4}-\d{2}-\d{2}-/.test(name) && (markdownExtension.test(path) || /\.html?$/i.test(path)))
          continue;
        posts.set(name, path);
      }
      if (!collection.output) continue;
      if (!markdownExtension.test(path) && !/\.html?$/i.test(path)) {
        staticFiles.add(path);
        continue;
      }
      const text = (await files.read(path)) ?? '';
      // A collection file without front matter is a static file (https://jekyllrb.com/docs/collections/).
      if (!frontMatterStart.test(text)) {
        staticFiles.add(path);
        continue;
      }
      const frontMatter = (await source.pageFacts(path))?.frontMatter ?? {};
      frontMatters.set(path, frontMatter);
      rendered.set(path, {
        file: path,
        url: documentUrl(config, collection, inside, frontMatter),
        markdown: markdownExtension.test(path),
        collection: collection.label,
      });
      continue;
    }
    if (config.isExcluded(entry)) continue;
    const isMarkdown = markdownExtension.test(path);
    if (isMarkdown || /\.html?$/i.test(path)) {
      const text = (await files.read(path)) ?? '';
      const hasFrontMatter = frontMatterStart.test(text);
      if (hasFrontMatter || (isMarkdown && config.plugins.has('jekyll-optional-front-matter'))) {
        const frontMatter = (await source.pageFacts(path))?.frontMatter ?? {};
        frontMatters.set(path, frontMatter);
        rendered.set(path, { file: path, url: null, markdown: isMarkdown, collection: null });
        continue;
      }
    }
    staticFiles.add(path);
  }
  // Page URLs, once every page is known: jekyll-readme-index serves a README where no index is.
  const indexFolders = new Set(
    [...rendered.values()]
      .filter(
        ({ file, collection }) =>
          collection === null && /^index\.(md|markdown|html?)$/i.test(posix.basename(file)),
      )
      .map(({ file }) => folderOf(file)),
  );
  for (const page of rendered.values()) {
    if (page.collection !== null) continue;
    const entry = relativeTo(siteRoot, page.file);
    const readmeIndex =
      config.plugins.has('jekyll-readme-index') &&
      /^readme\.(md|markdown)$/i.test(posix.basename(entry)) &&
      !indexFolders.has(folderOf(page.file));
    page.url = pageUrl(config, entry, frontMatters.get(page.file) ?? {}, readmeIndex);
  }

  // Every URL the built site answers, and the file behind it.
  const served = new Map<string, string>();
  const serve = (url: string, file: string) => {
    for (const variant of urlVariants(url)) if (!served.has(variant)) served.set(variant, file);
  };
  let unknownUrls = 0;
  for (const page of rendered.values()) {
    if (page.url === null) unknownUrls += 1;
    else serve(page.url, page.file);
  }
  for (const file of staticFiles) serve(`/${relativeTo(siteRoot, file)}`, file);
  // jekyll-redirect-from: `redirect_from` URLs answer with a redirect page.
  const redirects = new Set<string>();
  if (config.plugins.has('jekyll-redirect-from')) {
    for (const frontMatter of frontMatters.values()) {
      const from = frontMatter.redirect_from;
      for (const url of Array.isArray(from) ? from : [from])
        if (typeof url === 'string')
          for (const variant of urlVariants(`/${url.replace(/^\/+/, '')}`)) redirects.add(variant);
    }
  }
  const pluginsFolder = siteRoot === '' ? '_plugins/' : `${siteRoot}/_plugins/`;
  if (files.paths.some((path) => path.startsWith(pluginsFolder) && path.endsWith('.rb')))
    unsupported.push(
      `${pluginsFolder}: custom plugins are not run; pages or files they generate are not known`,
    );
  if (unknownUrls > 0)
    unsupported.push(
      `${unknownUrls} pages have a permalink with placeholders this check does not fill; links to URLs no known page has are unchecked`,
    );
  const sitePaths = new Set([...rendered.keys(), ...staticFiles]);
  const relativeLinksFrom = (file: string) => {
    const page = rendered.get(file);
    return (
      config.relativeLinks.enabled &&
      page?.markdown === true &&
      (page.collection === null || config.relativeLinks.collections)
    );
  };

  /** A site URL (without the base URL) as the host answers it. */
  const urlTarget = (url: string): LinkTarget => {
    const file = served.get(url) ?? served.get(decodePath(url));
    if (file !== undefined) return { kind: 'file', file };
    if (redirects.has(url)) return { kind: 'served', reason: 'a redirect_from page' };
    if (unknownUrls > 0)
      return { kind: 'unchecked', reason: 'some pages have URLs this check cannot compute' };
    return { kind: 'broken', reason: `the built site has no page or file at ${url}` };
  };

  const isGitIgnored = await readGitIgnored(files);
  const resolveLink = (from: string, url: string, link?: Pick<PageLink, 'kind' | 'title'>): LinkTarget => {
    const liquid = readLiquidUrl(url.trim());
    // `{{ site.baseurl }}/x`: a site URL from its root, whatever the base URL is.
    const withBase = liquid.base;
    const trimmed = liquid.rest;
    if (liquid.tag === 'link') {
      const file = joinInside(siteRoot, liquid.argument);
      if (file !== null && sitePaths.has(file)) return { kind: 'file', file };
      return {
        kind: 'broken',
        reason: `Jekyll's build stops: Could not find document '${liquid.argument}' in tag 'link' (it names a file of the site, from ${siteRoot === '' ? 'the repository root' : `${siteRoot}/`})`,
      };
    }
    if (liquid.tag === 'post_url') {
      const name = liquid.argument.replace(/^.*\//, '');
      const file = posts.get(name);
      return file === undefined
        ? { kind: 'broken', reason: `Jekyll's build stops: Could not find post "${name}" in tag 'post_url'` }
        : { kind: 'file', file };
    }
    if (liquid.tag === 'include_relative') {
      const file = joinInside(folderOf(from), liquid.argument);
      if (file !== null && files.has(file)) return { kind: 'file', file };
      return {
        kind: 'broken',
        reason: `Jekyll's build stops: include_relative names no file ${file ?? liquid.argument}`,
      };
    }
    if (isExternalUrl(trimmed)) return { kind: 'external' };
    const { path } = splitUrl(trimmed);
    if (path === '') return { kind: 'external' };
    // jekyll-relative-links rewrites a Markdown link or image naming a file of the site (0.6, the
    // version GitHub Pages runs, reads a leading slash from the page's folder too).
    if (relativeLinksFrom(from) && link?.kind !== 'html') {
      const fromFolder = folderOf(from);
      const target = path.startsWith('/')
        ? joinInside(config.githubPages ? fromFolder : siteRoot, path.slice(1))
        : joinInside(fromFolder, path);
      if (target !== null && sitePaths.has(target)) return { kind: 'file', file: target };
    }
    const pageUrlOf = rendered.get(from)?.url;
    let absolute: string;
    if (withBase) absolute = path.startsWith('/') ? path : `/${path}`;
    else if (path.startsWith('/')) {
      if (config.baseurl !== '' && (path === config.baseurl || path.startsWith(`${config.baseurl}/`)))
        absolute = path.slice(config.baseurl.length) || '/';
      else if (config.baseurl !== '')
        return {
          kind: 'broken',
          reason: `the site is served under its baseurl ${config.baseurl}; write {{ site.baseurl }}${path} or a relative link`,
        };
      else absolute = path;
    } else {
      if (pageUrlOf === undefined || pageUrlOf === null)
        return { kind: 'unchecked', reason: 'the page is not rendered at a known URL' };
      absolute = resolveFromPageUrl(pageUrlOf, path);
    }
    const target = urlTarget(absolute);
    // A file the build generates where Git keeps nothing (API docs written into a `.gitignore`d folder).
    const generated = joinInside(siteRoot, absolute.replace(/^\/+/, ''));
    if (target.kind === 'broken' && generated !== null && isGitIgnored(generated))
      return { kind: 'unchecked', reason: `${generated} is generated: .gitignore keeps it out of Git` };
    if (target.kind === 'broken' && markdownExtension.test(path)) {
      const file = path.startsWith('/')
        ? joinInside(siteRoot, path.slice(1))
        : joinInside(folderOf(from), path);
      if (file !== null && rendered.has(file))
        return {
          kind: 'broken',
          reason: `${file} is rendered at ${rendered.get(file)?.url ?? 'another URL'}, not at ${absolute}: link that URL, or use {% link ${relativeTo(siteRoot, file)} %}${config.relativeLinks.enabled ? '' : ' (jekyll-relative-links is not on)'}`,
        };
    }
    return target;
  };

  const navigation = await justTheDocsNavigation(source, config, rendered, frontMatters);
  const pages = new Map<string, string[]>();
  for (const page of rendered.values()) pages.set(page.file, page.url === null ? [] : [page.url]);
  const model: SiteModel = {
    framework: 'jekyll',
    siteRoot,
    configFiles: [config.file],
    pages,
    partials: new Set(),
    navigation,
    needsNavigationEntry: () => false,
    resolveLink,
    configurationProblems: config.problems,
    unsupported,
    conventions: describeConventions(config, siteRoot),
  };
  return model;
};

/** A page's URL (Page#url): its permalink, or the site's permalink style applied to its path. */
function pageUrl(
  config: JekyllConfig,
  entry: string,
  frontMatter: Readonly<Record<string, unknown>>,
  readmeIndex: boolean,
): string | null {
  const folder = folderOf(entry);
  const basename = posix.basename(entry).replace(/\.[^.]+$/, '');
  const placeholders: Record<string, string> = {
    path: folder === '' ? '' : `/${folder}`,
    basename,
    output_ext: '.html',
  };
  const permalink = permalinkOf(config, entry, 'pages', frontMatter);
  if (permalink !== null) return fillTemplate(permalink, placeholders);
  if (basename === 'index' || readmeIndex) return fillTemplate('/:path/', placeholders);
  return fillTemplate(withPermalinkSuffix('/:path/:basename', config.permalink), placeholders);
}

/** A collection document's URL (Document#url): its permalink, or the collection's template. */
function documentUrl(
  config: JekyllConfig,
  collection: { label: string; permalink: string | null },
  inside: string,
  frontMatter: Readonly<Record<string, unknown>>,
): string | null {
  const withoutExtension = inside.replace(/\.[^.]+$/, '');
  const name = posix.basename(withoutExtension);
  const placeholders: Record<string, string> = {
    collection: collection.label,
    path: `/${withoutExtension}`,
    name,
    basename: name,
    title: typeof frontMatter.slug === 'string' ? frontMatter.slug : slugify(name),
    output_ext: '.html',
  };
  if (collection.label === 'posts') {
    const date = /^(\d{4})-(\d{2})-(\d{2})-(.+)$/.exec(name);
    if (date === null) return null;
    const categories = [
      ...posix
        .dirname(withoutExtension)
        .split('/')
        .filter((part) => part !== '.' && part !== ''),
      ...categoriesOf(frontMatter),
    ];
    Object.assign(placeholders, {
      year: date[1] ?? '',
      month: date[2] ?? '',
      i_month: String(Number(date[2])),
      day: date[3] ?? '',
      i_day: String(Number(date[3])),
      title: typeof frontMatter.slug === 'string' ? frontMatter.slug : slugify(date[4] ?? ''),
      categories: categories.map(slugify).join('/'),
    });
  }
  const permalink = permalinkOf(config, `_${collection.label}/${inside}`, collection.label, frontMatter);
  if (permalink !== null) return fillTemplate(permalink, placeholders);
  if (collection.permalink !== null) return fillTemplate(collection.permalink, placeholders);
  if (collection.label === 'posts') {
    const style = config.permalink;
    const template =
      style === 'pretty'
        ? '/:categories/:year/:month/:day/:title/'
        : style === 'date' || style === 'none' || style === 'ordinal'
          ? '/:categories/:year/:month/:day/:title:output_ext'
          : style;
    return fillTemplate(template, placeholders);
  }
  return fillTemplate(withPermalinkSuffix('/:collection/:path', config.permalink), placeholders);
}

function categoriesOf(frontMatter: Readonly<Record<string, unknown>>): string[] {
  const value = frontMatter.categories ?? frontMatter.category;
  if (typeof value === 'string') return value.split(/\s+/).filter((part) => part !== '');
  return Array.isArray(value) ? value.filter((part): part is string => typeof part === 'string') : [];
}

/** The front matter's permalink, or one set by `defaults` for the entry's path and type. */
function permalinkOf(
  config: JekyllConfig,
  entry: string,
  type: string,
  frontMatter: Readonly<Record<string, unknown>>,
): string | null {
  if (typeof frontMatter.permalink === 'string' && frontMatter.permalink.trim() !== '')
    return frontMatter.permalink.trim();
  let chosen: string | null = null;
  for (const scope of config.permalinkDefaults) {
    if (scope.type !== null && scope.type !== type) continue;
    if (scope.path !== '' && !isWithin(scope.path, entry)) continue;
    chosen = scope.permalink;
  }
  return chosen;
}

/** Utils.add_permalink_suffix: what a permalink style adds to a page's template. */
function withPermalinkSuffix(template: string, style: string): string {
  if (style === 'pretty') return `${template}/`;
  if (style === 'date' || style === 'ordinal' || style === 'none' || style === 'weekdate')
    return `${template}:output_ext`;
  return `${template}${style.endsWith('/') ? '/' : ''}${style.endsWith(':output_ext') ? ':output_ext' : ''}`;
}

/** URL#generate_url and sanitize_url: placeholders filled, slashes collapsed, a leading slash. */
function fillTemplate(template: string, placeholders: Readonly<Record<string, string>>): string | null {
  let unknown = false;
  const filled = template.replace(/:([a-z_]+)/g, (whole, name: string) => {
    const value = Object.hasOwn(placeholders, name) ? placeholders[name] : undefined;
    if (value === undefined) {
      unknown = true;
      return whole;
    }
    return value;
  });
  if (unknown) return null;
  const url = `/${filled}`.replace(/\/{2,}/g, '/').replace(/\/\.{1,2}(?=\/|$)/g, '');
  return url === '' ? '/' : url;
}

/** Jekyll's default slug: lower case, runs of other characters as one hyphen. */
function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}._~!$&'()+,;=@]+/gu, '-')
    .replace(/^-+|-+$/g, '');
}

/**
 * The URLs a host answers for a page written at `url`: `/a/` is `/a/index.html` (and `/a`, which
 * redirects to it), `/a.html` is `/a` too (GitHub Pages and most hosts), and `/a` is written to `a.html`.
 */
function urlVariants(url: string): string[] {
  if (url.endsWith('/')) return [url, `${url}index.html`, url.length > 1 ? url.slice(0, -1) : url];
  if (/\.html$/i.test(url)) {
    const bare = url.slice(0, -5);
    return bare.endsWith('/index') ? [url, bare, bare.slice(0, -5) || '/'] : [url, bare];
  }
  if (/\.[a-z0-9]+$/i.test(posix.basename(url))) return [url];
  return [url, `${url}.html`];
}

/**
 * Just the Docs (https://just-the-docs.com/docs/navigation/children/): a page's `parent` names the
 * title of the page it is listed under, and `grand_parent` that page's own parent; a page whose
 * parent matches no title is left out of the navigation.
 */
async function justTheDocsNavigation(
  source: SiteSource,
  config: JekyllConfig,
  rendered: ReadonlyMap<string, Rendered>,
  frontMatters: ReadonlyMap<string, Readonly<Record<string, unknown>>>,
): Promise<NavigationEntry[]> {
  const justTheDocs = /just-the-docs/.test(config.theme) || source.files.has('just-the-docs.gemspec');
  if (!justTheDocs) return [];
  const titled = new Map<string, string[]>();
  for (const [file, frontMatter] of frontMatters) {
    if (typeof frontMatter.title !== 'string' || !rendered.has(file)) continue;
    const same = titled.get(frontMatter.title);
    if (same === undefined) titled.set(frontMatter.title, [file]);
    else same.push(file);
  }
  const entries: NavigationEntry[] = [];
  for (const [file, frontMatter] of frontMatters) {
    const parent = frontMatter.parent;
    if (typeof parent !== 'string' || parent === '') continue;
    const grandParent = typeof frontMatter.grand_parent === 'string' ? frontMatter.grand_parent : null;
    const candidates = (titled.get(parent) ?? []).filter(
      (candidate) => grandParent === null || frontMatters.get(candidate)?.parent === grandParent,
    );
    const text = (await source.files.read(file)) ?? '';
    const line = text.split('\n').findIndex((row) => /^parent\s*:/.test(row)) + 1;
    entries.push({
      reference: parent,
      file,
      line: Math.max(line, 1),
      groups: grandParent === null ? [] : [grandParent],
      target: candidates[0] ?? null,
    });
  }
  return entries;
}

function describeConventions(config: JekyllConfig, siteRoot: string): string[] {
  const root = siteRoot === '' ? 'the repository root' : `\`${siteRoot}/\``;
  return [
    `Jekyll builds the site from ${root}; a page's URL is its \`permalink\` front matter, or its path with the site's \`permalink: ${config.permalink}\` style. Links are written ${config.relativeLinks.enabled ? 'as paths to the `.md` file relative to the page (jekyll-relative-links turns them into URLs), ' : ''}with \`{% link path/to/page.md %}\` (the build fails if the file is missing), or as site URLs${config.baseurl === '' ? '' : ` prefixed with \`{{ site.baseurl }}\` (the site is served under ${config.baseurl})`}.`,
    'A relative URL is read from the page’s URL, not its file: with pretty URLs (`/docs/setup/`), `install/` is `/docs/setup/install/`.',
  ];
}
