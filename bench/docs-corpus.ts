// The docs-site checks on real documentation repositories: precision, recall and time per repository.
//   node bench/docs-corpus.ts [--corpus DIR] [--only NAME] [--samples 20] [--list]
// Without --corpus, the repositories committed under test/fixtures/docs-sites/; DIR holds one folder
// per repository (a trimmed copy of its text files) with a SOURCE.json ({repository, commit, license,
// framework, root}); docs/agent.md says how to make one. test/docs-site-corpus.ts says what is
// measured.
import { parseArgs } from 'node:util';
import { committedCorpus, corpusSites, evaluateSite, type SiteOutcome } from '../test/docs-site-corpus.ts';

const { values } = parseArgs({
  options: {
    corpus: { type: 'string', default: committedCorpus },
    only: { type: 'string' },
    samples: { type: 'string', default: '20' },
    list: { type: 'boolean', default: false },
  },
});
const samples = Number(values.samples);
if (!Number.isInteger(samples) || samples < 1)
  throw new Error('--samples must be a whole number of at least 1');

const outcomes: SiteOutcome[] = [];
for (const name of await corpusSites(values.corpus, values.only)) {
  const outcome = await evaluateSite(values.corpus, name, samples);
  outcomes.push(outcome);
  if (outcome.confirmedAt !== null)
    console.log(`${name}: problems were confirmed at ${outcome.confirmedAt}, not at the copy's commit`);
  if (!values.list) continue;
  console.log(`\n## ${name} (${outcome.framework}): ${outcome.problems.length} problems`);
  for (const note of outcome.unsupported) console.log(`  unsupported: ${note}`);
  for (const { problem, confirmed } of outcome.problems) {
    console.log(
      `  ${confirmed ? 'confirmed' : 'UNCONFIRMED'} ${problem.file}:${problem.line}: ${problem.message}`,
    );
  }
  for (const line of outcome.missed.slice(0, 40)) console.log(`  MISSED ${line}`);
}

const falseOf = (outcome: SiteOutcome) => outcome.problems.filter((problem) => !problem.confirmed).length;
const percent = (part: number, whole: number) => (whole === 0 ? '100.0' : ((100 * part) / whole).toFixed(1));
const median = (numbers: readonly number[]) => {
  const sorted = [...numbers].sort((left, right) => left - right);
  return sorted.length === 0 ? 0 : (sorted[Math.floor(sorted.length / 2)] ?? 0);
};
console.log(
  '\n| repository | framework | pages | reported | false | precision | recall | still served | full check cold / warm | after a move p50 |',
);
console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const outcome of outcomes) {
  console.log(
    `| ${outcome.name} | ${outcome.framework} | ${outcome.pages} | ${outcome.problems.length} | ${falseOf(outcome)} | ${percent(outcome.problems.length - falseOf(outcome), outcome.problems.length)}% | ${percent(outcome.found, outcome.expected)}% (${outcome.found}/${outcome.expected}) | ${outcome.stillServed} | ${Math.round(outcome.coldMs)} / ${Math.round(outcome.warmMs)} ms | ${Math.round(median(outcome.moveMs))} ms |`,
  );
}
const totalReported = outcomes.reduce((sum, outcome) => sum + outcome.problems.length, 0);
const totalFalse = outcomes.reduce((sum, outcome) => sum + falseOf(outcome), 0);
const totalExpected = outcomes.reduce((sum, outcome) => sum + outcome.expected, 0);
const totalFound = outcomes.reduce((sum, outcome) => sum + outcome.found, 0);
console.log(
  `\nall: precision ${percent(totalReported - totalFalse, totalReported)}% (${totalFalse} false of ${totalReported}), recall ${percent(totalFound, totalExpected)}% (${totalFound}/${totalExpected})`,
);
