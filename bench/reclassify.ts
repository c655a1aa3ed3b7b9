// What reclassifying stored history does to ingestion (figures in docs/benchmarks.md):
//   node bench/reclassify.ts [--views 2000000] [--window 5000] [--keep DIR]
// On the embedded PostgreSQL: --views page views over the last year, stored with SQL as an older
// classifier did (its version, its categories and agent names: GPTBot as a person, Mistral's
// assistant under a versioned name, Sogou as an AI crawler, Lynx as a bot), with a `quire serve`
// child process taking a batch of 10 events every 200 ms into the same project throughout. Then:
// 1. `rebuildRollups` (`quire analytics rebuild`) builds the rollups from the views in one
//    transaction that holds every writer: the way reclassification worked before it worked in
//    windows, and the baseline;
// 2. `reclassifyPageViews` (`quire analytics reclassify`) in windows of --window views.
// For each: seconds, the batches answered meanwhile, and their slowest answer (how long a writer
// waited). Last, `verifyRollups` over everything, batches included.
import { parseArgs } from 'node:util';
import { createClassifier } from '../src/analytics/classification/index.ts';
import { rebuildRollups, reclassifyPageViews, verifyRollups } from '../src/analytics/rollups/index.ts';
import { openBenchDatabase } from './bench-database.ts';
import { createBenchProject } from './bench-project.ts';
import { startQuireServer } from './quire-server.ts';

const { values } = parseArgs({
  options: {
    views: { type: 'string', default: '2000000' },
    window: { type: 'string', default: '5000' },
    keep: { type: 'string' },
  },
});
const totalViews = Number(values.views);
const day = 86_400_000;

const database = await openBenchDatabase({ keep: values.keep });
const { pool } = database;
const project = await createBenchProject(pool, 'bench reclassify', ['ingest']);
const key = project.key;

// [user agent, share of views, category and agent as the older classifier stored them].
const clients: Array<[string, number, string, string | null]> = [
  [
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36',
    0.85,
    'human',
    null,
  ],
  [
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)',
    0.05,
    'human',
    null,
  ],
  [
    'Mozilla/5.0 (compatible; MistralAI-User/1.0; +https://docs.mistral.ai/robots)',
    0.04,
    'ai_assistant',
    'MistralAI-User/1.0',
  ],
  ['Sogou web spider/4.0(+http://www.sogou.com/docs/help/webmasters.htm#07)', 0.03, 'ai_training', 'Spider'],
  ['Lynx/2.8.9rel.1 libwww-FM/2.14 SSL-MM/1.4.1 OpenSSL/1.1.1w', 0.03, 'bot', 'Lynx'],
];

const server = await startQuireServer(database.dataDirectory);
try {
  const now = Date.now();
  const loadStarted = performance.now();
  await load(now);
  console.log(
    `${totalViews} views stored in ${seconds(loadStarted)} s (PostgreSQL ${await serverVersion()})`,
  );

  const probe = startProbe();
  const rebuild = await whileProbing(probe, () => rebuildRollups(pool, project.id));
  print('rebuild (one transaction, writers held)', rebuild);
  const classifier = createClassifier();
  const reclassify = await whileProbing(probe, () =>
    reclassifyPageViews(pool, classifier, project.id, { viewsPerTransaction: Number(values.window) }),
  );
  print(`reclassify (windows of ${values.window} views)`, reclassify);
  const report = reclassify.result;
  console.log(
    `  ${report.viewsUpdated} views updated, ${report.viewsChanged} changed category, ${report.transactions} transactions`,
  );
  await probe.stop();
  const verification = await verifyRollups(pool, project.id);
  console.log(
    `verify: ${verification.rawEvents} raw events, ${verification.mismatches.length} mismatches, ${probe.failures} probe batches failed`,
  );
} finally {
  await server.stop();
  await database.close();
}

/** The views, in time order as live ingestion stores them, with their paths' ids. */
async function load(now: number): Promise<void> {
  const today = new Date(now);
  for (let month = 0; month <= 13; month += 1) {
    await pool.query('SELECT analytics_ensure_page_view_partition($1, $2)', [
      project.id,
      new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - month, 1)),
    ]);
  }
  await pool.query(
    'INSERT INTO analytics_user_agents (id, user_agent) SELECT * FROM unnest($1::bigint[], $2::text[])',
    [clients.map((_, index) => index + 1), clients.map(([userAgent]) => userAgent)],
  );
  let below = 0;
  const thresholds = clients.map(([, share]) => (below += share));
  const chunk = 500_000;
  for (let done = 0; done < totalViews; done += chunk) {
    const size = Math.min(chunk, totalViews - done);
    await pool.query(
      `WITH clients AS (
         SELECT * FROM unnest($5::float8[], $6::text[], $7::text[]) WITH ORDINALITY AS client (below, category, agent, id)
       )
       INSERT INTO analytics_page_views (project_id, occurred_at, path, category, agent, classifier_version, user_agent_id, markdown)
       SELECT $1, occurred_at, '/docs/page-' || least(5000, floor(exp(random() * ln(5001)))::int), client.category,
         client.agent, 'former', client.id, false
       FROM (
         SELECT $2::timestamptz + random() * $4::float8 * interval '1 millisecond' AS occurred_at, random() AS draw
         FROM generate_series(1, $3)
       ) AS views
       CROSS JOIN LATERAL (SELECT * FROM clients WHERE clients.below > views.draw ORDER BY clients.below LIMIT 1) AS client
       ORDER BY occurred_at`,
      [
        project.id,
        new Date(now - 365 * day + (done / totalViews) * 365 * day),
        size,
        (size / totalViews) * 365 * day,
        thresholds.map((threshold, index) => (index === thresholds.length - 1 ? 2 : threshold)),
        clients.map(([, , category]) => category),
        clients.map(([, , , agent]) => agent),
      ],
    );
  }
  await pool.query(
    `INSERT INTO analytics_paths (project_id, id, path)
     SELECT $1, row_number() OVER (ORDER BY path), path
     FROM (SELECT DISTINCT path FROM analytics_page_views WHERE project_id = $1) AS paths`,
    [project.id],
  );
  await pool.query('VACUUM ANALYZE analytics_page_views');
}

interface Probe {
  /** Answer times (ms) of the batches sent since the last `take`. */
  take(): number[];
  failures: number;
  stop(): Promise<void>;
}

/** A batch of 10 live events every 200 ms, each timed from sending to its answer. */
function startProbe(): Probe {
  let samples: number[] = [];
  const pending = new Set<Promise<void>>();
  const probe: Probe = {
    failures: 0,
    take() {
      const taken = samples;
      samples = [];
      return taken;
    },
    async stop() {
      clearInterval(timer);
      await Promise.all(pending);
    },
  };
  const send = async () => {
    const started = performance.now();
    const events = Array.from({ length: 10 }, (_, index) => ({
      path: `/docs/page-${index + 1}`,
      timestamp: new Date().toISOString(),
      userAgent: clients[index % clients.length]?.[0],
    }));
    const response = await fetch(`${server.url}/v1/analytics/${project.id}/events`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ events }),
    }).catch(() => null);
    await response?.arrayBuffer();
    if (response?.status !== 202) probe.failures += 1;
    samples.push(performance.now() - started);
  };
  const timer = setInterval(() => {
    const sending = send().finally(() => pending.delete(sending));
    pending.add(sending);
  }, 200);
  return probe;
}

async function whileProbing<T>(probe: Probe, run: () => Promise<T>) {
  probe.take();
  const started = performance.now();
  const result = await run();
  const elapsed = seconds(started);
  // Batches sent during the run and still waiting are answered once it ends.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  return { result, seconds: elapsed, answers: probe.take() };
}

function print(label: string, run: { seconds: string; answers: number[] }): void {
  const sorted = [...run.answers].sort((left, right) => left - right);
  const at = (rank: number) =>
    (sorted[Math.min(sorted.length - 1, Math.floor(rank * sorted.length))] ?? 0).toFixed(0);
  console.log(
    `${label}: ${run.seconds} s; ${sorted.length} batches meanwhile, answered in p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, slowest ${at(1)} ms`,
  );
}

function seconds(started: number): string {
  return ((performance.now() - started) / 1000).toFixed(1);
}

async function serverVersion(): Promise<string> {
  return (await pool.query('SHOW server_version')).rows[0].server_version;
}
