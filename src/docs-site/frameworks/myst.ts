import { isMap, LineCounter, parseDocument } from 'yaml';
import { createSubmoduleTest, readGitIgnored, readSubmoduleFolders } from '../git-ignored.ts';
import {
  folderOf,
  isExternalUrl,
  isWithin,
  joinInside,
  listFolders,
  relativeTo,
  resolveFromPageUrl,
  splitUrl,
} from '../link-urls.ts';
import { normalizeLabel } from '../rst-facts.ts';
import type {
  LinkTarget,
  NavigationEntry,
  PageLink,
  SiteModel,
  SiteModelBuilder,
  SiteProblem,
} from '../site-model.ts';
import { createCheckoutCoverage } from './checkout-coverage.ts';
import { type ExternalTocItem, readExternalToc, readTocItems } from './sphinx-external-toc.ts';
import { compileGlobs } from './sphinx-project.ts';
import { isRecord, stringList as strings, yamlProblems, yamlValue } from './yaml-problems.ts';

// What mystmd reads as a page (myst-cli utils/resolveExtension.ts), and never looks into.
const pageExtension = /\.(md|ipynb|tex|myst\.json)$/i;
const ignoredFolder = (segment: string) =>
  segment.startsWith('.') || segment === '_build' || segment === 'node_modules';
const maximumExtends = 16;
const maximumExtendsPerFile = 16;
// Each pattern and static folder is matched against every file: past these, the rest are not read.
const maximumPatterns = 100;
const maximumStaticEntries = 100;
// Files mystmd's site writes itself (myst-cli build/site/manifest.ts, the theme's routes).
const generatedFiles = new Set([
  '/robots.txt',
  '/sitemap.xml',
  '/sitemap_style.xsl',
  '/llms.txt',
  '/myst.xref.json',
  '/myst.search.json',
  '/objects.inv',
  '/config.json',
]);

/**
 * MyST (mystmd, the engine of Jupyter Book 2; https://mystmd.org/guide): `myst.yml` with a `project`
 * makes the folder a project. Its pages are those `project.toc` lists (`file`, `pattern`, `children`),
 * or without one every Markdown and notebook file of the folder (hidden folders, `_build`,
 * `node_modules` and `project.exclude` left out); a Jupyter Book 1 `_toc.yml` beside it is read when
 * `myst.yml` has no `toc`. A page is served at its slug (the file name without a leading number, in
 * lower case; with `site.options.folders`, under its folders). A link names a file from the page's
 * folder (`/` from the project's), with or without `.md`/`.ipynb`: a page, or a file published as is;
 * one to no file leads nowhere (myst-cli transforms/links.ts, StaticFileTransformer).
 */
export const buildMystSite: SiteModelBuilder = async (source, siteRoot) => {
  const files = source.files;
  const inSite = (name: string) => (siteRoot === '' ? name : `${siteRoot}/${name}`);
  const configFile = inSite('myst.yml');
  const configurationProblems: SiteProblem[] = [];
  const configFiles = [configFile];
  const unsupported: string[] = [];

  // `extend` (or `extends`) composes configuration from other files, each read before the file that
  // names it, which then overrides what they set (myst-cli config.ts: the local file wins).
  let project: Record<string, unknown> = {};
  let site: Record<string, unknown> = {};
  let tocItems: ExternalTocItem[] | null = null;
  let tocFile: string | null = null;
  const read = async (file: string, depth: number) => {
    const text = await files.read(file);
    if (text === null || depth > maximumExtends) return;
    const lineCounter = new LineCounter();
    const document = parseDocument(text, { lineCounter, logLevel: 'silent', uniqueKeys: false });
    const value = yamlValue(document, file);
    configurationProblems.push(...yamlProblems(document, file), ...value.problems);
    const config = isRecord(value.value) ? value.value : {};
    const extended = [...strings(config.extend), ...strings(config.extends)];
    for (const name of extended.slice(0, maximumExtendsPerFile)) {
      const path = /^[a-z]+:\/\//i.test(name) ? null : joinInside(folderOf(file), name);
      if (path === null || !files.has(path)) {
        unsupported.push(`${file}: \`extends\` names a configuration this checkout does not hold (${name})`);
        continue;
      }
      if (visited.has(path)) continue;
      visited.add(path);
      configFiles.push(path);
      await read(path, depth + 1);
    }
    if (isRecord(config.project)) project = { ...project, ...config.project };
    if (isRecord(config.site)) site = { ...site, ...config.site };
    const contents = document.contents;
    const tocNode = isMap(contents) ? contents.getIn(['project', 'toc'], true) : undefined;
    if (tocNode !== undefined) {
      tocItems = readTocItems(tocNode, lineCounter, { file: 'file', glob: 'pattern' });
      tocFile = file;
    }
  };
  const visited = new Set([configFile]);
  await read(configFile, 0);
  // A Jupyter Book 1 table of contents, read for compatibility when `myst.yml` has none.
  if (tocItems === null && files.has(inSite('_toc.yml'))) {
    const legacy = readExternalToc((await files.read(inSite('_toc.yml'))) ?? '', inSite('_toc.yml'));
    tocItems = [
      ...(legacy.root === null ? [] : [{ kind: 'file' as const, ...legacy.root }]),
      ...legacy.items,
    ];
    tocFile = inSite('_toc.yml');
    configFiles.push(tocFile);
    configurationProblems.push(...legacy.problems);
  }

  const excluded = compileGlobs(strings(project.exclude).map((pattern) => pattern.replace(/^\.\//, '')));
  const candidates = files.paths.filter((path) => {
    if (!isWithin(siteRoot, path) || !pageExtension.test(path)) return false;
    const relative = relativeTo(siteRoot, path);
    if (relative.split('/').slice(0, -1).some(ignoredFolder) || relative.startsWith('.')) return false;
    return !excluded.some((pattern) => pattern.matches(relative));
  });
  // Entries are paths from the folder of the file that writes them.
  const navigationFile = tocFile ?? configFile;
  const tocFolder = folderOf(navigationFile);
  /** A toc entry's file: as written, or with `.md` or `.ipynb` added (myst-cli fromTOC.ts). */
  const entryFile = (value: string): string | null => {
    const path = joinInside(tocFolder, value.replace(/^\.?\/+/, ''));
    if (path === null) return null;
    for (const candidate of [path, `${path}.md`, `${path}.ipynb`]) if (files.has(candidate)) return candidate;
    return null;
  };

  const navigation: NavigationEntry[] = [];
  const items: ExternalTocItem[] = tocItems ?? [];
  const entryFiles = new Map(
    items.filter((item) => item.kind === 'file').map((item) => [item, entryFile(item.value)]),
  );
  // A pattern takes the files it matches that no entry lists by name, and no pattern before it took.
  const listedFiles = new Set([...entryFiles.values()].filter((file): file is string => file !== null));
  let patternsRead = 0;
  for (const item of items) {
    const base = { reference: item.value, file: navigationFile, line: item.line, groups: [] };
    if (item.kind === 'glob') {
      patternsRead += 1;
      if (patternsRead > maximumPatterns) continue;
      // Extended globs (`!(index)*.md`) and braces are read as `*`: every file they could match.
      const extended = /[!+@?*]\(|\{/.test(item.value);
      const pattern = item.value.replace(/^\.\//, '').replace(/[!+@?*]\([^()]*\)|\{[^{}]*\}/g, '*');
      const [matcher] = compileGlobs([pattern]);
      const matched = candidates.filter(
        (path) =>
          isWithin(tocFolder, path) &&
          matcher?.matches(relativeTo(tocFolder, path)) === true &&
          !listedFiles.has(path),
      );
      if (matched.length === 0 && !extended) navigation.push({ ...base, target: null });
      for (const path of matched) {
        listedFiles.add(path);
        navigation.push({ ...base, target: path });
      }
      continue;
    }
    navigation.push({ ...base, target: entryFiles.get(item) ?? null });
  }
  const explicit = tocItems !== null;
  // Pages in table of contents order; without one, in the order of their names.
  const pageFiles = explicit
    ? [...new Set(navigation.map((entry) => entry.target))].filter(
        (path): path is string => typeof path === 'string' && pageExtension.test(path),
      )
    : candidates;

  // Slugs (myst-cli utils/fileInfo.ts): the file name without a leading enumeration, in lower case,
  // other characters as `-`, 50 at most; with `site.options.folders`, its folders' slugs before it.
  const folders = isRecord(site.options) && site.options.folders === true;
  const rootFile = explicit ? (pageFiles[0] ?? null) : implicitRoot(pageFiles, siteRoot);
  const used = new Map<string, number>();
  const pages = new Map<string, string[]>();
  const byRoute = new Map<string, string>();
  for (const path of pageFiles) {
    const name = path.slice(path.lastIndexOf('/') + 1).replace(pageExtension, '');
    const folder = relativeTo(siteRoot, folderOf(path));
    let slug = createSlug(name);
    if (folders && folder !== '') slug = [...folder.split('/').map(createSlug), slug].join('.');
    // Repeats are counted without a folder index's `.index` (`a.md` and `a/index.md`: `a`, `a-1`).
    const folderIndex = slug.endsWith('.index');
    const key = folderIndex ? slug.slice(0, -'.index'.length) : slug;
    const count = used.get(key) ?? 0;
    used.set(key, count + 1);
    if (count > 0) slug = `${key}-${count}${folderIndex ? '.index' : ''}`;
    // A folder's index is served at the folder; any other page at its slug, `index` included.
    const url = `/${(folderIndex ? slug.slice(0, -'.index'.length) : slug).replace(/\./g, '/')}`;
    const route = path === rootFile ? '/' : url;
    pages.set(path, [route]);
    byRoute.set(route, path);
  }
  if (!explicit && candidates.length > 0)
    unsupported.push(
      `${configFile} has no \`project.toc\`: every Markdown and notebook file of the project is a page, in the order of their names`,
    );

  const isExpected = createCheckoutCoverage(files.paths);
  const isGitIgnored = await readGitIgnored(files);
  const inSubmodule = createSubmoduleTest(await readSubmoduleFolders(files));
  const folderSet = listFolders(files.paths);
  const rolePattern = /^\{(doc|download|ref|numref|eq|term|cite)\}`([\s\S]*)`$/;
  // Labels (`(label)=`, a directive's `:label:`) of every page: `[text](label)` without `#` names one too.
  const labels = new Set<string>();
  for (const page of pages.keys())
    for (const label of (await source.pageFacts(page))?.sphinx?.labels ?? []) labels.add(label);
  const configUnknown = unsupported.some((note) => note.includes('`extends`'));
  // `project.static_files` (https://mystmd.org/guide/website-downloads): a file served at the root by
  // its name, a folder by its name with everything in it.
  const staticUrls = new Set<string>();
  for (const entry of [...strings(project.static_files), ...strings(site.static_files)].slice(
    0,
    maximumStaticEntries,
  )) {
    const path = joinInside(siteRoot, entry.replace(/^\.?\/+|(?<!\/)\/+$/g, ''));
    if (path === null) continue;
    const name = path.slice(path.lastIndexOf('/') + 1);
    if (files.has(path)) staticUrls.add(`/${name}`);
    for (const file of files.paths)
      if (file !== path && isWithin(path, file)) staticUrls.add(`/${name}/${relativeTo(path, file)}`);
  }

  const resolveLink = (from: string, url: string, link?: Pick<PageLink, 'kind'>): LinkTarget => {
    const role = rolePattern.exec(url);
    if (role !== null && role[1] !== 'doc' && role[1] !== 'download')
      return { kind: 'unchecked', reason: 'a label or citation, resolved across the project' };
    const written = role === null ? url : (/<([^<>]*)>$/.exec(role[2] ?? '')?.[1] ?? role[2] ?? '').trim();
    if (isExternalUrl(written)) return { kind: 'external' };
    const { path } = splitUrl(written);
    if (path === '') return { kind: 'external' };
    // `splitUrl` decoded the path already.
    const decoded = path;
    const target = decoded.startsWith('/')
      ? joinInside(siteRoot, decoded.slice(1))
      : joinInside(folderOf(from), decoded);
    if (target === null) return { kind: 'unchecked', reason: 'the link leaves the repository' };
    for (const candidate of [target, `${target}.md`, `${target}.ipynb`]) {
      if (files.has(candidate)) return { kind: 'file', file: candidate };
    }
    if (decoded.startsWith('/') && generatedFiles.has(decoded))
      return { kind: 'served', reason: 'a file mystmd writes' };
    if (decoded.startsWith('/') && staticUrls.has(decoded))
      return { kind: 'served', reason: 'a static file of the project' };
    // No file: the link stays as written, and the browser takes it from the page's URL (a page's slug).
    const pageUrl = pages.get(from)?.[0] ?? '/';
    // mystmd serves `/index` as a page of its own: only a trailing slash goes.
    const resolved = decoded.startsWith('/')
      ? decoded
      : resolveFromPageUrl(pageUrl.slice(0, pageUrl.lastIndexOf('/') + 1), decoded);
    const route = resolved.replace(/(?<!\/)\/+$/, '') || '/';
    const routed = byRoute.get(route);
    if (routed !== undefined) return { kind: 'file', file: routed };
    if (folderSet.has(target)) return { kind: 'unchecked', reason: 'a folder' };
    if (link?.kind === 'import' || link?.kind === 'image' || /\.[a-z0-9]+$/i.test(target)) {
      if (isGitIgnored(target) || inSubmodule(target))
        return {
          kind: 'unchecked',
          reason: 'a file this checkout does not hold (generated, or in a Git submodule)',
        };
      // Pages are text, always checked out; an image or data file may not be (Git LFS, a sparse checkout).
      if (!pageExtension.test(target) && !isExpected(target))
        return { kind: 'unchecked', reason: 'this checkout may not hold such files' };
      return { kind: 'broken', reason: `no file ${target}${link?.kind === 'import' ? ' to include' : ''}` };
    }
    // `[text](label)`: a target without `#` still names a label (deprecated, still resolved).
    if (labels.has(normalizeLabel(decoded))) return { kind: 'served', reason: 'a label' };
    if (configUnknown || decoded.startsWith('/'))
      return { kind: 'unchecked', reason: 'a page URL or label this model cannot tell' };
    return { kind: 'broken', reason: `no file, page or label ${decoded}` };
  };

  const model: SiteModel = {
    framework: 'myst',
    siteRoot,
    configFiles,
    pages,
    partials: new Set(),
    navigation,
    // With a written table of contents a file it does not list is no page, only a file published as is.
    needsNavigationEntry: (file) => explicit && isWithin(siteRoot, file) && pageExtension.test(file),
    builtOnlyWhenListed: explicit ? new Set(candidates.filter((path) => !pages.has(path))) : new Set(),
    navigationFileFor: () => navigationFile,
    resolveLink,
    configurationProblems,
    unsupported,
    conventions: [
      `This is a MyST site (mystmd, Jupyter Book 2) configured by \`${configFile}\`: pages are MyST Markdown (\`.md\`) and notebooks (\`.ipynb\`, edited as JSON and kept valid) under \`${siteRoot === '' ? '.' : siteRoot}/\`.`,
      "Link another page by its file, relative to the linking page (`[](./setup.md)`, `[Setup](../guide/setup.md)`); MyST fills in an empty link text with the page title. Link a labelled section, figure or equation with `[](#label)`, a label being `(label)=` on its own line before a heading or a directive's `:label:` option.",
      `A page is served at its slug: the file name without a leading number, in lower case${folders ? ', under its folders' : ''}; never link by that URL when the file path works.`,
      explicit
        ? `A new page must be listed in \`project.toc\` in \`${navigationFile}\` (\`- file: path/page.md\`, from the project folder, under the entry where it belongs); a file it does not list is not a page.`
        : `${configFile} has no \`project.toc\`: every Markdown and notebook file is a page, ordered by name, so a new page needs no navigation entry.`,
    ],
  };
  return model;
};

/** `index`, `README` or `main` (Markdown, then LaTeX, then a notebook), else the first file (myst-cli fromPath.ts). */
function implicitRoot(pages: readonly string[], siteRoot: string): string | null {
  const top = pages.filter((path) => folderOf(path) === siteRoot);
  for (const extension of ['.md', '.tex', '.ipynb']) {
    for (const name of ['index', 'readme', 'main']) {
      const found = top.find(
        (path) => path.slice(path.lastIndexOf('/') + 1).toLowerCase() === `${name}${extension}`,
      );
      if (found !== undefined) return found;
    }
  }
  for (const extension of ['.md', '.tex', '.ipynb']) {
    const found = [...top].sort().find((path) => path.toLowerCase().endsWith(extension));
    if (found !== undefined) return found;
  }
  return pages[0] ?? null;
}

/** mystmd's slug of a file or folder name (myst-cli utils/fileInfo.ts `createSlug`). */
export function createSlug(name: string): string {
  let trimmed = name;
  if (!/^([12][0-9]{3})([^0-9])?/.test(name) && !/^[0-9]{5}/.test(name)) {
    trimmed = name.replace(/^[0-9_.-]+/, '') || name;
  }
  const slug = `¶${trimmed.replace(/&/g, '¶and¶')}`
    .toLowerCase()
    .replace(/[^a-z0-9-]/g, '¶')
    .replace(/¶+/g, '¶')
    .slice(1)
    .replace(/¶/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '');
  return slug.slice(0, 50);
}
