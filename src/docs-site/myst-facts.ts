import { normalizeLabel } from './rst-facts.ts';
import type { PageFacts, PageLink, SphinxPageFacts } from './site-model.ts';

// Directives whose content is code or data (https://myst-parser.readthedocs.io/en/latest/syntax/code_and_apis.html).
const literalDirectives = new Set([
  'code-block',
  'code',
  'sourcecode',
  'code-cell',
  'literalinclude',
  'math',
  'raw',
  'doctest',
  'testcode',
  'testoutput',
  'ipython',
  'jupyter-execute',
  'mermaid',
  'graphviz',
  'csv-table',
  'eval-rst',
  // mystmd's example: MyST source shown beside its rendering (https://mystmd.org/guide/directives).
  'myst',
]);
// A fence and its info string; a directive's is `{name} argument`.
const fencePattern = /^(\s{0,3})(`{3,}(?=[^`]*$)|~{3,}|:{3,})(.*)$/;
const directivePattern = /^\s*\{([\w:.+-]+)\}(.*)$/;
const rolePattern = /^\{(?:std:)?(doc|ref|numref|download)\}`([^`]+)`$/;
const labelPattern = /^\s{0,3}\(([^()\s][^()]*)\)=\s*$/;
const headingPattern = /^\s{0,3}#{1,6}\s+(.*)$/;
const optionPattern = /^\s*:([\w-]+):(?:\s+(.*))?$/;
const commentPattern = /^\s{0,3}%/;
// A code fence inside a list item (after its markers, or indented under it) or an indented code block
// that shows one: code either way, where no role is read (jupyter-book's cheatsheet shows roles so).
// Indentation comes once, before the markers: spaces split between two quantifiers backtracked.
const nestedFencePattern =
  /^[ \t]*(?:(?:[*+-]|\d{1,9}[.)])[ \t]+)+(`{3,}|~{3,})([^`]*)$|^[ \t]{4,}(`{3,}|~{3,})([^`]*)$/;
// Directives nested deeper are not read for links: real pages nest a few; a hostile one, thousands.
const maximumNesting = 8;

/**
 * What Sphinx reads from a MyST Markdown page (https://myst-parser.readthedocs.io/en/latest/syntax/roles-and-directives.html)
 * besides its Markdown links (`commonmark` holds those): roles (`` {doc}`path` ``, `` {ref}`label` ``),
 * directives in fences (`` ```{toctree} ``, `` ```{image} path ``, `:::{note}` with the colon fence),
 * targets (`(label)=`), headings, and `orphan: true` in the front matter. The content of a directive
 * that is no code is Markdown, read for links too.
 */
export function readMystFacts(text: string, commonmark: (text: string) => PageFacts): PageFacts {
  const base = commonmark(text);
  const lines = text.split(/\r?\n/);
  // A line starting with `%` is a comment (https://myst-parser.readthedocs.io/en/latest/syntax/comments.html).
  const links: PageLink[] = base.links.filter((link) => !commentPattern.test(lines[link.line - 1] ?? ''));
  const sphinx: SphinxPageFacts = {
    toctrees: [],
    labels: [],
    sections: [],
    orphan: base.frontMatter?.orphan === true,
    generatedFolders: [],
  };
  readBlocks(lines, 0, { links, sphinx, commonmark, depth: 0 });
  links.sort((left, right) => left.line - right.line);
  return { ...base, links, sphinx };
}

/** What a page's reading collects, and how deep in directives it is. */
interface Reading {
  links: PageLink[];
  sphinx: SphinxPageFacts;
  commonmark: (text: string) => PageFacts;
  depth: number;
}

function readBlocks(lines: readonly string[], firstLine: number, reading: Reading): void {
  const { links, sphinx } = reading;
  let inFrontMatter = firstLine === 0 && /^---\s*$/.test(lines[0] ?? '');
  for (let index = inFrontMatter ? 1 : 0; index < lines.length; index += 1) {
    const line = lines[index] ?? '';
    if (inFrontMatter) {
      if (/^(---|\.\.\.)\s*$/.test(line)) inFrontMatter = false;
      continue;
    }
    if (commentPattern.test(line)) continue;
    const nested = nestedFencePattern.exec(line);
    if (nested !== null && !(nested[2] ?? nested[4] ?? '').trim().startsWith('{')) {
      index = closingFenceLine(lines, index, nested[1] ?? nested[3] ?? '```');
      continue;
    }
    const fence = fencePattern.exec(line);
    if (fence !== null) {
      index = readFence(lines, index, fence, firstLine, reading);
      continue;
    }
    const label = labelPattern.exec(line);
    if (label !== null) {
      sphinx.labels.push(normalizeLabel(label[1] ?? ''));
      continue;
    }
    const heading = headingPattern.exec(line);
    const title = headingText(heading?.[1] ?? '');
    if (title !== '') sphinx.sections.push(title);
    if (!line.includes('}`')) continue;
    for (const match of readRoles(line)) {
      const content = (match[2] ?? '').trim();
      const target = (/<([^<]*)>$/.exec(content)?.[1] ?? content).trim();
      if (target === '' || target.startsWith('!')) continue;
      links.push({ url: `{${match[1]}}\`${target}\``, line: firstLine + index + 1, kind: 'link' });
    }
  }
}

/**
 * The roles of a line, left to right: a backtick run is a role's content when `{name}` is right before
 * it, inline code otherwise (skipped to its closing run of the same length, as CommonMark reads it).
 */
function readRoles(line: string): RegExpExecArray[] {
  const roles: RegExpExecArray[] = [];
  let position = 0;
  while (position < line.length) {
    const tick = line.indexOf('`', position);
    if (tick < 0) break;
    const run = /^`+/.exec(line.slice(tick))?.[0] ?? '`';
    const before = /\{(?:std:)?([\w:-]+)\}$/.exec(line.slice(Math.max(0, tick - 40), tick));
    const close = line.indexOf(run, tick + run.length);
    if (close < 0) break;
    if (before !== null && run.length === 1) {
      const role = rolePattern.exec(line.slice(tick - before[0].length, close + 1));
      if (role !== null) roles.push(role);
    }
    position = close + run.length;
  }
  return roles;
}

/** The line that closes the code fence opened at `start` with `marker`; the last line when none does. */
function closingFenceLine(lines: readonly string[], start: number, marker: string): number {
  const character = marker[0] ?? '`';
  for (let index = start + 1; index < lines.length; index += 1) {
    const trimmed = (lines[index] ?? '').trim();
    if (trimmed.length >= marker.length && trimmed === character.repeat(trimmed.length)) return index;
  }
  // Never closed: the rest is code, and no later opener scans again.
  return lines.length - 1;
}

/** A heading's text without its closing `#` sequence, trimmed in one pass (no regex can backtrack). */
function headingText(text: string): string {
  let end = text.trimEnd().length;
  let hashes = end;
  while (hashes > 0 && text[hashes - 1] === '#') hashes -= 1;
  if (hashes < end && (hashes === 0 || /\s/.test(text[hashes - 1] ?? ''))) end = hashes;
  return text.slice(0, end).trim();
}

/** Reads one fence from `start` and returns the index of its last line. */
function readFence(
  lines: readonly string[],
  start: number,
  fence: RegExpExecArray,
  firstLine: number,
  reading: Reading,
): number {
  const { links, sphinx, commonmark } = reading;
  const marker = fence[2] ?? '```';
  const directive = directivePattern.exec(fence[3] ?? '');
  const name = directive?.[1]?.toLowerCase().replace(/^(std|rst|sphinx):/, '');
  const argument = (directive?.[2] ?? '').trim();
  const line = firstLine + start + 1;
  const isColon = marker.startsWith(':');
  // Where the fence closes (the end of the page if nowhere). A colon fence's content is read as
  // Markdown where it is, so only a colon toctree or code needs its end: scanning every colon fence
  // to its end and reading its lines again made `:::` lines quadratic.
  const findEnd = () => {
    let end = start + 1;
    while (end < lines.length) {
      const closing = /^\s*(`{3,}|~{3,}|:{3,})\s*$/.exec(lines[end] ?? '')?.[1];
      if (closing !== undefined && closing[0] === marker[0] && closing.length >= marker.length) break;
      end += 1;
    }
    return end;
  };
  // A colon fence without a directive is no fence at all; its lines are read as Markdown already.
  if (name === undefined) return isColon ? start : findEnd();
  const needsEnd = !isColon || name === 'toctree' || literalDirectives.has(name);
  const end = needsEnd ? findEnd() : lines.length;
  let body = start + 1;
  const options = new Map<string, string>();
  if (/^\s*---\s*$/.test(lines[body] ?? '')) {
    // Options as YAML between `---` lines.
    for (body += 1; body < end && !/^\s*---\s*$/.test(lines[body] ?? ''); body += 1) {
      const option = /^\s*([\w-]+)\s*:\s*(.*)$/.exec(lines[body] ?? '');
      if (option !== null) options.set((option[1] ?? '').toLowerCase(), (option[2] ?? '').trim());
    }
    body += 1;
  }
  for (; body < end; body += 1) {
    const option = optionPattern.exec(lines[body] ?? '');
    if (option === null) break;
    options.set((option[1] ?? '').toLowerCase(), (option[2] ?? '').trim());
  }
  const generated = options.get('toctree');
  if (name === 'autosummary' && generated !== undefined) sphinx.generatedFolders.push(generated);
  // Sphinx names a directive's target with `:name:`; mystmd with `:label:`.
  const label = options.get('name') ?? options.get('label');
  if (label !== undefined && label !== '') sphinx.labels.push(normalizeLabel(label));
  if ((name === 'image' || name === 'figure') && argument !== '')
    links.push({ url: argument, line, kind: 'image' });
  if ((name === 'include' || name === 'literalinclude') && argument !== '')
    links.push({ url: argument, line, kind: 'import' });
  if (name === 'toctree') {
    const entries: Array<{ reference: string; line: number }> = [];
    for (let entry = body; entry < end; entry += 1) {
      const reference = (lines[entry] ?? '').trim();
      if (reference !== '' && !reference.startsWith('#'))
        entries.push({ reference, line: firstLine + entry + 1 });
    }
    sphinx.toctrees.push({ line, glob: options.has('glob'), entries });
  } else if (!literalDirectives.has(name) && !isColon && body < end && reading.depth < maximumNesting) {
    // A directive's content is Markdown: its links are the page's (colon fences were read as Markdown).
    const content = lines.slice(body, end);
    const offset = firstLine + body;
    for (const link of commonmark(content.join('\n')).links) {
      if (!commentPattern.test(content[link.line - 1] ?? ''))
        links.push({ ...link, line: link.line + offset });
    }
    readBlocks(content, offset, { ...reading, depth: reading.depth + 1 });
  } else if (isColon && !literalDirectives.has(name)) {
    // The content of a colon fence that is no code is the page's Markdown, read where it is.
    return body - 1;
  }
  return end;
}
