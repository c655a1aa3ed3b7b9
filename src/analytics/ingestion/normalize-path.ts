/**
 * Page path normalisation (DESIGN.md §4): every way a page can be asked for becomes one stored path.
 * Query and fragment are dropped, a full URL keeps only its path, `.` and `..` segments are resolved
 * (never above `/`), repeated and trailing slashes removed, percent-encoding made canonical (unreserved
 * characters decoded, everything else upper-case `%XX`, so `/` and `\` inside a segment stay encoded),
 * and `/page.md` (or `/page/index.md`) maps to the page it renders, remembered as a Markdown fetch.
 *
 * Input is hostile: anything that cannot be stored safely (control characters, invalid
 * percent-encoding or UTF-8, absurd length) is rejected with a reason, never thrown.
 */

export const maximumRawPathLength = 8192;
export const maximumPathLength = 2048;

export type NormalizedPath = { ok: true; path: string; markdown: boolean } | { ok: false; reason: string };

// Already canonical: slash-separated segments of characters that never need encoding, none starting
// with a dot (so no `.`/`..` segments), no empty segments. Most real paths take this branch.
const canonicalPattern = /^(?:\/[A-Za-z0-9\-_~!$&'()*+,;=:@][A-Za-z0-9\-._~!$&'()*+,;=:@]*)+$/;
// Characters in a path that stay literal after canonicalisation: RFC 3986 `pchar` minus `%`.
const literalSubDelimiters = /%(24|26|2B|2C|3B|3D|3A|40)/g;
// C0 controls, DEL and C1 controls.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const controlCharacter = /[\u0000-\u001f\u007f-\u009f]/;
const utf8 = new TextDecoder('utf-8', { fatal: true });
const utf8Encoder = new TextEncoder();

export function normalizePath(input: unknown): NormalizedPath {
  if (typeof input !== 'string') return reject('path must be a string');
  if (input.length === 0) return reject('path must not be empty');
  if (input.length > maximumRawPathLength)
    return reject(`path is longer than ${maximumRawPathLength} characters`);
  if (controlCharacter.test(input)) return reject('path contains control characters');

  const rawPath = pathPart(input);
  if (rawPath === undefined) return reject('path must start with / or be an http(s) URL');
  if (canonicalPattern.test(rawPath) && !/\.md$/i.test(rawPath)) return finish(rawPath, false);

  const segments: string[] = [];
  for (const rawSegment of rawPath.split('/')) {
    const decoded = decodeSegment(rawSegment);
    if (decoded === undefined) return reject('path has invalid percent-encoding');
    if (controlCharacter.test(decoded)) return reject('path contains encoded control characters');
    if (decoded === '' || decoded === '.') continue;
    if (decoded === '..') {
      segments.pop();
      continue;
    }
    segments.push(
      encodeURIComponent(decoded).replace(literalSubDelimiters, (escaped) => decodeURIComponent(escaped)),
    );
  }

  let markdown = false;
  const last = segments.at(-1);
  if (last !== undefined && /\.md$/i.test(last)) {
    markdown = true;
    const page = last.slice(0, -3);
    if (page === '' || page.toLowerCase() === 'index') segments.pop();
    else segments[segments.length - 1] = page;
  }
  return finish(`/${segments.join('/')}`, markdown);
}

function finish(path: string, markdown: boolean): NormalizedPath {
  if (path.length > maximumPathLength) return reject(`path is longer than ${maximumPathLength} characters`);
  return { ok: true, path, markdown };
}

function reject(reason: string): NormalizedPath {
  return { ok: false, reason };
}

/** The path of a path-with-query or a full http(s) URL, without query and fragment. */
function pathPart(input: string): string | undefined {
  if (input.startsWith('/')) {
    const end = input.search(/[?#]/);
    return end === -1 ? input : input.slice(0, end);
  }
  if (!/^https?:\/\//i.test(input)) return undefined;
  const url = URL.parse(input);
  return url === null ? undefined : url.pathname;
}

/** Percent-decodes one segment into text; `undefined` for a bad escape or bytes that are not UTF-8. */
function decodeSegment(segment: string): string | undefined {
  if (!segment.includes('%')) return segment;
  const bytes: number[] = [];
  for (let index = 0; index < segment.length; index += 1) {
    const character = segment[index] as string;
    if (character === '%') {
      const hex = segment.slice(index + 1, index + 3);
      if (!/^[0-9A-Fa-f]{2}$/.test(hex)) return undefined;
      bytes.push(Number.parseInt(hex, 16));
      index += 2;
    } else {
      const codePoint = segment.codePointAt(index) as number;
      if (codePoint > 0xffff) index += 1;
      bytes.push(...utf8Encoder.encode(String.fromCodePoint(codePoint)));
    }
  }
  try {
    return utf8.decode(new Uint8Array(bytes));
  } catch {
    return undefined;
  }
}
