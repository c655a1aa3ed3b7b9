// Rebuilds the published address ranges of verified agents (src/analytics/verification/data/):
//   node scripts/refresh-agent-ip-ranges.ts --date YYYY-MM-DD [--from DIRECTORY]
// Downloads every source's URL (or reads DIRECTORY/<last path segment of the URL>, saved by hand),
// checks each list against the operators' documented shape, writes agent-ip-ranges.json and prints
// how many prefixes each list gained or lost. A list that fails keeps its previous prefixes and date.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { type IpRangeTable, prefixesFromPublishedList } from '../src/analytics/verification/index.ts';

const { values } = parseArgs({ options: { date: { type: 'string' }, from: { type: 'string' } } });
if (values.date === undefined || !/^\d{4}-\d{2}-\d{2}$/.test(values.date)) {
  console.error('usage: node scripts/refresh-agent-ip-ranges.ts --date YYYY-MM-DD [--from DIRECTORY]');
  process.exit(2);
}
const tableUrl = new URL('../src/analytics/verification/data/agent-ip-ranges.json', import.meta.url);
const table = JSON.parse(readFileSync(tableUrl, 'utf8')) as IpRangeTable;
let failures = 0;
for (const source of table.sources) {
  try {
    const fileName = new URL(source.url).pathname.split('/').at(-1) ?? '';
    const text =
      values.from === undefined
        ? await (await fetch(source.url, { signal: AbortSignal.timeout(15_000) })).text()
        : readFileSync(join(values.from, fileName), 'utf8');
    const prefixes = prefixesFromPublishedList(JSON.parse(text));
    const before = new Set(source.prefixes);
    const added = prefixes.filter((prefix) => !before.has(prefix)).length;
    const removed = source.prefixes.filter((prefix) => !prefixes.includes(prefix)).length;
    source.prefixes = [...new Set(prefixes)].sort();
    source.retrieved = values.date;
    // Read from the operator now, not from a mirror's copy.
    delete source.via;
    console.log(`${source.url}: ${source.prefixes.length} prefixes (+${added} -${removed})`);
  } catch (error: unknown) {
    failures += 1;
    console.error(`${source.url}: kept as it was: ${error instanceof Error ? error.message : String(error)}`);
  }
}
writeFileSync(tableUrl, `${JSON.stringify(table, null, 2)}\n`);
process.exitCode = failures === 0 ? 0 : 1;
