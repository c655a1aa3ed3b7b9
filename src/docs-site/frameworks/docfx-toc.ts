import { RE2JS } from 're2js';
import { isMap, isScalar, isSeq, LineCounter, type Node, parseDocument } from 'yaml';
import type { SiteProblem } from '../site-model.ts';
import { yamlProblems } from './yaml-problems.ts';

/** One reference a table of contents makes: a file or folder (`href`, `topicHref`, `tocHref`) or a uid. */
export interface DocfxTocReference {
  key: 'href' | 'topicHref' | 'tocHref' | 'homepage' | 'uid' | 'topicUid';
  value: string;
  line: number;
  /** The names of the items above it. */
  groups: string[];
}

const referenceKeys = new Set<string>(['href', 'topicHref', 'tocHref', 'homepage', 'uid', 'topicUid']);
const maximumDepth = 32;
const maximumReferences = 20_000;

/**
 * A `toc.yml` (https://dotnet.github.io/docfx/docs/table-of-contents.html): a list of items, or a
 * mapping with `items`; each item's `name`, references and nested `items`, with their lines.
 */
export function readYamlToc(
  text: string,
  file: string,
): { references: DocfxTocReference[]; problems: SiteProblem[] } {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, logLevel: 'silent', uniqueKeys: false });
  const references: DocfxTocReference[] = [];
  const visitItems = (node: unknown, groups: string[], depth: number) => {
    if (!isSeq(node) || depth > maximumDepth) return;
    for (const item of node.items) {
      if (!isMap(item) || references.length >= maximumReferences) continue;
      const name = item.get('name');
      // An item's uid names its page; DocFX puts that page's address in place of its `href`.
      const hasUid = item.items.some(
        (pair) => isScalar(pair.key) && /^(uid|topicUid)$/.test(String(pair.key.value)),
      );
      for (const pair of item.items) {
        const key = isScalar(pair.key) ? String(pair.key.value) : '';
        if (!referenceKeys.has(key) || !isScalar(pair.value) || typeof pair.value.value !== 'string')
          continue;
        if (hasUid && (key === 'href' || key === 'topicHref' || key === 'homepage')) continue;
        const line = lineCounter.linePos((pair.value as Node).range?.[0] ?? 0).line;
        references.push({ key: key as DocfxTocReference['key'], value: pair.value.value, line, groups });
      }
      visitItems(item.get('items', true), typeof name === 'string' ? [...groups, name] : groups, depth + 1);
    }
  };
  const contents = document.contents;
  visitItems(isMap(contents) ? contents.get('items', true) : contents, [], 0);
  return { references, problems: yamlProblems(document, file) };
}

// MarkdownTocReader.cs's rules, tried in its order on each line: `# [Title](href)` (or `(@uid)`,
// `(xref:uid)`, `(href "Display")`), `# [Title](https://...)`, `# <xref:uid>`, `# @uid`, `# Title`.
// Compiled for RE2: a heading line of brackets never closed is not searched again from each.
const topicLine = RE2JS.compile('^(#+)[ \\t]*\\[(.+)\\]\\((.*?)(?:\\)| "(.*)"\\))(?:[ \\t]+#*)?[ \\t]*$');
const uidLink = /^\s*(?:xref:|@)\s*(\S.*?)\s*$/;
const xrefAutoLinkLine = RE2JS.compile('^(#+)[ \\t]*<xref:(?:(["\'])(.+?)["\']|([^ >]+))>[ \\t]*#*[ \\t]*$');
const xrefShortcutLine = RE2JS.compile(
  '^(#+)[ \\t]*@(?:(["\'])(.+?)["\']|([a-zA-Z](?:[.,;:!?~]?[^\\s"\'<>.,;:!?~])*))[ \\t]*#*[ \\t]*$',
);
const containerLine = RE2JS.compile('^(#+)[ \\t]*(.+?)(?:[ \\t]+#*)?[ \\t]*$');
const maximumTocLine = 4_096;

/**
 * A `toc.md` as MarkdownTocReader.cs reads it: each heading's link or uid, under the titles of the
 * headings above it; HTML comments and blank lines skipped. Any other line stops DocFX's build
 * (`InvalidMarkdownToc`), and so does a heading more than one level below the one before, unless it
 * ends the file; both are problems here, and reading stops there.
 */
export function readMarkdownToc(
  text: string,
  file: string,
): { references: DocfxTocReference[]; problems: SiteProblem[] } {
  const references: DocfxTocReference[] = [];
  const problems: SiteProblem[] = [];
  const titles: string[] = [];
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const lastContent = lines.findLastIndex((line) => line.trim() !== '');
  const invalid = (index: number, why: string) =>
    problems.push({
      file,
      line: index + 1,
      message: `${file}: DocFX cannot read line ${index + 1} (${why}), so the build stops`,
      key: `configuration\0toc-md\0${why}`,
    });
  let level = 0;
  for (let index = 0; index < lines.length && references.length < maximumReferences; index += 1) {
    const line = lines[index] ?? '';
    if (line.trim() === '') continue;
    if (/^\s*<!--/.test(line)) {
      // A comment runs to the first `-->`, which must end its line.
      let end = index;
      while (end < lines.length && !(lines[end] ?? '').includes('-->')) end += 1;
      const closing = lines[end] ?? '';
      if (end === lines.length || closing.slice(closing.indexOf('-->') + 3).trim() !== '') {
        invalid(index, 'an HTML comment that does not end a line');
        break;
      }
      index = end;
      continue;
    }
    if (line.length > maximumTocLine) continue;
    const heading = readTocLine(line);
    if (heading === null) {
      invalid(index, 'not a heading, comment or blank line');
      break;
    }
    if (heading.level > level + 1) {
      if (index !== lastContent) invalid(index, 'a heading more than one level below the one before');
      break;
    }
    level = heading.level;
    titles.length = level - 1;
    const groups = titles.filter((title) => title !== undefined);
    if (heading.key !== null && heading.value !== '')
      references.push({ key: heading.key, value: heading.value, line: index + 1, groups });
    titles[level - 1] = heading.title;
  }
  return { references, problems };
}

/** One `toc.md` heading line: its level, title and link or uid; null when no rule reads it. */
function readTocLine(
  line: string,
): { level: number; title: string; key: 'href' | 'uid' | null; value: string } | null {
  const topic = topicLine.matcher(line);
  if (topic.matches()) {
    const link = topic.group(3) ?? '';
    const uid = uidLink.exec(link)?.[1];
    const title = topic.group(2) ?? '';
    const level = (topic.group(1) ?? '#').length;
    return uid !== undefined
      ? { level, title, key: 'uid', value: uid }
      : { level, title, key: 'href', value: link };
  }
  for (const pattern of [xrefAutoLinkLine, xrefShortcutLine]) {
    const xref = pattern.matcher(line);
    if (xref.matches()) {
      const value = xref.group(3) ?? xref.group(4) ?? '';
      return { level: (xref.group(1) ?? '#').length, title: value, key: 'uid', value };
    }
  }
  const container = containerLine.matcher(line);
  if (!container.matches()) return null;
  return { level: (container.group(1) ?? '#').length, title: container.group(2) ?? '', key: null, value: '' };
}
