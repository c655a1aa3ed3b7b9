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
  let title: string | null = null;
  let paragraph: Array<{ text: string; line: number }> = [];
  let skipIndent: number | null = null;
  let literalAfter: number | null = null;
  // Named hyperlink targets (`.. _name: url`) are links only where the page refers to them (`name_`).
  const targets: Array<{ name: string; link: PageLink }> = [];
  const references = new Set<string>();

  const flush = () => {
    if (paragraph.length === 0) return;
    readInline(paragraph, links, sphinx.labels, references);
    const last = paragraph.at(-1)?.text ?? '';
    if (/::\s*$/.test(last)) literalAfter = indentOf(paragraph[0]?.text ?? '');
    paragraph = [];
  };

  sphinx.orphan = readsOrphan(lines);
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index] ?? '';
    const blank = line.trim() === '';
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
    const section = paragraph.length === 0 ? readSection(lines, index) : null;
    if (section !== null) {
      sphinx.sections.push(section.title);
      title ??= section.title;
      readInline(
        [{ text: section.title, line: index + 1 + section.titleOffset }],
        links,
        sphinx.labels,
        references,
      );
      index = section.end;
      continue;
    }
    if (!explicitMarkupPattern.test(line)) {
      paragraph.push({ text: line, line: index + 1 });
      continue;
    }
    flush();
    const directive = directivePattern.exec(line);
    if (directive !== null) {
      index = readDirective(lines, index, directive, links, sphinx, (indent) => {
        skipIndent = indent;
      });
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
  return { frontMatter: null, title, links, sphinx };
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
function readSection(
  lines: readonly string[],
  index: number,
): { title: string; titleOffset: number; end: number } | null {
  const line = lines[index] ?? '';
  const next = lines[index + 1] ?? '';
  const overline = adornmentPattern.exec(line);
  if (overline !== null) {
    const text = next.trim();
    const under = lines[index + 2] ?? '';
    if (text === '' || adornmentPattern.exec(under)?.[1] !== overline[1]) return null;
    return { title: text, titleOffset: 1, end: index + 2 };
  }
  if (/^\s/.test(line)) return null;
  const underline = adornmentPattern.exec(next);
  const text = line.trim();
  // docutils takes a shorter underline for a title only from four characters on.
  if (underline === null || (next.trim().length < text.length && next.trim().length < 4)) return null;
  return { title: text, titleOffset: 0, end: index + 1 };
}

function readInline(
  paragraph: ReadonlyArray<{ text: string; line: number }>,
  links: PageLink[],
  labels: string[],
  references: Set<string>,
): void {
  const joined = paragraph.map((part) => part.text).join('\n');
  if (joined.includes('_')) {
    for (const match of joined.matchAll(referencePattern))
      references.add(normalizeLabel(match[1] ?? match[2] ?? ''));
  }
  if (!joined.includes('`')) return;
  // Inline literals hold no markup: blanked, keeping offsets.
  const text = joined.replace(/``[\s\S]+?``/g, (literal) => literal.replace(/[^\n]/g, ' '));
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
  for (const match of text.matchAll(rolePattern)) {
    const content = (match[4] ?? '').replace(/\s+/g, ' ').trim();
    const explicit = /^(.*?)\s*<([^<]*)>$/s.exec(content);
    const target = (explicit?.[2] ?? content).trim();
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
