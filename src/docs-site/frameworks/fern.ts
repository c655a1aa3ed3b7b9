import { readHeadingAnchors } from '../heading-anchors.ts';
import { folderOf, isExternalUrl, isWithin, joinInside, resolveFromPageUrl, splitUrl } from '../link-urls.ts';
import { createFenceTracker } from '../page-facts.ts';
import {
  isPagePath,
  type LinkTarget,
  type NavigationEntry,
  type SiteModel,
  type SiteModelBuilder,
  type SiteProblem,
  type SiteSource,
} from '../site-model.ts';
import { type FernNode, readFernNavigation } from './fern-navigation.ts';
import { FernRedirects } from './fern-redirects.ts';
import { slugjoin } from './fern-slugs.ts';

/** What an import may leave out of its file's name, as the MDX bundler resolves it. */
const importSuffixes = [
  '',
  '.tsx',
  '.ts',
  '.jsx',
  '.js',
  '.mdx',
  '.md',
  '/index.tsx',
  '/index.ts',
  '/index.jsx',
  '/index.js',
];
/** URLs of one page a relative link is resolved from (the default version's and its own, mostly). */
const maximumRoutesPerLink = 16;
/** How many redirects a chain may take, as `fern docs broken-links` follows them. */
const maximumRedirectHops = 5;
const maximumCheckedRedirects = 10_000;
/** `<Markdown src="...">`: another file's text inlined where the tag is (replaceReferencedMarkdown). */
const markdownInclude =
  /<Markdown\s[^>]{0,2000}?\bsrc\s*=\s*(?:"([^"]*)"|'([^']*)'|\{\s*["'`]([^"'`]*)["'`]\s*\})/g;

/**
 * Fern Docs (https://buildwithfern.com/learn/docs), read as the released CLI and the docs frontend
 * read a `fern` folder: `docs.yml` (and the version and product files it names) is the navigation,
 * and a Markdown file is a page only when navigation names it (a `page`'s or section's `path`, a
 * `folder:` or `changelog:` folder, a landing page, an API reference's summary). Each page's URL is
 * its slug: the first instance URL's path, then product, version, tab, sections and the page, each
 * its `slug` or its title through lodash's `kebabCase`, or a front matter `slug` from the base; two
 * nodes with one slug leave the second unreachable. Links to `.md`/`.mdx` files (from the page's
 * folder, or from the `fern` folder with a leading `/`) become the page's URL at build time; other
 * links are URLs, checked against every slug, the redirects, and the base path, version and
 * product the page sits in. Headings get github-slugger ids, or `[#id]` written after them.
 */
export const buildFernSite: SiteModelBuilder = async (source, siteRoot) => {
  const { files } = source;
  const navigation = await readFernNavigation(source, siteRoot);
  const slugMap = collectSlugs(navigation.root);
  const pages = new Map<string, string[]>();
  for (const [slug, node] of slugMap) {
    if (!node.isPage || node.file === null) continue;
    const routes = pages.get(node.file) ?? [];
    routes.push(`/${slug}`);
    pages.set(node.file, routes);
  }
  const partials = await includedFiles(source, [...pages.keys()], siteRoot);
  for (const page of pages.keys()) partials.delete(page);
  const builtOnlyWhenListed = new Set(
    files.paths.filter(
      (path) => isWithin(siteRoot, path) && isPagePath(path) && !pages.has(path) && !partials.has(path),
    ),
  );
  const redirects = new FernRedirects(navigation.redirects, navigation.basePath);
  const base = navigation.basePath;
  const unsupported = [...navigation.unsupported];
  for (const source of redirects.unreadable)
    unsupported.push(
      `${siteRoot === '' ? '' : `${siteRoot}/`}docs.yml: redirect source "${source}" is not read`,
    );
  if (navigation.generated.length > 0)
    unsupported.push(
      `pages under ${navigation.generated.map(({ slug }) => `/${slug}`).join(', ')} are generated (API references, libraries, build output) and not read; links there are unchecked`,
    );
  const scopes = [...navigation.versionSlugs, ...navigation.productSlugs];
  // Generated pages of a default version are served without its segment too, like its other pages.
  const generated = [...navigation.generated];
  for (const place of navigation.generated)
    for (const { parentSlug, versionSlug } of navigation.defaultVersions)
      if (place.slug.startsWith(versionSlug))
        generated.push({ ...place, slug: slugjoin(parentSlug, place.slug.slice(versionSlug.length)) });
  /** Every slug and every folder of one: how far a path follows the site's own URLs. */
  const ancestors = new Set<string>(['']);
  for (const slug of slugMap.keys()) {
    for (let end = slug.length; end > 0; end = slug.lastIndexOf('/', end - 1)) {
      const ancestor = slug.slice(0, end);
      if (ancestors.has(ancestor)) break;
      ancestors.add(ancestor);
    }
  }
  const knownAncestor = (key: string): string => {
    for (let end = key.length; end > 0; end = key.lastIndexOf('/', end - 1))
      if (ancestors.has(key.slice(0, end))) return key.slice(0, end);
    return '';
  };
  const scopeRoots = new Set(['', base, ...scopes]);
  /** The first segment of every slug under the base path: where this site's own URLs start. */
  const topSegments = new Set<string>();
  for (const slug of slugMap.keys())
    if (base !== '' && slug.startsWith(`${base}/`))
      topSegments.add(slug.slice(base.length + 1).split('/')[0] ?? '');

  /**
   * What a link to `path` (leading slash, decoded) gets. The docs frontend first re-roots it under
   * the page's version, then under the base path, when a node has that slug (rehype-links'
   * `createReplaceHref`); what it leaves is requested as written: redirects, then the slug.
   */
  const lookup = (path: string, fromRoutes: readonly string[]): LinkTarget => {
    const written = path.replace(/^\/+/, '').replace(/\/+$/, '');
    const inPageScopes = fromRoutes.flatMap((route) => {
      const scope = scopes.find((candidate) => isWithin(candidate, route.slice(1)));
      return scope === undefined ? [] : [slugjoin(scope, written)];
    });
    for (const candidate of inPageScopes) {
      const inScope = nodeTarget(candidate);
      if (inScope !== null) return inScope;
    }
    const rooted = base === '' ? null : nodeTarget(slugjoin(base, written));
    if (rooted !== null) return rooted;
    let current = path;
    for (let hop = 0; hop < maximumRedirectHops; hop += 1) {
      const next = redirects.redirect(current);
      if (next === undefined)
        return { kind: 'unchecked', reason: 'more redirect patterns than are matched here' };
      if (next === null) break;
      if (/^https?:\/\//i.test(next)) return { kind: 'external' };
      current = splitUrl(next).path;
    }
    const key = current.replace(/^\/+/, '').replace(/\/+$/, '');
    const found = nodeTarget(key);
    if (found !== null) return found;
    const special = specialView(key);
    if (special !== null) return special;
    if (files.has(siteRoot === '' ? key : `${siteRoot}/${key}`))
      return { kind: 'served', reason: 'a file of the fern folder' };
    // Where the frontend would have re-rooted the link, had the generated page been known.
    const candidates = [key, slugjoin(base, key), ...inPageScopes];
    // An API reference that skips its slug at a version's (or the base's) root would cover the whole
    // site: its pages are looked for among the paths that leave the known slugs there (below).
    const place = generated.find(
      ({ slug, beside }) =>
        !(beside === true && scopeRoots.has(slug)) &&
        candidates.some((candidate) => isWithin(slug, candidate)),
    );
    if (place !== undefined) return { kind: 'unchecked', reason: `/${place.slug} holds ${place.reason}` };
    // Pages a build step writes may take any slug (their front matter's), and so may an API reference
    // that skips its slug at a root: a path that leaves the known slugs right at the root of a
    // version, product or the base may be one of them.
    const leftAt = knownAncestor(isWithin(base, key) ? key : slugjoin(base, key));
    const writer = generated.find(
      ({ slug, anywhere, beside }) =>
        anywhere === true && (beside === true ? slug === leftAt : scopeRoots.has(leftAt)),
    );
    if (writer !== undefined)
      return { kind: 'unchecked', reason: `/${key} may be served by ${writer.reason}` };
    // A path outside the base path that does not start like one of this site's own sections may be
    // another site's on the same domain (Fern's multi-source docs): it is not this site's to tell.
    if (base !== '' && !isWithin(base, key) && !topSegments.has(key.split('/')[0] ?? ''))
      return { kind: 'unchecked', reason: `/${key} is outside this site's base path /${base}` };
    const redirected = current === path ? '' : ` (redirected from ${path})`;
    return { kind: 'broken', reason: `no page of the site is served at /${key}${redirected}` };
  };

  const nodeTarget = (key: string): LinkTarget | null => {
    const node = slugMap.get(key);
    if (node === undefined) return null;
    if (node.isPage && node.file !== null) return { kind: 'file', file: node.file };
    return { kind: 'served', reason: `/${key} leads to the first page under it` };
  };

  /** Views the docs frontend serves besides pages (its middleware): llms.txt, Markdown, feeds, API files. */
  const specialView = (key: string): LinkTarget | null => {
    // Every site's MCP server too (https://buildwithfern.com/learn/docs/ai-features/mcp-server:
    // its page at `/mcp`, its endpoint at `/_mcp/server`).
    const fromBase = isWithin(base, key) ? key.slice(base.length).replace(/^\//, '') : key;
    if (
      /(^|\/)(llms|llms-full)\.txt$/.test(key) ||
      /^(sitemap\.xml|robots\.txt|mcp|_mcp(\/.*)?)$/.test(fromBase)
    )
      return { kind: 'served', reason: 'a view the docs frontend serves' };
    if (/(^|\/)(openapi|asyncapi)(\/[^/]+)?\.(json|ya?ml)$/.test(key))
      return { kind: 'served', reason: 'an API definition the site serves' };
    const markdown = /^(.*)\.mdx?$/.exec(key)?.[1];
    if (markdown !== undefined && slugMap.get(markdown)?.isPage === true)
      return { kind: 'served', reason: "the page's Markdown view" };
    const feed = /^(.*)\.(rss|atom)$/.exec(key)?.[1];
    if (feed !== undefined && slugMap.has(feed)) return { kind: 'served', reason: "a changelog's feed" };
    return null;
  };

  const resolveLink: SiteModel['resolveLink'] = (from, url, link) => {
    if (link?.kind === 'import') return resolveImport(from, url);
    let written = url.trim();
    const instance = /^https?:\/\/([^/?#]+)(\/[^?#]*)?/i.exec(written);
    if (instance !== null) {
      const host = (instance[1] ?? '').toLowerCase();
      const path = instance[2] ?? '/';
      if (!navigation.hosts.has(host) || (base !== '' && !isWithin(`/${base}`, path)))
        return { kind: 'external' };
      written = written.slice(instance[0].length - path.length);
    }
    if (isExternalUrl(written)) return { kind: 'external' };
    const { path } = splitUrl(written);
    if (path === '') return { kind: 'external' };
    // A page listed many times has as many URLs; links are resolved from its first few.
    const fromRoutes = (pages.get(from) ?? []).slice(0, maximumRoutesPerLink);
    const isPartial = !pages.has(from);
    if (/\.mdx?$/.test(path)) {
      const file = path.startsWith('/')
        ? joinInside(siteRoot, path.slice(1))
        : joinInside(folderOf(from), path);
      if (file !== null && pages.has(file)) return { kind: 'file', file };
      if (isPartial && !path.startsWith('/'))
        return {
          kind: 'unchecked',
          reason: "a snippet's relative link is resolved from each page that includes it",
        };
      if (file !== null && files.has(file)) {
        // Left as written: the browser asks for it from the page's URL, where the docs frontend
        // serves the Markdown view of the page with that slug, if there is one.
        const requested = path.startsWith('/')
          ? [path]
          : fromRoutes.map((route) => resolveFromPageUrl(route, path));
        if (requested.length > 0 && requested.every((url) => specialView(url.slice(1)) !== null))
          return { kind: 'served', reason: "a page's Markdown view" };
        return { kind: 'broken', reason: `${file} is in no navigation entry, so Fern serves it at no URL` };
      }
      if (!path.startsWith('/')) {
        // Left as written too: a redirect may still answer the URL it makes (Vapi's old `.mdx` paths).
        const asUrl = fromPageUrls(path, fromRoutes);
        return asUrl.kind === 'broken' ? { kind: 'broken', reason: `${file ?? path} does not exist` } : asUrl;
      }
    }
    if (path.startsWith('/')) return lookup(path, fromRoutes);
    const beside = joinInside(folderOf(from), path);
    if (beside !== null && files.has(beside)) return { kind: 'served', reason: 'a file beside the page' };
    if (isPartial)
      return {
        kind: 'unchecked',
        reason: "a snippet's relative link is resolved from each page that includes it",
      };
    return fromPageUrls(path, fromRoutes);
  };

  /** A relative URL, from each URL the page is served at (`fern docs broken-links` checks them all). */
  const fromPageUrls = (path: string, fromRoutes: readonly string[]): LinkTarget => {
    let result: LinkTarget = { kind: 'unchecked', reason: 'a page without a URL' };
    for (const route of fromRoutes) {
      result = lookup(resolveFromPageUrl(route, path), fromRoutes);
      if (result.kind === 'broken') return result;
    }
    return result;
  };

  /** An MDX import: a file from the page's folder, or from the `fern` folder with `@/` (its extension optional). */
  const resolveImport = (from: string, url: string): LinkTarget => {
    const written = url.trim();
    const relative = written.startsWith('@/') ? null : written;
    if (relative !== null && !relative.startsWith('.') && !relative.startsWith('/'))
      return { kind: 'external' };
    const path =
      relative === null
        ? joinInside(siteRoot, written.slice(2))
        : relative.startsWith('/')
          ? joinInside(siteRoot, relative.slice(1))
          : joinInside(folderOf(from), relative);
    if (path === null) return { kind: 'broken', reason: `${written} leaves the repository` };
    for (const suffix of importSuffixes)
      if (files.has(`${path}${suffix}`)) return { kind: 'served', reason: 'an imported module' };
    return { kind: 'broken', reason: `${written} names no file` };
  };

  const redirectProblems: SiteProblem[] = [];
  for (const redirect of navigation.redirects.slice(0, maximumCheckedRedirects)) {
    const destination = redirect.destination.trim();
    if (!destination.startsWith('/') || /[:*(]/.test(destination)) continue;
    const { path } = splitUrl(destination);
    if (lookup(path, []).kind !== 'broken') continue;
    redirectProblems.push({
      file: redirect.file,
      line: redirect.line,
      message: `Redirect destination "${destination}" names no page`,
      key: `redirect\0${destination}`,
    });
  }

  const entries: NavigationEntry[] = navigation.entries;
  const mainFile = siteRoot === '' ? 'docs.yml' : `${siteRoot}/docs.yml`;
  return {
    framework: 'fern',
    siteRoot,
    configFiles: [...new Set([mainFile, ...navigation.configFiles])],
    pages,
    partials,
    navigation: entries,
    builtOnlyWhenListed,
    needsNavigationEntry: (file) =>
      isPagePath(file) && !navigation.autoListed.has(file) && !partials.has(file),
    navigationFileFor: (file) =>
      entries.find(
        (entry) =>
          typeof entry.target === 'string' &&
          isPagePath(entry.target) &&
          folderOf(entry.target) === folderOf(file),
      )?.file ??
      entries.find((entry) => typeof entry.target === 'string' && isPagePath(entry.target))?.file ??
      mainFile,
    pageAnchors: (file, text) =>
      pages.has(file)
        ? readHeadingAnchors(text, {
            mdx: true,
            customIds: true,
            maintainCase: false,
            always: [],
            fern: true,
          })
        : null,
    resolveLink,
    configurationProblems: [...navigation.problems, ...redirectProblems],
    unsupported,
    conventions: await conventions(source, entries, resolveLink, mainFile, base),
  } satisfies SiteModel;
};

/**
 * fdr-sdk's `NodeCollector`: every node's slug, depth first in configuration order, the default
 * version's pages first under their unversioned slugs; a slug already taken stays with its first
 * node unless a visible page meets a hidden node or a container there. (Changelog years and months
 * are not routed: no node is made for them.)
 */
function collectSlugs(root: FernNode): Map<string, FernNode> {
  const slugMap = new Map<string, FernNode>();
  const visitNode = (node: FernNode) => {
    const key = node.slug;
    const existing = slugMap.get(key);
    if (existing === undefined) slugMap.set(key, node);
    else if (!node.hidden && node.isPage && (existing.hidden || !existing.isPage)) slugMap.set(key, node);
  };
  const stack: FernNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop() as FernNode;
    if (node.defaultVersion !== undefined) {
      const { parentSlug, versionSlug } = node.defaultVersion;
      const unversioned = (slug: string) =>
        slug.startsWith(versionSlug) ? slugjoin(parentSlug, slug.slice(versionSlug.length)) : slug;
      const copies: FernNode[] = [node];
      while (copies.length > 0) {
        const copy = copies.pop() as FernNode;
        visitNode({ ...copy, slug: unversioned(copy.slug) });
        for (let index = copy.children.length - 1; index >= 0; index -= 1)
          copies.push(copy.children[index] as FernNode);
      }
    }
    visitNode(node);
    for (let index = node.children.length - 1; index >= 0; index -= 1)
      stack.push(node.children[index] as FernNode);
  }
  return slugMap;
}

/** Files inlined with `<Markdown src>` or imported by pages, at any depth: snippets, not pages. */
async function includedFiles(
  source: SiteSource,
  pages: readonly string[],
  siteRoot: string,
): Promise<Set<string>> {
  const included = new Set<string>();
  const queue = [...pages];
  while (queue.length > 0) {
    const file = queue.pop() as string;
    const text = await source.files.read(file);
    if (text === null) continue;
    const written: string[] = [];
    const inFence = createFenceTracker();
    for (const line of text.split('\n')) {
      if (inFence(line) || !line.includes('<Markdown')) continue;
      for (const match of line.matchAll(markdownInclude))
        written.push(match[1] ?? match[2] ?? match[3] ?? '');
    }
    for (const link of (await source.pageFacts(file))?.links ?? [])
      if (link.kind === 'import' && isPagePath(link.url)) written.push(link.url);
    for (const path of written) {
      const target = path.startsWith('/')
        ? joinInside(siteRoot, path.slice(1))
        : joinInside(folderOf(file), path);
      if (target === null || included.has(target) || !source.files.has(target)) continue;
      included.add(target);
      queue.push(target);
    }
  }
  return included;
}

/** How links are written here (an example from the site's own pages), and where new pages are listed. */
async function conventions(
  source: SiteSource,
  entries: readonly NavigationEntry[],
  resolveLink: SiteModel['resolveLink'],
  mainFile: string,
  base: string,
): Promise<string[]> {
  const listed = entries.filter((entry) => typeof entry.target === 'string' && isPagePath(entry.target));
  const listing = listed[0]?.file ?? mainFile;
  let example: { page: string; url: string } | null = null;
  for (const entry of listed.slice(0, 200)) {
    const page = entry.target as string;
    const link = (await source.pageFacts(page))?.links.find(
      (candidate) => candidate.kind === 'link' && resolveLink(page, candidate.url).kind === 'file',
    );
    if (link !== undefined) {
      example = { page, url: link.url };
      break;
    }
  }
  const written =
    example === null
      ? ''
      : ` This site writes them ${/\.mdx?(#|$)/.test(example.url) ? 'as files' : 'as URLs'}, such as \`${example.url}\` in ${example.page}.`;
  return [
    `Links between pages are written as relative paths to their .mdx files (\`./setup.mdx\`, \`../guides/auth.mdx#tokens\`), which Fern turns into the pages' URLs, or as URLs${base === '' ? '' : ` under /${base}`}; a page's URL comes from its place in navigation, not from its file path.${written}`,
    `A new page is an .mdx file that must be listed as \`- page: Title\` with its \`path:\` (relative to the yml file) in the navigation file that lists the pages beside it (such as ${listing}); a file no navigation entry names is not published.`,
  ];
}
