import { isWithin, listFolders, normalizeRoute, relativeTo } from '../link-urls.ts';
import {
  type LinkTarget,
  type NavigationEntry,
  pageExtensions,
  type SiteModel,
  type SiteModelBuilder,
  type SiteProblem,
  type SiteSource,
  type Unchecked,
} from '../site-model.ts';
import { isObject, type Located, MintlifyConfig } from './mintlify-config.ts';
import { readIgnoredFiles } from './mintlify-ignore.ts';
import { extensionOf, type MintlifyRoutes, resolveMintlifyLink, variantOf } from './mintlify-links.ts';
import { fieldOf, type ReadNavigation, readNavigation } from './mintlify-navigation.ts';
import { RedirectSources } from './mintlify-redirects.ts';

/** Redirects checked for a destination that exists; a hostile docs.json may list any number. */
const maximumCheckedRedirects = 10_000;

/**
 * Mintlify (https://mintlify.com/docs): every `.mdx`/`.md` file under the folder of `docs.json` (or
 * legacy `mint.json`) is a page at its path without extension (`guides/index.mdx` at `/guides`),
 * listed in navigation or hidden; files in `snippets/` and files other pages import are snippets,
 * not pages; other files are served at their path. Redirect sources and generated API pages are served.
 */
export const buildMintlifySite: SiteModelBuilder = async (source, siteRoot) => {
  const files = source.files;
  const inRoot = (path: string) => (siteRoot === '' ? path : `${siteRoot}/${path}`);
  const mainFile = files.has(inRoot('docs.json')) ? inRoot('docs.json') : inRoot('mint.json');
  const config = await MintlifyConfig.read(files, siteRoot, mainFile);
  const main = config.files.get(mainFile);
  const root: Located | null =
    main === undefined ? null : { value: main.value, file: main, chain: [mainFile] };
  const mintignoreFile = inRoot('.mintignore');
  const ignored = readIgnoredFiles(files.has(mintignoreFile) ? await files.read(mintignoreFile) : null);

  // Pages and snippets: `snippets/` always holds snippets; any page another page imports is one too.
  const candidates: string[] = [];
  const partials = new Set<string>();
  for (const path of files.paths) {
    if (!isWithin(siteRoot, path) || !hasPageExtension(path)) continue;
    const inSite = relativeTo(siteRoot, path);
    if (ignored.isIgnored(inSite)) continue;
    if (inSite.startsWith('snippets/')) partials.add(path);
    else candidates.push(path);
  }
  for (const imported of await importedFiles(source, candidates, siteRoot)) partials.add(imported);
  const pages = new Map<string, string[]>();
  const pageByRoute = new Map<string, string>();
  const routeOfPage = new Map<string, string>();
  for (const path of candidates) {
    if (partials.has(path)) continue;
    const route = normalizeRoute(relativeTo(siteRoot, path).replace(/\.mdx?$/i, ''));
    pages.set(path, [route]);
    routeOfPage.set(path, route);
    if (!pageByRoute.has(route)) pageByRoute.set(route, path);
  }

  const navigation: ReadNavigation =
    root === null
      ? {
          references: [],
          generatedFolders: new Set(),
          specifications: new Set(),
          variantNames: new Set(),
          languages: [],
        }
      : readNavigation(config, root);
  const redirects = new RedirectSources();
  const redirectField = root === null ? null : fieldOf(config, root, 'redirects');
  const redirectList =
    redirectField !== null && isObject(redirectField.value) && typeof redirectField.value.$ref === 'string'
      ? config.follow(redirectField.value.$ref, redirectField)
      : redirectField;
  redirects.add(redirectList?.value);

  const isPublished = (path: string) => files.has(inRoot(path)) && !ignored.isIgnored(path);
  const listedExtensions = new Set<string>();
  for (const path of files.paths) {
    if (isWithin(siteRoot, path)) listedExtensions.add(extensionOf(path));
  }
  const routes: MintlifyRoutes = {
    siteRoot,
    pageByRoute,
    routeOfPage,
    partials,
    isPublished,
    redirects,
    generatedFolders: navigation.generatedFolders,
    listedExtensions,
    variantNames: navigation.variantNames,
    pageFolders: listFolders([...pages.keys()].map((page) => relativeTo(siteRoot, page))),
    topFolders: new Set(
      files.paths
        .filter((path) => isWithin(siteRoot, path))
        .map((path) => relativeTo(siteRoot, path).split('/')[0] ?? ''),
    ),
  };
  const unsupported = [...config.unsupported];
  const entries: NavigationEntry[] = navigation.references.map(({ operation, ...entry }) => ({
    ...entry,
    target:
      operation === null
        ? pageTarget(entry.reference, routes, pages)
        : specificationTarget(operation.specification, siteRoot, files.has.bind(files)),
  }));
  for (const specification of navigation.specifications) {
    if (/^https?:/i.test(specification))
      unsupported.push(
        `${mainFile}: the API specification ${specification} is not read; its pages are unchecked`,
      );
  }
  for (const folder of navigation.generatedFolders) {
    unsupported.push(
      `${mainFile}: pages generated from an API specification under /${folder} are not listed; links there that match no file are unchecked`,
    );
  }
  const variantEntries = entries.filter(
    (entry) => typeof entry.target === 'object' && entry.target?.unchecked.includes('build step'),
  );
  if (variantEntries.length > 0)
    unsupported.push(
      `${variantEntries[0]?.file}: ${variantEntries.length} navigation entries name version folders (such as ${variantEntries[0]?.reference}) that a build step writes; they, and links to them, are unchecked`,
    );
  const resolveLink = (from: string, url: string): LinkTarget => resolveMintlifyLink(routes, from, url);
  const redirectProblems = redirectList === null ? [] : brokenRedirectDestinations(redirectList, resolveLink);
  const navigationFile = entries[0]?.file ?? mainFile;
  const model: SiteModel = {
    framework: 'mintlify',
    siteRoot,
    configFiles: [...config.files.keys(), ...(files.has(mintignoreFile) ? [mintignoreFile] : [])],
    pages,
    partials,
    navigation: entries,
    // Mintlify lists only the pages named in navigation; any other page is hidden (served, not listed).
    needsNavigationEntry: (file) =>
      root !== null &&
      isWithin(siteRoot, file) &&
      hasPageExtension(file) &&
      !partials.has(file) &&
      !relativeTo(siteRoot, file).startsWith('snippets/') &&
      !ignored.isIgnored(relativeTo(siteRoot, file)),
    resolveLink,
    configurationProblems: [...config.problems, ...redirectProblems],
    unsupported,
    conventions: [
      ...(await conventions(source, listedFirst(entries, pages), resolveLink, navigationFile, siteRoot)),
      ...translationConvention(navigation.languages, entries),
    ],
  };
  return model;
};

function hasPageExtension(path: string): boolean {
  const lower = path.toLowerCase();
  return pageExtensions.some((extension) => lower.endsWith(extension));
}

/** Files imported by pages (`import Note from '/snippets/note.mdx'`): snippets, never pages themselves. */
async function importedFiles(
  source: SiteSource,
  pages: readonly string[],
  siteRoot: string,
): Promise<Set<string>> {
  const imported = new Set<string>();
  for (const page of pages) {
    // Page facts are cached by content (read for the whole site before the model is built).
    const facts = await source.pageFacts(page);
    for (const link of facts?.links ?? []) {
      if (link.kind !== 'import' || !hasPageExtension(link.url)) continue;
      const path = link.url.startsWith('/')
        ? `${siteRoot === '' ? '' : `${siteRoot}/`}${link.url.replace(/^\/+/, '')}`
        : joinRelative(page, link.url);
      if (path !== null && source.files.has(path)) imported.add(path);
    }
  }
  return imported;
}

function joinRelative(from: string, relative: string): string | null {
  const segments = from.split('/').slice(0, -1);
  for (const segment of relative.split('/')) {
    if (segment === '..') {
      if (segments.length === 0) return null;
      segments.pop();
    } else if (segment !== '.' && segment !== '') segments.push(segment);
  }
  return segments.join('/');
}

/**
 * Redirects whose destination is a page of the site that does not exist: readers sent there get a
 * 404 (a page moved or deleted without its redirects updated). Destinations with parameters
 * (`/new/:slug*`) or elsewhere are not checked.
 */
function brokenRedirectDestinations(
  list: Located,
  resolveLink: (from: string, url: string) => LinkTarget,
): SiteProblem[] {
  if (!Array.isArray(list.value)) return [];
  const problems: SiteProblem[] = [];
  for (const redirect of list.value.slice(0, maximumCheckedRedirects)) {
    const destination = isObject(redirect) ? redirect.destination : undefined;
    if (typeof destination !== 'string' || !destination.startsWith('/') || /[:*]/.test(destination)) continue;
    if (resolveLink(list.file.file, destination).kind !== 'broken') continue;
    problems.push({
      file: list.file.file,
      line: list.file.lines.lineOf(destination, list.file.members.get('redirects')),
      message: `Redirect destination "${destination}" names no page`,
      key: `redirect\0${destination}`,
    });
  }
  return problems;
}

/** The page a navigation reference names (a path from the site root, without extension). */
function pageTarget(
  reference: string,
  routes: MintlifyRoutes,
  pages: ReadonlyMap<string, readonly string[]>,
): string | null | Unchecked {
  const path = reference
    .trim()
    .replace(/^\/+/, '')
    .replace(/(?<!\/)\/+$/, '');
  const inRoot = routes.siteRoot === '' ? path : `${routes.siteRoot}/${path}`;
  if (pages.has(inRoot)) return inRoot;
  for (const extension of pageExtensions) {
    if (pages.has(`${inRoot}${extension}`)) return `${inRoot}${extension}`;
  }
  const page = routes.pageByRoute.get(normalizeRoute(path));
  if (page !== undefined) return page;
  const variant = variantOf(routes, normalizeRoute(path));
  if (variant !== null) return { unchecked: variant };
  for (const folder of routes.generatedFolders) {
    if (path === folder || path.startsWith(`${folder}/`))
      return { unchecked: `pages under /${folder} are generated from an API specification` };
  }
  return null;
}

/** An API operation's entry names a page generated from its specification: the file must exist. */
function specificationTarget(
  specification: string | null,
  siteRoot: string,
  has: (path: string) => boolean,
): string | null | Unchecked {
  if (specification === null) return { unchecked: 'an API operation whose specification is not named' };
  if (/^https?:/i.test(specification)) return { unchecked: `an API operation of ${specification}` };
  const path = specification.replace(/^\.?\/+/, '');
  const inRoot = siteRoot === '' ? path : `${siteRoot}/${path}`;
  return has(inRoot) ? inRoot : null;
}

/** Where translated pages go: each language's folder, listed in that language's navigation file. */
function translationConvention(languages: readonly string[], entries: readonly NavigationEntry[]): string[] {
  if (languages.length < 2) return [];
  const places = languages.slice(1).map((language) => {
    const entry = entries.find((candidate) => candidate.groups[0] === language);
    return `${language}/ (listed in ${entry?.file ?? 'its language navigation'})`;
  });
  return [
    `Pages are translated: the ${languages[0]} page guides/x has copies at ${languages[1]}/guides/x and so on; a new page needs its translations in ${places.join(', ')}, or only the ${languages[0]} navigation lists it.`,
  ];
}

/** Pages in navigation order, then the hidden ones: the example link is taken from a listed page. */
function listedFirst(
  entries: readonly NavigationEntry[],
  pages: ReadonlyMap<string, readonly string[]>,
): string[] {
  const ordered = new Set<string>();
  for (const entry of entries)
    if (typeof entry.target === 'string' && pages.has(entry.target)) ordered.add(entry.target);
  for (const page of pages.keys()) ordered.add(page);
  return [...ordered];
}

/** How links are written here (an example from the site), and where new pages go. */
async function conventions(
  source: SiteSource,
  ordered: readonly string[],
  resolveLink: (from: string, url: string) => LinkTarget,
  navigationFile: string,
  siteRoot: string,
): Promise<string[]> {
  const result: string[] = [];
  let example: { page: string; url: string } | null = null;
  const pages = new Set(ordered);
  for (const page of ordered.slice(0, 200)) {
    const facts = await source.pageFacts(page);
    const link = facts?.links.find(
      (candidate) =>
        candidate.kind !== 'import' &&
        candidate.kind !== 'image' &&
        resolveLink(page, candidate.url).kind === 'file' &&
        pages.has((resolveLink(page, candidate.url) as { file: string }).file),
    );
    if (link !== undefined) {
      example = { page, url: link.url };
      break;
    }
  }
  result.push(
    example === null
      ? 'Links between pages are routes from the site root without the file extension, such as `/guides/setup`.'
      : `Links between pages are routes without the file extension, ${example.url.startsWith('/') ? 'written from the site root' : 'written relative to the page'}, such as \`${example.url}\` in ${example.page}.`,
  );
  const where = siteRoot === '' ? 'the repository root' : `${siteRoot}/`;
  result.push(
    `A new page is an .mdx file under ${where} (its path is its route) and must be added to a group's "pages" in ${navigationFile}, by its path without extension; reusable content goes in snippets/ and is imported, not listed.`,
  );
  return result;
}
