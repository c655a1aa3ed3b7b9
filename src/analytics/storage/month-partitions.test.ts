import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createTestDatabase } from '../../../test/database.ts';
import { buildProject } from '../../../test/factories.ts';
import { createClassifier } from '../classification/index.ts';
import { createPageViewWriter } from '../ingestion/index.ts';
import { queryPageViews } from '../reports/index.ts';
import { retentionCutoff, startRetention } from '../rollups/index.ts';
import { ensurePageViewPartitions, listMonthPartitions } from './month-partitions.ts';

const database = await createTestDatabase();

describe('month partitions and retention', () => {
  it('creates partitions once, even when asked concurrently, one per project in each month', async () => {
    const march = Date.parse('2026-03-15T12:00:00Z');
    await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        ensurePageViewPartitions(database.pool, index % 2 === 0 ? 'prj_a' : "prj_'b", [march, march + 1]),
      ),
    );
    const names = (await listMonthPartitions(database.pool)).map((partition) => partition.name);
    assert.deepEqual(names, ['analytics_page_views_2026_03']);
    const leaves = await database.pool.query<{ bound: string }>(
      `SELECT pg_get_expr(child.relpartbound, child.oid) AS bound FROM pg_inherits
       JOIN pg_class child ON child.oid = pg_inherits.inhrelid
       WHERE pg_inherits.inhparent = 'analytics_page_views_2026_03'::regclass ORDER BY 1`,
    );
    assert.deepEqual(
      leaves.rows.map((row) => row.bound),
      ["FOR VALUES IN ('prj_''b')", "FOR VALUES IN ('prj_a')"],
    );
  });

  it('computes the retention cutoff in whole UTC months', () => {
    assert.equal(
      new Date(retentionCutoff(Date.parse('2026-05-20T10:00:00Z'), 13)).toISOString(),
      '2025-04-01T00:00:00.000Z',
    );
    assert.equal(
      new Date(retentionCutoff(Date.parse('2026-01-01T00:00:00Z'), 1)).toISOString(),
      '2025-12-01T00:00:00.000Z',
    );
  });

  it('drops raw months past retention, keeps the rollups, and lets the writer recreate a month', async () => {
    const project = await buildProject(database.pool);
    const classifier = createClassifier();
    const writer = createPageViewWriter({ pool: database.pool });
    const view = (iso: string) => ({
      path: '/docs/a',
      occurredAt: Date.parse(iso),
      category: 'human' as const,
      agent: null,
      classifierVersion: classifier.version,
      referrerHost: null,
      markdown: false,
      userAgent: undefined,
    });
    const now = Date.now();
    const old = new Date(retentionCutoff(now, 14)).toISOString();
    await writer.write(project.id, [view(old), view(new Date(now - 1000).toISOString())]);
    const logged: string[] = [];
    const retention = startRetention({
      pool: database.pool,
      months: 13,
      log: (message) => logged.push(message),
    });
    retention.stop();
    for (let wait = 0; wait < 50 && logged.length === 0; wait += 1)
      await new Promise((resolve) => setTimeout(resolve, 50));
    assert.match(logged[0] ?? '', /dropped analytics_page_views_\d{4}_\d{2}/);
    const raw = await database.pool.query<{ count: number }>(
      'SELECT count(*) AS count FROM analytics_page_views WHERE project_id = $1',
      [project.id],
    );
    assert.equal(raw.rows[0]?.count, 1);
    const exported = await queryPageViews(database.pool, {
      projectId: project.id,
      range: { from: undefined, to: undefined },
      limit: 10,
      offset: 0,
    });
    assert.equal(exported.totals.human, 2, 'the rollups still count the dropped month');
    // The writer knew that month; it must recreate the partition rather than fail.
    await writer.write(project.id, [view(old)]);
    await writer.close();
  });
});
