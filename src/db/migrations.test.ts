// Migrations that convert stored data, checked on data written by the schema before them.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import pg from 'pg';
import { createTestDatabaseUrl } from '../../test/database.ts';
import { quireTypeParsers } from './database.ts';
import { migrate, readMigrations } from './migrator.ts';

test('0009 and 0010 give every stored path an id, key the rollups by series and path id, and move raw views into per-project partitions', async () => {
  const url = await createTestDatabaseUrl();
  const pool = new pg.Pool({ connectionString: url, max: 2, types: quireTypeParsers() });
  try {
    await pool.query('DROP SCHEMA public CASCADE; CREATE SCHEMA public');
    const all = await readMigrations();
    await migrate(
      pool,
      all.filter((migration) => migration.id < 9),
    );
    await pool.query(`
      INSERT INTO projects (id, name) VALUES ('prj_a', 'a'), ('prj_b', 'b');
      SELECT analytics_ensure_month_partition('2026-03-01T00:00:00Z');
      -- /packed has an id from the packer; /rolled only rollups; /raw only raw events.
      INSERT INTO analytics_paths (project_id, id, path) VALUES ('prj_a', 1, '/packed');
      INSERT INTO analytics_path_rollups (project_id, granularity, bucket, path, human, ai_assistant)
      VALUES ('prj_a', 'hour', '2026-03-02T10:00:00Z', '/packed', 3, 1),
             ('prj_a', 'day', '2026-03-02T00:00:00Z', '/rolled', 2, 0),
             ('prj_b', 'day', '2026-03-02T00:00:00Z', '/packed', 5, 0);
      INSERT INTO analytics_page_views (project_id, occurred_at, path, category, classifier_version, markdown)
      VALUES ('prj_a', '2026-03-02T10:05:00Z', '/raw', 'human', 'v1', false);
    `);
    await migrate(pool, all);
    const paths = await pool.query('SELECT project_id, id, path FROM analytics_paths ORDER BY 1, 2');
    assert.deepEqual(paths.rows, [
      { project_id: 'prj_a', id: 1, path: '/packed' },
      { project_id: 'prj_a', id: 2, path: '/raw' },
      { project_id: 'prj_a', id: 3, path: '/rolled' },
      { project_id: 'prj_b', id: 1, path: '/packed' },
    ]);
    const rollups = await pool.query(
      `SELECT project_id, granularity, path_id, human, ai_assistant
       FROM analytics_path_rollups JOIN analytics_rollup_series AS series ON series.id = series
       ORDER BY 1, 2, 3`,
    );
    const raw = await pool.query(
      `SELECT project_id, path, tableoid::regclass::text AS partition,
         (SELECT relkind FROM pg_class WHERE relname = 'analytics_page_views_2026_03') AS month_kind
       FROM analytics_page_views`,
    );
    assert.deepEqual(raw.rows, [
      {
        project_id: 'prj_a',
        path: '/raw',
        partition: `analytics_page_views_2026_03_${createHash('md5').update('prj_a').digest('hex').slice(0, 16)}`,
        month_kind: 'p',
      },
    ]);
    assert.deepEqual(rollups.rows, [
      { project_id: 'prj_a', granularity: 'day', path_id: 3, human: 2, ai_assistant: 0 },
      { project_id: 'prj_a', granularity: 'hour', path_id: 1, human: 3, ai_assistant: 1 },
      { project_id: 'prj_b', granularity: 'day', path_id: 1, human: 5, ai_assistant: 0 },
    ]);
  } finally {
    await pool.end();
  }
});
