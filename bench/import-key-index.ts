// The unique index behind idempotent drains and imports (migration 0024), on the embedded PostgreSQL:
//   node bench/import-key-index.ts [--stored 2000000] [--views 200000] [--writers 1]
// Four tables shaped like a leaf of analytics_page_views, each holding `--stored` keyed views of the
// past month: one with the index on (project, key, time) as the parent's index was before migration
// 0024, one on (project, time, key), one on (time, key) as every leaf's is now, and one without the
// unique index (what idempotency costs). Then
// `--views` live views (the last minute, random 16-byte keys as request-identity.ts makes) are
// inserted into each with the writer's ON CONFLICT DO NOTHING, 2,000 per statement, each table
// first in turn; time per 1,000 views and the ratio are printed, with each index's size. With
// `--writers N` above 1, each table then takes `--views` more from N concurrent writers, every
// statement its own transaction, as the writer's transactions run beside each other: PostgreSQL's CPU
// per 1,000 views (the cluster's processes, from /proc) and the wall time. The table sizes and shared_buffers decide how much of the index stays
// cached: the default 128 MB holds the index of about a million views.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { acquireEmbeddedPostgres } from '../src/db/embedded-postgres.ts';
import { clusterCpuSeconds } from './process-cpu.ts';

const { values } = parseArgs({
  options: {
    stored: { type: 'string', default: '2000000' },
    views: { type: 'string', default: '200000' },
    writers: { type: 'string', default: '1' },
  },
});
const stored = Number(values.stored);
const views = Number(values.views);
const writers = Number(values.writers);
const perStatement = 2000;
const orders = {
  'index on (project, key, time), as before': 'project_id, import_key, occurred_at',
  'index on (project, time, key)': 'project_id, occurred_at, import_key',
  'index on (time, key), as now': 'occurred_at, import_key',
  'no unique index': null,
};

const directory = await fs.mkdtemp(path.join(os.tmpdir(), 'quire-bench-'));
await fs.chmod(directory, 0o755);
const embedded = await acquireEmbeddedPostgres({
  dataDirectory: path.join(directory, 'data'),
  role: 'bench',
});
const pool = new pg.Pool({ connectionString: embedded.connectionString, max: Math.max(2, writers) });
try {
  console.log(
    `PostgreSQL ${(await pool.query('SHOW server_version')).rows[0].server_version}, shared_buffers ` +
      `${(await pool.query('SHOW shared_buffers')).rows[0].shared_buffers}; ${stored} stored views, ${views} inserted`,
  );
  const tables = Object.entries(orders).map(([label, columns], index) => ({
    label,
    columns,
    name: `keys_${index}`,
  }));
  for (const table of tables) {
    await pool.query(`
      CREATE TABLE ${table.name} (
        project_id text NOT NULL, occurred_at timestamptz NOT NULL, path text NOT NULL, category text NOT NULL,
        markdown boolean NOT NULL, import_key bytea)`);
    await pool.query(`CREATE INDEX ON ${table.name} USING brin (occurred_at)`);
    if (table.columns !== null) {
      await pool.query(
        `CREATE UNIQUE INDEX ${table.name}_key ON ${table.name} (${table.columns}) WHERE import_key IS NOT NULL`,
      );
    }
    // A month of history in time order, keys as random as SHA-256 makes them.
    await pool.query(
      `INSERT INTO ${table.name}
       SELECT 'prj_bench0000000001', now() - interval '30 days' + i * interval '30 days' / $1, '/docs/page-' || i % 5000,
         'human', false, decode(md5(i::text || $2), 'hex')
       FROM generate_series(1, $1) AS i`,
      [stored, table.name],
    );
    await pool.query(`VACUUM ANALYZE ${table.name}`);
  }
  await pool.query('CHECKPOINT');
  const milliseconds = new Map(tables.map((table) => [table.name, 0]));
  for (let done = 0; done < views; done += perStatement) {
    const count = Math.min(perStatement, views - done);
    const at = Array.from({ length: count }, () => new Date(Date.now() - Math.random() * 60_000));
    const keys = Array.from({ length: count }, () => randomBytes(16));
    const paths = Array.from({ length: count }, (_, index) => `/docs/page-${(done + index) % 5000}`);
    const first = (done / perStatement) % tables.length;
    for (const table of [...tables.slice(first), ...tables.slice(0, first)]) {
      const started = performance.now();
      await pool.query(insertStatement(table.name), [at, paths, keys]);
      milliseconds.set(table.name, (milliseconds.get(table.name) ?? 0) + performance.now() - started);
    }
  }
  for (const table of tables) {
    const size =
      table.columns === null
        ? 'none'
        : (await pool.query(`SELECT pg_size_pretty(pg_relation_size('${table.name}_key')) AS size`)).rows[0]
            .size;
    console.log(
      `${table.label}: ${(((milliseconds.get(table.name) ?? 0) / views) * 1000).toFixed(1)} ms ` +
        `per 1,000 views inserted (index ${size})`,
    );
  }
  const before = milliseconds.get('keys_0') ?? 0;
  const now = milliseconds.get('keys_2') ?? 0;
  console.log(`now / before: ${(now / before).toFixed(2)}`);
  if (writers > 1) {
    for (const table of tables) await concurrentInserts(table.name, table.label);
  }
} finally {
  await pool.end();
  await embedded.release();
  await fs.rm(directory, { recursive: true, force: true });
}

/** `views` live views into `name` from `writers` connections at once, one transaction per statement. */
async function concurrentInserts(name: string, label: string): Promise<void> {
  const statements = Array.from({ length: Math.ceil(views / perStatement) }, () => {
    const at = Array.from({ length: perStatement }, () => new Date(Date.now() - Math.random() * 60_000));
    const paths = at.map((_, index) => `/docs/page-${index % 5000}`);
    return [at, paths, at.map(() => randomBytes(16))];
  });
  const cpuBefore = await clusterCpuSeconds(path.join(directory, 'data', 'postgres'));
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: writers }, async () => {
      const client = await pool.connect();
      try {
        for (let index = next++; index < statements.length; index = next++) {
          await client.query('BEGIN');
          await client.query(insertStatement(name), statements[index]);
          await client.query('COMMIT');
        }
      } finally {
        client.release();
      }
    }),
  );
  const wall = performance.now() - started;
  const cpu = (await clusterCpuSeconds(path.join(directory, 'data', 'postgres'))) - cpuBefore;
  console.log(
    `${label}, ${writers} writers at once: PostgreSQL CPU ${((cpu / views) * 1e6).toFixed(1)} ms per 1,000 ` +
      `views, wall ${((wall / views) * 1000).toFixed(1)} ms per 1,000 views`,
  );
}

/** The writer's keyed insert, shaped for these tables: times, paths and keys. */
function insertStatement(name: string): string {
  return `INSERT INTO ${name} (project_id, occurred_at, path, category, markdown, import_key)
    SELECT 'prj_bench0000000001', occurred_at, path, 'human', false, import_key
    FROM unnest($1::timestamptz[], $2::text[], $3::bytea[]) AS views (occurred_at, path, import_key)
    ON CONFLICT DO NOTHING`;
}
