// The docs-site checks on real documentation repositories: precision, recall and time per repository.
//   node bench/docs-corpus.ts --corpus DIR [--only NAME] [--samples 20] [--list]
// DIR holds one folder per repository (a trimmed copy of its text files) with a SOURCE.json
// ({repository, commit, license, framework, root}); docs/agent.md says how to make one.
// - Precision: every page of the unmodified site is checked; each problem reported must be one of the
//   real problems confirmed by hand, listed in bench/docs-corpus-confirmed/<folder>.json (real sites
//   have a few broken links).
// - Recall: on sampled pages, one mutation at a time (delete, move, rename, a broken link in a changed
//   page, a new page outside navigation where the framework needs one, a broken navigation entry);
//   each expected problem must be reported as introduced by the change, at its file and line.
// - Time: a full check cold (pages parsed) and warm (page facts cached), and a check after a move.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
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

const { values } = parseArgs({
  options: {
    corpus: { type: 'string' },
    only: { type: 'string' },
    samples: { type: 'string', default: '20' },
    list: { type: 'boolean', default: false },
  },
});
if (values.corpus === undefined) {
  console.error('usage: node bench/docs-corpus.ts --corpus DIR [--only NAME] [--samples N] [--list]');
  process.exit(2);
}
const samples = Number(values.samples);
if (!Number.isInteger(samples) || samples < 1)
  throw new Error('--samples must be a whole number of at least 1');

interface Confirmed {
  repository: string;
  commit: string;
  /** Real problems of the unmodified site, confirmed by hand (file and key as reported), with a note. */
  problems: Array<{ file: string; key: string; note: string }>;
}

async function readConfirmed(name: string): Promise<Confirmed | null> {
  const text = await readFile(new URL(`docs-corpus-confirmed/${name}.json`, import.meta.url), 'utf8').catch(
    () => null,
  );
  return text === null ? null : (JSON.parse(text) as Confirmed);
}

interface Outcome {
  name: string;
  framework: string;
  pages: number;
  reported: number;
  falseProblems: number;
  expected: number;
  found: number;
  stillServed: number;
  coldMs: number;
  warmMs: number;
  moveMs: number[];
}

const outcomes: Outcome[] = [];
const names = (await readdir(values.corpus, { withFileTypes: true }))
  .filter((entry) => entry.isDirectory() && (values.only === undefined || entry.name.includes(values.only)))
  .map((entry) => entry.name)
  .sort();

for (const name of names) {
  const directory = join(values.corpus, name);
  const source = JSON.parse(await readFile(join(directory, 'SOURCE.json'), 'utf8')) as {
    repository: string;
    commit: string;
  };
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
  if (confirmedEntry !== null && confirmedEntry.commit !== source.commit) {
    console.log(
      `${name}: problems were confirmed at ${confirmedEntry.commit}, the copy is at ${source.commit}`,
    );
  }
  const confirmed = new Set(
    (confirmedEntry?.problems ?? []).map((problem) => `${problem.file}\0${problem.key}`),
  );
  const falseProblems = baseProblems.filter((problem) => !confirmed.has(`${problem.file}\0${problem.key}`));
  if (values.list) {
    console.log(`\n## ${name} (${base.model.framework}): ${baseProblems.length} problems`);
    for (const note of base.model.unsupported) console.log(`  unsupported: ${note}`);
    for (const problem of baseProblems) {
      const mark = confirmed.has(`${problem.file}\0${problem.key}`) ? 'confirmed' : 'UNCONFIRMED';
      console.log(`  ${mark} ${problem.file}:${problem.line}: ${problem.message}`);
    }
  }

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
    want: Array<{ file: string; line: number; url?: string; navigation?: string }>,
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
        const target = after.model.resolveLink(place.file, place.url);
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
    const inbound = inboundPlaces(baseProblems, base, page);
    const places = await inbound;
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
    const brokenLink = `\n\nSee [a missing page](./quire-missing-${index}.md).\n`;
    await tryChange(`broken link in ${page}`, new Map([[page, text + brokenLink]]), [
      { file: page, line: text.split('\n').length + 2 },
    ]);
  }
  // A new page beside a sampled page, where the framework needs it in navigation.
  const newPage = sampled[0]?.replace(/[^/]+$/, 'quire-new-page.md');
  if (newPage !== undefined && base.model.needsNavigationEntry(newPage)) {
    await tryChange(
      'new page',
      new Map([[newPage, '# A new page\n\nText.\n']]),
      [{ file: newPage, line: 1 }],
      new Map(),
      [newPage],
    );
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
    lines[entry.line - 1] = line.replace(entry.reference, `${entry.reference}-quire-missing`);
    await tryChange(`navigation ${entry.reference}`, new Map([[entry.file, lines.join('\n')]]), [
      { file: entry.file, line: entry.line },
    ]);
  }
  if (values.list) for (const line of missed.slice(0, 40)) console.log(`  MISSED ${line}`);

  outcomes.push({
    name,
    framework: base.model.framework,
    pages: pages.length,
    reported: baseProblems.length,
    falseProblems: falseProblems.length,
    expected,
    found,
    stillServed,
    coldMs,
    warmMs,
    moveMs,
  });
}

/** Where the unmodified site links to `page` or names it in navigation: what removing it must report. */
async function inboundPlaces(
  _baseProblems: readonly SiteProblem[],
  site: Awaited<ReturnType<typeof analyzeSite>>,
  page: string,
): Promise<Array<{ file: string; line: number; url?: string; navigation?: string }>> {
  const places: Array<{ file: string; line: number; url?: string; navigation?: string }> = [];
  for (const entry of site.model.navigation) {
    if (entry.target === page)
      places.push({ file: entry.file, line: entry.line, navigation: entry.groups.join('\0') });
  }
  for (const file of [...site.model.pages.keys(), ...site.model.partials]) {
    if (file === page || !isPagePath(file)) continue;
    const facts = await site.source.pageFacts(file);
    for (const link of facts?.links ?? []) {
      const target = site.model.resolveLink(file, link.url);
      if (target.kind === 'file' && target.file === page)
        places.push({ file, line: link.line, url: link.url });
    }
  }
  return places;
}

const percent = (part: number, whole: number) => (whole === 0 ? '100.0' : ((100 * part) / whole).toFixed(1));
const median = (numbers: number[]) => {
  const sorted = [...numbers].sort((left, right) => left - right);
  return sorted.length === 0 ? 0 : (sorted[Math.floor(sorted.length / 2)] ?? 0);
};
console.log(
  '\n| repository | framework | pages | reported | false | precision | recall | still served | full check cold / warm | after a move p50 |',
);
console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const outcome of outcomes) {
  console.log(
    `| ${outcome.name} | ${outcome.framework} | ${outcome.pages} | ${outcome.reported} | ${outcome.falseProblems} | ${percent(outcome.reported - outcome.falseProblems, outcome.reported)}% | ${percent(outcome.found, outcome.expected)}% (${outcome.found}/${outcome.expected}) | ${outcome.stillServed} | ${Math.round(outcome.coldMs)} / ${Math.round(outcome.warmMs)} ms | ${Math.round(median(outcome.moveMs))} ms |`,
  );
}
const totalReported = outcomes.reduce((sum, outcome) => sum + outcome.reported, 0);
const totalFalse = outcomes.reduce((sum, outcome) => sum + outcome.falseProblems, 0);
const totalExpected = outcomes.reduce((sum, outcome) => sum + outcome.expected, 0);
const totalFound = outcomes.reduce((sum, outcome) => sum + outcome.found, 0);
console.log(
  `\nall: precision ${percent(totalReported - totalFalse, totalReported)}% (${totalFalse} false of ${totalReported}), recall ${percent(totalFound, totalExpected)}% (${totalFound}/${totalExpected})`,
);
