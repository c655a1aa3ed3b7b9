import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createTestDatabase } from '../../../test/database.ts';
import { buildProject } from '../../../test/factories.ts';
import type { StoredPageView } from '../ingestion/index.ts';
import { createPageViewWriter } from '../ingestion/index.ts';
import { packRollups } from './rollup-packer.ts';

const database = await createTestDatabase();

function view(occurredAt: string): StoredPageView {
  return {
    path: '/docs/intro',
    occurredAt: Date.parse(occurredAt),
    category: 'human',
    agent: null,
    classifierVersion: 'test',
    referrerHost: null,
    markdown: false,
    userAgent: 'test',
  };
}

async function packedBuckets(projectId: string): Promise<string[]> {
  const result = await database.pool.query<{ key: string }>(
    `SELECT granularity || ' ' || to_char(bucket AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24') AS key
     FROM analytics_packed_rollups WHERE project_id = $1 ORDER BY bucket, granularity`,
    [projectId],
  );
  return result.rows.map((row) => row.key);
}

describe('packRollups', () => {
  it('packs closed buckets only, and again after a late view deleted them', async () => {
    const project = await buildProject(database.pool);
    const writer = createPageViewWriter({ pool: database.pool });
    await writer.write(project.id, [view('2026-03-09T10:15:00Z'), view('2026-03-09T11:40:00Z')]);
    // 11:40 is in an hour that ended less than the grace period ago: not packed yet.
    await packRollups(database.pool, { projectId: project.id, now: Date.parse('2026-03-09T12:05:00Z') });
    assert.deepEqual(await packedBuckets(project.id), ['hour 2026-03-09 10']);
    await packRollups(database.pool, { projectId: project.id, now: Date.parse('2026-04-02T00:00:00Z') });
    assert.deepEqual(await packedBuckets(project.id), [
      'month 2026-03-01 00',
      'third 2026-03-01 00',
      'day 2026-03-09 00',
      'hour 2026-03-09 10',
      'hour 2026-03-09 11',
    ]);
    await writer.write(project.id, [view('2026-03-09T10:50:00Z')]);
    assert.deepEqual(await packedBuckets(project.id), ['hour 2026-03-09 11']);
    const again = await packRollups(database.pool, {
      projectId: project.id,
      now: Date.parse('2026-04-02T00:00:00Z'),
    });
    assert.equal(again.packed, 4);
    await writer.close();
  });

  it('stops between transactions when its signal aborts', async () => {
    const project = await buildProject(database.pool);
    const writer = createPageViewWriter({ pool: database.pool });
    await writer.write(project.id, [view('2026-03-09T10:15:00Z')]);
    const stopped = await packRollups(database.pool, { projectId: project.id, signal: AbortSignal.abort() });
    assert.equal(stopped.packed, 0);
    assert.equal((await packRollups(database.pool, { projectId: project.id })).packed, 4);
    await writer.close();
  });
});
