// The page-view writer's own CPU per view, outside PostgreSQL (src/analytics/ingestion/insert-page-views.ts):
//   node bench/page-view-writer.ts [--views 200000] [--group 5000] [--rounds 12]
// Groups of `--group` live views (Zipf paths over 5,000 pages, 10% AI agents, timestamps in the last
// minute), shaped like the drains benchmark's, go through `insertPageViews` as the writer's
// transactions give them: without import keys (the batch endpoint) and with them (drains and log
// imports). The connection it is given answers at once, as PostgreSQL would, and encodes every
// text parameter to UTF-8 bytes as the pg client does before sending it. So the figure is the
// writer's arithmetic (profiles, rollup sums) and the statements' parameters, in ns per view, the
// fastest of the rounds: on this machine a round can take a third longer for no reason of its own.
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import type { StoredPageView } from '../src/analytics/ingestion/index.ts';
import { insertPageViews } from '../src/analytics/ingestion/insert-page-views.ts';
import type { Queryable } from '../src/db/database.ts';

const { values } = parseArgs({
  options: {
    views: { type: 'string', default: '200000' },
    group: { type: 'string', default: '5000' },
    rounds: { type: 'string', default: '12' },
  },
});
const views = Number(values.views);
const groupSize = Number(values.group);
const rounds = Number(values.rounds);

const browser =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';
const agents = [
  [
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot',
    'ai_assistant',
    'ChatGPT-User',
  ],
  [
    'Mozilla/5.0 (compatible; OAI-SearchBot/1.0; +https://openai.com/searchbot)',
    'ai_search',
    'OAI-SearchBot',
  ],
  [
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)',
    'ai_training',
    'GPTBot',
  ],
] as const;
const now = Date.now();
const zipfPage = () => Math.floor(5000 ** Math.random());

function group(keyed: boolean): StoredPageView[] {
  return Array.from({ length: groupSize }, (): StoredPageView => {
    const agent = Math.random() < 0.1 ? agents[Math.floor(Math.random() * agents.length)] : undefined;
    return {
      occurredAt: now - Math.floor(Math.random() * 60_000),
      path: `/docs/page-${zipfPage()}`,
      category: agent?.[1] ?? 'human',
      agent: agent?.[2] ?? null,
      classifierVersion: '2026-11-26.3',
      markdown: agent !== undefined && Math.random() < 0.3,
      referrerHost: Math.random() < 0.2 ? 'www.google.com' : null,
      userAgent: agent?.[0] ?? browser,
      verified: false,
      ...(keyed ? { importKey: randomBytes(16).toString('hex') } : {}),
    };
  });
}

const pathIds = new Map(Array.from({ length: 5000 }, (_, index) => [`/docs/page-${index}`, index + 1]));
/** Answers like PostgreSQL, after encoding the parameters as the pg client does. */
const connection = {
  async query(config: { values?: unknown[] }) {
    for (const value of config.values ?? []) if (typeof value === 'string') Buffer.from(value, 'utf8');
    return { rows: [{ inserted: groupSize, import_key: null }] };
  },
} as unknown as Queryable;

async function measure(keyed: boolean): Promise<number> {
  const groups = Array.from({ length: Math.ceil(views / groupSize) }, () => group(keyed));
  const started = process.hrtime.bigint();
  for (const views of groups)
    await insertPageViews(connection, 'prj_bench0000000001', views, pathIds, { hour: 1, day: 2 });
  return Number(process.hrtime.bigint() - started) / (groups.length * groupSize);
}

const figures = { plain: [] as number[], keyed: [] as number[] };
await measure(false);
await measure(true);
for (let round = 0; round < rounds; round += 1) {
  figures.plain.push(await measure(false));
  figures.keyed.push(await measure(true));
}
console.log(`groups of ${groupSize} views, ${views} views per round, fastest of ${rounds} rounds:`);
console.log(
  `  without import keys (the batch endpoint): ${Math.min(...figures.plain).toFixed(0)} ns per view`,
);
console.log(
  `  with import keys (drains, log imports):   ${Math.min(...figures.keyed).toFixed(0)} ns per view`,
);
