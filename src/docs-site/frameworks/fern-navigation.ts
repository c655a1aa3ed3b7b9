import { parseDocument } from 'yaml';
import { ConfigLines } from '../config-lines.ts';
import { readGitIgnored } from '../git-ignored.ts';
import { folderOf, isWithin, joinInside } from '../link-urls.ts';
import { frontMatterPattern, parseYamlMapping } from '../page-facts.ts';
import type { NavigationEntry, SiteProblem, SiteSource } from '../site-model.ts';
import {
  changelogDate,
  changelogSlug,
  nameToSlug,
  nameToTitle,
  packageSlug,
  type SlugChoice,
  SlugGenerator,
  slugjoin,
  titleSlug,
} from './fern-slugs.ts';
import { isRecord, yamlProblems, yamlValue } from './yaml-problems.ts';

/**
 * One node of a Fern site's navigation tree (fdr-sdk's navigation nodes, reduced to what routing
 * needs): its slug, the page file it serves (pages, and sections, changelogs and API references
 * with an overview page), whether it is hidden, and its children.
 */
export interface FernNode {
  slug: string;
  file: string | null;
  /** A page of its own (fdr-sdk `isPage`): pages, changelog entries, and containers with an overview. */
  isPage: boolean;
  hidden: boolean;
  children: FernNode[];
  /** The default version: its pages are served without the version's segment too. */
  defaultVersion?: { parentSlug: string; versionSlug: string };
}

export interface FernNavigation {
  root: FernNode;
  /** The base path of the first instance's URL, as a slug (`docs`, `nemo/curator`, or ''). */
  basePath: string;
  /** Hosts of every instance's `url` and `custom-domain`, in lower case. */
  hosts: Set<string>;
  versionSlugs: string[];
  productSlugs: string[];
  /** Default versions: their pages are served under `parentSlug` too, without the version's segment. */
  defaultVersions: Array<{ parentSlug: string; versionSlug: string }>;
  /** Slugs whose pages are not in the repository: API references, generated libraries, build output. */
  /**
   * `anywhere`: the pages may take slugs outside `slug` too (front matter); `beside`: an API
   * reference that skips its slug, whose pages sit among its parent's.
   */
  generated: Array<{ slug: string; reason: string; anywhere?: boolean; beside?: boolean }>;
  /** Pages that `folder:` and `changelog:` entries list by themselves (a new file there is listed). */
  autoListed: Set<string>;
  entries: NavigationEntry[];
  configFiles: string[];
  redirects: Array<{ source: string; destination: string; file: string; line: number }>;
  problems: SiteProblem[];
  unsupported: string[];
}

// No real navigation nests deeper or lists more; a hostile configuration stops here.
const maximumDepth = 48;
const maximumNodes = 50_000;
/** `localeCompare(..., undefined, { sensitivity: 'base' })`, as Fern orders a folder's entries; one collator for all. */
const titleOrder = new Intl.Collator(undefined, { sensitivity: 'base' });
const maximumRedirects = 20_000;
/** What is read of a page too large to read whole, for its front matter. */
const maximumHeadBytes = 64 * 1024;
/** `folder:` and `changelog:` folders (and their subfolders) listed; each scans the repository's paths. */
const maximumFolderScans = 5_000;

interface YamlFile {
  file: string;
  value: Record<string, unknown>;
  lines: ConfigLines;
}

interface Context {
  slug: SlugGenerator;
  /** The yml file whose relative paths are read (its folder is theirs). */
  yaml: YamlFile;
  tabs: Record<string, unknown>;
  groups: string[];
  hidden: boolean;
}

/**
 * Reads `docs.yml` and the version and product files it names into the navigation tree, as
 * configuration-loader's `parseDocsConfiguration` and the docs resolver's `toRootNode` build it:
 * `navigation` (tabbed when its first item is a `tab`), else `products`, else `versions`; paths in a
 * yml file from that file's folder, version and product files from the `fern` folder.
 */
export async function readFernNavigation(source: SiteSource, siteRoot: string): Promise<FernNavigation> {
  const { files } = source;
  const inRoot = (path: string) => (siteRoot === '' ? path : `${siteRoot}/${path}`);
  const problems: SiteProblem[] = [];
  const unsupported: string[] = [];
  const entries: NavigationEntry[] = [];
  const configFiles: string[] = [];
  const autoListed = new Set<string>();
  const versionSlugs: string[] = [];
  const defaultVersions: FernNavigation['defaultVersions'] = [];
  const productSlugs: string[] = [];
  const generated: FernNavigation['generated'] = [];
  const gitIgnored = await readGitIgnored(files);
  let nodeCount = 0;

  const yamlFiles = new Map<string, Promise<YamlFile | null>>();
  /** A yml file, parsed once however many versions, products or redirect lists name it. */
  const readYaml = (file: string): Promise<YamlFile | null> => {
    let read = yamlFiles.get(file);
    if (read === undefined) {
      read = parseYamlFile(file);
      yamlFiles.set(file, read);
    }
    return read;
  };
  const parseYamlFile = async (file: string): Promise<YamlFile | null> => {
    const text = await files.read(file);
    if (text === null) return null;
    configFiles.push(file);
    const document = parseDocument(text, { logLevel: 'silent', uniqueKeys: false });
    problems.push(...yamlProblems(document, file));
    const read = yamlValue(document, file);
    problems.push(...read.problems);
    return { file, value: isRecord(read.value) ? read.value : {}, lines: new ConfigLines(text) };
  };
  const mainFile = inRoot('docs.yml');
  const main = (await readYaml(mainFile)) ?? { file: mainFile, value: {}, lines: new ConfigLines('') };

  const instances = Array.isArray(main.value.instances) ? main.value.instances.filter(isRecord) : [];
  const hosts = new Set<string>();
  let basePath = '';
  for (const [index, instance] of instances.entries()) {
    const domains = [
      instance.url,
      ...(Array.isArray(instance['custom-domain']) ? instance['custom-domain'] : [instance['custom-domain']]),
    ];
    for (const domain of domains) {
      if (typeof domain !== 'string') continue;
      const url = parseInstanceUrl(domain);
      if (url === null) continue;
      hosts.add(url.host.toLowerCase());
      if (index === 0 && domain === instance.url) basePath = slugjoin(url.pathname);
    }
  }

  const newNode = (slug: string, file: string | null, isPage: boolean, hidden: boolean): FernNode => {
    nodeCount += 1;
    return { slug, file, isPage, hidden, children: [] };
  };
  let folderScans = 0;
  const overflow = () => nodeCount >= maximumNodes || folderScans > maximumFolderScans;
  /** The files under `folder`: a scan of the whole listing, so a hostile navigation's count is bounded. */
  const filesUnder = (folder: string): string[] => {
    folderScans += 1;
    return folderScans > maximumFolderScans
      ? []
      : files.paths.filter((path) => isWithin(folder, path) && path !== folder);
  };

  /** A path written in `yaml` as a repository path, or null when it leaves the repository. */
  const pathIn = (yaml: YamlFile, written: string): string | null =>
    joinInside(folderOf(yaml.file), written.trim());
  const lineOf = (yaml: YamlFile, written: string) => yaml.lines.lineOf(written);
  const headMatters = new Map<string, Promise<Readonly<Record<string, unknown>> | null>>();
  const frontMatter = async (file: string): Promise<Readonly<Record<string, unknown>> | null> => {
    const facts = await source.pageFacts(file);
    if (facts !== null || files.readHead === undefined) return facts?.frontMatter ?? null;
    // A page too large to read whole (inline images): its front matter, which may set its URL.
    let matter = headMatters.get(file);
    if (matter === undefined) {
      matter = files.readHead(file, maximumHeadBytes).then((head) => {
        const match = head === null ? null : frontMatterPattern.exec(head);
        return match === null ? null : parseYamlMapping(match[1] ?? '');
      });
      headMatters.set(file, matter);
    }
    return matter;
  };
  const frontMatterSlug = async (file: string | null): Promise<string | null> => {
    if (file === null) return null;
    const slug = (await frontMatter(file))?.slug;
    if (typeof slug !== 'string' || slug.trim() === '') return null;
    // Absolute URLs are refused with a warning (extractAllFrontmatterData).
    return /^(https?:)?\/\//i.test(slug.trim()) ? null : slug.trim();
  };
  const addEntry = (
    yaml: YamlFile,
    written: string,
    groups: readonly string[],
    target: string | null,
  ): void => {
    entries.push({
      reference: written,
      file: yaml.file,
      line: lineOf(yaml, written),
      groups: [...groups],
      target,
    });
  };
  /** A page file named in `yaml`: its repository path when it exists (as an entry either way). */
  const pageFile = (yaml: YamlFile, written: unknown, groups: readonly string[]): string | null => {
    if (typeof written !== 'string' || written.trim() === '') return null;
    const path = pathIn(yaml, written);
    const target = path !== null && files.has(path) ? path : null;
    addEntry(yaml, written, groups, target);
    return target;
  };

  const visitItems = async (items: unknown, context: Context, parent: FernNode, depth: number) => {
    if (!Array.isArray(items) || depth > maximumDepth) return;
    for (const item of items) {
      if (overflow()) return;
      if (isRecord(item)) await visitItem(item, context, parent, depth + 1);
    }
  };

  const visitItem = async (
    item: Record<string, unknown>,
    context: Context,
    parent: FernNode,
    depth: number,
  ) => {
    const hidden = context.hidden || item.hidden === true;
    const slugOf = (title: unknown): string =>
      typeof item.slug === 'string' ? item.slug : typeof title === 'string' ? titleSlug(title) : '';
    if (typeof item.page === 'string') {
      const file = pageFile(context.yaml, item.path, context.groups);
      const choice: SlugChoice = { urlSlug: slugOf(item.page), fullSlug: await frontMatterSlug(file) };
      parent.children.push(newNode(context.slug.apply(choice).slug, file, true, hidden));
      return;
    }
    if (typeof item.section === 'string') {
      const overview = item.path === undefined ? null : pageFile(context.yaml, item.path, context.groups);
      const overviewSlug = await frontMatterSlug(overview);
      const { own, node: sectionSlug } = sectionSlugs(context.slug, {
        urlSlug: slugOf(item.section),
        fullSlug: overviewSlug,
        skipUrlSlug: item['skip-slug'] === true,
      });
      const node = newNode(sectionSlug.slug, overview, overview !== null, hidden);
      parent.children.push(node);
      await visitItems(
        item.contents,
        { ...context, slug: own, hidden, groups: [...context.groups, item.section] },
        node,
        depth,
      );
      return;
    }
    if (typeof item.folder === 'string') {
      await visitFolder(item, context, parent, hidden);
      return;
    }
    if (typeof item.changelog === 'string' || typeof item.blog === 'string') {
      const written = (item.changelog ?? item.blog) as string;
      const title = typeof item.title === 'string' ? item.title : 'Changelog';
      await visitChangelog(written, slugOf(title), context, parent, hidden);
      return;
    }
    if (typeof item.api === 'string') {
      const summary =
        item.summary === undefined ? null : pageFile(context.yaml, item.summary, context.groups);
      const slug = context.slug.apply({
        urlSlug: slugOf(item.api),
        fullSlug: await frontMatterSlug(summary),
        skipUrlSlug: item['skip-slug'] === true,
      });
      const node = newNode(slug.slug, summary, summary !== null, hidden);
      parent.children.push(node);
      generated.push({
        slug: slug.slug,
        reason: 'an API reference generated from its definition',
        ...(slug.slug === context.slug.slug ? { anywhere: true, beside: true } : {}),
      });
      await visitApiLayout(
        item.layout,
        { ...context, slug, hidden, groups: [...context.groups, item.api] },
        node,
        depth,
      );
      return;
    }
    if (typeof item.library === 'string') {
      const slug = context.slug.apply({ urlSlug: slugOf(item.title ?? item.library) });
      generated.push({
        slug: slug.slug,
        reason: 'a library reference generated from its code',
        anywhere: true,
      });
      unsupported.push(
        `${context.yaml.file}: library "${item.library}" is generated documentation; links under /${slug.slug} are unchecked`,
      );
      return;
    }
    if (typeof item.tab === 'string') {
      await visitTab(item, context, parent, depth);
    }
    // `link` items have no slug.
  };

  /** `- tab: key` with a `layout`, `variants`, or a changelog (`tabs.<key>.changelog`). */
  const visitTab = async (
    item: Record<string, unknown>,
    context: Context,
    parent: FernNode,
    depth: number,
  ) => {
    const key = item.tab as string;
    const tab = isRecord(context.tabs[key]) ? context.tabs[key] : {};
    if (typeof tab.href === 'string') return;
    const displayName = typeof tab['display-name'] === 'string' ? tab['display-name'] : key;
    const urlSlug = typeof tab.slug === 'string' ? tab.slug : titleSlug(displayName);
    const hidden = context.hidden || tab.hidden === true;
    const groups = [...context.groups, displayName];
    if (typeof tab.changelog === 'string') {
      await visitChangelog(tab.changelog, urlSlug, { ...context, groups }, parent, hidden);
      return;
    }
    const slug = context.slug.apply({ urlSlug, skipUrlSlug: tab['skip-slug'] === true });
    const node = newNode(slug.slug, null, false, hidden);
    parent.children.push(node);
    if (Array.isArray(item.variants)) {
      for (const variant of item.variants.filter(isRecord)) {
        const title = typeof variant.title === 'string' ? variant.title : '';
        const variantSlug = slug.apply({
          urlSlug: typeof variant.slug === 'string' ? variant.slug : titleSlug(title),
          skipUrlSlug: variant['skip-slug'] === true,
        });
        const child = newNode(variantSlug.slug, null, false, hidden || variant.hidden === true);
        node.children.push(child);
        await visitItems(
          variant.layout,
          { ...context, slug: variantSlug, hidden: child.hidden, groups: [...groups, title] },
          child,
          depth,
        );
      }
      return;
    }
    await visitItems(item.layout, { ...context, slug, hidden, groups }, node, depth);
  };

  /**
   * An API reference's `layout`: its pages, sections and packages (`- tts: [...]` or `- tts: { title,
   * slug, contents }`, at the package's slug) are read; its endpoints are not.
   */
  const visitApiLayout = async (layout: unknown, context: Context, parent: FernNode, depth: number) => {
    if (!Array.isArray(layout) || depth > maximumDepth) return;
    for (const item of layout.filter(isRecord)) {
      if (typeof item.page === 'string' || typeof item.link === 'string')
        await visitItem(item, context, parent, depth + 1);
      else if (typeof item.section === 'string') {
        const slug = context.slug.apply({
          urlSlug: typeof item.slug === 'string' ? item.slug : titleSlug(item.section),
          skipUrlSlug: item['skip-slug'] === true,
        });
        const node = newNode(slug.slug, null, false, context.hidden);
        parent.children.push(node);
        await visitApiLayout(item.contents, { ...context, slug }, node, depth + 1);
      } else {
        const [key, ...others] = Object.keys(item);
        const value = key === undefined ? undefined : item[key];
        const contents = Array.isArray(value) ? value : isRecord(value) ? value.contents : undefined;
        if (key === undefined || others.length > 0 || !Array.isArray(contents)) continue;
        const settings = isRecord(value) ? value : {};
        const slug = context.slug.apply({
          urlSlug: typeof settings.slug === 'string' ? settings.slug : packageSlug(key),
          skipUrlSlug: settings['skip-slug'] === true,
        });
        const node = newNode(slug.slug, null, false, context.hidden);
        parent.children.push(node);
        await visitApiLayout(contents, { ...context, slug }, node, depth + 1);
      }
    }
  };

  /** A `changelog:` folder: dated files are entries at `YYYY/M/D`; `summary`, `index` or `overview` its overview. */
  const visitChangelog = async (
    written: string,
    urlSlug: string,
    context: Context,
    parent: FernNode,
    hidden: boolean,
  ) => {
    const folder = pathIn(context.yaml, written);
    const inFolder = folder === null ? [] : filesUnder(folder).filter((path) => /\.mdx?$/i.test(path));
    addEntry(context.yaml, written, context.groups, inFolder[0] ?? null);
    // The last `summary`, `index` or `overview` file is the overview (ChangelogNodeConverter).
    const overview =
      inFolder.findLast((path) =>
        /^(summary|index|overview)$/i.test(path.slice(path.lastIndexOf('/') + 1).split('.')[0] ?? ''),
      ) ?? null;
    const slug = context.slug.apply({ urlSlug, fullSlug: await frontMatterSlug(overview) });
    const node = newNode(slug.slug, overview, true, hidden);
    parent.children.push(node);
    if (overview !== null) autoListed.add(overview);
    // Entries newest first (two on one day keep the folder's order): the first of a slug keeps it.
    const dated = inFolder
      .map((path) => ({ path, date: changelogDate(path.slice(path.lastIndexOf('/') + 1)) }))
      .filter((entry): entry is { path: string; date: Date } => entry.date !== null)
      .sort((left, right) => right.date.getTime() - left.date.getTime());
    for (const { path, date } of dated) {
      autoListed.add(path);
      const entrySlug = slug.apply({ urlSlug: changelogSlug(date), fullSlug: await frontMatterSlug(path) });
      node.children.push(newNode(entrySlug.slug, path, true, hidden));
    }
  };

  /** A `folder:` entry: its Markdown files as pages, named by file name, and its folders as sections. */
  const visitFolder = async (
    item: Record<string, unknown>,
    context: Context,
    parent: FernNode,
    hidden: boolean,
  ) => {
    const written = item.folder as string;
    const folder = pathIn(context.yaml, written);
    const inFolder = folder === null ? [] : filesUnder(folder);
    const name = folder === null ? '' : folder.slice(folder.lastIndexOf('/') + 1);
    if (folder !== null && inFolder.length === 0 && gitIgnored(`${folder}/`)) {
      // A folder a build step writes (`.gitignore` names it): its pages and their URLs are unknown.
      const slug = context.slug.apply({
        urlSlug: typeof item.slug === 'string' ? item.slug : nameToSlug(name),
        skipUrlSlug: item['skip-slug'] === true,
      });
      entries.push({
        reference: written,
        file: context.yaml.file,
        line: lineOf(context.yaml, written),
        groups: [...context.groups],
        target: { unchecked: `${folder}/ is written by a build step (\`.gitignore\` names it)` },
      });
      generated.push({ slug: slug.slug, reason: `pages a build step writes to ${folder}/`, anywhere: true });
      return;
    }
    addEntry(context.yaml, written, context.groups, inFolder.find((path) => /\.mdx?$/i.test(path)) ?? null);
    if (folder === null || inFolder.length === 0) return;
    const index = findIndex(folder);
    const { own, node: sectionSlug } = sectionSlugs(context.slug, {
      urlSlug: typeof item.slug === 'string' ? item.slug : nameToSlug(name),
      fullSlug: await frontMatterSlug(index),
      skipUrlSlug: item['skip-slug'] === true,
    });
    const node = newNode(sectionSlug.slug, index, index !== null, hidden);
    parent.children.push(node);
    await visitDirectory(folder, own, node, hidden, 0);
  };

  const findIndex = (folder: string): string | null =>
    ['index.mdx', 'index.md', 'INDEX.mdx', 'INDEX.md', 'Index.mdx', 'Index.md']
      .map((name) => `${folder}/${name}`)
      .find((path) => files.has(path)) ?? null;

  const visitDirectory = async (
    folder: string,
    slug: SlugGenerator,
    parent: FernNode,
    hidden: boolean,
    depth: number,
  ) => {
    if (depth > maximumDepth || overflow()) return;
    const children = new Map<string, 'file' | 'folder'>();
    const prefix = `${folder}/`;
    for (const path of filesUnder(folder)) {
      const rest = path.slice(prefix.length);
      const slash = rest.indexOf('/');
      const name = slash < 0 ? rest : rest.slice(0, slash);
      if (name.startsWith('_')) continue;
      if (slash >= 0) children.set(name, 'folder');
      else if (/\.mdx?$/i.test(name)) children.set(name, 'file');
    }
    const ordered: Array<{
      name: string;
      kind: 'file' | 'folder';
      title: string;
      position: number | null;
      file: string | null;
    }> = [];
    for (const [name, kind] of children) {
      const file = kind === 'file' ? `${prefix}${name}` : findIndex(`${prefix}${name}`);
      if (kind === 'file' && /^index\.mdx?$/i.test(name)) continue;
      const matter = file === null ? null : await frontMatter(file);
      const position = matter === null ? null : positionOf(matter.position);
      ordered.push({ name, kind, title: nameToTitle(name), position, file });
    }
    ordered.sort((left, right) =>
      left.position !== null && right.position !== null
        ? left.position - right.position
        : left.position !== null
          ? -1
          : right.position !== null
            ? 1
            : titleOrder.compare(left.title, right.title),
    );
    for (const child of ordered) {
      const matter = child.file === null ? null : await frontMatter(child.file);
      const childHidden = hidden || matter?.hidden === true;
      const childSlug = slug.apply({
        urlSlug: nameToSlug(child.name),
        fullSlug: await frontMatterSlug(child.file),
      });
      if (child.kind === 'file') {
        if (child.file !== null) autoListed.add(child.file);
        parent.children.push(newNode(childSlug.slug, child.file, true, childHidden));
        continue;
      }
      if (child.file !== null) autoListed.add(child.file);
      const node = newNode(childSlug.slug, child.file, child.file !== null, childHidden);
      parent.children.push(node);
      await visitDirectory(`${prefix}${child.name}`, childSlug, node, childHidden, depth + 1);
    }
  };

  /** A file's navigation (`navigation`, tabbed or not, and its `landing-page`) under `slug`. */
  const visitNavigation = async (
    yaml: YamlFile,
    slug: SlugGenerator,
    parent: FernNode,
    groups: string[],
    tabs: Record<string, unknown>,
  ) => {
    const context: Context = {
      slug,
      yaml,
      tabs: isRecord(yaml.value.tabs) ? yaml.value.tabs : tabs,
      groups,
      hidden: false,
    };
    const landing = yaml.value['landing-page'];
    if (isRecord(landing) && typeof landing.page === 'string') {
      const file = pageFile(yaml, landing.path, groups);
      const landingSlug = slug.apply({
        urlSlug: typeof landing.slug === 'string' ? landing.slug : titleSlug(landing.page),
        fullSlug: await frontMatterSlug(file),
      });
      parent.children.push(newNode(landingSlug.slug, file, true, false));
    }
    await visitItems(yaml.value.navigation, context, parent, 0);
  };

  /** `versions:` of the main file or a product: each version's file, the first the default. */
  const visitVersions = async (
    versions: unknown[],
    slug: SlugGenerator,
    parent: FernNode,
    groups: string[],
    tabs: Record<string, unknown>,
    parentSlug: string,
  ) => {
    for (const [index, version] of versions.filter(isRecord).entries()) {
      if (typeof version.path !== 'string') continue;
      const file = joinInside(siteRoot, version.path.trim());
      const written = version.path;
      addEntry(main, written, groups, file !== null && files.has(file) ? file : null);
      const yaml = file === null ? null : await readYaml(file);
      const displayName = typeof version['display-name'] === 'string' ? version['display-name'] : '';
      const versionSlug = slug.setVersionSlug(
        typeof version.slug === 'string' ? version.slug : titleSlug(displayName),
      );
      versionSlugs.push(versionSlug.slug);
      const node = newNode(versionSlug.slug, null, false, version.hidden === true);
      if (index === 0) {
        node.defaultVersion = { parentSlug, versionSlug: versionSlug.slug };
        defaultVersions.push(node.defaultVersion);
      }
      parent.children.push(node);
      if (yaml !== null) await visitNavigation(yaml, versionSlug, node, [...groups, displayName], tabs);
    }
  };

  const rootSlug = SlugGenerator.init(basePath);
  const root = newNode(rootSlug.slug, null, false, false);
  const rootTabs = isRecord(main.value.tabs) ? main.value.tabs : {};
  if (main.value.navigation !== undefined) {
    await visitNavigation(main, rootSlug, root, [], rootTabs);
  } else if (Array.isArray(main.value.products)) {
    for (const product of main.value.products.filter(isRecord)) {
      if (typeof product.path !== 'string') continue;
      const displayName = typeof product['display-name'] === 'string' ? product['display-name'] : '';
      const productSlug = rootSlug.setProductSlug(
        typeof product.slug === 'string' ? product.slug : titleSlug(displayName),
      );
      productSlugs.push(productSlug.slug);
      const file = joinInside(siteRoot, product.path.trim());
      addEntry(main, product.path, [], file !== null && files.has(file) ? file : null);
      const node = newNode(productSlug.slug, null, false, false);
      root.children.push(node);
      if (Array.isArray(product.versions)) {
        await visitVersions(product.versions, productSlug, node, [displayName], rootTabs, productSlug.slug);
        continue;
      }
      const yaml = file === null ? null : await readYaml(file);
      if (yaml !== null) {
        // A product's landing page gets no URL (toProductNode): only its navigation is read.
        const { 'landing-page': _landing, ...rest } = yaml.value;
        await visitNavigation({ ...yaml, value: rest }, productSlug, node, [displayName], rootTabs);
      }
    }
  } else if (Array.isArray(main.value.versions)) {
    await visitVersions(main.value.versions, rootSlug, root, [], rootTabs, rootSlug.slug);
  }
  if (overflow())
    unsupported.push(
      `${mainFile}: navigation beyond ${maximumNodes} entries or ${maximumFolderScans} folders is not read`,
    );

  const redirects: FernNavigation['redirects'] = [];
  const redirectFiles = new Set<string>([mainFile]);
  const readRedirects = async (yaml: YamlFile, list: unknown) => {
    if (!Array.isArray(list)) return;
    for (const redirect of list) {
      if (redirects.length >= maximumRedirects) return;
      if (typeof redirect === 'string') {
        // Redirects kept in other yml files (`redirects: [./redirects.yml]`), each read once.
        const file = joinInside(folderOf(yaml.file), redirect.trim());
        if (file === null || redirectFiles.has(file)) continue;
        redirectFiles.add(file);
        const included = await readYaml(file);
        if (included !== null) await readRedirects(included, included.value.redirects);
      } else if (
        isRecord(redirect) &&
        typeof redirect.source === 'string' &&
        typeof redirect.destination === 'string'
      ) {
        redirects.push({
          source: redirect.source,
          destination: redirect.destination,
          file: yaml.file,
          line: yaml.lines.lineOf(redirect.destination),
        });
      }
    }
  };
  await readRedirects(main, main.value.redirects);

  return {
    root,
    basePath,
    hosts,
    versionSlugs,
    productSlugs,
    defaultVersions,
    generated,
    autoListed,
    entries,
    configFiles,
    redirects,
    problems,
    unsupported,
  };
}

/**
 * A section's slugs (toSectionNode): its children's prefix, and its own, which differs when it skips
 * its slug while its overview page's front matter names one (the section takes that slug, its
 * children stay where they were).
 */
function sectionSlugs(
  parent: SlugGenerator,
  choice: SlugChoice,
): { own: SlugGenerator; node: SlugGenerator } {
  const own = parent.apply(choice);
  const overviewSlug = choice.fullSlug ?? null;
  return {
    own,
    node:
      choice.skipUrlSlug === true && overviewSlug !== null
        ? parent.apply({ urlSlug: '', fullSlug: overviewSlug })
        : own,
  };
}

function positionOf(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string') {
    const parsed = Number.parseFloat(value);
    return Number.isFinite(parsed) ? parsed : null;
  }
  return null;
}

/** An instance's `url` or `custom-domain` (`acme.docs.buildwithfern.com/docs`), with https added when it has no scheme. */
function parseInstanceUrl(domain: string): URL | null {
  const trimmed = domain.trim();
  try {
    return new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`);
  } catch {
    return null;
  }
}
