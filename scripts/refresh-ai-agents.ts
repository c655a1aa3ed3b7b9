// Regenerates the AI-agent table from an ai.robots.txt robots.json:
//   node scripts/refresh-ai-agents.ts PATH/TO/robots.json --commit SHA --date YYYY-MM-DD
// Copies robots.json into src/analytics/classification/data/, writes src/analytics/classification/data/ai-agents.json, and lists what
// changed since the previous table, marking new entries that only the free-text fallback categorised:
// review those and add an override in src/analytics/classification/ai-agent-review.ts when the fallback is wrong. Commit the result; the classifier
// version changes with the source commit, and `quire analytics reclassify` applies it to history.
import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { type AiAgentTable, buildAiAgentTable } from '../src/analytics/classification/index.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { commit: { type: 'string' }, date: { type: 'string' } },
});
const robotsPath = positionals[0];
if (robotsPath === undefined || values.commit === undefined || values.date === undefined) {
  console.error('usage: node scripts/refresh-ai-agents.ts robots.json --commit SHA --date YYYY-MM-DD');
  process.exit(2);
}
if (!/^[0-9a-f]{7,40}$/.test(values.commit) || !/^\d{4}-\d{2}-\d{2}$/.test(values.date)) {
  console.error('--commit must be a git commit hash and --date a YYYY-MM-DD date');
  process.exit(2);
}

const dataDirectory = new URL('../src/analytics/classification/data/', import.meta.url);
const robots: unknown = JSON.parse(readFileSync(robotsPath, 'utf8'));
const { table, unreviewed } = buildAiAgentTable(robots, {
  project: 'ai-robots-txt/ai.robots.txt',
  commit: values.commit,
  date: values.date,
  license: 'MIT',
});
const tablePath = new URL('ai-agents.json', dataDirectory);
const previous: AiAgentTable | undefined = existsSync(tablePath)
  ? JSON.parse(readFileSync(tablePath, 'utf8'))
  : undefined;
copyFileSync(robotsPath, new URL('robots.json', dataDirectory));
writeFileSync(tablePath, `${JSON.stringify(table, null, 2)}\n`);

console.log(
  `ai-agents.json: ${table.agents.length} agents from ${table.source.project}@${table.source.commit}`,
);
const before = new Map((previous?.agents ?? []).map((agent) => [agent.token, agent.category]));
const fallbackPlaced = new Set(unreviewed.map((entry) => entry.token));
for (const agent of table.agents) {
  const old = before.get(agent.token);
  before.delete(agent.token);
  if (old === agent.category) continue;
  const note = fallbackPlaced.has(agent.token) ? '  (placed by the free-text fallback: review it)' : '';
  console.log(
    old === undefined
      ? `  added ${agent.token} -> ${agent.category}${note}`
      : `  changed ${agent.token}: ${old} -> ${agent.category}${note}`,
  );
}
for (const token of before.keys()) console.log(`  removed ${token}`);
