// Analytics benchmark on the embedded PostgreSQL (figures in docs/benchmarks.md):
//   node bench/analytics.ts [--events 10000000] [--ingest-seconds 20] [--concurrency 16] [--keep DIR]
//     [--ingest-only] [--without-addresses]
//   node bench/analytics.ts --drains [--drain-views 100000] [--drain-rounds 1] [--drain-batch 500] [--statements]
//     [--drain-only cloudflare,vercel,netlify]
//     (the drain comparison only, see 5.)
//   SERVER_NODE_OPTIONS='--cpu-prof --cpu-prof-dir=DIR' node bench/analytics.ts ...   (profiles the server)
// 1. Ingestion through the HTTP batch endpoint of a `quire serve` child process: batches of 1,000
//    events (Zipf paths over 5,000 pages, 10% AI), acknowledged after commit; a year replayed in
//    order, then live traffic (timestamps in the last minute).
// 2. Bulk load of the export data set with SQL (the same tables and rollups the writer fills;
//    HTTP at the measured rate would take too long for 10 million events).
// 3. The export for 30 and 365 days (edges not aligned to hours) over HTTP, p50/p95, and the same
//    export computed the way Umami does it (GROUP BY over raw events), and the ratio; then the same
//    export with ?detail=categories beside the plain one.
// 4. Visitors (bench/analytics-visitors.ts): every event carries a client address with repeat
//    visits, so ingestion runs with visitors on; the export data set gets a visitor per view and its
//    sketches; `/visitors` at 30 and 365 days beside an exact COUNT(DISTINCT), and sketch disk use.
// 5. With --drains, instead of the above: the same live page views through the batch endpoint and
//    through each drain endpoint (bench/analytics-drains.ts), after a warm-up pass of every endpoint
//    (not counted), views/s and the ratio to the batch endpoint, and the ceiling the CPU per view sets
//    on these cores; --drain-rounds N repeats it all and prints the median ratios.
//    --statements also prints, per endpoint, the statements PostgreSQL spent the most time on, with
//    the shared buffers they touched and the WAL they wrote; it needs pg_stat_statements loaded: run
//    once with --keep DIR, add `shared_preload_libraries = 'pg_stat_statements'` to
//    DIR/data/postgres/postgresql.conf, run again with the same --keep DIR.
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { packRollups } from '../src/analytics/rollups/index.ts';
import { rollupSeriesOf } from '../src/analytics/storage/index.ts';
import { drainsBenchmark } from './analytics-drains.ts';
import { loadVisitorSketches, visitorExpression, visitorsBenchmark } from './analytics-visitors.ts';
import { openBenchDatabase } from './bench-database.ts';
import { createBenchProject } from './bench-project.ts';
import { clusterCpuSeconds, processCpuSeconds } from './process-cpu.ts';
import { startQuireServer } from './quire-server.ts';

const { values } = parseArgs({
  options: {
    events: { type: 'string', default: '10000000' },
    'ingest-seconds': { type: 'string', default: '20' },
    concurrency: { type: 'string', default: '16' },
    keep: { type: 'string' },
    'ingest-only': { type: 'boolean', default: false },
    // Events without a client address: ingestion with no visitors to count, for comparison.
    'without-addresses': { type: 'boolean', default: false },
    drains: { type: 'boolean', default: false },
    'drain-views': { type: 'string', default: '100000' },
    'drain-rounds': { type: 'string', default: '1' },
    // Entries per Vercel and Netlify request (neither documents a batch size).
    'drain-batch': { type: 'string', default: '500' },
    // Some of the drains only: cloudflare, vercel, netlify (comma-separated).
    'drain-only': { type: 'string' },
    statements: { type: 'boolean', default: false },
  },
});
const totalEvents = Number(values.events);
const ingestSeconds = Number(values['ingest-seconds']);
const concurrency = Number(values.concurrency);
const pages = 5000;
const day = 86_400_000;

const database = await openBenchDatabase({ keep: values.keep });
const { pool } = database;
console.log(
  `PostgreSQL: ${(await pool.query('SHOW server_version')).rows[0].server_version}, ${os.cpus().length} CPUs`,
);

const ingestProject = await createBenchProject(pool, 'bench ingest', ['ingest']);
const exportProject = await createBenchProject(pool, 'bench export', ['read']);
const ingestKey = ingestProject.key;
const readKey = exportProject.key;

// Zipf(1) over 5,000 pages: a log-uniform draw, floored, gives P(k) ≈ 1 / (k ln N).
const zipfPage = () => Math.min(pages, Math.floor(Math.exp(Math.random() * Math.log(pages + 1))));
const browsers = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
  'Mozilla/5.0 (X11; Linux x86_64; rv:131.0) Gecko/20100101 Firefox/131.0',
];
const aiAgents = [
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot',
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Claude-User/1.0; +Claude-User@anthropic.com)',
  'Mozilla/5.0 (compatible; OAI-SearchBot/1.0; +https://openai.com/searchbot)',
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)',
];
const pick = <T>(items: T[]) => items[Math.floor(Math.random() * items.length)] as T;
// Repeat visits: a log-uniform draw over 50,000 clients (a few come back very often, most rarely).
const clientAddress = () => {
  const client = Math.floor(Math.exp(Math.random() * Math.log(50_001)));
  return `10.${client >> 16}.${(client >> 8) & 255}.${client & 255}`;
};

const server = await startQuireServer(database.dataDirectory, {
  NODE_OPTIONS: process.env.SERVER_NODE_OPTIONS ?? '',
});
const serverPid = server.process.pid as number;
const url = server.url;

// Plain node:http with keep-alive for every request: fetch cost the load generator, which shares the
// two cores with the server, about three times the CPU time per request.
const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });

try {
  if (values.drains) {
    await drainsBenchmark({
      projectId: ingestProject.id,
      key: ingestKey,
      views: Number(values['drain-views']),
      rounds: Number(values['drain-rounds']),
      batchEntries: Number(values['drain-batch']),
      ...(values['drain-only'] === undefined ? {} : { drains: new Set(values['drain-only'].split(',')) }),
      concurrency,
      post: (path, key, body, headers) => send(path, key, body, headers),
      percentile,
      zipfPage,
      clientAddress,
      cpuSeconds,
      visitorMarksFolded,
      ...(values.statements ? { statements } : {}),
    });
  } else await ingestAndExport();
} finally {
  agent.destroy();
  await server.stop();
  await database.close();
}

async function ingestAndExport(): Promise<void> {
  // 1. Ingestion over HTTP, twice. First the year replayed in order, as a log import over the API
  // would send it: at 10 million views a year one batch of 1,000 covers about 53 minutes, so
  // concurrent batches fall in different hours. Then live traffic: every event of the last minute,
  // so concurrent batches add to the same hour and day rows.
  const now = Date.now();
  const eventGap = (365 * day) / totalEvents;
  const bodies = (timestamp: (batchIndex: number, index: number) => number) =>
    Array.from({ length: 64 }, (_, batchIndex) =>
      // Encoded once: the load generator shares the two cores with the server.
      new TextEncoder().encode(
        JSON.stringify({
          events: Array.from({ length: 1000 }, (_, index) => ({
            path: `/docs/page-${zipfPage()}`,
            timestamp: new Date(timestamp(batchIndex, index)).toISOString(),
            userAgent: Math.random() < 0.1 ? pick(aiAgents) : pick(browsers),
            ...(values['without-addresses'] ? {} : { ip: clientAddress() }),
          })),
        }),
      ),
    );
  await ingest(
    'year replayed',
    bodies((batchIndex, index) => now - 365 * day + (batchIndex * 1000 + index) * eventGap),
  );
  await ingest(
    'live',
    bodies(() => now - Math.floor(Math.random() * 60_000)),
  );

  if (!values['ingest-only']) await exportBenchmark(now);
}

/** A POST (with `body`, JSON unless `headers` say otherwise) or GET to the server, over the keep-alive agent. */
function send(
  path: string,
  key: string,
  body?: Uint8Array,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      `${url}${path}`,
      {
        method: body === undefined ? 'GET' : 'POST',
        agent,
        headers: {
          authorization: `Bearer ${key}`,
          ...(body === undefined
            ? {}
            : { 'content-type': 'application/json', 'content-length': body.byteLength }),
          ...headers,
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
        );
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/**
 * CPU seconds the server and the PostgreSQL cluster have used so far: throughput depends on what
 * else the machine runs, CPU per event much less.
 */
async function cpuSeconds(): Promise<{ server: number; postgres: number }> {
  return {
    server: await processCpuSeconds(serverPid),
    postgres: await clusterCpuSeconds(path.join(database.dataDirectory, 'postgres')),
  };
}

/** `--statements`: resets pg_stat_statements (`label` null), or prints its top statements since. */
async function statements(label: string | null): Promise<void> {
  if (label === null) {
    await pool.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
    await pool.query('SELECT pg_stat_statements_reset()');
    return;
  }
  const top = await pool.query<{
    milliseconds: number;
    calls: number;
    rows: number;
    buffers: number;
    wal: string;
    query: string;
  }>(
    `SELECT round(total_exec_time)::integer AS milliseconds, calls::integer, rows::integer,
       (shared_blks_hit + shared_blks_read)::integer AS buffers, pg_size_pretty(wal_bytes) AS wal,
       left(regexp_replace(query, '\\s+', ' ', 'g'), 100) AS query
     FROM pg_stat_statements ORDER BY total_exec_time DESC LIMIT 6`,
  );
  console.log(`  statements, most time first (${label}):`);
  for (const row of top.rows) {
    console.log(
      `    ${row.milliseconds} ms, ${row.calls} calls, ${row.rows} rows, ${row.buffers} buffers touched, ` +
        `${row.wal} of WAL: ${row.query}`,
    );
  }
}

/** Waits until maintenance has folded every visitor mark the ingestion appended. */
async function visitorMarksFolded(): Promise<void> {
  while (
    Number(
      (await pool.query('SELECT count(*) AS count FROM analytics_visitor_marks WHERE state = 0')).rows[0]
        .count,
    ) > 0
  ) {
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function ingest(label: string, bodies: Uint8Array[]): Promise<void> {
  const cpuBefore = await cpuSeconds();
  let acknowledged = 0;
  let failures = 0;
  const latencies: number[] = [];
  const deadline = Date.now() + ingestSeconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async (_, worker) => {
      for (let round = worker; Date.now() < deadline; round += concurrency) {
        const sentAt = performance.now();
        const response = await send(
          `/v1/analytics/${ingestProject.id}/events`,
          ingestKey,
          bodies[round % bodies.length] as Uint8Array,
        );
        latencies.push(performance.now() - sentAt);
        if (response.status === 202)
          acknowledged += (JSON.parse(response.body) as { accepted: number }).accepted;
        else failures += 1;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `ingest (${label}): ${acknowledged} events acknowledged in ${seconds.toFixed(1)} s = ${Math.round(acknowledged / seconds)} events/s ` +
      `(${concurrency} connections, 1,000 events per request, batch p50 ${percentile(latencies, 50).toFixed(0)} ms, ` +
      `p95 ${percentile(latencies, 95).toFixed(0)} ms, ${failures} failed)`,
  );
  await visitorMarksFolded();
  const cpuAfter = await cpuSeconds();
  const perThousand = (seconds: number) => ((seconds / acknowledged) * 1e6).toFixed(1);
  const server = cpuAfter.server - cpuBefore.server;
  const postgres = cpuAfter.postgres - cpuBefore.postgres;
  console.log(
    `  CPU per 1,000 events, visitor marks folded: server ${perThousand(server)} ms, PostgreSQL ${perThousand(postgres)} ms; ` +
      `so ${os.cpus().length} cores busy with nothing else would take ${Math.round((os.cpus().length * acknowledged) / (server + postgres))} events/s`,
  );
}

function percentile(samples: number[], rank: number): number {
  const sorted = [...samples].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.floor((rank / 100) * sorted.length))] ?? Number.NaN;
}

/** Raw events with SQL, then the rollups from them (hours from raw, days from hours), then packed. */
async function bulkLoad(projectId: string, count: number, now: number): Promise<void> {
  // Every calendar month of the year back: steps of 30 days skip one now and then (on 2026-11-26,
  // February, and the load failed there).
  const today = new Date(now);
  for (let month = 0; month <= 13; month += 1) {
    await pool.query('SELECT analytics_ensure_page_view_partition($1, $2)', [
      projectId,
      new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - month, 1)),
    ]);
  }
  // Every view's visitor, kept only here for the exact COUNT(DISTINCT) (Quire itself stores none).
  await pool.query(
    'CREATE UNLOGGED TABLE IF NOT EXISTS bench_visits (occurred_at timestamptz, path text, category text, visitor integer)',
  );
  // Oldest first, each chunk a slice of the year in time order: stored as live ingestion stores them.
  const chunk = 1_000_000;
  for (let done = 0; done < count; done += chunk) {
    const size = Math.min(chunk, count - done);
    const sliceStart = now - 365 * day + (done / count) * 365 * day;
    await pool.query(
      `WITH generated AS MATERIALIZED (
         SELECT $2::timestamptz + random() * $4::double precision * interval '1 millisecond' AS occurred_at,
           '/docs/page-' || least(${pages}, floor(exp(random() * ln(${pages + 1})))::int) AS path,
           kind.category, kind.agent
         FROM generate_series(1, $3) AS serial
         CROSS JOIN LATERAL (SELECT random() AS draw, serial) AS roll
         CROSS JOIN LATERAL (
           SELECT CASE WHEN draw < 0.9 THEN 'human' WHEN draw < 0.94 THEN 'ai_assistant'
                       WHEN draw < 0.97 THEN 'ai_search' ELSE 'ai_training' END AS category,
                  CASE WHEN draw < 0.9 THEN NULL WHEN draw < 0.94 THEN 'ChatGPT-User'
                       WHEN draw < 0.97 THEN 'OAI-SearchBot' ELSE 'GPTBot' END AS agent
         ) AS kind
       ), visits AS (
         INSERT INTO bench_visits (occurred_at, path, category, visitor)
         SELECT occurred_at, path, category, ${visitorExpression(count, 'occurred_at')} FROM generated
       )
       INSERT INTO analytics_page_views (project_id, occurred_at, path, category, agent, classifier_version, markdown)
       SELECT $1, occurred_at, path, category, agent, 'bench', false FROM generated
       ORDER BY 2`,
      [projectId, new Date(sliceStart), size, (size / count) * 365 * day],
    );
  }
  // Path ids as the writer gives them (the project has no other paths).
  await pool.query(
    `INSERT INTO analytics_paths (project_id, id, path)
     SELECT $1, row_number() OVER (ORDER BY path), path FROM (SELECT DISTINCT path FROM analytics_page_views WHERE project_id = $1) AS paths`,
    [projectId],
  );
  const series = await rollupSeriesOf(pool, projectId);
  await pool.query(
    `INSERT INTO analytics_path_rollups (series, bucket, path_id, human, ai_assistant, ai_search, ai_training, bot)
     SELECT $2::integer, date_trunc('hour', occurred_at, 'UTC'), paths.id,
       count(*) FILTER (WHERE category = 'human'), count(*) FILTER (WHERE category = 'ai_assistant'),
       count(*) FILTER (WHERE category = 'ai_search'), count(*) FILTER (WHERE category = 'ai_training'),
       count(*) FILTER (WHERE category = 'bot')
     FROM analytics_page_views AS views
     JOIN analytics_paths AS paths ON paths.project_id = $1 AND paths.path = views.path
     WHERE views.project_id = $1 GROUP BY 2, 3
     ORDER BY 2, 3 -- the order live ingestion writes them in: hour by hour`,
    [projectId, series.hour],
  );
  await pool.query(
    `INSERT INTO analytics_path_rollups (series, bucket, path_id, human, ai_assistant, ai_search, ai_training, bot)
     SELECT $2::integer, date_trunc('day', bucket, 'UTC'), path_id, sum(human), sum(ai_assistant), sum(ai_search),
       sum(ai_training), sum(bot)
     FROM analytics_path_rollups WHERE series = $1 GROUP BY 2, 3 ORDER BY 2, 3`,
    [series.hour, series.day],
  );
  await pool.query(
    `INSERT INTO analytics_agent_rollups (project_id, granularity, bucket, category, agent, views)
     SELECT project_id, levels.granularity, date_trunc(levels.granularity, occurred_at, 'UTC'), category, coalesce(agent, ''), count(*)
     FROM analytics_page_views CROSS JOIN (VALUES ('hour'), ('day'), ('month')) AS levels (granularity)
     WHERE project_id = $1 GROUP BY 1, 2, 3, 4, 5`,
    [projectId],
  );
  // What the server's packer does every minute, all at once (the server may be at it too).
  const packStarted = performance.now();
  const packing = await packRollups(pool, { projectId, now });
  console.log(
    `packing: ${packing.packed} closed buckets in ${((performance.now() - packStarted) / 1000).toFixed(0)} s`,
  );
  await pool.query(
    'VACUUM ANALYZE analytics_page_views, analytics_path_rollups, analytics_agent_rollups, analytics_packed_rollups',
  );
  const visitorsStarted = performance.now();
  await loadVisitorSketches(pool, projectId, now);
  console.log(`visitor sketches: built in ${((performance.now() - visitorsStarted) / 1000).toFixed(0)} s`);
  // Flush the load's dirty pages now, so a checkpoint does not run during the measurements.
  await pool.query('CHECKPOINT');
}

/** The export as Umami computes its pages report: GROUP BY over the raw events of the range. */
async function umamiExport(projectId: string, from: Date, to: Date): Promise<number> {
  const result = await pool.query<{ total_human: number; total_ai: number }>(
    `WITH counted AS (
       SELECT path, count(*) FILTER (WHERE category = 'human') AS human,
         count(*) FILTER (WHERE category = 'ai_assistant') AS ai
       FROM analytics_page_views WHERE project_id = $1 AND occurred_at >= $2 AND occurred_at < $3
       GROUP BY path
     )
     SELECT path, human, ai, (sum(human) OVER ())::bigint AS total_human, (sum(ai) OVER ())::bigint AS total_ai
     FROM counted WHERE human + ai > 0 ORDER BY human + ai DESC, path LIMIT 50`,
    [projectId, from, to],
  );
  return (result.rows[0]?.total_human ?? 0) + (result.rows[0]?.total_ai ?? 0);
}

/** 2. Bulk load of the export data set; 3. the export, ours and Umami's way, on the same data. */
async function exportBenchmark(now: number): Promise<void> {
  // 2. Bulk load of the export data set.
  const loadStarted = performance.now();
  await bulkLoad(exportProject.id, totalEvents, now);
  console.log(
    `bulk load: ${totalEvents} events and their rollups in ${((performance.now() - loadStarted) / 1000).toFixed(0)} s`,
  );

  // 3. The export, ours and Umami's way, on the same data.
  const end = now - 17 * 60_000 - 23_000; // not aligned to an hour: raw edges are read
  for (const days of [30, 365]) {
    const dateFrom = new Date(end - days * day).toISOString();
    const dateTo = new Date(end).toISOString();
    const query = `dateFrom=${encodeURIComponent(dateFrom)}&dateTo=${encodeURIComponent(dateTo)}&limit=50`;
    const timings: number[] = [];
    let body: { totals: { total: number } } | null = null;
    for (let run = 0; run < 60; run += 1) {
      const sentAt = performance.now();
      const response = await send(`/v1/analytics/${exportProject.id}/views?${query}`, readKey);
      body = JSON.parse(response.body) as { totals: { total: number } };
      if (run >= 10) timings.push(performance.now() - sentAt); // the first runs warm caches
    }
    const umami: number[] = [];
    let umamiTotal = 0;
    for (let run = 0; run < 4; run += 1) {
      const sentAt = performance.now();
      umamiTotal = await umamiExport(exportProject.id, new Date(dateFrom), new Date(dateTo));
      if (run >= 1) umami.push(performance.now() - sentAt);
    }
    const ours = percentile(timings, 50);
    const theirs = percentile(umami, 50);
    console.log(
      `export ${days} days: p50 ${ours.toFixed(1)} ms, p95 ${percentile(timings, 95).toFixed(1)} ms over HTTP ` +
        `(total ${body?.totals.total}); GROUP BY over raw events: p50 ${theirs.toFixed(0)} ms (total ${umamiTotal}); ` +
        `${(theirs / ours).toFixed(0)}x faster`,
    );
    // The same export with ?detail=categories, which reads the per-page rollup rows (the packed rows
    // hold only the export's three counters).
    const detailed: number[] = [];
    for (let run = 0; run < 30; run += 1) {
      const sentAt = performance.now();
      const response = await send(
        `/v1/analytics/${exportProject.id}/views?${query}&detail=categories`,
        readKey,
      );
      if (response.status !== 200)
        throw new Error(`detail=categories answered ${response.status}: ${response.body}`);
      if (run >= 5) detailed.push(performance.now() - sentAt);
    }
    const detail = percentile(detailed, 50);
    console.log(
      `export ${days} days with detail=categories: p50 ${detail.toFixed(1)} ms, p95 ${percentile(detailed, 95).toFixed(1)} ms ` +
        `over HTTP: ${(detail / ours).toFixed(1)}x the plain export`,
    );
  }
  await visitorsBenchmark({
    pool,
    projectId: exportProject.id,
    totalEvents,
    end,
    get: (path) => send(path, readKey),
    percentile,
  });
}
