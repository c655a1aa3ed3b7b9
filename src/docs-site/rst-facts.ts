import type { PageFacts, PageLink, SphinxPageFacts } from './site-model.ts';

/**
 * Directives whose content is code or data, never reStructuredText: a role or link written there is
 * an example. Sphinx's and docutils' own, and those of the common extensions (doctest, IPython,
 * Jupyter, plots, diagrams).
 */
const literalDirectives = new Set([
  'code-block',
  'code',
  'sourcecode',
  'literalinclude',
  'highlight',
  'math',
  'raw',
  'doctest',
  'testcode',
  'testoutput',
  'testsetup',
  'testcleanup',
  'ipython',
  'jupyter-execute',
  'code-cell',
  'plot',
  'graphviz',
  'graph',
  'digraph',
  'mermaid',
  'uml',
  'csv-table',
  'productionlist',
  'prompt',
  'parsed-literal',
  'tab-set-code',
  'program-output',
  'command-output',
  'autoprogram',
]);
// Directives whose first argument is a file or image path, relative to the page (`/`: the source folder).
const imageDirectives = new Set(['image', 'figure', 'thumbnail']);
const includeDirectives = new Set(['include', 'literalinclude']);

// `.. name:: argument`, also as a substitution definition (`.. |logo| image:: logo.png`).
const directivePattern = /^(\s*)\.\.\s+(?:\|[^|]+\|\s+)?([A-Za-z0-9][\w:.+-]*)::(?:\s+(.*))?$/;
// `.. _label:`, `.. _`label: with colon`:`, `.. _name: https://...`, anonymous `.. __: url`: read
// by `readTarget`, without a pattern that could backtrack over a long line.
const targetStart = /^\s*\.\.\s+_/;
const footnotePattern = /^(\s*)\.\.\s+\[[^\]]+\](?:\s+(.*))?$/;
const explicitMarkupPattern = /^(\s*)\.\.(?:\s|$)/;
const optionPattern = /^\s+:([\w-]+):(?:\s+(.*))?$/;
// A section's underline or overline: one punctuation character repeated (docutils' adornment characters).
const adornmentPattern = /^([!-/:-@[-`{-~])\1+\s*$/;
// `:role:`text``, `:domain:role:`text``; `text <target>` inside. Only the roles Sphinx resolves to pages,
// labels and files are read.
const rolePattern = /(^|[\s(['"{<\-/:])(:(?:std:)?(doc|ref|numref|download):)`((?:[^`\\]|\\[\s\S])+)`/g;
// `` `text <url>`_ `` and anonymous `` `text <url>`__ ``: an embedded URI (a `name_` inside is a reference).
const embeddedUriPattern = /(^|[^:\w`])`((?:[^`\\<]|\\[\s\S])*)<([^<>`]+)>`__?(?![\w])/g;
const inlineTargetPattern = /_`([^`]+)`/g;
// A reference to a named target: `` `two words`_ `` or `word_`.
const referencePattern = /`([^`<]+)`_(?!_)|(?<![\w.+`-])([\w][\w.+-]*)_(?![\w_])/g;

/**
 * The links, labels, toctrees and sections of a reStructuredText page, read the way docutils and
 * Sphinx read them (https://docutils.sourceforge.io/docs/ref/rst/restructuredtext.html): explicit
 * markup (`..`) starts a directive, a target, a footnote or a comment; an indented block after `::`
 * and the content of code directives are literal; comments and literals hold no links.
 */
export function readRstFacts(text: string): PageFacts {
  const lines = text.split(/\r?\n/);
  const links: PageLink[] = [];
  const sphinx: SphinxPageFacts = {
    toctrees: [],
    labels: [],
    sections: [],
    orphan: false,
    generatedFolders: [],
  };
  const warnings: Array<{ line: number; message: string }> = [];
  const warn = (line: number, message: string) => warnings.push({ line, message });
  let title: string | null = null;
  let paragraph: Array<{ text: string; line: number }> = [];
  let skipIndent: number | null = null;
  let literalAfter: number | null = null;
  // Named hyperlink targets (`.. _name: url`) are links only where the page refers to them (`name_`).
  const targets: Array<{ name: string; link: PageLink }> = [];
  const references = new Set<string>();

  // The explicit markup block being read (a directive, target, comment), to tell how it ends.
  let explicit: { indent: number; lastBlank: boolean } | null = null;

  const flush = () => {
    if (paragraph.length === 0) return;
    readInline(paragraph, links, sphinx.labels, references, warn);
    const last = paragraph.at(-1)?.text ?? '';
    if (/::\s*$/.test(last)) literalAfter = indentOf(paragraph[0]?.text ?? '');
    paragraph = [];
  };

  sphinx.orphan = readsOrphan(lines);
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index] ?? '';
    const blank = line.trim() === '';
    if (explicit !== null) {
      if (blank) explicit.lastBlank = true;
      else if (indentOf(line) > explicit.indent) explicit.lastBlank = false;
      else {
        // docutils' unindent_warning: the block must end with a blank line (or another `..`). Only
        // a line at the block's own indent is sure to be in its container (not a next list item).
        if (!explicit.lastBlank && indentOf(line) === explicit.indent && !explicitMarkupPattern.test(line))
          warn(index + 1, 'Explicit markup ends without a blank line; unexpected unindent.');
        explicit = null;
      }
    }
    if (skipIndent !== null) {
      if (blank || indentOf(line) > skipIndent) continue;
      skipIndent = null;
    }
    if (blank) {
      flush();
      continue;
    }
    if (literalAfter !== null) {
      const base = literalAfter;
      literalAfter = null;
      if (indentOf(line) > base) {
        skipIndent = base;
        continue;
      }
    }
    // A table's cells are text (a cell may hold `..`): each row is read on its own, and a cell's
    // text may go on in the next row's line, so an unclosed start there is not warned about.
    const tableEnd = paragraph.length === 0 ? findTableEnd(lines, index) : null;
    if (tableEnd !== null) {
      for (let row = index; row <= tableEnd; row += 1)
        readInline([{ text: lines[row] ?? '', line: row + 1 }], links, sphinx.labels, references, () => {});
      index = tableEnd;
      continue;
    }
    // docutils tries explicit markup before section adornments: `..` alone is a comment.
    const isExplicit = explicitMarkupPattern.test(line);
    const section = paragraph.length === 0 && !isExplicit ? readSection(lines, index) : null;
    if (section !== null) {
      sphinx.sections.push(section.title);
      title ??= section.title;
      if (section.warning !== undefined) warn(section.warning.line, section.warning.message);
      readInline(
        [{ text: section.title, line: index + 1 + section.titleOffset }],
        links,
        sphinx.labels,
        references,
        warn,
      );
      index = section.end;
      continue;
    }
    if (!isExplicit) {
      paragraph.push({ text: line, line: index + 1 });
      continue;
    }
    flush();
    explicit = { indent: indentOf(line), lastBlank: false };
    const directive = directivePattern.exec(line);
    if (directive !== null) {
      index = readDirective(lines, index, directive, links, sphinx, (indent) => {
        skipIndent = indent;
      });
      explicit = { indent: indentOf(line), lastBlank: (lines[index] ?? '').trim() === '' };
      continue;
    }
    const target = readTarget(line);
    if (target !== null) {
      const { name } = target;
      let url = target.url;
      // A URL may go on over indented lines.
      while (
        url !== '' &&
        indentOf(lines[index + 1] ?? '') > indentOf(line) &&
        (lines[index + 1] ?? '').trim() !== ''
      ) {
        index += 1;
        url += (lines[index] ?? '').trim();
      }
      if (url === '' || /^`?[^\s`]+`?_$/.test(url)) {
        if (name !== '_') sphinx.labels.push(normalizeLabel(name));
      } else {
        // docutils joins a URI's lines and drops its whitespace.
        const link: PageLink = {
          url: url.replace(/\\(.)/g, '$1').replace(/\s+/g, ''),
          line: index + 1,
          kind: 'link',
        };
        targets.push({ name: name === '_' ? '_' : normalizeLabel(name), link });
      }
      continue;
    }
    const footnote = footnotePattern.exec(line);
    if (footnote !== null) {
      if (footnote[2] !== undefined) paragraph.push({ text: footnote[2], line: index + 1 });
      continue;
    }
    // A comment: its first line and everything indented below it.
    skipIndent = indentOf(line);
  }
  flush();
  for (const { name, link } of targets) if (name === '_' || references.has(name)) links.push(link);
  links.sort((left, right) => left.line - right.line);
  return { frontMatter: null, title, links, sphinx, warnings };
}

function readDirective(
  lines: readonly string[],
  start: number,
  match: RegExpExecArray,
  links: PageLink[],
  sphinx: SphinxPageFacts,
  skipBody: (indent: number) => void,
): number {
  const indent = (match[1] ?? '').length;
  const name = (match[2] ?? '').toLowerCase().replace(/^(std|rst|sphinx):/, '');
  const argument = (match[3] ?? '').trim();
  const line = start + 1;
  let index = start;
  const options = new Map<string, string>();
  while (index + 1 < lines.length) {
    const option = optionPattern.exec(lines[index + 1] ?? '');
    if (option === null || indentOf(lines[index + 1] ?? '') <= indent) break;
    index += 1;
    options.set((option[1] ?? '').toLowerCase(), (option[2] ?? '').trim());
  }
  const generated = options.get('toctree');
  if (name === 'autosummary' && generated !== undefined) sphinx.generatedFolders.push(generated);
  const label = options.get('name');
  if (label !== undefined && label !== '') sphinx.labels.push(normalizeLabel(label));
  if (imageDirectives.has(name) && argument !== '') links.push({ url: argument, line, kind: 'image' });
  if (includeDirectives.has(name) && argument !== '' && !/^<.*>$/.test(argument))
    links.push({ url: argument, line, kind: 'import' });
  if (name === 'toctree') {
    const entries: Array<{ reference: string; line: number }> = [];
    let end = index;
    for (let body = index + 1; body < lines.length; body += 1) {
      const text = lines[body] ?? '';
      if (text.trim() === '') continue;
      if (indentOf(text) <= indent) break;
      end = body;
      const entry = text.trim();
      if (!entry.startsWith('..')) entries.push({ reference: entry, line: body + 1 });
    }
    sphinx.toctrees.push({ line, glob: options.has('glob'), entries });
    return end;
  }
  if (literalDirectives.has(name)) skipBody(indent);
  return index;
}

/** A hyperlink target's name and URL (empty for a label), or null when the line is no target. */
function readTarget(line: string): { name: string; url: string } | null {
  const start = targetStart.exec(line);
  if (start === null) return null;
  const rest = line.slice(start[0].length);
  let nameEnd: number;
  let name: string;
  if (rest.startsWith('`')) {
    const close = rest.indexOf('`', 1);
    if (close < 0 || rest[close + 1] !== ':') return null;
    name = rest.slice(1, close);
    nameEnd = close + 1;
  } else {
    nameEnd = rest.indexOf(':');
    if (nameEnd <= 0) return null;
    name = rest.slice(0, nameEnd).trim();
    if (name === '' || name.includes('`')) return null;
  }
  const url = rest.slice(nameEnd + 1);
  if (url !== '' && !/^\s/.test(url)) return null;
  return { name, url: url.trim() };
}

/** A section title at `index` (underlined, or over- and underlined), or null. */
/**
 * A section title at `index` (underlined, or over- and underlined), or null, with what docutils
 * warns about it (states.py `Line.underline`, `Line.text`): an adornment shorter than the title
 * (from four characters on; a shorter one makes no title), an overline unlike its underline.
 */
function readSection(
  lines: readonly string[],
  index: number,
): {
  title: string;
  titleOffset: number;
  end: number;
  warning?: { line: number; message: string };
} | null {
  const line = lines[index] ?? '';
  const next = lines[index + 1] ?? '';
  const overline = adornmentPattern.exec(line);
  if (overline !== null) {
    const text = next.trim();
    const under = lines[index + 2] ?? '';
    const underline = adornmentPattern.exec(under);
    if (text === '' || underline === null) return null;
    const section = { title: text, titleOffset: 1, end: index + 2 };
    if (underline[1] !== overline[1] || under.trimEnd().length !== line.trimEnd().length)
      return { ...section, warning: { line: index + 1, message: 'Title overline & underline mismatch.' } };
    if (line.trimEnd().length < columnWidth(next.trimEnd()))
      return { ...section, warning: { line: index + 1, message: 'Title overline too short.' } };
    return section;
  }
  if (/^\s/.test(line)) return null;
  const underline = adornmentPattern.exec(next);
  const text = line.trim();
  const width = next.trimEnd().length;
  if (underline === null || (width < columnWidth(line.trimEnd()) && width < 4)) return null;
  const section = { title: text, titleOffset: 0, end: index + 1 };
  // A title with template placeholders is measured after rendering (Jinja pages): not here.
  return width < columnWidth(line.trimEnd()) && !/\{\{|\{%/.test(text)
    ? { ...section, warning: { line: index + 2, message: 'Title underline too short.' } }
    : section;
}

/** The columns a line takes: East Asian wide and full-width characters take two (docutils' column_width). */
function columnWidth(text: string): number {
  let width = 0;
  for (const character of text) width += wideCharacter.test(character) ? 2 : 1;
  return width;
}
const wideCharacter =
  /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/u;

function readInline(
  paragraph: ReadonlyArray<{ text: string; line: number }>,
  links: PageLink[],
  labels: string[],
  references: Set<string>,
  warn: (line: number, message: string) => void,
): void {
  const joined = paragraph.map((part) => part.text).join('\n');
  if (joined.includes('_')) {
    for (const match of joined.matchAll(referencePattern))
      references.add(normalizeLabel(match[1] ?? match[2] ?? ''));
  }
  if (!joined.includes('`')) return;
  // Inline literals hold no markup: blanked, keeping offsets.
  // An end-string is not followed by another backtick: ``:role:`text``` ends after the role's own.
  const text = joined.replace(/``[\s\S]+?``(?!`)/g, (literal) => literal.replace(/[^\n]/g, ' '));
  // Where each of the paragraph's lines starts in `text`, for a match's line by bisection.
  const starts = [0];
  for (let position = text.indexOf('\n'); position >= 0; position = text.indexOf('\n', position + 1))
    starts.push(position + 1);
  const lineAt = (offset: number) => {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((starts[middle] ?? 0) <= offset) low = middle;
      else high = middle - 1;
    }
    return paragraph[low]?.line ?? paragraph[0]?.line ?? 1;
  };
  const unclosed = findUnclosedMarkup(text);
  if (unclosed !== null) warn(lineAt(unclosed.offset), unclosed.message);
  for (const match of text.matchAll(rolePattern)) {
    const content = (match[4] ?? '').replace(/\s+/g, ' ').trim();
    const target = (splitExplicitTitle(content)?.target ?? content).trim();
    // `!target` suppresses the reference.
    if (target === '' || target.startsWith('!')) continue;
    links.push({
      url: `:${match[3]}:\`${target}\``,
      line: lineAt((match.index ?? 0) + (match[1] ?? '').length),
      kind: 'link',
    });
  }
  for (const match of text.matchAll(embeddedUriPattern)) {
    const url = (match[3] ?? '').replace(/\s+/g, '');
    if (url.endsWith('_') && !url.includes('/')) continue;
    links.push({
      url: url.replace(/\\(.)/g, '$1'),
      line: lineAt((match.index ?? 0) + (match[1] ?? '').length),
      kind: 'link',
    });
  }
  for (const match of text.matchAll(inlineTargetPattern)) labels.push(normalizeLabel(match[1] ?? ''));
}

// What may come right before an inline markup start-string: docutils' openers and delimiters.
const startPrefix = /[\s\-/:'"<([{\u2018\u201c\u00ab]/;

/**
 * The first inline literal or interpreted text (a role's too) that starts and never ends in its
 * paragraph (`text` has its closed literals blanked), as docutils warns "Inline ... start-string
 * without end-string" (states.py `Inliner.inline_obj`, `interpreted_or_phrase_ref`). Only a start
 * with no backtick at all after it is reported, so no reading of docutils' finer rules can differ.
 */
function findUnclosedMarkup(text: string): { offset: number; message: string } | null {
  for (let position = text.indexOf('`'); position >= 0; position = text.indexOf('`', position + 1)) {
    const before = position === 0 ? ' ' : (text[position - 1] ?? ' ');
    const double = text[position + 1] === '`';
    const after = text[position + (double ? 2 : 1)] ?? '';
    const starts = startPrefix.test(before) && after !== '' && !/[\s`]/.test(after);
    const end = text.indexOf(double ? '``' : '`', position + (double ? 2 : 1));
    if (starts && end < 0)
      return {
        offset: position,
        message: double
          ? 'Inline literal start-string without end-string.'
          : 'Inline interpreted text or phrase reference start-string without end-string.',
      };
    if (end < 0) return null;
    position = end + (double ? 1 : 0);
  }
  return null;
}

const simpleTableBorder = /^\s*=+( +=+)+\s*$/;
const gridTableLine = /^\s*[+|]/;

/**
 * The last line of a table starting at `index`, or null: a simple table from its `===  ===` border
 * to the border followed by a blank line (or the end); a grid table while lines start with `+` or `|`.
 */
function findTableEnd(lines: readonly string[], index: number): number | null {
  const line = lines[index] ?? '';
  if (/^\s*\+[-=+]+\+\s*$/.test(line)) {
    let end = index;
    while (end + 1 < lines.length && gridTableLine.test(lines[end + 1] ?? '')) end += 1;
    return end;
  }
  if (!simpleTableBorder.test(line)) return null;
  for (let end = index + 1; end < lines.length; end += 1) {
    if (simpleTableBorder.test(lines[end] ?? '') && (lines[end + 1] ?? '').trim() === '') return end;
  }
  return lines.length - 1;
}

/** `:orphan:` in the field list that opens the page (https://www.sphinx-doc.org/en/master/usage/restructuredtext/field-lists.html). */
function readsOrphan(lines: readonly string[]): boolean {
  for (const line of lines) {
    if (/^:orphan:\s*$/.test(line)) return true;
    if (line.trim() === '' || /^:[\w-]+:/.test(line) || /^\s/.test(line) || /^\.\.(\s|$)/.test(line))
      continue;
    return false;
  }
  return false;
}

/** A label as docutils names it (`fully_normalize_name`): lower case, whitespace collapsed. */
export function normalizeLabel(label: string): string {
  return label.replace(/\\(.)/g, '$1').trim().replace(/\s+/g, ' ').toLowerCase();
}

function indentOf(line: string): number {
  return /^[ \t]*/.exec(line)?.[0].length ?? 0;
}

/**
 * `Title <target>` taken apart as Sphinx's `explicit_title_re` does (a title, then a target without
 * `<`), by position rather than by a pattern that backtracks over long runs of spaces. Null when the
 * text is no titled reference.
 */
export function splitExplicitTitle(text: string): { title: string; target: string; open: number } | null {
  if (!text.endsWith('>')) return null;
  const open = text.lastIndexOf('<', text.length - 2);
  if (open <= 0) return null;
  const title = text.slice(0, open).trimEnd();
  return title === '' ? null : { title, target: text.slice(open + 1, -1), open };
}
