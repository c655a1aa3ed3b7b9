import { attributeAnchor, cachedAnchors, maximumCharacters, type PageAnchors } from './heading-anchors.ts';
import { frontMatterPattern, markFencedLines } from './page-facts.ts';

const maximumHeadings = 5_000;
// attr_list (https://python-markdown.github.io/extensions/attr_list/): `{: #id .class key=value }`.
// No class crosses its own opening character, so a line of unclosed ones is read in linear time.
const attributeList = /\{:?([^{}\n]*)\}/g;
const footnote = /\[\^([^\][\s]+)\]/g;
const emojiShortcode = /:[a-z0-9_+-]+:/g;
const image = /!\[([^\][]*)\]\([^()]*\)/g;
const link = /\[([^\][]*)\](?:\([^()]*\)|\[[^\][]*\])?/g;
// What makes a page's anchors unknowable from its text: pymdownx.snippets includes (`--8<--`, any
// number of dashes), mkdocstrings' `::: identifier` blocks, Jinja of the macros plugin, markdown-exec.
const generated = /^[ \t]*;?-+8<-+|^[ \t]*:::[ \t]+\S|\{\{|\{%|exec="(?:on|1|true)"/m;
// A heading inside a blockquote or a list item is a heading too (Python-Markdown parses their content).
const containerPrefix = /^(?:>[ \t]?|(?:[-*+]|\d+[.)])[ \t]+)+/;

/**
 * The anchors a Python-Markdown page gets under MkDocs or Zensical, which both check a link's
 * fragment against the ids of its target page's rendered HTML (Zensical's
 * collectors/anchors.py: every `id` and `<a name>`; MkDocs 1.6's `validation.anchors`). Read from
 * the text, generously, so that no anchor the build makes is missed:
 * - headings, ATX (`#` with or without a space, at any indentation, in blockquotes and list items:
 *   admonitions and tabs indent their content), setext and `<h2 markdown>`, outside fenced code,
 *   each with its attr_list `{#id}` or the toc extension's slug of its text
 *   (https://python-markdown.github.io/extensions/toc/): Python-Markdown's default `slugify` and
 *   pymdownx.slugs' (Unicode; lower-cased, ASCII-lower-cased or not) all count, with the text read
 *   with and without emphasis markers, emoji shortcodes, smart symbols and image descriptions; toc's
 *   `unique` replayed against every id of the page (`_1`, `_2`);
 * - every attr_list id (`#id`, `id=...`), `id`/`name` attribute, pymdownx.blocks id and footnote
 *   (`fn:x`, `fnref:x`), anywhere;
 * - pymdownx.tabbed's ids: each tab title's slug, alone and after its heading's (`combine_header_slug`).
 * Ids a build numbers for itself (`__tabbed_1_2`, `__codelineno-0-3`) are known by their `__` prefix.
 * Incomplete when the page includes or generates content (snippets, mkdocstrings, macros,
 * markdown-exec) or holds more headings than are read.
 */
export function readPythonMarkdownAnchors(text: string): PageAnchors {
  if (text.length > maximumCharacters || generated.test(text)) return { anchors: new Set(), complete: false };
  return cachedAnchors('python-markdown', text, () => readAnchors(text));
}

function readAnchors(text: string): PageAnchors {
  const frontMatter = frontMatterPattern.exec(text)?.[0] ?? '';
  const body = text.slice(frontMatter.length);
  const lines = body.split('\n');
  const code = new Set<number>();
  markFencedLines(body, code);
  const anchors = new Set<string>();
  // Headings' texts in order, each with the tab titles written under it; ids are given after the
  // page's other ids are known, as toc's `unique` starts from every id already in the page.
  const headings: Array<{ written: string; tabs: string[] }> = [];
  let complete = true;
  const addHeading = (written: string) => {
    if (headings.length >= maximumHeadings) complete = false;
    else headings.push({ written, tabs: [] });
  };
  for (const [index, raw] of lines.entries()) {
    if (code.has(index)) continue;
    const line = raw.trim().replace(containerPrefix, '');
    const hashes = /^(#{1,6})(.*)$/.exec(line);
    if (hashes !== null) addHeading((hashes[2] ?? '').replace(/^#+/, '').replace(/[ \t]#+[ \t]*$/, ''));
    else if (/^(=+|-+)$/.test(raw.trim()) && index > 0 && !code.has(index - 1)) {
      const previous = (lines[index - 1] ?? '').trim();
      if (previous !== '') addHeading(previous);
    }
    const html = /<h[1-6][^<>]*>([^<]*)<\/h[1-6]>/i.exec(line);
    if (html !== null) addHeading(html[1] ?? '');
    const tab = /^===\+?[ \t]+"([^"]*)"/.exec(line);
    if (tab !== null) headings.at(-1)?.tabs.push(tab[1] ?? '');
    readElementIds(raw, anchors);
  }
  const used = new Set(anchors);
  const lastNumbers = new Map<string, number>();
  for (const { written, tabs } of headings) {
    const { title, id } = splitAttributeList(written);
    const slugs = id === null ? headingSlugs(title) : [id];
    // Each reading alone, and as toc's `unique` would make it among the ids before it.
    for (const slug of id === null ? slugs : [...slugs, ...headingSlugs(title)]) anchors.add(slug);
    for (const slug of slugs) {
      const unique = uniqueId(slug, used, lastNumbers);
      used.add(unique);
      anchors.add(unique);
    }
    for (const tab of tabs) {
      for (const tabSlug of headingSlugs(tab)) {
        anchors.add(tabSlug);
        for (const slug of slugs) anchors.add(`${slug}-${tabSlug}`);
      }
    }
  }
  return { anchors, complete, knownPrefixes: ['__'] };
}

/** Ids written on one line: attr_list lists, `id`/`name` attributes, pymdownx.blocks ids, footnotes. */
function readElementIds(raw: string, anchors: Set<string>): void {
  if (raw.includes('{')) {
    for (const match of raw.matchAll(attributeList)) {
      for (const id of (match[1] ?? '').matchAll(/(?:^|\s)(?:#|id=["']?)([^\s}"']+)/g))
        anchors.add(id[1] ?? '');
    }
  }
  if (raw.includes('=')) {
    for (const match of raw.matchAll(attributeAnchor)) anchors.add(match[1] ?? match[2] ?? match[3] ?? '');
  }
  // pymdownx.blocks: `attrs: {id: x}` under a block, or `/// html | div#x`.
  const blockId =
    /^[ \t]*attrs:.*\bid:[ \t]*["']?([\w:.-]+)|^[ \t]*\/{3,}[ \t]*html[ \t]*\|[ \t]*[\w-]*#([\w:.-]+)/.exec(
      raw,
    );
  if (blockId !== null) anchors.add(blockId[1] ?? blockId[2] ?? '');
  if (raw.includes('[^')) {
    for (const match of raw.matchAll(footnote)) {
      anchors.add(`fn:${match[1]}`);
      anchors.add(`fnref:${match[1]}`);
    }
  }
}

/**
 * toc's `unique`: an id taken (or empty) gets `_1`, and `x_1` becomes `x_2`. The last number given
 * for each base is kept, so a page of a thousand equal headings is not rescanned from `_1` each time.
 */
function uniqueId(slug: string, used: ReadonlySet<string>, last: Map<string, number>): string {
  if (slug !== '' && !used.has(slug)) return slug;
  const numbered = /^(.*)_([0-9]+)$/.exec(slug);
  const base = numbered?.[1] ?? slug;
  let count = Math.max(last.get(base) ?? 0, Number(numbered?.[2] ?? 0)) + 1;
  while (used.has(`${base}_${count}`)) count += 1;
  last.set(base, count);
  return `${base}_${count}`;
}

/** The heading text and the id of an attr_list written after it (`## Title {#custom .class}`). */
function splitAttributeList(written: string): { title: string; id: string | null } {
  const open = written.lastIndexOf('{');
  // Python-Markdown wants a space before a heading's attr_list (`## Title{#id}` is all text).
  if (open < 1 || !/[ \t]/.test(written[open - 1] ?? '') || !/\}[ \t]*$/.test(written))
    return { title: written.trim(), id: null };
  const list = written.slice(open);
  if (!/^\{:?[^{}]*\}[ \t]*$/.test(list)) return { title: written.trim(), id: null };
  const id = /(?:\{:?|\s)(?:#|id=["']?)([^\s}"']+)/.exec(list)?.[1] ?? null;
  return { title: written.slice(0, open).trim(), id };
}

/**
 * The slugs a heading's text may get: each reading of its inline Markdown, by each slugify. toc
 * slugs the text as rendered, its tags stripped and entities decoded after (toc.py: footnote
 * references dropped, `strip_tags`, `html.unescape`): a code span's `<div>` is text.
 */
function headingSlugs(title: string): string[] {
  // A code span's text is literal: its `<` and `>` are escaped before tags go, and decoded after.
  const codeEscaped = title
    .replace(footnote, '')
    .replace(/`+(?:#!\w+[ \t]+)?([^`]*)`+/g, (_span, content: string) =>
      content.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;'),
    );
  const plain = stripTags(codeEscaped)
    .replace(/\\([\\`*_{}[\]()#+\-.!])/g, '$1')
    .replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (_entity, name: string) => decodeEntity(name));
  const readings = new Set<string>();
  for (const images of [plain.replace(image, ''), plain.replace(image, '$1')]) {
    const linked = images.replace(link, '$1');
    const unemphasized = linked
      .replace(/(\*{1,3}|~~|==|\^\^)(?=\S)|(?<=\S)(\*{1,3}|~~|==|\^\^)/g, '')
      // `_` is emphasis only at a word's edge (Python-Markdown's smart emphasis): `my_var` keeps it.
      .replace(/(?<![\p{L}\p{N}])_{1,3}(?=\S)|(?<=\S)_{1,3}(?![\p{L}\p{N}])/gu, '');
    for (const emphasis of [linked, unemphasized]) {
      readings.add(emphasis);
      readings.add(emphasis.replace(emojiShortcode, ''));
      // pymdownx.smartsymbols (a Zensical default) turns these into symbols, which slugs drop.
      readings.add(
        emphasis.replace(emojiShortcode, '').replace(/\((?:c|r|tm)\)|c\/o|\+\/-|=\/=|-->|<--/gi, ''),
      );
    }
  }
  const slugs = new Set<string>();
  for (const reading of readings) {
    slugs.add(defaultSlug(reading));
    // pymdownx.slugs: NFC, Python's `\w` (letters, digits, `_`), `-` and spaces kept, each space a `-`.
    const unicode = reading
      .normalize('NFC')
      .replace(/\s+/g, ' ')
      .trim()
      .replace(/[^\p{L}\p{N}_\- ]/gu, '');
    slugs.add(unicode.replaceAll(' ', '-'));
    slugs.add(unicode.toLowerCase().replaceAll(' ', '-'));
    slugs.add(unicode.replace(/[A-Z]/g, (letter) => letter.toLowerCase()).replaceAll(' ', '-'));
  }
  return [...slugs];
}

/** Tags removed as Python-Markdown's `strip_tags` does: from each `<` to the next `>`, scanned once. */
function stripTags(text: string): string {
  let result = '';
  let from = 0;
  for (let open = text.indexOf('<'); open >= 0; open = text.indexOf('<', from)) {
    const close = text.indexOf('>', open);
    if (close < 0) break;
    result += text.slice(from, open);
    from = close + 1;
  }
  return result + text.slice(from);
}

const namedEntities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** An HTML entity's character; a named one not listed is a symbol, which every slugify drops. */
function decodeEntity(name: string): string {
  if (name.startsWith('#')) {
    const code = /^#x/i.test(name) ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
    return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
  }
  return namedEntities[name.toLowerCase()] ?? '';
}

/**
 * Python-Markdown's `toc.slugify`: NFKD, ASCII only, characters other than word characters, spaces
 * and `-` dropped, trimmed, lower-cased, runs of spaces and `-` made one `-`.
 */
function defaultSlug(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[^ -~\t\n]/g, '')
    .replace(/[^\w\s-]/g, '')
    .trim()
    .toLowerCase()
    .replace(/[-\s]+/g, '-');
}
