import { compile, type Key, pathToRegexp } from 'path-to-regexp';
import { RE2JS } from 're2js';

interface Pattern {
  order: number;
  /** The source's text before its first parameter, in lower case: a request must start with it. */
  prefix: string;
  matcher: RE2JS;
  keys: Key[];
  destination: string;
}

// A source longer than this is no real redirect; a hostile configuration's pattern stops here.
const maximumSourceLength = 2_000;
/**
 * Characters of requests one model may run patterns over (RE2JS takes about 0.3 µs a character:
 * about a second in all); beyond them a redirect is unknown. Real sites use a fiftieth of it.
 */
const maximumMatchedCharacters = 3_000_000;

/**
 * The redirects of a Fern site's `docs.yml` as its docs frontend applies them (fern-platform
 * fern-docs/utils getRedirectForPath.ts): in order, the first match wins, before any page is
 * looked up; a source without the base path gets it in front; sources are path-to-regexp 6 patterns
 * (`:name` one segment, `:name*` any number, case-insensitive, a trailing slash allowed; a bare `*`
 * is no pattern and never matches), run with RE2 so a hostile pattern costs linear time; the
 * destination gets the matched parameters, and is not prefixed with the base path.
 */
export class FernRedirects {
  readonly #exact = new Map<string, { order: number; destination: string }>();
  readonly #patterns: Pattern[] = [];
  readonly #basePath: string;
  readonly #answers = new Map<string, string | null | undefined>();
  #charactersLeft = maximumMatchedCharacters;
  /** Sources this reader could not compile (a custom pattern RE2 does not support). */
  readonly unreadable: string[] = [];

  constructor(redirects: ReadonlyArray<{ source: string; destination: string }>, basePath: string) {
    this.#basePath = basePath === '' ? '' : `/${basePath}`;
    for (const [order, { source, destination }] of redirects.entries()) {
      if (source.length > maximumSourceLength) continue;
      let full = source.trim();
      if (/^https?:\/\//i.test(full)) continue;
      if (this.#basePath !== '' && !full.startsWith(this.#basePath)) full = joinPaths(this.#basePath, full);
      full = removeTrailingSlash(full);
      if (!/[:*?+(){}\\]/.test(full)) {
        const key = full.toLowerCase();
        if (!this.#exact.has(key)) this.#exact.set(key, { order, destination });
        continue;
      }
      try {
        const keys: Key[] = [];
        const regexp = pathToRegexp(full, keys, { sensitive: false, strict: false, end: true });
        this.#patterns.push({
          order,
          prefix: full.slice(0, full.search(/[:*?+(){}\\]/)).toLowerCase(),
          matcher: RE2JS.compile(regexp.source, RE2JS.CASE_INSENSITIVE),
          keys,
          destination,
        });
      } catch {
        // path-to-regexp refuses it (a bare `*`): Fern's frontend catches that and never matches.
        if (/\(\?[=!<]|\\\d/.test(full)) this.unreadable.push(source);
      }
    }
  }

  /**
   * Where a request for `path` (leading slash) is redirected: a path or URL, null for nowhere, and
   * undefined when the patterns left to try are more than this reader runs.
   */
  redirect(path: string): string | null | undefined {
    const request = removeTrailingSlash(path);
    if (this.#answers.has(request)) return this.#answers.get(request);
    const answer = this.#redirect(request);
    if (this.#answers.size < 100_000) this.#answers.set(request, answer);
    return answer;
  }

  #redirect(request: string): string | null | undefined {
    const lower = request.toLowerCase();
    const exact = this.#exact.get(lower);
    let best: { order: number; destination: string; params: Record<string, string> } | null =
      exact === undefined ? null : { ...exact, params: {} };
    for (const pattern of this.#patterns) {
      if (best !== null && pattern.order > best.order) break;
      if (!lower.startsWith(pattern.prefix)) continue;
      this.#charactersLeft -= request.length;
      if (this.#charactersLeft < 0) return undefined;
      const matcher = pattern.matcher.matcher(request);
      if (!matcher.matches()) continue;
      const params: Record<string, string> = {};
      for (const [index, key] of pattern.keys.entries()) {
        const value = matcher.group(index + 1);
        if (value !== null && value !== undefined) params[String(key.name)] = value;
      }
      best = { order: pattern.order, destination: pattern.destination, params };
      break;
    }
    if (best === null) return null;
    let destination = best.destination.trim();
    if (Object.keys(best.params).length > 0) {
      try {
        destination = compile(destination, { validate: false, encode: (value) => value })(best.params);
      } catch {
        // An uncompilable destination is used as written.
      }
    }
    if (!destination.startsWith('/') && !/^https?:\/\//i.test(destination)) return null;
    if (removeTrailingSlash(destination) === request) return null;
    return destination;
  }
}

function removeTrailingSlash(path: string): string {
  return path.length > 1 ? path.replace(/\/+$/, '') : path;
}

function joinPaths(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}
