import { normalizeRoute } from '../link-urls.ts';
import { isObject } from './mintlify-config.ts';

/**
 * The routes `redirects` serve (https://mintlify.com/docs/create/redirects): exact sources, `:name`
 * (one segment), `:name*` (the rest of the path, possibly nothing) and partial wildcards (`concepts-*`).
 * Matched segment by segment without regular expressions, so hostile patterns cost linear time.
 */
export class RedirectSources {
  readonly #exact = new Set<string>();
  readonly #patterns: string[][] = [];

  add(redirects: unknown): void {
    if (!Array.isArray(redirects)) return;
    for (const redirect of redirects) {
      if (!isObject(redirect) || typeof redirect.source !== 'string') continue;
      const source = normalizeRoute(redirect.source.split(/[?#]/)[0] ?? '');
      if (source.includes(':') || source.includes('*')) this.#patterns.push(source.split('/').slice(1));
      else this.#exact.add(source);
    }
  }

  get size(): number {
    return this.#exact.size + this.#patterns.length;
  }

  /** Whether a request for `route` (normalized) is redirected. */
  matches(route: string): boolean {
    if (this.#exact.has(route)) return true;
    if (this.#patterns.length === 0) return false;
    const segments = route.split('/').slice(1);
    return this.#patterns.some((pattern) => matchSegments(pattern, segments));
  }
}

function matchSegments(pattern: readonly string[], segments: readonly string[]): boolean {
  for (const [index, part] of pattern.entries()) {
    const last = index === pattern.length - 1;
    // `:slug*` (or a lone `*`) at the end takes whatever is left, even nothing.
    if (last && (/^:[^/]*\*$/.test(part) || part === '*')) return segments.length >= index;
    const segment = segments[index];
    if (segment === undefined) return false;
    if (part.startsWith(':')) continue;
    const star = part.indexOf('*');
    if (star >= 0) {
      if (!segment.startsWith(part.slice(0, star))) return false;
      if (last) return true;
      continue;
    }
    if (part !== segment) return false;
  }
  return segments.length === pattern.length;
}
