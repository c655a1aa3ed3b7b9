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
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import pg from 'pg';
import { acquireEmbeddedPostgres } from '../src/db/embedded-postgres.ts';
import { migrate } from '../src/db/migrator.ts';
import { createBenchProject } from './bench-project.ts';
import { startQuireServer } from './quire-server.ts';

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

const directory = await fs.mkdtemp(path.join(os.tmpdir(), 'quire-bench-'));
await fs.chmod(directory, 0o755);
const embedded = await acquireEmbeddedPostgres({
  dataDirectory: path.join(directory, 'data'),
  role: 'bench',
});
const pool = new pg.Pool({ connectionString: embedded.connectionString, max: 2 });
await migrate(pool);
const project = await createBenchProject(pool, 'bench drains', ['ingest']);
const key = project.key;

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

const server = await startQuireServer(path.join(directory, 'data'), {
  NODE_OPTIONS: `--max-old-space-size=${values['heap-mb']}`,
  QUIRE_DRAIN_MEMORY_MB: values['budget-mb'] as string,
});
const pid = server.process.pid as number;
const agent = new http.Agent({ keepAlive: true, maxSockets: batches + 1 });

function request(
  method: string,
  urlPath: string,
  body?: Buffer,
): Promise<{ status: number; body: string } | { error: string }> {
  return new Promise((resolve) => {
    const outgoing = http.request(
      `${server.url}${urlPath}`,
      {
        method,
        agent,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
        );
        response.on('error', (error) => resolve({ error: error.message }));
      },
    );
    outgoing.on('error', (error) => resolve({ error: error.message }));
    outgoing.end(body);
  });
}

/** The server's peak resident memory so far, in MB, from /proc (0 once the process is gone). */
async function peakMemory(): Promise<number> {
  const status = await fs.readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  return Number(/^VmHWM:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) / 1024;
}

try {
  let sending = true;
  let slowestHealth = 0;
  let unansweredHealth = 0;
  let peak = 0;
  const probe = (async () => {
    while (sending) {
      const asked = performance.now();
      const answer = await request('GET', '/healthz');
      if ('status' in answer) slowestHealth = Math.max(slowestHealth, performance.now() - asked);
      else unansweredHealth += 1;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  // Apart from the probe, which waits while the server does.
  const sampler = setInterval(async () => {
    peak = Math.max(peak, await peakMemory());
  }, 20);
  const started = performance.now();
  const answers = await Promise.all(
    bodies.map((body) => request('POST', `/v1/analytics/${project.id}/drains/cloudflare`, body)),
  );
  const seconds = (performance.now() - started) / 1000;
  sending = false;
  await probe;
  clearInterval(sampler);
  const alive = server.process.exitCode === null && server.process.signalCode === null;
  const counts = new Map<string, number>();
  for (const answer of answers) {
    const label = 'error' in answer ? `no answer (${answer.error})` : `${answer.status}`;
    counts.set(label, (counts.get(label) ?? 0) + 1);
  }
  const stored = await pool.query<{ count: number }>(
    'SELECT count(*)::int AS count FROM analytics_page_views WHERE project_id = $1',
    [project.id],
  );
  console.log(
    `answers: ${[...counts].map(([label, count]) => `${count} × ${label}`).join(', ')}; ` +
      `${seconds.toFixed(1)} s; ${stored.rows[0]?.count} views stored`,
  );
  console.log(
    `server ${alive ? 'alive' : 'DIED'}; peak resident memory ${peak.toFixed(0)} MB; ` +
      `slowest /healthz answer meanwhile ${slowestHealth.toFixed(0)} ms` +
      (unansweredHealth > 0 ? ` (${unansweredHealth} unanswered)` : ''),
  );
} finally {
  agent.destroy();
  await server.stop();
  await pool.end();
  await embedded.release();
  await fs.rm(directory, { recursive: true, force: true });
}
