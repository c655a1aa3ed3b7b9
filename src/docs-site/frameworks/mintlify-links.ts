import { folderOf, isExternalUrl, joinInside, normalizeRoute, relativeTo, splitUrl } from '../link-urls.ts';
import type { LinkTarget } from '../site-model.ts';
import type { RedirectSources } from './mintlify-redirects.ts';

/** What link resolution needs to know of a Mintlify site, computed once per build. */
export interface MintlifyRoutes {
  siteRoot: string;
  /** Route (normalized, leading slash) → the page file that serves it. */
  pageByRoute: ReadonlyMap<string, string>;
  /** Page file → its canonical route. */
  routeOfPage: ReadonlyMap<string, string>;
  partials: ReadonlySet<string>;
  /** Whether a file exists that Mintlify publishes (a static file, or a page by its file name). */
  isPublished(path: string): boolean;
  redirects: RedirectSources;
  /** Folders (relative to the site root) that hold pages generated from an API specification. */
  generatedFolders: ReadonlySet<string>;
  /** The names of versions in navigation, lower case. */
  variantNames: ReadonlySet<string>;
  /** Folders (relative to the site root) that hold pages. */
  pageFolders: ReadonlySet<string>;
  /** The first path segments of the files under the site root. */
  topFolders: ReadonlySet<string>;
  /** The extensions of the files listed under the site root (`.png`, `.mdx`, ...). */
  listedExtensions: ReadonlySet<string>;
}

// Files a copy of a repository may leave out (binary assets, components): with none of a kind listed,
// a missing one proves nothing.
const assetExtensions = new Set(
  '.png .jpg .jpeg .gif .svg .webp .avif .ico .bmp .tif .tiff .mp4 .webm .mov .mp3 .wav .ogg .pdf .zip .gz .woff .woff2 .ttf .otf .jsx .tsx .js .ts .css .json .yaml .yml .txt .csv'.split(
    ' ',
  ),
);
// Files every Mintlify site serves without a file in the repository.
const generatedRoutes = new Set(['/', '/llms.txt', '/llms-full.txt', '/sitemap.xml', '/robots.txt']);

/**
 * Where a link written in a page leads. Mintlify links are routes: from the site root (`/quickstart`)
 * or relative to the page (`quickstart`, `../setup`), without an extension; a file path with its
 * extension (`/images/logo.png`, `/snippets/note.mdx` in an import) names a published file.
 */
export function resolveMintlifyLink(routes: MintlifyRoutes, from: string, url: string): LinkTarget {
  if (isExternalUrl(url)) return { kind: 'external' };
  const { path } = splitUrl(url);
  if (path === '') return { kind: 'external' };
  const fromInSite = relativeTo(routes.siteRoot, from);
  const candidates: Array<string | null> = [];
  if (path.startsWith('/')) candidates.push(joinInside('', path.slice(1)));
  else if (routes.partials.has(from)) {
    // A snippet's relative import is a file beside it; its relative links depend on the importing page.
    const beside = joinInside(folderOf(fromInSite), path);
    if (beside !== null && routes.isPublished(beside)) return { kind: 'file', file: inSite(routes, beside) };
    return {
      kind: 'unchecked',
      reason: 'a relative link in a snippet resolves against the page importing it',
    };
  } else {
    candidates.push(joinInside(folderOf(fromInSite), path));
    // The browser resolves relative links against the route: an index page's route is its folder.
    const route = routes.routeOfPage.get(from);
    if (route !== undefined) {
      const routeFolder = folderOf(route.slice(1));
      if (routeFolder !== folderOf(fromInSite)) candidates.push(joinInside(routeFolder, path));
    }
  }
  const inside = candidates.filter((candidate): candidate is string => candidate !== null);
  if (inside.length === 0) return { kind: 'unchecked', reason: 'the link leaves the site' };
  for (const candidate of inside) {
    const found = lookUp(routes, candidate);
    if (found !== null) return found;
  }
  // A listing without a single `.png` (a text-only or sparse copy) cannot tell a missing image from an unlisted one.
  const extension = extensionOf(inside[0] ?? '');
  if (assetExtensions.has(extension) && !routes.listedExtensions.has(extension))
    return {
      kind: 'unchecked',
      reason: `no ${extension} file is listed in this site, so none can be looked up`,
    };
  return { kind: 'broken', reason: `no page or file is served at /${inside[0]}` };
}

function lookUp(routes: MintlifyRoutes, path: string): LinkTarget | null {
  const route = normalizeRoute(path);
  const page = routes.pageByRoute.get(route);
  if (page !== undefined) return { kind: 'file', file: page };
  const withoutSlash = route.slice(1);
  if (routes.isPublished(withoutSlash)) return { kind: 'file', file: inSite(routes, withoutSlash) };
  // Mintlify serves every page's Markdown at its route plus `.md` (for AI tools).
  const markdown = /^(.*)\.mdx?$/i.exec(route)?.[1];
  const pageOfMarkdown =
    markdown === undefined ? undefined : routes.pageByRoute.get(normalizeRoute(markdown));
  if (pageOfMarkdown !== undefined) return { kind: 'file', file: pageOfMarkdown };
  if (routes.redirects.matches(route)) return { kind: 'served', reason: 'a redirect in docs.json' };
  if (generatedRoutes.has(route)) return { kind: 'served', reason: 'generated by Mintlify' };
  const variant = variantOf(routes, route);
  if (variant !== null) return { kind: 'unchecked', reason: variant };
  // A site served under a base path (`/docs`) may write it in links; the rest then names a page.
  const firstSlash = route.indexOf('/', 1);
  if (firstSlash > 0 && !routes.topFolders.has(route.slice(1, firstSlash))) {
    const rest = route.slice(firstSlash);
    if (routes.pageByRoute.has(rest) || routes.isPublished(rest.slice(1)))
      return {
        kind: 'unchecked',
        reason: `${route.slice(0, firstSlash)} may be the base path the site is served under`,
      };
  }
  for (const folder of routes.generatedFolders) {
    if (folder === '' || withoutSlash === folder || withoutSlash.startsWith(`${folder}/`))
      return { kind: 'unchecked', reason: `pages under /${folder} are generated from an API specification` };
  }
  return null;
}

function inSite(routes: MintlifyRoutes, path: string): string {
  return routes.siteRoot === '' ? path : `${routes.siteRoot}/${path}`;
}

/** The lower-case extension of a path's last segment, with its dot ('' for none). */
export function extensionOf(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot).toLowerCase();
}

/**
 * A route with a version's or language's name as a folder (`/oss/python/quickstart`) where the page
 * exists without it (`oss/quickstart.mdx`): such sites are made by a build step that writes one copy
 * per variant, which this model does not run.
 */
export function variantOf(routes: MintlifyRoutes, route: string): string | null {
  if (routes.variantNames.size === 0) return null;
  const segments = route.split('/');
  for (const [index, segment] of segments.entries()) {
    if (index === 0 || !routes.variantNames.has(segment.toLowerCase())) continue;
    // A real folder of that name is the site's own, not a build step's copy.
    if (routes.pageFolders.has(segments.slice(1, index + 1).join('/'))) continue;
    const without = normalizeRoute([...segments.slice(0, index), ...segments.slice(index + 1)].join('/'));
    if (routes.pageByRoute.has(without))
      return `the ${segment} copy of ${without} is written by a build step this model does not run`;
  }
  return null;
}
