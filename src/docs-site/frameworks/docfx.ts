import { posix } from 'node:path';
import { generatedPlace, readGitIgnored } from '../git-ignored.ts';
import { type PageAnchors, readHeadingAnchors } from '../heading-anchors.ts';
import {
  createCaseInsensitiveLookup,
  decodePath,
  folderOf,
  isExternalUrl,
  isWithin,
  joinInside,
  listFolders,
  normalizeRoute,
  relativeTo,
  splitUrl,
} from '../link-urls.ts';
import {
  type LinkTarget,
  type NavigationEntry,
  navigationTarget,
  type PageLink,
  type SiteModel,
  type SiteModelBuilder,
  type SiteProblem,
  type SiteSource,
  type Unchecked,
} from '../site-model.ts';
import { createCheckoutCoverage } from './checkout-coverage.ts';
import { type DocfxFileMapping, readDocfxConfig } from './docfx-config.ts';
import { type DocfxTocReference, readMarkdownToc, readYamlToc } from './docfx-toc.ts';
import { markdownLinkExample } from './link-example.ts';

const tocName = /^toc\.(yml|md)$/i;
const markdownFile = /\.md$/i;
// Learn's (Open Publishing's) redirections beside a DocFX site: `.openpublishing.redirection.json`
// and its per-area siblings (`.openpublishing.redirection.articles.json`).
const redirectionFile = /(^|\/)\.openpublishing\.redirection(\.[\w-]+)*\.json$/;
const maximumIncludeDepth = 10;

/**
 * DocFX (https://dotnet.github.io/docfx/docs/basic-concepts.html), as `docfx build` reads a site:
 * `docfx.json` names the files of the build (`build.content`: Markdown pages, YAML pages and tables
 * of contents; `build.resource`: files copied as they are), each written to its `dest` folder at its
 * path below `src`, `.md` becoming `.html`. A link (Markdown, or an HTML `href`/`src`) that is a
 * relative path names a file from the linking file's folder (`~/` from `docfx.json`'s), and DocFX
 * warns (`InvalidFileLink`, Docfx.Build/LinkPhaseHandler.cs) when no file of the build is there:
 * the published site has none either. Links from the site's root (`/x`) are left as written.
 * `xref:uid` links name the page whose front matter has that `uid`; uids of generated API pages
 * (`metadata`) and of cross-reference maps are unknown here. Tables of contents (`toc.yml`,
 * `toc.md`) list files, folders (whose own table of contents they link to) and nested tables of
 * contents (TableOfContents/TocResolver.cs). `[!INCLUDE]` files are read as partials, their links
 * relative to themselves.
 */
export const buildDocfxSite: SiteModelBuilder = async (source, siteRoot) => {
  const files = source.files;
  const existing = createCaseInsensitiveLookup(files.paths);
  const configFile = siteRoot === '' ? 'docfx.json' : `${siteRoot}/docfx.json`;
  const config = readDocfxConfig((await files.read(configFile)) ?? '', configFile, siteRoot);
  const unsupported: string[] = [];
  const outputOf = new Map<string, string>();
  const contentFiles = new Set<string>();
  const overwriteFiles = new Set<string>();
  const place = (mappings: readonly DocfxFileMapping[], kind: 'content' | 'resource' | 'overwrite') => {
    for (const mapping of mappings) {
      const { src } = mapping;
      if (src === null) {
        unsupported.push(
          `${configFile}: a file mapping's \`src\` leaves the repository; its files are unknown`,
        );
        continue;
      }
      for (const path of files.paths) {
        if (!isWithin(src, path) || path === src) continue;
        const relative = relativeTo(src, path);
        if (!mapping.matches(relative)) continue;
        if (kind === 'overwrite') {
          overwriteFiles.add(path);
          continue;
        }
        if (!outputOf.has(path))
          outputOf.set(path, mapping.dest === '' ? relative : `${mapping.dest}/${relative}`);
        if (kind === 'content') contentFiles.add(path);
      }
    }
  };
  place(config.content, 'content');
  place(config.resource, 'resource');
  place(config.overwrite, 'overwrite');
  if (config.content.length === 0)
    unsupported.push(`${configFile} has no \`build.content\`: no page is built`);

  const pages = new Map<string, string[]>();
  const tocFiles: string[] = [];
  const yamlPages: string[] = [];
  const fileAtOutput = new Map<string, string>();
  for (const [path, output] of outputOf) {
    const name = path.slice(path.lastIndexOf('/') + 1);
    if (contentFiles.has(path) && tocName.test(name)) {
      tocFiles.push(path);
      continue;
    }
    const published = contentFiles.has(path) ? output.replace(/\.(md|ya?ml)$/i, '.html') : output;
    fileAtOutput.set(published.toLowerCase(), path);
    if (contentFiles.has(path) && markdownFile.test(path)) pages.set(path, [normalizeRoute(published)]);
    else if (contentFiles.has(path) && /\.ya?ml$/i.test(path)) yamlPages.push(path);
  }

  // Uids: each page's front matter `uid`, each YAML page's top-level `uid`.
  const uids = new Map<string, string>();
  for (const page of pages.keys()) {
    const uid = (await source.pageFacts(page))?.frontMatter?.uid;
    if (typeof uid === 'string' && !uids.has(uid)) uids.set(uid, page);
  }
  let yamlUidSources = 0;
  for (const page of yamlPages) {
    const text = (await files.read(page)) ?? '';
    const uid = /^uid:[ \t]*["']?([^"'\r\n]+?)["']?[ \t]*$/m.exec(text.slice(0, 4_096))?.[1];
    if (uid !== undefined && !uids.has(uid)) uids.set(uid, page);
    // API (ManagedReference) and other typed YAML pages define uids in their items.
    if (/^### YamlMime:(?!Landing\b|Hub\b)/m.test(text.slice(0, 200))) yamlUidSources += 1;
  }
  // DocFX warns of a uid no page defines; with API pages or cross-reference maps (Learn's docsets,
  // which `.openpublishing.publish.config.json` marks, have all of Learn's), this model cannot know.
  const uidsKnown =
    config.apiFolders.length === 0 &&
    !config.externalXrefs &&
    yamlUidSources === 0 &&
    !files.has('.openpublishing.publish.config.json');
  const resolveUid = (written: string): LinkTarget => {
    const uid = decodePath(written.replace(/[?#].*$/, '').trim());
    const page = uids.get(uid);
    if (page !== undefined) return { kind: 'file', file: page };
    return uidsKnown
      ? { kind: 'broken', reason: `no page has the uid "${uid}"` }
      : { kind: 'unchecked', reason: 'a uid of generated API pages or a cross-reference map' };
  };

  const partials = new Set<string>();
  const redirected = await readRedirections(source, siteRoot);
  const dependentFolders = await readDependentRepositories(source, siteRoot);
  const inDependentRepository = (path: string) => dependentFolders.some((folder) => isWithin(folder, path));
  const ignored = await readGitIgnored(files);
  const isExpected = createCheckoutCoverage(files.paths);
  const folders = listFolders(files.paths);
  // A missing file in a folder `metadata` writes API pages into may be one of them: YAML pages
  // (published as `.html`) or, with `outputFormat: markdown`, Markdown pages.
  const generatedApiPage = (path: string) =>
    config.apiFolders.some((folder) => isWithin(folder, path)) &&
    (!markdownFile.test(path) || config.apiMarkdownFolders.some((folder) => isWithin(folder, path)));

  /**
   * The file the build writes where a link from `from` to `target` (a source path) lands: `page.html`
   * for `page.md`, or a folder for its `index.html`. DocFX itself warns of such a link (it knows
   * source files only) but the published site serves it. The link is relative in the output as it
   * is in the sources (`~/` links become relative ones, FileLinkInfo.cs).
   */
  const builtFileAt = (from: string, target: string): string | undefined => {
    const fromOutput = outputOf.get(from);
    if (fromOutput === undefined) return undefined;
    const output = joinInside(folderOf(fromOutput), posix.relative(folderOf(from), target) || '.');
    if (output === null) return undefined;
    const lower = output.toLowerCase();
    return fileAtOutput.get(lower) ?? fileAtOutput.get(lower === '' ? 'index.html' : `${lower}/index.html`);
  };

  const resolveLink = (
    from: string,
    url: string,
    link?: Pick<PageLink, 'kind' | 'title' | 'attribute'>,
  ): LinkTarget => {
    const trimmed = url.trim();
    if (/^xref:/i.test(trimmed)) return resolveUid(trimmed.slice(5));
    if (isExternalUrl(trimmed)) return { kind: 'external' };
    // DocFX reads `\` as `/` (RelativePath.cs).
    const path = splitUrl(trimmed).path.replaceAll('\\', '/');
    if (path === '') return { kind: 'external' };
    if (path.startsWith('/'))
      return { kind: 'unchecked', reason: 'DocFX leaves links from the site’s root as written' };
    const fromSite = path.startsWith('~/') || path === '~';
    const target = joinInside(fromSite ? siteRoot : folderOf(from), fromSite ? path.slice(2) : path);
    if (target === null) return { kind: 'unchecked', reason: 'the link leaves the repository' };
    // DocFX rebases an included file's Markdown links to it, but its raw HTML is read from the page
    // that includes it (MarkupUtility): from which page, this reader does not follow.
    if (link?.attribute === true && partials.has(from) && !pages.has(from))
      return { kind: 'unchecked', reason: 'raw HTML in an included file is read from the including page' };
    if (inDependentRepository(target))
      return { kind: 'unchecked', reason: 'a repository Learn clones beside the docset when it builds' };
    const actual = existing(target);
    if (link?.kind === 'import') {
      if (actual !== undefined) return { kind: 'file', file: actual };
      if (link.title === 'include' || isExpected(target))
        return {
          kind: 'broken',
          reason: `no file ${target}${link.title === 'include' ? ' to include' : ''}`,
        };
      return { kind: 'unchecked', reason: 'a code snippet this checkout may not hold' };
    }
    if (actual !== undefined && outputOf.has(actual)) return { kind: 'file', file: actual };
    const built = builtFileAt(from, target);
    if (built !== undefined) return { kind: 'file', file: built };
    if (redirected.has(target.toLowerCase())) return { kind: 'served', reason: 'a redirection of the site' };
    // DocFX knows overwrite files as sources and does not warn; they are merged into API pages.
    if (actual !== undefined && overwriteFiles.has(actual))
      return { kind: 'unchecked', reason: 'an overwrite file, merged into API pages' };
    if (actual !== undefined)
      return {
        kind: 'broken',
        reason: `${actual} is not in ${configFile}'s \`build.content\` or \`build.resource\`, so DocFX does not publish it`,
      };
    if (generatedApiPage(target)) return { kind: 'unchecked', reason: 'API pages DocFX generates' };
    if (generatedPlace(ignored, target.replace(/\.(md|html?|ya?ml)$/i, '')) !== null)
      return { kind: 'unchecked', reason: 'a page a build step writes (the .gitignore lists its place)' };
    if (folders.has(target)) return { kind: 'broken', reason: `the folder ${target} has no index page` };
    const name = target.slice(target.lastIndexOf('/') + 1);
    if (markdownFile.test(name) || (/\.[a-z0-9]+$/i.test(name) && isExpected(target)))
      return { kind: 'broken', reason: `no file ${target}` };
    return { kind: 'unchecked', reason: 'not a file this checkout holds' };
  };

  // Files pages include: their links are checked too, from their own folder.
  let including = [...pages.keys()];
  for (let depth = 0; depth < maximumIncludeDepth && including.length > 0; depth += 1) {
    const next: string[] = [];
    for (const file of including) {
      for (const link of (await source.pageFacts(file))?.links ?? []) {
        if (link.kind !== 'import' || link.title !== 'include') continue;
        const target = resolveLink(file, link.url, link);
        if (target.kind !== 'file' || pages.has(target.file) || partials.has(target.file)) continue;
        if (!markdownFile.test(target.file)) continue;
        partials.add(target.file);
        next.push(target.file);
      }
    }
    including = next;
  }

  // The navigation in reading order: the site's own table of contents (its navigation bar) first,
  // then the others from the top folder down.
  tocFiles.sort(
    (left, right) =>
      left.split('/').length - right.split('/').length || (left < right ? -1 : left > right ? 1 : 0),
  );
  const toc = await readTablesOfContents(source, tocFiles, siteRoot, existing);
  const tocFolders = new Map(tocFiles.map((file) => [folderOf(file), file]));
  const tocAt = new Map(tocFiles.map((file) => [file.toLowerCase(), file]));
  // Each table of contents' first page, once (a folder entry opens it): a site of many tables that
  // reference one another is not walked again for each entry. A cycle stops at the table it revisits.
  const firstPages = new Map<string, string | null>();
  const firstPageOf = (tocFile: string, seen: Set<string>): string | null => {
    const known = firstPages.get(tocFile);
    if (known !== undefined) return known;
    if (seen.has(tocFile)) return null;
    seen.add(tocFile);
    let first: string | null = null;
    for (const reference of toc.references.get(tocFile) ?? []) {
      const target = tocTarget(tocFile, reference, seen);
      if (typeof target === 'string') {
        first = target;
        break;
      }
    }
    firstPages.set(tocFile, first);
    return first;
  };
  const generatedUnchecked = (target: string): Unchecked | null => {
    if (redirected.has(target.toLowerCase()))
      return { unchecked: 'a redirection of the site', onlyFiles: [] };
    if (inDependentRepository(target))
      return { unchecked: 'a repository Learn clones beside the docset when it builds', onlyFiles: [] };
    if (generatedApiPage(target)) return { unchecked: 'API pages DocFX generates', onlyFiles: [] };
    if (generatedPlace(ignored, target.replace(/\.(md|html?|ya?ml)$/i, '')) !== null)
      return { unchecked: 'a page a build step writes (the .gitignore lists its place)', onlyFiles: [] };
    return null;
  };
  const tocTarget = (
    tocFile: string,
    reference: DocfxTocReference,
    seen: Set<string>,
  ): NavigationEntry['target'] => {
    if (reference.key === 'uid' || reference.key === 'topicUid')
      return navigationTarget(resolveUid(reference.value), []);
    const path = splitUrl(reference.value).path.replaceAll('\\', '/');
    const fromSite = path.startsWith('~/');
    const target = joinInside(fromSite ? siteRoot : folderOf(tocFile), fromSite ? path.slice(2) : path);
    // What is unchecked here is no new page: a new page is listed only by an entry naming it.
    if (target === null) return { unchecked: 'the entry leaves the repository', onlyFiles: [] };
    const name = target.slice(target.lastIndexOf('/') + 1);
    // A folder: its own table of contents (toc.yml, else toc.md), whose first page the entry opens;
    // without one DocFX warns and leaves the link to the folder, which its index page serves.
    if (path.endsWith('/') || path === '.' || path === '..') {
      const prefix = target === '' ? '' : `${target.toLowerCase()}/`;
      const nested = tocAt.get(`${prefix}toc.yml`) ?? tocAt.get(`${prefix}toc.md`);
      if (nested !== undefined)
        return firstPageOf(nested, seen) ?? { unchecked: `${nested} lists no page`, onlyFiles: [] };
      // An API folder's table of contents is generated: the entry opens its first page.
      if (generatedApiPage(`${target}/toc.yml`))
        return { unchecked: 'API pages DocFX generates', onlyFiles: [] };
      return builtFileAt(tocFile, target) ?? generatedUnchecked(target);
    }
    const actual = existing(target);
    if (tocName.test(name)) {
      if (actual !== undefined)
        return firstPageOf(actual, seen) ?? { unchecked: `${actual} lists no page`, onlyFiles: [] };
      return generatedUnchecked(target);
    }
    if (actual !== undefined && outputOf.has(actual)) return actual;
    // DocFX keeps an entry to what the build writes (`page.html`) as it is (TocDocumentProcessor.cs).
    return builtFileAt(tocFile, target) ?? generatedUnchecked(target);
  };
  const navigation: NavigationEntry[] = [];
  const tocProblems: SiteProblem[] = [];
  for (const [file, references] of toc.references) {
    for (const reference of references) {
      if (reference.key === 'tocHref' && !isExternalUrl(reference.value)) {
        const path = splitUrl(reference.value).path;
        if (!path.startsWith('/') && !tocName.test(path.slice(path.lastIndexOf('/') + 1))) {
          // TocResolver.cs: UnsupportedTocHrefType, an error that stops the build.
          tocProblems.push({
            file,
            line: reference.line,
            message: `tocHref "${reference.value}" must name a toc.yml or toc.md (or an absolute URL); DocFX stops the build`,
            key: `configuration\0tocHref\0${reference.value}`,
          });
          continue;
        }
      }
      if (reference.key !== 'uid' && reference.key !== 'topicUid') {
        const { path } = splitUrl(reference.value);
        if (isExternalUrl(reference.value) || path === '' || path.startsWith('/')) continue;
      }
      navigation.push({
        reference: reference.value,
        file,
        line: reference.line,
        groups: reference.groups,
        target: tocTarget(file, reference, new Set([file])),
      });
    }
  }
  // The table of contents a new page belongs in: the nearest one at or above its folder.
  const nearestToc = (file: string): string | undefined => {
    for (let folder = folderOf(file); ; folder = folderOf(folder)) {
      const found = tocFolders.get(folder);
      if (found !== undefined || !isWithin(siteRoot, folder) || folder === '') return found;
    }
  };
  const home = siteRoot === '' ? 'index.md' : `${siteRoot}/index.md`;

  const model: SiteModel = {
    framework: 'docfx',
    siteRoot,
    configFiles: [configFile, ...tocFiles, ...toc.outsideContent, ...redirected.files],
    pages,
    partials,
    navigation,
    // API folders' tables of contents are generated: a page there cannot be added to one.
    needsNavigationEntry: (file) =>
      markdownFile.test(file) &&
      file !== home &&
      !partials.has(file) &&
      !config.apiFolders.some((folder) => folder !== siteRoot && isWithin(folder, file)) &&
      nearestToc(file) !== undefined,
    navigationFileFor: (file) => nearestToc(file) ?? configFile,
    pageAnchors: (file, text) => (pages.has(file) ? docfxAnchors(text) : null),
    resolveLink,
    configurationProblems: [...config.problems, ...toc.problems, ...tocProblems],
    unsupported,
    conventions: await describeConventions(source, pages, resolveLink, configFile, uids.size > 0),
  };
  return model;
};

/** Each table of contents' references, and those it nests from outside the build's content. */
async function readTablesOfContents(
  source: SiteSource,
  tocFiles: readonly string[],
  siteRoot: string,
  existing: (path: string) => string | undefined,
): Promise<{
  references: Map<string, DocfxTocReference[]>;
  outsideContent: string[];
  problems: SiteProblem[];
}> {
  const references = new Map<string, DocfxTocReference[]>();
  const problems: SiteProblem[] = [];
  const outsideContent: string[] = [];
  const queue = [...tocFiles];
  // A nested table of contents need not be in the build's content: DocFX reads it from its place.
  for (let index = 0; index < queue.length && index < 2_000; index += 1) {
    const file = queue[index] ?? '';
    if (references.has(file)) continue;
    const text = await source.files.read(file);
    if (text === null) continue;
    const parsed = /\.md$/i.test(file) ? readMarkdownToc(text, file) : readYamlToc(text, file);
    const read = parsed.references;
    problems.push(...parsed.problems);
    references.set(file, read);
    for (const reference of read) {
      const { path } = splitUrl(reference.value);
      if (!tocName.test(path.slice(path.lastIndexOf('/') + 1)) || isExternalUrl(reference.value)) continue;
      const written = joinInside(path.startsWith('~/') ? siteRoot : folderOf(file), path.replace(/^~\//, ''));
      const nested = written === null ? undefined : existing(written);
      if (nested !== undefined && !references.has(nested) && !queue.includes(nested)) {
        queue.push(nested);
        outsideContent.push(nested);
      }
    }
  }
  return { references, outsideContent, problems };
}

/**
 * The folders Learn's build clones other repositories into (`.openpublishing.publish.config.json`'s
 * `dependent_repositories[].path_to_root`: shared includes, themes), from the repository's root and
 * from the docset's: a checkout does not hold them.
 */
async function readDependentRepositories(source: SiteSource, siteRoot: string): Promise<string[]> {
  let value: unknown;
  try {
    value = JSON.parse((await source.files.read('.openpublishing.publish.config.json')) ?? 'null');
  } catch {
    return [];
  }
  const repositories = (value as { dependent_repositories?: unknown } | null)?.dependent_repositories;
  if (!Array.isArray(repositories)) return [];
  return repositories.slice(0, 100).flatMap((repository) => {
    const path = (repository as { path_to_root?: unknown } | null)?.path_to_root;
    if (typeof path !== 'string' || path.trim() === '') return [];
    return [joinInside('', path), joinInside(siteRoot, path)].filter(
      (folder): folder is string => folder !== null && folder !== '',
    );
  });
}

/**
 * Learn's redirection files (`redirections[].source_path`, from the repository's root, or
 * `source_path_from_root`, with a leading slash): a link to a page moved away is still served.
 */
async function readRedirections(
  source: SiteSource,
  siteRoot: string,
): Promise<Set<string> & { files: string[] }> {
  const redirected = Object.assign(new Set<string>(), { files: [] as string[] });
  const candidates = source.files.paths.filter(
    (path) => redirectionFile.test(path) && (folderOf(path) === '' || isWithin(folderOf(path), siteRoot)),
  );
  for (const file of candidates.slice(0, 20)) {
    let value: unknown;
    try {
      value = JSON.parse((await source.files.read(file)) ?? '');
    } catch {
      continue;
    }
    redirected.files.push(file);
    const redirections = (value as { redirections?: unknown })?.redirections;
    if (!Array.isArray(redirections)) continue;
    for (const redirection of redirections.slice(0, 100_000)) {
      const path = redirection?.source_path_from_root ?? redirection?.source_path;
      if (typeof path !== 'string') continue;
      const target = joinInside(folderOf(file), path.replace(/^\/+/, ''));
      if (target !== null) redirected.add(target.toLowerCase());
    }
  }
  return redirected;
}

// What adds headings or ids this reader does not follow: included files, tabs, zones, code snippets.
const openAnchors = /\[!include|\[!code|#tab\/|^[ \t>]*:::/im;

/**
 * The bookmarks DocFX's `ValidateBookmark` (Docfx.Build/PostProcessors/ValidateBookmark.cs) finds in
 * a page: each heading's id (Markdig's GitHub identifiers; `<a name="x"></a>` at a heading's start
 * names it instead, and stays an anchor here too), every element's `id` or `name`, and `top`.
 */
function docfxAnchors(text: string): PageAnchors {
  if (openAnchors.test(text)) return { anchors: new Set(), complete: false };
  return readHeadingAnchors(text, {
    mdx: false,
    customIds: false,
    maintainCase: false,
    always: ['top'],
    markdig: true,
  });
}

async function describeConventions(
  source: SiteSource,
  pages: ReadonlyMap<string, readonly string[]>,
  resolveLink: (from: string, url: string) => LinkTarget,
  configFile: string,
  hasUids: boolean,
): Promise<string[]> {
  const example = await markdownLinkExample(source, pages.keys(), resolveLink);
  return [
    `Links between pages are file paths relative to the linking page, to the \`.md\` file${example}, or from the folder of \`${configFile}\` with \`~/\`; DocFX rewrites them to \`.html\` and warns of any that names no file of the build.`,
    ...(hasUids
      ? [
          'Pages with a `uid` in their front matter can be linked as `xref:uid` (`[text](xref:uid)` or `<xref:uid>`), which survives moves.',
        ]
      : []),
    `A new page must match the \`build.content\` globs of \`${configFile}\` and be listed in the nearest table of contents at or above its folder: a \`toc.yml\` (\`- name: Title\` with \`href: page.md\`, relative to that file) or a \`toc.md\` (\`# [Title](page.md)\`, a heading level per depth).`,
  ];
}
