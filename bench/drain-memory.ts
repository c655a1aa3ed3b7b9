// What large drained batches sent at once do to the server (figures in docs/analytics.md, "Live log
// drains", and docs/benchmarks.md):
//   node bench/drain-memory.ts [--batches 16] [--records 120000] [--heap-mb 1024] [--budget-mb 128] [--tiny]
// A `quire serve` child process on the embedded PostgreSQL, its V8 heap capped at --heap-mb, takes
// --batches Cloudflare Logpush batches at once, each --records records of about 500 bytes (60 MB
// inflated for 120,000, 2.4 MB gzipped: inside the 16 MiB / 64 MiB limits), with
// QUIRE_DRAIN_MEMORY_MB=--budget-mb. With --tiny each batch is 60 MB of `{}` lines instead: 21
// million records that are no page view. Printed: the answers, the seconds, whether the server
// lived, its peak resident memory (VmHWM), and the slowest answer to a `/healthz` asked every 50 ms
// meanwhile (how long the server left other requests waiting).
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { openBenchDatabase } from './bench-database.ts';
import { createBenchProject } from './bench-project.ts';
import { startQuireServer } from './quire-server.ts';
import { postAtOnce } from './server-probe.ts';

const { values } = parseArgs({
  options: {
    batches: { type: 'string', default: '16' },
    records: { type: 'string', default: '120000' },
    'heap-mb': { type: 'string', default: '1024' },
    'budget-mb': { type: 'string', default: '128' },
    tiny: { type: 'boolean', default: false },
  },
});
const batches = Number(values.batches);
const records = Number(values.records);

const database = await openBenchDatabase();
const { pool } = database;
const project = await createBenchProject(pool, 'bench drains', ['ingest']);

const chrome =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36';
const now = Date.now();
function batch(number: number): Buffer {
  if (values.tiny) return gzipSync('{}\n'.repeat(20 * 1024 * 1024));
  const lines: string[] = [];
  for (let index = 0; index < records; index += 1) {
    lines.push(
      JSON.stringify({
        ClientIP: `198.51.${(index >> 8) & 255}.${index & 255}`,
        ClientRequestHost: 'docs.example.com',
        ClientRequestMethod: 'GET',
        ClientRequestURI: `/docs/page-${index % 3000}?q=${index}`,
        ClientRequestPath: `/docs/page-${index % 3000}`,
        ClientRequestUserAgent: chrome,
        ClientRequestReferer: 'https://www.google.com/',
        EdgeResponseStatus: 200,
        EdgeStartTimestamp: (now - 1000 - (index % 50_000)) * 1e6,
        EdgeEndTimestamp: (now - 990) * 1e6,
        RayID: `${number.toString(16).padStart(4, '0')}${index.toString(16).padStart(12, '0')}`,
        RequestHeaders: { accept: 'text/html' },
      }),
    );
  }
  return gzipSync(`${lines.join('\n')}\n`);
}
const bodies = Array.from({ length: batches }, (_, number) => batch(number));
console.log(
  `${batches} batches of ${values.tiny ? '60 MB of {} lines' : `${records} records`}, ` +
    `${((bodies[0]?.length ?? 0) / 1e6).toFixed(1)} MB gzipped each; server heap ${values['heap-mb']} MB, ` +
    `QUIRE_DRAIN_MEMORY_MB ${values['budget-mb']}`,
);

const server = await startQuireServer(database.dataDirectory, {
  NODE_OPTIONS: `--max-old-space-size=${values['heap-mb']}`,
  QUIRE_DRAIN_MEMORY_MB: values['budget-mb'] as string,
});
try {
  await postAtOnce({
    server,
    pool,
    project,
    urlPath: `/v1/analytics/${project.id}/drains/cloudflare`,
    bodies,
    label: 'answers: ',
  });
} finally {
  await server.stop();
  await database.close();
}
