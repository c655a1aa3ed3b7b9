/**
 * Which requests are page views: successful (2xx, or 304 Not Modified) and not an asset. Applies to
 * every ingestion path, so a log import and the batch endpoint agree on what a view is.
 */

/** Images, scripts, styles, fonts, media, data and archives: fetched by pages, never a page. */
const assetExtensions = new Set([
  // images
  'apng',
  'avif',
  'bmp',
  'gif',
  'heic',
  'ico',
  'jpeg',
  'jpg',
  'png',
  'svg',
  'tif',
  'tiff',
  'webp',
  // scripts and styles
  'cjs',
  'css',
  'js',
  'jsx',
  'map',
  'mjs',
  'ts',
  'tsx',
  'wasm',
  // fonts
  'eot',
  'otf',
  'ttf',
  'woff',
  'woff2',
  // media
  'avi',
  'flac',
  'm4a',
  'mov',
  'mp3',
  'mp4',
  'ogg',
  'wav',
  'webm',
  // data, feeds, manifests, archives
  'gz',
  'json',
  'rss',
  'tar',
  'tgz',
  'webmanifest',
  'xml',
  'zip',
]);

/** Files that crawlers fetch constantly and that are no page of the documentation. */
const nonPagePaths = new Set(['/robots.txt', '/ads.txt', '/humans.txt']);

export type PageRequestVerdict = { page: true } | { page: false; reason: 'status' | 'asset' | 'method' };

/**
 * `status` undefined means the ingesting client did not say (the batch endpoint and the tracker
 * only report views that were served), so it counts; so does a request whose method is not given.
 * A page is read with GET (or HEAD, which link checkers and some agents send first); a POST or
 * an OPTIONS preflight to the same path is no view of it.
 */
export function judgePageRequest(
  path: string,
  status: number | undefined,
  method?: string | undefined,
): PageRequestVerdict {
  if (method !== undefined && !/^(?:GET|HEAD)$/i.test(method)) return { page: false, reason: 'method' };
  if (status !== undefined && !isSuccessfulPageStatus(status)) return { page: false, reason: 'status' };
  if (isAssetPath(path)) return { page: false, reason: 'asset' };
  return { page: true };
}

function isSuccessfulPageStatus(status: number): boolean {
  return (status >= 200 && status <= 299) || status === 304;
}

/** `path` is a normalised path (see normalize-path.ts). */
export function isAssetPath(path: string): boolean {
  if (nonPagePaths.has(path) || path.startsWith('/.well-known/')) return true;
  const lastSegment = path.slice(path.lastIndexOf('/') + 1);
  const dot = lastSegment.lastIndexOf('.');
  if (dot <= 0) return false;
  return assetExtensions.has(lastSegment.slice(dot + 1).toLowerCase());
}
