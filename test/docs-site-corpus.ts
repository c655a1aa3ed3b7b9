/**
 * The docs-site checks measured on real documentation repositories: precision on the unmodified
 * site, recall on mutations of sampled pages, and time. A corpus is a folder of repositories, one
 * folder each (a trimmed copy of its text files, with a `SOURCE.json`: repository, commit, license,
 * framework, root); `test/fixtures/docs-sites/` is the one this repository carries (its README gives
 * every source and license). Used by `test/docs-sites.test.ts` and `bench/docs-corpus.ts`, which
 * runs it on larger corpora too.
 * - Precision: every page of the unmodified site is checked; each problem reported must be one of the
 *   real problems confirmed by hand, listed in bench/docs-corpus-confirmed/<folder>.json (real sites
 *   have a few broken links).
 * - Recall: on sampled pages, one mutation at a time (delete, move, rename, a broken link in a changed
 *   page, a new page outside navigation where the framework needs one, a broken navigation entry);
 *   each expected problem must be reported as introduced by the change, at its file and line.
 * - Time: a full check cold (pages parsed) and warm (page facts cached), and a check after a move.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  analyzeSite,
  checkSite,
  DirectoryFiles,
  introducedProblems,
  isPagePath,
  OverlayFiles,
  PageFactsCache,
  pagesMissingFromNavigation,
  type SiteProblem,
} from '../src/docs-site/index.ts';
import type { PageLink } from '../src/docs-site/site-model.ts';

/** The corpus committed with the tests. */
export const committedCorpus = fileURLToPath(new URL('./fixtures/docs-sites/', import.meta.url));

export interface SiteOutcome {
  name: string;
  framework: string;
  pages: number;
  /** What the framework's configuration does that the checks do not follow. */
  unsupported: readonly string[];
  /** Every problem of the unmodified site, and whether it was confirmed by hand. */
  problems: ReadonlyArray<{ problem: SiteProblem; confirmed: boolean }>;
  /** Set when the confirmed problems were confirmed at another commit than the copy's. */
  confirmedAt: string | null;
  expected: number;
  found: number;
  stillServed: number;
  /** The expected problems not reported: `<mutation>: expected <file>:<line>`. */
  missed: readonly string[];
  coldMs: number;
  warmMs: number;
  moveMs: readonly number[];
}

interface Confirmed {
  repository: string;
  commit: string;
  /** Real problems of the unmodified site, confirmed by hand (file and key as reported), with a note. */
  problems: Array<{ file: string; key: string; note: string }>;
}

async function readConfirmed(name: string): Promise<Confirmed | null> {
  const text = await readFile(
    new URL(`../bench/docs-corpus-confirmed/${name}.json`, import.meta.url),
    'utf8',
  ).catch(() => null);
  return text === null ? null : (JSON.parse(text) as Confirmed);
}

/** The repositories of a corpus, sorted; those whose name contains `only`, when given. */
export async function corpusSites(corpus: string, only?: string): Promise<string[]> {
  return (await readdir(corpus, { withFileTypes: true }))
    .filter((entry) => entry.isDirectory() && (only === undefined || entry.name.includes(only)))
    .map((entry) => entry.name)
    .sort();
}

type Place = { file: string; line: number; url?: string; link?: PageLink; navigation?: string };

/** Checks one repository of `corpus` unmodified, then under mutations of `samples` of its pages. */
export async function evaluateSite(corpus: string, name: string, samples: number): Promise<SiteOutcome> {
  const directory = join(corpus, name);
  const source = JSON.parse(await readFile(join(directory, 'SOURCE.json'), 'utf8')) as { commit: string };
  const files = await DirectoryFiles.list(directory, 1024 * 1024);
  const cache = new PageFactsCache();

  let started = performance.now();
  const base = await analyzeSite(files, cache);
  const baseProblems = await checkSite(base.model, base.source);
  const coldMs = performance.now() - started;
  started = performance.now();
  await checkSite((await analyzeSite(files, cache)).model, base.source);
  const warmMs = performance.now() - started;

  const confirmedEntry = await readConfirmed(name);
  const confirmed = new Set(
    (confirmedEntry?.problems ?? []).map((problem) => `${problem.file}\0${problem.key}`),
  );

  // Recall, on pages spread evenly over the site.
  const pages = [...base.model.pages.keys()];
  const sampled = pages
    .filter((_, index) => index % Math.max(1, Math.floor(pages.length / samples)) === 0)
    .slice(0, samples);
  let expected = 0;
  let found = 0;
  let stillServed = 0;
  const moveMs: number[] = [];
  const missed: string[] = [];
  const tryChange = async (
    label: string,
    changes: Map<string, string | null>,
    want: Place[],
    renamedFrom: Map<string, string> = new Map(),
    created: string[] = [],
  ) => {
    const changedStart = performance.now();
    const changed = new OverlayFiles(files, changes);
    const after = await analyzeSite(changed, cache);
    const problems = [
      ...(await checkSite(after.model, after.source)),
      ...pagesMissingFromNavigation(after.model, created),
    ];
    const introduced = introducedProblems(problems, baseProblems, renamedFrom);
    if (label.startsWith('move')) moveMs.push(performance.now() - changedStart);
    for (const place of want) {
      // A link the framework still serves after the change (a translation falling back to the
      // default language's page) is not a problem; counted apart so it stays visible.
      if (place.url !== undefined) {
        const target = after.model.resolveLink(place.file, place.url, place.link);
        if (target.kind === 'served' || (target.kind === 'file' && changed.has(target.file))) {
          stillServed += 1;
          continue;
        }
      }
      if (place.navigation !== undefined) {
        const same = after.model.navigation.find(
          (entry) =>
            entry.file === place.file &&
            entry.line === place.line &&
            entry.groups.join('\0') === place.navigation,
        );
        if (same !== undefined && typeof same.target === 'string') {
          stillServed += 1;
          continue;
        }
      }
      expected += 1;
      if (introduced.some((problem) => problem.file === place.file && problem.line === place.line))
        found += 1;
      else missed.push(`${label}: expected ${place.file}:${place.line}`);
    }
  };

  for (const [index, page] of sampled.entries()) {
    const places = await inboundPlaces(base, page);
    const text = (await files.read(page)) ?? '';
    await tryChange(`delete ${page}`, new Map([[page, null]]), places);
    const movedTo = `${page.slice(0, page.lastIndexOf('/') + 1)}quire-moved/${page.slice(page.lastIndexOf('/') + 1)}`;
    await tryChange(
      `move ${page}`,
      new Map<string, string | null>([
        [page, null],
        [movedTo, text],
      ]),
      places,
      new Map([[movedTo, page]]),
    );
    const renamedTo = page.replace(/([^/]+)(\.[a-z]+)$/i, 'quire-renamed-$1$2');
    await tryChange(
      `rename ${page}`,
      new Map<string, string | null>([
        [page, null],
        [renamedTo, text],
      ]),
      places,
      new Map([[renamedTo, page]]),
    );
    // reStructuredText and AsciiDoc have no Markdown links: a Sphinx page names a missing document
    // with `:doc:`, an Antora page with `xref:`.
    const brokenLink = page.endsWith('.rst')
      ? `\n\nSee :doc:\`quire-missing-${index}\`.\n`
      : page.endsWith('.adoc')
        ? `\n\nSee xref:quire-missing-${index}.adoc[a missing page].\n`
        : `\n\nSee [a missing page](./quire-missing-${index}.${page.endsWith('.qmd') ? 'qmd' : 'md'}).\n`;
    // A Writerside XML topic gets its links as XML, in a paragraph before it closes.
    if (page.endsWith('.topic')) {
      for (const [label, link] of [
        ['broken link', `<a href="quire-missing-${index}.topic"/>`],
        ['broken anchor', `<a anchor="quire-missing-${index}"/>`],
      ] as const) {
        if (label === 'broken anchor' && base.model.pageAnchors?.(page, text)?.complete !== true) continue;
        const close = text.lastIndexOf('</topic>');
        if (close < 0) continue;
        const changed = `${text.slice(0, close)}\n<p>${link}</p>\n${text.slice(close)}`;
        const line = text.slice(0, close).split('\n').length + 1;
        await tryChange(`${label} in ${page}`, new Map([[page, changed]]), [{ file: page, line }]);
      }
      continue;
    }
    // Where the framework checks anchors, a link to a section the page does not have.
    if (base.model.pageAnchors?.(page, text)?.complete === true) {
      await tryChange(
        `broken anchor in ${page}`,
        // A fragment alone names any target of the project where fragments are not local (MyST).
        new Map([
          [
            page,
            `${text}\n\nSee [a missing section](${base.model.fragmentsAreLocal === false ? `./${page.slice(page.lastIndexOf('/') + 1)}` : ''}#quire-missing-${index}).\n`,
          ],
        ]),
        [{ file: page, line: text.split('\n').length + 2 }],
      );
    }
    // A notebook gets a Markdown cell, at the end of its cells (Jupyter writes one space per level).
    const notebook = page.endsWith('.ipynb') ? withMarkdownCell(text, brokenLink.trim()) : null;
    // A `.ipynb` file that is no notebook (an empty copy) has no cell to add a link to.
    if (page.endsWith('.ipynb') && notebook === null) continue;
    const changed = notebook ?? text + brokenLink;
    const line = notebook === null ? text.split('\n').length + 2 : notebookLine(notebook, 'quire-missing');
    await tryChange(`broken link in ${page}`, new Map([[page, changed]]), [{ file: page, line }]);
  }
  // A new page beside a sampled page, where the framework needs it in navigation.
  // A page in the sampled page's own language: reStructuredText, AsciiDoc or Markdown.
  const newPageKind = /\.(rst|adoc|qmd)$/.exec(sampled[0] ?? '')?.[1] ?? 'md';
  const newPage = sampled[0]?.replace(/[^/]+$/, `quire-new-page.${newPageKind}`);
  if (newPage !== undefined) {
    const newPageText = {
      rst: 'A new page\n==========\n\nText.\n',
      adoc: '= A new page\n\nText.\n',
      qmd: '# A new page\n\nText.\n',
      md: '# A new page\n\nText.\n',
    };
    const changes = new Map([[newPage, newPageText[newPageKind as keyof typeof newPageText] ?? '']]);
    const after = await analyzeSite(new OverlayFiles(files, changes), cache);
    // A navigation glob (a Sphinx toctree's `*`) that already lists it leaves nothing to report.
    const listed = after.model.navigation.some((entry) => entry.target === newPage);
    if (listed) stillServed += 1;
    else if (after.model.needsNavigationEntry(newPage))
      await tryChange('new page', changes, [{ file: newPage, line: 1 }], new Map(), [newPage]);
  }
  // Broken navigation entries: a sampled entry's reference changed where it is written.
  const entries = base.model.navigation.filter((entry) => typeof entry.target === 'string');
  for (const entry of entries
    .filter((_, index) => index % Math.max(1, Math.floor(entries.length / 5)) === 0)
    .slice(0, 5)) {
    const text = await files.read(entry.file);
    if (text === null) continue;
    const lines = text.split('\n');
    const line = lines[entry.line - 1] ?? '';
    if (!line.includes(entry.reference)) continue;
    // An Antora page ID keeps its `.adoc` (without it, an xref names an anchor of the page itself).
    const missing = entry.reference.endsWith('.adoc')
      ? entry.reference.replace(/\.adoc$/, '-quire-missing.adoc')
      : `${entry.reference}-quire-missing`;
    lines[entry.line - 1] = line.replace(entry.reference, missing);
    await tryChange(`navigation ${entry.reference}`, new Map([[entry.file, lines.join('\n')]]), [
      { file: entry.file, line: entry.line },
    ]);
  }

  return {
    name,
    framework: base.model.framework,
    pages: pages.length,
    unsupported: base.model.unsupported,
    problems: baseProblems.map((problem) => ({
      problem,
      confirmed: confirmed.has(`${problem.file}\0${problem.key}`),
    })),
    confirmedAt:
      confirmedEntry !== null && confirmedEntry.commit !== source.commit ? confirmedEntry.commit : null,
    expected,
    found,
    stillServed,
    missed,
    coldMs,
    warmMs,
    moveMs,
  };
}

/** Where the unmodified site links to `page` or names it in navigation: what removing it must report. */
async function inboundPlaces(site: Awaited<ReturnType<typeof analyzeSite>>, page: string): Promise<Place[]> {
  const places: Place[] = [];
  for (const entry of site.model.navigation) {
    if (entry.target === page)
      places.push({ file: entry.file, line: entry.line, navigation: entry.groups.join('\0') });
  }
  for (const file of [...site.model.pages.keys(), ...site.model.partials]) {
    if (file === page || !(isPagePath(file) || file.endsWith('.rst'))) continue;
    const facts = await site.source.pageFacts(file);
    for (const link of facts?.links ?? []) {
      const target = site.model.resolveLink(file, link.url, link);
      if (target.kind === 'file' && target.file === page)
        places.push({ file, line: link.line, url: link.url, link });
    }
  }
  return places;
}

/** A notebook's JSON with one more Markdown cell, or null when `text` is no notebook. */
function withMarkdownCell(text: string, markdown: string): string | null {
  try {
    const notebook = JSON.parse(text) as { cells?: unknown[] };
    if (!Array.isArray(notebook.cells)) return null;
    notebook.cells.push({ cell_type: 'markdown', metadata: {}, source: [markdown] });
    return `${JSON.stringify(notebook, null, 1)}\n`;
  } catch {
    return null;
  }
}

/** The 1-based line of the last line of `text` that holds `needle`. */
function notebookLine(text: string, needle: string): number {
  const lines = text.split('\n');
  for (let index = lines.length - 1; index >= 0; index -= 1)
    if (lines[index]?.includes(needle)) return index + 1;
  return 0;
}
