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
      for (const pair of item.items) {
        const key = isScalar(pair.key) ? String(pair.key.value) : '';
        if (!referenceKeys.has(key) || !isScalar(pair.value) || typeof pair.value.value !== 'string')
          continue;
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

// MarkdownTocReader.cs: `# [Title](href)`, `# [Title](@uid)`, `# @uid`, `# Title` (a group).
const markdownTocLine =
  /^(#{1,6})[ \t]*(?:\[([^\]\n]*)\]\(([^)\s]*)(?:[ \t]+"[^"\n]*")?\)|@(\S+)|(.*))[ \t]*$/;

/** A `toc.md`: each heading's link or uid, under the titles of the headings above it. */
export function readMarkdownToc(text: string): DocfxTocReference[] {
  const references: DocfxTocReference[] = [];
  const titles: string[] = [];
  let fence = false;
  for (const [index, line] of text.split('\n').slice(0, maximumReferences).entries()) {
    if (/^\s*(```|~~~)/.test(line)) fence = !fence;
    const match = fence || line.length > 4_096 ? null : markdownTocLine.exec(line.trimEnd());
    if (match === null) continue;
    const level = (match[1] ?? '#').length;
    titles.length = level - 1;
    const groups = titles.filter((title) => title !== undefined);
    const target = match[3];
    if (target !== undefined) {
      if (target.startsWith('@'))
        references.push({ key: 'uid', value: target.slice(1), line: index + 1, groups });
      else if (target !== '') references.push({ key: 'href', value: target, line: index + 1, groups });
    } else if (match[4] !== undefined)
      references.push({ key: 'uid', value: match[4], line: index + 1, groups });
    titles[level - 1] = (match[2] ?? match[5] ?? '').trim();
  }
  return references;
}
