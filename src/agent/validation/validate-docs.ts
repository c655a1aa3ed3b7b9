import { lstat, readFile } from 'node:fs/promises';
import { join, posix } from 'node:path';
import type { DocsSite } from '../docs/docs-site.ts';
import { isPagePath } from '../docs/docs-site.ts';
import { isExternalLink, resolvePage } from '../docs/resolve-page.ts';
import { walkFiles } from '../tools/walk-files.ts';
import { type PageProblem, parsePage } from './parse-page.ts';

export interface ValidationInput {
  root: string;
  site: DocsSite;
  /** Pages written in this run (created or changed); their syntax and links are checked. */
  changedPaths: ReadonlySet<string>;
  /** Pages created in this run; each must appear in navigation when the site has one. */
  createdPaths: ReadonlySet<string>;
  /** Pages deleted or moved away in this run; links elsewhere that still point to them are reported. */
  removedPaths: ReadonlySet<string>;
  /** The content of changed pages before the run; problems they already had are not reported. */
  originals?: ReadonlyMap<string, string>;
  maximumFileBytes: number;
}

export interface ValidationResult {
  problems: PageProblem[];
}

/**
 * Checks what a run changed, so it stays fast on large repositories: syntax and links of changed
 * pages, every navigation entry, navigation for new pages, and links elsewhere to removed pages.
 */
export async function validateDocs(input: ValidationInput): Promise<ValidationResult> {
  const { root, site } = input;
  const problems: PageProblem[] = site.configurationProblems.map((message) => ({
    file: site.configFile ?? '',
    line: 1,
    message,
  }));

  // One walk of the tree answers every "does this page exist?" (thousands of navigation entries).
  const files = new Set<string>();
  for await (const file of walkFiles(root, '', '', { includeLinks: true })) files.add(file);
  const exists = (path: string) => files.has(path);

  // Only regular files are read: a symbolic link could point outside the repository.
  const readPage = async (path: string): Promise<string | null> => {
    const status = await lstat(join(root, path)).catch(() => null);
    if (status === null || !status.isFile() || status.size > input.maximumFileBytes) return null;
    return readFile(join(root, path), 'utf8');
  };

  const checkPage = async (
    file: string,
    text: string,
    only?: ReadonlySet<string>,
  ): Promise<PageProblem[]> => {
    const parsed = parsePage(file, text);
    const found: PageProblem[] = only === undefined ? [...parsed.problems] : [];
    for (const link of parsed.links) {
      if (isExternalLink(link.url)) continue;
      const target = resolvePage(exists, site, link.url, file);
      if (target !== null) continue;
      if (only !== undefined && !linksToRemoved(link.url, file, only)) continue;
      found.push({
        file,
        line: link.line,
        message: `Broken internal link "${link.url}": no such page or file`,
      });
    }
    return found;
  };

  for (const file of [...input.changedPaths].sort()) {
    if (!isPagePath(file)) continue;
    const text = await readPage(file);
    if (text === null) continue;
    const found = await checkPage(file, text);
    // Problems the file already had before this run are not the run's to fix (a link to a page
    // this run removed is, and is found by the scan for removed pages below).
    const original = input.originals?.get(file);
    const before =
      original === undefined ? new Set<string>() : new Set((await checkPage(file, original)).map(problemKey));
    problems.push(...found.filter((problem) => !before.has(problemKey(problem))));
  }

  if (site.navigation !== null && site.configFile !== null) {
    const referenced = new Set<string>();
    for (const entry of site.navigation) {
      const page = resolvePage(exists, site, entry.reference, null);
      if (page === null) {
        problems.push({
          file: site.configFile,
          line: 1,
          message: `Navigation entry "${entry.reference}" points to a missing page`,
        });
      } else referenced.add(page);
    }
    for (const file of [...input.createdPaths].sort()) {
      if (!isPagePath(file) || !isInside(site.contentRoot, file) || isPartial(file)) continue;
      if ((await readPage(file)) === null || referenced.has(file)) continue;
      problems.push({
        file,
        line: 1,
        message: `New page is missing from navigation; add it to ${site.configFile}`,
      });
    }
  }

  if (input.removedPaths.size > 0) {
    const names = [...input.removedPaths].map((path) => posix.basename(path).replace(/\.(mdx?|md)$/i, ''));
    for (const file of files) {
      if (!isPagePath(file)) continue;
      const text = await readPage(file);
      if (text === null || !names.some((name) => text.includes(name))) continue;
      for (const problem of await checkPage(file, text, input.removedPaths)) {
        if (
          !problems.some((known) => problemKey(known) === problemKey(problem) && known.line === problem.line)
        )
          problems.push(problem);
      }
    }
  }
  return { problems };
}

function linksToRemoved(url: string, from: string, removed: ReadonlySet<string>): boolean {
  const target = url.split('#')[0]?.split('?')[0] ?? '';
  const name = posix.basename(target).replace(/\.(mdx?|md)$/i, '');
  return (
    [...removed].some((path) => posix.basename(path).replace(/\.(mdx?|md)$/i, '') === name) && from !== ''
  );
}

/** A problem without its position, which edits above it may shift. */
function problemKey(problem: PageProblem): string {
  return `${problem.file}\0${problem.message.replace(/\s*\(\d+:\d+(-\d+:\d+)?\)\s*$/, '')}`;
}

function isInside(folder: string, path: string): boolean {
  return folder === '' || path.startsWith(`${folder}/`);
}

/** Files Mintlify and Docusaurus include into other pages, never pages of their own. */
function isPartial(path: string): boolean {
  return path.split('/').some((segment) => segment.startsWith('_') || segment === 'snippets');
}

/** The report the model (and the pull request body) sees. */
export function formatProblems(problems: PageProblem[]): string {
  if (problems.length === 0) return 'No problems found.';
  const lines = problems.map(
    (problem) =>
      `- ${problem.file}:${problem.line}${problem.column === undefined ? '' : `:${problem.column}`}: ${problem.message}`,
  );
  return `${problems.length} problem${problems.length === 1 ? '' : 's'}:\n${lines.join('\n')}`;
}
