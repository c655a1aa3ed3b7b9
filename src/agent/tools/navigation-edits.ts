import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  introducedProblems,
  type NavigationEntry,
  type SiteModel,
  splitExplicitTitle,
} from '../../docs-site/index.ts';
import { recordWrite, rememberOriginal, type ToolContext } from './tool-context.ts';

const pageExtension = /\.(mdx?|markdown|rst|adoc|qmd|rmd|ipynb)$/i;

/**
 * Keeps the site whole when a page moves or goes: every navigation entry that names it, in every
 * navigation file, language and version, is rewritten (move) or removed (delete) where that can be
 * done safely on its own line; each inbound link, and each entry that could not be changed, is
 * reported with its file and line so the model fixes it. Returns the report's lines.
 */
export async function keepSiteWhole(
  context: ToolContext,
  change: { kind: 'move'; from: string; to: string } | { kind: 'delete'; path: string },
  before: {
    entries: NavigationEntry[];
    links: Array<{ file: string; line: number; text: string }>;
    /** The site's navigation names pages by file name alone (`SiteModel.navigationByFileName`). */
    byFileName?: boolean;
  },
): Promise<string[]> {
  const report: string[] = [];
  const edits = new Map<string, Array<{ entry: NavigationEntry; replacement: string | null }>>();
  const fileName = (path: string) => path.slice(path.lastIndexOf('/') + 1);
  for (const entry of before.entries) {
    if (
      change.kind === 'move' &&
      before.byFileName === true &&
      fileName(change.from) === fileName(change.to)
    ) {
      report.push(
        `- ${entry.file}:${entry.line}: navigation entry "${entry.reference}" names the page by its file name: unchanged`,
      );
      continue;
    }
    const replacement =
      change.kind === 'move'
        ? before.byFileName === true
          ? fileName(change.to)
          : movedReference(entry.reference, change.from, change.to)
        : null;
    if (change.kind === 'move' && replacement === null) {
      report.push(
        `- ${entry.file}:${entry.line}: navigation entry "${entry.reference}" still names the old path; update it`,
      );
      continue;
    }
    const list = edits.get(entry.file) ?? [];
    list.push({ entry, replacement });
    edits.set(entry.file, list);
  }
  for (const [file, list] of edits) {
    const absolute = join(context.root, file);
    const text = await readFile(absolute, 'utf8').catch(() => null);
    if (text === null) continue;
    const lines = text.split('\n');
    // Bottom-up, so removing a line does not move the ones still to edit.
    for (const { entry, replacement } of [...list].sort(
      (left, right) => right.entry.line - left.entry.line,
    )) {
      const index = entry.line - 1;
      const line = lines[index];
      const done =
        line !== undefined &&
        (replacement === null
          ? removeEntryLine(lines, index, entry.reference)
          : replaceValue(lines, index, entry.reference, replacement));
      report.push(
        done
          ? `- ${file}:${entry.line}: navigation entry "${entry.reference}" ${replacement === null ? 'removed' : `updated to "${replacement}"`}`
          : `- ${file}:${entry.line}: navigation entry "${entry.reference}" ${replacement === null ? 'still names the deleted page; remove it' : 'still names the old path; update it'}`,
      );
    }
    const updated = lines.join('\n');
    if (updated === text) continue;
    rememberOriginal(context.changes, file, text);
    await writeFile(absolute, updated);
    recordWrite(context.changes, file, false);
  }
  for (const link of before.links) {
    if (link.text.startsWith('navigation entry')) continue;
    report.push(
      `- ${link.file}:${link.line}: ${link.text} points to the ${change.kind === 'move' ? 'old path' : 'deleted page'}; update it`,
    );
  }
  return report;
}

/**
 * Redirects that the move or delete left pointing at no page (a Mintlify redirect's destination,
 * an MkDocs `redirect_maps` target, a Docusaurus client redirect), as report lines: the checks
 * report them as introduced problems, and the model had better fix them now than at validation.
 */
export async function redirectsLeftBroken(
  context: ToolContext,
  before: SiteModel | undefined,
): Promise<string[]> {
  if (before === undefined || context.site === null) return [];
  const isRedirect = (problem: { key: string }) => problem.key.startsWith('redirect\0');
  const after = (await context.site.current()).model.configurationProblems.filter(isRedirect);
  return introducedProblems(after, before.configurationProblems.filter(isRedirect)).map(
    (problem) => `- ${problem.file}:${problem.line}: ${problem.message}; update it`,
  );
}

/**
 * The reference for the moved page written the way the old one was: the same prefix (a content folder
 * the navigation leaves out), with or without the extension, with or without a leading slash.
 * Null when the old reference does not name the old path plainly (a doc id, a slug). A Sphinx
 * toctree entry with a title (`Title <path>`) keeps its title.
 */
export function movedReference(reference: string, from: string, to: string): string | null {
  const titled = splitExplicitTitle(reference);
  if (titled !== null) {
    const moved = movedReference(titled.target, from, to);
    return moved === null ? null : `${reference.slice(0, titled.open + 1)}${moved}>`;
  }
  const leading = /^(\.\/|\/)/.exec(reference)?.[0] ?? '';
  const withExtension = pageExtension.test(reference);
  const written = reference.slice(leading.length).replace(pageExtension, '');
  const oldPath = from.replace(pageExtension, '');
  const newPath = to.replace(pageExtension, '');
  if (written === '' || !(oldPath === written || oldPath.endsWith(`/${written}`))) return null;
  const prefix = oldPath.slice(0, oldPath.length - written.length);
  if (!newPath.startsWith(prefix)) return null;
  const extension = withExtension ? (pageExtension.exec(to)?.[0] ?? '') : '';
  return `${leading}${newPath.slice(prefix.length)}${extension}`;
}

function escapeForPattern(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Replaces `value` on a line where it is written once as a whole value (quoted, or a YAML/Markdown value). */
function replaceValue(lines: string[], index: number, value: string, replacement: string): boolean {
  const line = lines[index] ?? '';
  // An AsciiDoc xref's target ends at its text's `[` (`xref:page.adoc[Title]`).
  const pattern = new RegExp(`(^|["'\`\\s(:])${escapeForPattern(value)}(?=$|["'\`\\s)\\],#[])`, 'g');
  const matches = [...line.matchAll(pattern)];
  if (matches.length !== 1) return false;
  lines[index] = line.replace(pattern, (_whole, before: string) => `${before}${replacement}`);
  return true;
}

/**
 * Removes a line that holds nothing but the entry: `"page",` (JSON, JavaScript), `- page.md` or
 * `- Title: page.md` (YAML), `- [Title](page.md)` (a Markdown summary), `{ "Title" = "page.md" },`
 * (TOML: Zensical) — and no children below it.
 * A JSON list's comma is kept right when the last item goes.
 */
/**
 * Removes a YAML list item whose key names the entry, when every line of the item is a plain
 * `key: value` (Fern's `- page: Title` with its `path:`, `slug:` and `hidden:` lines): the item
 * goes whole, since a page without its path would be an error. An item with children stays.
 */
function removeMappingItem(lines: string[], index: number, reference: string): boolean {
  const quoted = escapeForPattern(reference);
  const keyLine = new RegExp(`^(\\s*)(?:-\\s+)?[\\w-]+:\\s+["']?${quoted}["']?\\s*$`);
  const match = keyLine.exec(lines[index] ?? '');
  if (match === null) return false;
  let start = index;
  while (start >= 0 && !/^\s*-\s/.test(lines[start] ?? '')) start -= 1;
  if (start < 0 || index - start > 20) return false;
  const itemIndentation = /^\s*/.exec(lines[start] ?? '')?.[0].length ?? 0;
  let end = start + 1;
  while (end < lines.length) {
    const text = lines[end] ?? '';
    if (text.trim() !== '' && (/^\s*/.exec(text)?.[0].length ?? 0) <= itemIndentation) break;
    end += 1;
  }
  const item = lines.slice(start, end).filter((text) => text.trim() !== '');
  const plain = item.every(
    (text, position) =>
      /^\s*(?:-\s+)?[\w-]+:\s+\S.*$/.test(text) && (position === 0 || !/^\s*-\s/.test(text)),
  );
  if (!plain) return false;
  lines.splice(start, end - start);
  return true;
}

function removeEntryLine(lines: string[], index: number, reference: string): boolean {
  const line = lines[index] ?? '';
  const quoted = escapeForPattern(reference);
  const alone = new RegExp(
    `^\\s*(?:["'\`]${quoted}["'\`],?|-\\s+(?:[^:]+:\\s+)?["']?${quoted}["']?|[-*]?\\s*\\[[^\\]]*\\]\\(${quoted}\\)|\\{\\s*(?:"[^"]*"|'[^']*'|[\\w-]+)\\s*=\\s*["']${quoted}["']\\s*\\},?)\\s*$`,
  );
  if (!alone.test(line)) return removeMappingItem(lines, index, reference);
  const indentation = /^\s*/.exec(line)?.[0].length ?? 0;
  const next = lines.slice(index + 1).find((candidate) => candidate.trim() !== '');
  if (next !== undefined && (/^\s*/.exec(next)?.[0].length ?? 0) > indentation && !/^\s*[\]}]/.test(next)) {
    return false;
  }
  const hadComma = line.trimEnd().endsWith(',');
  lines.splice(index, 1);
  if (!hadComma && /["'`],?\s*$/.test(line)) {
    // The last item of a JSON list went: the item before it loses its comma.
    for (let previous = index - 1; previous >= 0; previous -= 1) {
      const text = lines[previous] ?? '';
      if (text.trim() === '') continue;
      if (text.trimEnd().endsWith(',')) lines[previous] = text.replace(/,(\s*)$/, '$1');
      break;
    }
  }
  return true;
}
