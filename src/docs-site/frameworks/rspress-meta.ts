import { type Node as JsonNode, parseTree } from 'jsonc-parser';
import { ConfigLines } from '../config-lines.ts';
import { isPlainRecord } from '../javascript-config.ts';
import { folderOf, isExternalUrl, isWithin, joinInside, listFolders, relativeTo } from '../link-urls.ts';
import {
  type LinkTarget,
  type NavigationEntry,
  navigationTarget,
  type RepositoryFiles,
  type SiteProblem,
  type Unchecked,
} from '../site-model.ts';

/** Where an Rspress site's pages are, and its languages and versions (each a folder under `docsRoot`). */
export interface RspressLayout {
  docsRoot: string;
  /** The default language and version ('' when the site has none): their folders' routes have no prefix. */
  lang: string;
  langs: readonly string[];
  version: string;
  versions: readonly string[];
}

interface MetaContext {
  /** Whether a path relative to the docs folder is left out of the routes. */
  isExcluded(relative: string): boolean;
  resolveRoute(route: string): LinkTarget;
  extensions: readonly string[];
}

export interface RspressMeta {
  entries: NavigationEntry[];
  problems: SiteProblem[];
  files: string[];
  needsNavigationEntry(file: string): boolean;
  navigationFileFor(file: string): string;
}

const maximumEntries = 20_000;
const maximumDepth = 16;
const maximumFallbackSearches = 2_000;

/**
 * The sidebar and nav of Rspress's auto-nav-sidebar (packages/core/src/node/auto-nav-sidebar in
 * web-infra-dev/rspress; https://rspress.rs/guide/basic/auto-nav-sidebar): every language's and
 * version's folder may hold `_nav.json` (the nav; Rspress 1 read the top `_meta.json` as it), and
 * each folder a `_meta.json` listing its sidebar items in order: names of files (with or without
 * extension), `{type: "dir", name}` for a folder (its same-name page or `index` page opens it),
 * `custom-link`s, dividers and section headers. A folder without `_meta.json` lists all its pages.
 * Rspress 2 fails the build for a listed file or folder that does not exist ("Missing page file").
 */
export async function readRspressMeta(
  files: RepositoryFiles,
  layout: RspressLayout,
  major: 1 | 2,
  context: MetaContext,
): Promise<RspressMeta> {
  const entries: NavigationEntry[] = [];
  const problems: SiteProblem[] = [];
  const read: string[] = [];
  const roots = new Set<string>();
  for (const version of layout.versions.length > 0 ? layout.versions : ['']) {
    for (const lang of layout.langs.length > 0 ? layout.langs : ['']) {
      roots.add([layout.docsRoot, version, lang].filter((part) => part !== '').join('/'));
    }
  }
  /** Folders whose `_meta.json` is a sidebar listing. */
  const listingFolders = new Set<string>();
  const pageOf = (folder: string, name: string): string | null | 'excluded' => {
    const base = joinInside(folder, name);
    if (base === null) return null;
    const candidates = context.extensions.some((extension) => base.endsWith(extension))
      ? [base]
      : context.extensions.map((extension) => `${base}${extension}`);
    for (const candidate of candidates) {
      if (!files.has(candidate)) continue;
      return context.isExcluded(relativeTo(layout.docsRoot, candidate)) ? 'excluded' : candidate;
    }
    return null;
  };
  const folders = listFolders(files.paths);
  const routePrefix = (folder: string): string => {
    const parts = relativeTo(layout.docsRoot, folder).split('/');
    const version = layout.versions.includes(parts[0] ?? '') ? (parts.shift() ?? '') : '';
    const lang = layout.langs.includes(parts[0] ?? '') ? (parts.shift() ?? '') : '';
    return [version === layout.version ? '' : version, lang === layout.lang ? '' : lang]
      .filter((part) => part !== '')
      .map((part) => `/${part}`)
      .join('');
  };
  const linkTarget = (target: LinkTarget) => navigationTarget(target, []);

  const children = new Map<string, string[]>();
  for (const folder of folders) {
    if (folder === '' || !isWithin(layout.docsRoot, folder) || folder === layout.docsRoot) continue;
    if (/(^|\/)node_modules(\/|$)/.test(folder) || folder === `${layout.docsRoot}/public`) continue;
    const parent = folderOf(folder);
    const siblings = children.get(parent);
    if (siblings === undefined) children.set(parent, [folder]);
    else siblings.push(folder);
  }
  /** A JSON file's array, or null (a syntax error is a configuration problem: Rspress fails on it). */
  const readArray = async (file: string): Promise<JsonArray | null> => {
    const text = (await files.read(file)) ?? '';
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error: unknown) {
      const message = error instanceof Error ? error.message : String(error);
      problems.push({
        file,
        line: Number(/line (\d+)/.exec(message)?.[1] ?? 1),
        message: `${file} is not valid JSON: ${message}`,
        key: 'configuration\0syntax',
      });
      return null;
    }
    if (!Array.isArray(value)) return null;
    read.push(file);
    return { file, value, lines: new ConfigLines(text), tree: jsonTree(text) };
  };
  /** Adds an entry at the line of its JSON node (found by its text when the tree is not known). */
  // Without the tree (a file nested too deep for the parser), each line is searched for in the text:
  // a bounded number of times.
  let fallbackSearches = 0;
  const pusher =
    ({ file, lines }: JsonArray) =>
    (reference: string, target: string | null | Unchecked, groups: string[], node: JsonNode | undefined) => {
      if (entries.length >= maximumEntries) return;
      let line = 1;
      if (node !== undefined) line = lines.lineAt(node.offset);
      else if (fallbackSearches < maximumFallbackSearches) {
        fallbackSearches += 1;
        line = lines.lineOf(reference);
      }
      entries.push({ reference, file, line, groups, target });
    };

  /** A nav's links, routes from the root, or else under the language's and version's prefix. */
  const readNav = (nav: JsonArray) => {
    const push = pusher(nav);
    const prefix = routePrefix(folderOf(nav.file));
    const visit = (
      items: unknown[],
      nodes: JsonNode[] | undefined,
      groups: string[],
      depth: number,
    ): void => {
      for (const [index, item] of items.entries()) {
        if (!isPlainRecord(item) || depth > maximumDepth) continue;
        const node = nodes?.[index];
        if (typeof item.link === 'string' && !isExternalUrl(item.link)) {
          const asWritten = context.resolveRoute(item.link);
          const prefixed = context.resolveRoute(`${prefix}/${item.link.replace(/^\/+/, '')}`);
          push(
            item.link,
            linkTarget(asWritten.kind === 'broken' ? prefixed : asWritten),
            groups,
            property(node, 'link'),
          );
        }
        if (Array.isArray(item.items))
          visit(
            item.items,
            property(node, 'items')?.children,
            typeof item.text === 'string' ? [...groups, item.text] : groups,
            depth + 1,
          );
      }
    };
    visit(nav.value, nav.tree?.children, ['nav'], 0);
  };

  /** A folder's sidebar listing; the folders it names are walked next. */
  const readListing = (folder: string, listing: JsonArray) => {
    const push = pusher(listing);
    const prefix = routePrefix(folder);
    const named: string[] = [];
    const visitCustom = (item: Record<string, unknown>, node: JsonNode | undefined, depth: number): void => {
      if (depth > maximumDepth) return;
      if (typeof item.link === 'string' && !isExternalUrl(item.link))
        push(
          item.link,
          linkTarget(context.resolveRoute(`${prefix}/${item.link.replace(/^\/+/, '')}`)),
          ['sidebar'],
          property(node, 'link'),
        );
      if (!Array.isArray(item.items)) return;
      const children = property(node, 'items')?.children;
      for (const [index, child] of item.items.entries())
        if (isPlainRecord(child)) visitCustom(child, children?.[index], depth + 1);
    };
    for (const [index, item] of listing.value.entries()) {
      const node = listing.tree?.children?.[index];
      // Rspress 2 stops on an object without a type ("Unknown meta item type"); Rspress 1 took a file.
      if (major === 2 && isPlainRecord(item) && item.type === undefined) {
        problems.push({
          file: listing.file,
          line: node === undefined ? 1 : listing.lines.lineAt(node.offset),
          message: `${listing.file}: an entry without \`type\` ("Unknown meta item type"); Rspress stops`,
          key: `configuration\0meta type ${index}`,
        });
        continue;
      }
      const type = isPlainRecord(item) ? (item.type ?? 'file') : 'file';
      const name =
        typeof item === 'string'
          ? item
          : isPlainRecord(item) && typeof item.name === 'string'
            ? item.name
            : null;
      // Rspress 2 stops on a file or folder entry without a name ("The file name ... is not a string").
      if (major === 2 && name === null && ['file', 'dir', 'dir-section-header'].includes(String(type))) {
        problems.push({
          file: listing.file,
          line: node === undefined ? 1 : listing.lines.lineAt(node.offset),
          message: `${listing.file}: a \`${String(type)}\` entry without a \`name\`; Rspress stops`,
          key: `configuration\0meta name ${index}`,
        });
        continue;
      }
      if (type === 'file' && name !== null) {
        // A name with its extension that names no file is dropped from the sidebar without a word,
        // or shows the page its route serves (`a.mdx` for `a.md`); one without fails the build.
        const extension = context.extensions.find((candidate) => name.endsWith(candidate));
        const page =
          pageOf(folder, name) ??
          (extension === undefined ? null : pageOf(folder, name.slice(0, -extension.length)));
        push(
          name,
          page === 'excluded'
            ? { unchecked: 'a file left out of the routes', onlyFiles: [] }
            : page === null && extension !== undefined
              ? {
                  unchecked: 'an entry naming no file, which Rspress leaves out of the sidebar',
                  onlyFiles: [],
                }
              : page,
          ['sidebar'],
          typeof item === 'string' ? node : property(node, 'name'),
        );
      } else if ((type === 'dir' || type === 'dir-section-header') && name !== null) {
        const path = joinInside(folder, name);
        // The entry names the folder, not a page: a page of the same name beside it, or else its
        // `index` page, opens the group (and needs no entry of its own), and moving that page leaves
        // the entry as it is. A missing folder fails the build ("Failed to read directory"); one
        // with nothing to show is left out without a word.
        const openedBy = [pageOf(folder, name), path === null ? null : pageOf(path, 'index')].find(
          (page): page is string => typeof page === 'string',
        );
        if (path !== null && folders.has(path)) named.push(path);
        push(
          name,
          path !== null && folders.has(path)
            ? { unchecked: 'a folder of pages', onlyFiles: openedBy === undefined ? [] : [openedBy] }
            : null,
          ['sidebar'],
          property(node, 'name'),
        );
      } else if (type === 'custom-link' && isPlainRecord(item)) visitCustom(item, node, 0);
    }
    return named;
  };

  // Rspress reads only the `_meta.json` files its walk reaches: from each language's and version's
  // folder down the folders each listing names, or every subfolder where a folder has none.
  const walked = new Set<string>();
  const walk = async (folder: string, depth: number): Promise<void> => {
    if (walked.has(folder) || depth > maximumDepth) return;
    walked.add(folder);
    const file = `${folder}/_meta.json`;
    const listing = files.has(file) ? await readArray(file) : undefined;
    if (listing === null) return;
    if (listing === undefined) {
      for (const child of children.get(folder) ?? []) await walk(child, depth + 1);
      return;
    }
    listingFolders.add(folder);
    for (const child of readListing(folder, listing)) await walk(child, depth + 1);
  };
  const looksLikeNav = (value: unknown[]) =>
    value.some(
      (item) =>
        isPlainRecord(item) &&
        item.name === undefined &&
        item.type === undefined &&
        (item.link !== undefined || item.items !== undefined),
    );
  for (const root of roots) {
    const navFile = `${root}/_nav.json`;
    const metaFile = `${root}/_meta.json`;
    // Rspress 1 had no `_nav.json`.
    const nav = files.has(navFile) && major === 2 ? await readArray(navFile) : null;
    if (nav !== null) readNav(nav);
    let rootListing = files.has(metaFile) && (major === 2 || nav === null) ? await readArray(metaFile) : null;
    // Rspress 1 read the top `_meta.json` as the nav; Rspress 2 stops with a hint to rename it.
    if (rootListing !== null && (major === 1 || looksLikeNav(rootListing.value))) {
      readNav(rootListing);
      rootListing = null;
    }
    // A top listing is the one sidebar (beside `_nav.json` too): only the folders it names are read.
    if (rootListing !== null) {
      walked.add(root);
      listingFolders.add(root);
      for (const child of readListing(root, rootListing)) await walk(child, 1);
    } else {
      walked.add(root);
      for (const child of children.get(root) ?? []) await walk(child, 1);
    }
  }

  const hasListing = (folder: string) => listingFolders.has(folder);
  const governingFolder = (file: string): string | null => {
    const folder = folderOf(file);
    const name = file.slice(folder.length + 1).replace(/\.[^.]+$/, '');
    // A folder's index page opens the folder: its parent's listing names the folder.
    if (name === 'index' && !roots.has(folder)) return hasListing(folderOf(folder)) ? folderOf(folder) : null;
    return hasListing(folder) ? folder : null;
  };
  return {
    entries,
    problems,
    files: read,
    needsNavigationEntry: (file) => {
      const folder = folderOf(file);
      if (roots.has(folder) && /(^|\/)index\.[^/]+$/.test(file)) return false;
      return governingFolder(file) !== null;
    },
    navigationFileFor: (file) => `${governingFolder(file) ?? folderOf(file)}/_meta.json`,
  };
}

interface JsonArray {
  file: string;
  value: unknown[];
  lines: ConfigLines;
  /** The parsed tree with offsets, whose nodes give entries their lines; null when too deep to read. */
  tree: JsonNode | null;
}

function jsonTree(text: string): JsonNode | null {
  try {
    return parseTree(text) ?? null;
  } catch {
    // A file nested deeper than the parser's stack: lines are then found by text.
    return null;
  }
}

/** The value node of an object node's property. */
function property(node: JsonNode | undefined, key: string): JsonNode | undefined {
  if (node?.type !== 'object') return undefined;
  return node.children?.find((child) => child.children?.[0]?.value === key)?.children?.[1];
}
