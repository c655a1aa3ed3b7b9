import type { PageAnchors } from './heading-anchors.ts';
import { frontMatterPattern } from './page-facts.ts';

// A page this long is not read for its anchors; they are unknown.
const maximumCharacters = 512 * 1024;
const maximumHeadings = 5_000;
const attributeAnchor = /\b(?:id|name)\s*=\s*(?:"([^"\n]*)"|'([^'\n]*)')/g;
// attr_list (https://python-markdown.github.io/extensions/attr_list/): `{: #id .class }` or `{#id}`.
const attributeList = /\{:?[ \t]*([^{}\n]*)\}/g;
const footnote = /\[\^([^\][\s]+)\]/g;
const emojiShortcode = /:[a-z0-9_+-]+:/g;
// Inline images and links in a heading; no class crosses its own opening bracket, so each match
// attempt stops at the next one and a heading of unclosed brackets is read in linear time.
const image = /!\[([^\][]*)\]\([^()]*\)/g;
const link = /\[([^\][]*)\](?:\([^()]*\)|\[[^\][]*\])?/g;
// What makes a page's anchors unknowable from its text: pymdownx.snippets includes, mkdocstrings'
// `::: identifier` blocks (each object gets anchors), Jinja of the macros plugin, markdown-exec.
const generated = /^[ \t]*(?:-{2}8<-{2}|;-{2}8<-{2}|:::[ \t]+\S)|\{\{|\{%|exec="(?:on|1|true)"/m;

/**
 * The anchors a Python-Markdown page gets under MkDocs or Zensical, which both check a link's
 * fragment against the ids of its target page's rendered HTML (Zensical's
 * collectors/anchors.py: every `id` and `<a name>`; MkDocs 1.6's `validation.anchors`). Read from
 * the text, generously, so that no anchor the build makes is missed:
 * - headings, ATX (`#` with or without a space, at any indentation: admonitions and tabs indent
 *   their content) and setext, outside fenced code, each with its attr_list `{#id}` or the toc
 *   extension's slug of its text (https://python-markdown.github.io/extensions/toc/): Python-Markdown's
 *   default `slugify` and pymdownx.slugs' (Unicode, lower-cased or not) all count, with the text
 *   read with and without emphasis markers, emoji shortcodes and image descriptions; a repeated slug
 *   also counts with toc's `_1`, `_2` suffixes;
 * - every attr_list `#id`, `id`/`name` attribute and footnote (`fn:x`, `fnref:x`), anywhere;
 * - pymdownx.tabbed's ids: each tab title's slug, alone and after its heading's (`combine_header_slug`).
 * Ids a build numbers for itself (`__tabbed_1_2`, `__codelineno-0-3`) are known by their `__` prefix.
 * Unknown (null) when a custom `slugify` is configured; incomplete when the page includes or
 * generates content (snippets, mkdocstrings, macros, markdown-exec).
 */
export function readPythonMarkdownAnchors(text: string): PageAnchors {
  if (text.length > maximumCharacters || generated.test(text)) return { anchors: new Set(), complete: false };
  const frontMatter = frontMatterPattern.exec(text)?.[0] ?? '';
  const lines = text.slice(frontMatter.length).split('\n');
  const code = fencedLines(lines);
  const anchors = new Set<string>();
  const counts = new Map<string, number>();
  let headings = 0;
  let lastHeadingSlugs: string[] = [];
  const addHeading = (written: string) => {
    headings += 1;
    if (headings > maximumHeadings) return;
    const { title, id } = splitAttributeList(written);
    if (id !== null) anchors.add(id);
    const slugs = headingSlugs(title);
    for (const slug of slugs) {
      const seen = counts.get(slug) ?? 0;
      counts.set(slug, seen + 1);
      anchors.add(seen === 0 ? slug : `${slug}_${seen}`);
      // An empty slug is `_1` on its first use (toc's `unique`).
      if (slug === '') anchors.add(`_${seen + 1}`);
    }
    lastHeadingSlugs = id === null ? slugs : [id, ...slugs];
  };
  for (const [index, raw] of lines.entries()) {
    if (code.has(index)) continue;
    const line = raw.trim();
    const hashes = /^(#{1,6})(?!#)(.*)$/.exec(line);
    if (hashes !== null) addHeading((hashes[2] ?? '').replace(/[ \t]#+[ \t]*$|^#+$/, ''));
    else if (/^(=+|-+)$/.test(line) && index > 0 && !code.has(index - 1)) {
      const previous = (lines[index - 1] ?? '').trim();
      if (previous !== '' && !/^[-*+>|]|^\d+\./.test(previous)) addHeading(previous);
    }
    const tab = /^===\+?[ \t]+"([^"]*)"/.exec(line);
    if (tab !== null) {
      for (const slug of headingSlugs(tab[1] ?? '')) {
        anchors.add(slug);
        for (const heading of lastHeadingSlugs) anchors.add(`${heading}-${slug}`);
      }
    }
    if (line.includes('{')) {
      for (const match of raw.matchAll(attributeList)) {
        for (const id of (match[1] ?? '').matchAll(/(?:^|\s)#([^\s}]+)/g)) anchors.add(id[1] ?? '');
      }
    }
    if (line.includes('=')) {
      for (const match of raw.matchAll(attributeAnchor)) anchors.add(match[1] ?? match[2] ?? '');
    }
    if (line.includes('[^')) {
      for (const match of raw.matchAll(footnote)) {
        anchors.add(`fn:${match[1]}`);
        anchors.add(`fnref:${match[1]}`);
      }
    }
  }
  return { anchors, complete: true, knownPrefixes: ['__'] };
}

/** The heading text and the id of an attr_list written after it (`## Title {#custom .class}`). */
function splitAttributeList(written: string): { title: string; id: string | null } {
  const open = written.lastIndexOf('{');
  if (open < 0 || !/\}[ \t]*$/.test(written)) return { title: written.trim(), id: null };
  const list = written.slice(open);
  if (!/^\{:?[^{}]*\}[ \t]*$/.test(list)) return { title: written.trim(), id: null };
  const id = /(?:\{:?|\s)#([^\s}]+)/.exec(list)?.[1] ?? null;
  return { title: written.slice(0, open).trim(), id };
}

/** The slugs a heading's text may get: each reading of its inline Markdown, by each slugify. */
function headingSlugs(title: string): string[] {
  const plain = title
    .replace(/\\([\\`*_{}[\]()#+\-.!])/g, '$1')
    .replace(/`+([^`]*)`+/g, '$1')
    .replace(/<[^>]*>/g, '')
    .replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (_entity, name: string) => entities[name] ?? '');
  const readings = new Set<string>();
  for (const images of [plain.replace(image, ''), plain.replace(image, '$1')]) {
    const linked = images.replace(link, '$1');
    for (const emphasis of [
      linked,
      linked.replace(/(\*{1,3}|_{1,3}|~~|==|\^\^)(?=\S)|(?<=\S)(\*{1,3}|_{1,3}|~~|==|\^\^)/g, ''),
    ]) {
      readings.add(emphasis);
      readings.add(emphasis.replace(emojiShortcode, ''));
    }
  }
  const slugs = new Set<string>();
  for (const reading of readings) {
    slugs.add(defaultSlug(reading));
    const unicode = reading
      .normalize('NFC')
      .trim()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '');
    slugs.add(unicode.replaceAll(' ', '-'));
    slugs.add(unicode.toLowerCase().replaceAll(' ', '-'));
  }
  return [...slugs];
}

const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", nbsp: ' ' };

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

/**
 * Lines inside fenced code (``` or ~~~, at any indentation, closed by a fence of the same character
 * at least as long); a fence never closed is no fence (pymdownx.superfences renders it as text).
 */
function fencedLines(lines: readonly string[]): Set<number> {
  const code = new Set<number>();
  let open: { index: number; marker: string } | null = null;
  for (const [index, line] of lines.entries()) {
    const fence = /^[ \t]*(`{3,}|~{3,})/.exec(line)?.[1];
    if (open === null) {
      if (fence !== undefined) open = { index, marker: fence };
    } else if (
      fence !== undefined &&
      fence[0] === open.marker[0] &&
      fence.length >= open.marker.length &&
      line.trim() === fence
    ) {
      for (let inside = open.index; inside <= index; inside += 1) code.add(inside);
      open = null;
    }
  }
  return code;
}
