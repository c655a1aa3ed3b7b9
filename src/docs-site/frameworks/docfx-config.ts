import { type Node as JsonNode, type ParseError, parseTree, printParseErrorCode } from 'jsonc-parser';
import { RE2JS } from 're2js';
import { ConfigLines } from '../config-lines.ts';
import { expandBraces } from '../glob-braces.ts';
import { joinInside } from '../link-urls.ts';
import type { SiteProblem } from '../site-model.ts';

/** One `build.content` or `build.resource` entry: the files a glob set takes from `src`, written to `dest`. */
export interface DocfxFileMapping {
  /** The folder the globs are relative to, as a repository path; null when it leaves the repository. */
  src: string | null;
  /** The output folder of the files (their path below `src` is kept), '' for the site's root. */
  dest: string;
  matches(relativePath: string): boolean;
}

export interface DocfxConfig {
  content: DocfxFileMapping[];
  resource: DocfxFileMapping[];
  /** `build.overwrite`: Markdown merged into API pages, not published on its own. */
  overwrite: DocfxFileMapping[];
  /** `metadata[].dest`: the folders API pages are generated into, as repository paths. */
  apiFolders: string[];
  /** Those of them `outputFormat: markdown` writes Markdown pages into (the others get YAML). */
  apiMarkdownFolders: string[];
  /** Cross-reference maps (`build.xref`) or services (`build.xrefService`): uids defined outside the site. */
  externalXrefs: boolean;
  problems: SiteProblem[];
}

const maximumMappings = 100;
const maximumPatterns = 200;
const maximumPatternLength = 1_024;
const maximumAlternatives = 512;

/**
 * `docfx.json` as DocFX reads it (https://dotnet.github.io/docfx/reference/docfx-json-reference.html):
 * JSON with comments, `build.content` and `build.resource` as file mappings (an array of
 * `{files, exclude, src, dest}` objects or glob strings, one such object, or a glob string), globs
 * relative to `src` (the configuration's folder by default), `metadata` sections whose `dest` holds
 * generated API pages, and the cross-reference maps other sites' uids come from.
 */
export function readDocfxConfig(text: string, file: string, siteRoot: string): DocfxConfig {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  const lines = new ConfigLines(text);
  const problems: SiteProblem[] = errors.slice(0, 1).map((error) => ({
    file,
    line: lines.lineAt(error.offset),
    message: `${file} is not valid JSON: ${printParseErrorCode(error.error)}`,
    key: `configuration\0${printParseErrorCode(error.error)}`,
  }));
  const build = propertyOf(root, 'build');
  const mappings = (name: string) => readMappings(propertyOf(build, name), siteRoot);
  const apiFolders: string[] = [];
  const apiMarkdownFolders: string[] = [];
  const metadata = propertyOf(root, 'metadata');
  for (const section of metadata?.type === 'array' ? (metadata.children ?? []) : [metadata]) {
    const dest = propertyOf(section, 'dest');
    if (section === undefined) continue;
    // DocFX writes API pages to the configuration's folder when no `dest` is given (DotnetApiCatalog.cs).
    const folder = joinInside(siteRoot, typeof dest?.value === 'string' ? dest.value : '');
    if (folder === null) continue;
    apiFolders.push(folder);
    if (propertyOf(section, 'outputFormat')?.value === 'markdown') apiMarkdownFolders.push(folder);
  }
  const xref = propertyOf(build, 'xref');
  const xrefService = propertyOf(build, 'xrefService');
  return {
    content: mappings('content'),
    resource: mappings('resource'),
    overwrite: mappings('overwrite'),
    apiFolders,
    apiMarkdownFolders,
    externalXrefs: hasValue(xref) || hasValue(xrefService),
    problems,
  };
}

function propertyOf(node: JsonNode | undefined, name: string): JsonNode | undefined {
  if (node?.type !== 'object') return undefined;
  for (const property of node.children ?? []) {
    const [key, value] = property.children ?? [];
    if (key?.value === name) return value;
  }
  return undefined;
}

function hasValue(node: JsonNode | undefined): boolean {
  if (node === undefined || node.type === 'null') return false;
  if (node.type === 'array') return (node.children?.length ?? 0) > 0;
  return node.type !== 'string' || node.value !== '';
}

function strings(node: JsonNode | undefined): string[] {
  if (node?.type === 'string') return [node.value as string];
  if (node?.type !== 'array') return [];
  return (node.children ?? [])
    .filter((child) => child.type === 'string')
    .map((child) => child.value as string);
}

function readMappings(node: JsonNode | undefined, siteRoot: string): DocfxFileMapping[] {
  if (node === undefined) return [];
  const items = node.type === 'array' ? (node.children ?? []) : [node];
  // A list of glob strings is one mapping from the configuration's folder.
  const globs = items.filter((item) => item.type === 'string').map((item) => item.value as string);
  const mappings: DocfxFileMapping[] = [];
  if (globs.length > 0) mappings.push(mapping(siteRoot, '', globs, [], {}));
  for (const item of items.slice(0, maximumMappings)) {
    if (item.type !== 'object') continue;
    const src = propertyOf(item, 'src');
    const dest = propertyOf(item, 'dest');
    mappings.push(
      mapping(
        joinInside(siteRoot, typeof src?.value === 'string' ? src.value : ''),
        // `.`, `./x/` and `x/` are normalised as DocFX does (FileCollection.cs): `x`.
        (typeof dest?.value === 'string' ? joinInside('', dest.value.replace(/^\/+/, '')) : '') ?? '',
        strings(propertyOf(item, 'files')),
        strings(propertyOf(item, 'exclude')),
        {
          dot: propertyOf(item, 'dot')?.value === true,
          caseSensitive: propertyOf(item, 'case')?.value === true,
        },
      ),
    );
  }
  return mappings;
}

function mapping(
  src: string | null,
  dest: string,
  files: string[],
  exclude: string[],
  options: GlobOptions,
): DocfxFileMapping {
  const included = compileDocfxGlobs(files, options);
  const excluded = compileDocfxGlobs(exclude, options);
  return { src, dest, matches: (path) => included(path) && !excluded(path) };
}

/** A mapping's `dot` (names starting with a dot match `*` and `**` too) and `case` (case-sensitive). */
export interface GlobOptions {
  dot?: boolean;
  caseSensitive?: boolean;
}

/**
 * DocFX's globs (Docfx.Glob/GlobMatcher.cs, its default options): case-insensitive; `{a,b}`
 * alternatives; a `**` segment spans any folders, none too (`**.md` is `**` + `/` + `*.md`, `a**b`
 * is `a*b`); `*`, `?` and `[...]` within a segment; a wildcard never matches a name's leading dot
 * (nor does `**` cross a dot folder) unless the mapping sets `dot`. A list's patterns are one RE2
 * expression (repository content is hostile: no backtracking), of at most 200 patterns of 1 KiB and
 * 512 alternatives once braces are expanded; a negated pattern (`!x`) is not read.
 */
export function compileDocfxGlobs(
  patterns: readonly string[],
  options: GlobOptions = {},
): (path: string) => boolean {
  const leading = options.dot === true ? '[^/]' : '[^/.]';
  const expressions = patterns
    .slice(0, maximumPatterns)
    .filter((pattern) => pattern.length <= maximumPatternLength && !pattern.startsWith('!'))
    .flatMap((pattern) => expandBraces(pattern.replace(/^(\.\/)+/, ''), 64))
    .slice(0, maximumAlternatives)
    .map((pattern) => {
      const segments = pattern
        .split('/')
        .filter((segment) => segment !== '')
        .flatMap((segment) => {
          if (segment === '**' || !segment.includes('**')) return [segment];
          // `**.md` is `**/*.md`; `a**b` is `a*b`.
          const star = segment.replace(/\*{2,}/g, '*');
          return segment.startsWith('**') ? ['**', star] : [star];
        });
      let expression = '';
      for (const [index, segment] of segments.entries()) {
        const last = index === segments.length - 1;
        if (segment === '**')
          expression += last ? `(?:${leading}[^/]*/)*${leading}[^/]*` : `(?:${leading}[^/]*/)*`;
        else expression += `${segmentExpression(segment, leading)}${last ? '' : '/'}`;
      }
      return expression;
    });
  if (expressions.length === 0) return () => false;
  try {
    const flags = RE2JS.DOTALL | (options.caseSensitive === true ? 0 : RE2JS.CASE_INSENSITIVE);
    const regex = RE2JS.compile(`^(?:${expressions.join('|')})$`, flags);
    return (path) => regex.matches(path);
  } catch {
    return () => false;
  }
}

/** One segment's expression; a wildcard that starts it takes no leading dot unless `leading` allows one. */
function segmentExpression(segment: string, leading: string): string {
  let expression = '';
  for (let index = 0; index < segment.length; index += 1) {
    const character = segment[index] ?? '';
    if (character === '*') expression += index === 0 ? `(?:${leading}[^/]*)?` : '[^/]*';
    else if (character === '?') expression += index === 0 ? leading : '[^/]';
    else if (character === '\\' && index + 1 < segment.length) {
      index += 1;
      expression += (segment[index] ?? '').replace(/[.*+?()[\]{}|^$\\]/g, '\\$&');
    } else if (character === '[' && segment.indexOf(']', index + 2) > 0) {
      const close = segment.indexOf(']', index + 2);
      const inside = segment.slice(index + 1, close).replace(/\\/g, '\\\\');
      expression += `[${inside.startsWith('!') ? `^${inside.slice(1)}` : inside}]`;
      index = close;
    } else expression += character.replace(/[.+(){}|^$\\\]]/g, '\\$&');
  }
  return expression;
}
