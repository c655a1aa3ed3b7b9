// Classification on the labelled user-agent corpus (test/fixtures/user-agents/README.md):
//   node bench/classification.ts [--list]
// Prints the confusion matrix (corpus label × assigned category), the issue-15 targets and whether
// each holds, and the classification rate; --list prints every misread user agent. Exits 1 when a
// target fails, so it can gate a refresh of the agent table.
import { parseArgs } from 'node:util';
import defaultTable from '../src/analytics/classification/data/ai-agents.json' with { type: 'json' };
import type { AiAgentTable } from '../src/analytics/classification/index.ts';
import { createClassifier, trafficCategories } from '../src/analytics/classification/index.ts';
import {
  corpusTargetsHold,
  evaluateCorpus,
  hostileUserAgents,
  loadUserAgentCorpus,
} from '../test/user-agent-corpus.ts';

const { values } = parseArgs({ options: { list: { type: 'boolean', default: false } } });
const table = defaultTable as AiAgentTable;
const entries = loadUserAgentCorpus(table);
const evaluation = evaluateCorpus(createClassifier({ table }), entries);

const width = 14;
console.log(`classifier ${createClassifier({ table }).version}; corpus of ${entries.length} user agents\n`);
console.log(['label \\ got'.padEnd(width), ...trafficCategories.map((c) => c.padStart(width))].join(''));
for (const label of ['browser', 'crawler', 'ai'] as const) {
  const row = evaluation.matrix[label];
  console.log(
    [label.padEnd(width), ...trafficCategories.map((c) => String(row[c]).padStart(width))].join(''),
  );
}
const percent = (part: number, whole: number) => `${((100 * part) / Math.max(whole, 1)).toFixed(3)}%`;
const holds = corpusTargetsHold(evaluation);
const mark = (ok: boolean) => (ok ? 'holds' : 'FAILS');
console.log('');
console.log(
  `browsers human: ${evaluation.browsersHuman}/${evaluation.totals.browser} = ${percent(evaluation.browsersHuman, evaluation.totals.browser)} (target ≥ 99.9%: ${mark(holds.browsers)})`,
);
console.log(
  `AI agents in their category: ${evaluation.totals.ai - evaluation.misplacedAgents.length}/${evaluation.totals.ai} (target: all: ${mark(holds.agents)})`,
);
console.log(
  `crawlers human: ${evaluation.crawlersHuman}/${evaluation.totals.crawler} = ${percent(evaluation.crawlersHuman, evaluation.totals.crawler)} (target ≤ 0.1%: ${mark(holds.crawlers)})`,
);

// Throughput without the cache: every user agent classified once by a fresh classifier.
const fresh = createClassifier({ table, cacheSize: 1 });
const started = performance.now();
for (const entry of entries) fresh.classify({ userAgent: entry.userAgent, markdown: false });
const seconds = (performance.now() - started) / 1000;
console.log(`\nuncached: ${Math.round(entries.length / seconds).toLocaleString('en')} user agents/s`);
for (const hostile of hostileUserAgents) {
  const begun = performance.now();
  fresh.classify({ userAgent: hostile, markdown: false });
  const shape = `${JSON.stringify(hostile.slice(0, 8))}… (${hostile.length.toLocaleString('en')} characters)`;
  console.log(`hostile ${shape}: ${(performance.now() - begun).toFixed(1)} ms`);
}

if (values.list) {
  for (const { entry, got } of evaluation.misplacedAgents) {
    console.log(
      `agent    ${got.category}/${got.agent} (want ${entry.expected?.category}/${entry.expected?.agent}): ${entry.userAgent}`,
    );
  }
  for (const entry of evaluation.misreadPeople) console.log(`browser  not human: ${entry.userAgent}`);
  for (const entry of evaluation.misreadCrawlers) console.log(`crawler  human: ${entry.userAgent}`);
}
process.exitCode = holds.browsers && holds.agents && holds.crawlers ? 0 : 1;
