// Many large batches at once on the batch endpoint, with and without the request bodies' memory
// budget (src/http/body-memory.ts; figures in docs/benchmarks.md):
//   node bench/request-flood.ts [--connections 800] [--events 1000] [--budgets 128,65536] [--heap-mb 0]
// For each budget (QUIRE_REQUEST_MEMORY_MB; 65536 holds any flood here, as no budget did), a fresh
// `quire serve` child on the same embedded PostgreSQL takes --connections requests at once, each
// a batch of --events events padded to about 3.9 MB (inside the route's 4 MiB limit). With
// --heap-mb the server's V8 heap is capped (0: Node's default). Printed per budget: the answers,
// the seconds, the views stored, whether the server lived, its peak resident memory, and the slowest
// `/healthz` answer meanwhile.
import { parseArgs } from 'node:util';
import { openBenchDatabase } from './bench-database.ts';
import { createBenchProject } from './bench-project.ts';
import { startQuireServer } from './quire-server.ts';
import { postAtOnce } from './server-probe.ts';

const { values } = parseArgs({
  options: {
    connections: { type: 'string', default: '800' },
    events: { type: 'string', default: '1000' },
    budgets: { type: 'string', default: '128,65536' },
    'heap-mb': { type: 'string', default: '0' },
  },
});
const connections = Number(values.connections);
const budgets = (values.budgets as string).split(',');

// Long paths and user agents, as a client may send them: 1,000 events of about 3.8 KB.
const browser = `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/130.0 Safari/537.36 ${'x'.repeat(1900)}`;
const events = Array.from({ length: Number(values.events) }, (_, index) => ({
  path: `/docs/${'p'.repeat(1800)}${index}`,
  userAgent: browser,
  referrer: `https://example.com/${'r'.repeat(100)}`,
}));
const body = Buffer.from(JSON.stringify({ events }));

const database = await openBenchDatabase();
const { pool } = database;
console.log(
  `${connections} requests at once, ${events.length} events each (${(body.length / 1e6).toFixed(1)} MB)` +
    (values['heap-mb'] === '0' ? '' : `, server heap ${values['heap-mb']} MB`),
);

try {
  for (const budget of budgets) {
    const project = await createBenchProject(pool, 'bench flood', ['ingest']);
    const server = await startQuireServer(database.dataDirectory, {
      QUIRE_REQUEST_MEMORY_MB: budget,
      ...(values['heap-mb'] === '0' ? {} : { NODE_OPTIONS: `--max-old-space-size=${values['heap-mb']}` }),
    });
    try {
      await postAtOnce({
        server,
        pool,
        project,
        urlPath: `/v1/analytics/${project.id}/events`,
        bodies: Array.from({ length: connections }, () => body),
        label: `QUIRE_REQUEST_MEMORY_MB=${budget}: `,
      });
    } finally {
      await server.stop();
    }
  }
} finally {
  await database.close();
}
