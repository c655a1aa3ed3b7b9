// A drain's own CPU per view outside the writer and PostgreSQL (figures in docs/benchmarks.md):
//   node bench/drain-ingest.ts [--bodies 200] [--rounds 12]
// `--bodies` bodies of each provider shaped as the drains benchmark sends them (Vercel and Netlify:
// 500 entries, a quarter assets; Cloudflare: 5,000 records, gzipped) go through `ingestDrain` with a
// writer that stores nothing: decompressing, reading the records, parsing the providers' fields,
// classifying and identifying each request. Printed: the lowest CPU time per 1,000 views of
// `--rounds` passes, which moves much less than a mean with what else the machine runs.
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { createClassifier } from '../src/analytics/classification/index.ts';
import { type DrainProvider, ingestDrain } from '../src/analytics/drains/index.ts';
import type { PageViewWriter } from '../src/analytics/ingestion/index.ts';
import { createByteBudget } from '../src/byte-budget.ts';
import { cloudflareEntries, netlifyEntries, vercelEntries } from './analytics-drains.ts';

const { values } = parseArgs({
  options: {
    bodies: { type: 'string', default: '200' },
    rounds: { type: 'string', default: '12' },
  },
});
const bodies = Number(values.bodies);
const rounds = Number(values.rounds);

const classifier = createClassifier();
const writer: PageViewWriter = { write: async (_projectId, views) => views.length, close: async () => {} };
const memory = createByteBudget({
  limitBytes: 1024 * 1024 * 1024,
  maximumWaitMilliseconds: 1000,
  busy: () => new Error('busy'),
});
const browser =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';
let serial = 0;
const unique = () => (++serial).toString(16).padStart(16, '0');
const address = () => `10.0.${Math.floor(Math.random() * 256)}.${Math.floor(Math.random() * 256)}`;
const visit = () => ({
  path: `/docs/page-${Math.floor(Math.random() * 5000)}`,
  at: Date.now() - 1000,
  userAgent: browser,
  address: address(),
  verifiedBotCategory: '',
  markdown: false,
});

const shapes: Record<DrainProvider, { entries: typeof vercelEntries; perBody: number }> = {
  vercel: { entries: vercelEntries, perBody: 500 },
  netlify: { entries: netlifyEntries, perBody: 500 },
  cloudflare: { entries: cloudflareEntries, perBody: 5000 },
};

for (const [provider, shape] of Object.entries(shapes) as Array<[DrainProvider, (typeof shapes)['vercel']]>) {
  const built: Buffer[] = [];
  for (let body = 0; body < bodies; body += 1) {
    const lines: string[] = [];
    while (lines.length < shape.perBody) {
      lines.push(...shape.entries(Math.random() < 0.25 ? null : visit(), address, unique));
    }
    if (provider === 'vercel') built.push(Buffer.from(`[${lines.join(',')}]`));
    else if (provider === 'netlify') built.push(Buffer.from(`${lines.join('\n')}\n`));
    else built.push(gzipSync(`${lines.join('\n')}\n`));
  }
  let lowest = Number.POSITIVE_INFINITY;
  let views = 0;
  for (let round = 0; round < rounds; round += 1) {
    views = 0;
    const before = process.cpuUsage();
    for (const body of built) {
      views += (await ingestDrain({ classifier, writer, memory, now: Date.now() }, 'bench', provider, body))
        .accepted;
    }
    const used = process.cpuUsage(before);
    lowest = Math.min(lowest, (used.user + used.system) / views);
  }
  console.log(
    `${provider}: ${lowest.toFixed(2)} ms CPU per 1,000 views, the lowest of ${rounds} rounds ` +
      `(${views} views from ${bodies} bodies)`,
  );
}
