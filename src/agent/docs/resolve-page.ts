import { posix } from 'node:path';
import type { DocsSite } from './docs-site.ts';

/**
 * The file a navigation reference or an internal link points to, or null when none exists.
 * `exists` says whether a file (relative path) exists; `from` is the linking file (relative links resolve from its folder); null for navigation entries.
 */
export function resolvePage(
  exists: (path: string) => boolean,
  site: DocsSite,
  reference: string,
  from: string | null,
): string | null {
  const target = decodeSafely(reference.split('#')[0]?.split('?')[0] ?? '');
  if (target === '') return from;
  const bases: string[] = [];
  if (target.startsWith('/')) {
    bases.push(posix.join(site.contentRoot, target), target);
    if (site.framework === 'docusaurus') bases.push(posix.join('docs', target.replace(/^\/docs\//, '/')));
  } else if (from === null) {
    bases.push(posix.join(site.contentRoot, target));
  } else {
    bases.push(posix.join(posix.dirname(from), target));
  }
  for (const base of bases) {
    const normalized = posix.normalize(base).replace(/^\/+/, '').replace(/\/+$/, '');
    if (normalized.startsWith('..')) continue;
    for (const candidate of [
      normalized,
      `${normalized}.mdx`,
      `${normalized}.md`,
      `${normalized}/index.mdx`,
      `${normalized}/index.md`,
      `${normalized}/README.md`,
    ]) {
      if (exists(candidate)) return candidate;
    }
  }
  return null;
}

function decodeSafely(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** True for links that leave the site (`https:`, `mailto:`, `//host`) or stay on the page (`#anchor`). */
export function isExternalLink(url: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith('//') || url.startsWith('#') || url.trim() === '';
}
