/** One chapter of `SUMMARY.md`: its link as written, its line, and the titles above it. */
export interface SummaryChapter {
  title: string;
  /** The link target as written; '' for a draft chapter (`- [Title]()`). */
  path: string;
  line: number;
  groups: string[];
}

/** Longer lines are not read: a summary line is a title and a path. */
const maximumLineLength = 2000;

/**
 * The chapters of an mdBook `SUMMARY.md` (https://rust-lang.github.io/mdBook/format/summary.html):
 * prefix and suffix chapters `[Title](path.md)`, numbered chapters `- [Title](path.md)` nested by
 * indentation, part titles `# Part`, separators `---`, and draft chapters `- [Title]()`. The first
 * heading, before any chapter, is the summary's own title.
 */
export function readSummary(text: string): SummaryChapter[] {
  const chapters: SummaryChapter[] = [];
  let part: string | null = null;
  let seenChapter = false;
  let inComment = false;
  let inFence = false;
  // Parent chapters by indentation: each is [indentation, title].
  const parents: Array<[number, string]> = [];
  for (const [index, rawLine] of text.split('\n').entries()) {
    const line = rawLine.replace(/\r$/, '');
    if (line.length > maximumLineLength) continue;
    const trimmed = line.trim();
    if (inComment) {
      if (trimmed.includes('-->')) inComment = false;
      continue;
    }
    if (trimmed.startsWith('<!--')) {
      inComment = !trimmed.includes('-->');
      continue;
    }
    if (/^(```|~~~)/.test(trimmed)) inFence = !inFence;
    if (inFence || trimmed === '') continue;
    const heading = /^#{1,6}\s+(.*)$/.exec(trimmed);
    if (heading !== null) {
      // GitBook writes an anchor into group headings (`## Get Started <a href="#x" id="x"></a>`).
      if (seenChapter) part = (heading[1] ?? '').replace(/<[^>]*>/g, '').trim();
      parents.length = 0;
      continue;
    }
    const item = /^([ \t]*)(?:[-*+]\s+)?\[/.exec(line);
    if (item === null) continue;
    const link = readLink(trimmed.replace(/^[-*+]\s+/, ''));
    if (link === null) continue;
    seenChapter = true;
    const indentation = (item[1] ?? '').replace(/\t/g, '    ').length;
    while (parents.length > 0 && (parents[parents.length - 1]?.[0] ?? 0) >= indentation) parents.pop();
    const groups = [...(part === null ? [] : [part]), ...parents.map(([, title]) => title)];
    chapters.push({ title: link.title, path: link.path, line: index + 1, groups });
    parents.push([indentation, link.title]);
  }
  return chapters;
}

/** `[Title](path)` without regular-expression backtracking: the title ends at the last `](`. */
function readLink(text: string): { title: string; path: string } | null {
  if (!text.startsWith('[')) return null;
  const middle = text.lastIndexOf('](');
  const end = text.lastIndexOf(')');
  if (middle < 1 || end < middle) return null;
  let path = text.slice(middle + 2, end).trim();
  if (path.startsWith('<') && path.endsWith('>')) path = path.slice(1, -1);
  // A title after the path (`path "Title"`) is not part of it.
  path = path.replace(/\s+("[^"]*"|'[^']*')$/, '');
  return { title: text.slice(1, middle), path };
}
