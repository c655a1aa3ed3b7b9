import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pg from 'pg';
import { createTestDatabase } from '../../../test/database.ts';
import { buildProject } from '../../../test/factories.ts';
import { quireTypeParsers } from '../../db/database.ts';
import type { TrafficCategory } from '../classification/index.ts';
import { verifyRollups } from '../rollups/index.ts';
import type { StoredPageView } from './page-view.ts';
import { createPageViewWriter } from './page-view-writer.ts';

const database = await createTestDatabase();

function views(count: number, path: string, category: string = 'human'): StoredPageView[] {
  return Array.from({ length: count }, (_, index) => ({
    path,
    occurredAt: Date.parse('2026-02-10T10:00:00Z') + index * 60_000,
    category: category as TrafficCategory,
    agent: null,
    classifierVersion: 'test',
    referrerHost: null,
    markdown: false,
    userAgent: 'Mozilla/5.0 test',
  }));
}

async function stored(projectId: string): Promise<number> {
  const result = await database.pool.query<{ count: number }>(
    'SELECT count(*) AS count FROM analytics_page_views WHERE project_id = $1',
    [projectId],
  );
  return result.rows[0]?.count ?? 0;
}

describe('createPageViewWriter', () => {
  it('commits concurrent writes of several projects together, each resolving with its own count', async () => {
    const [first, second] = [await buildProject(database.pool), await buildProject(database.pool)];
    const writer = createPageViewWriter({ pool: database.pool });
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, index) =>
        writer.write(index % 2 === 0 ? first!.id : second!.id, views(10 + index, `/docs/${index % 3}`)),
      ),
    );
    assert.deepEqual(
      results,
      Array.from({ length: 12 }, (_, index) => 10 + index),
    );
    assert.equal(await stored(first!.id), 10 + 12 + 14 + 16 + 18 + 20);
    assert.equal(await stored(second!.id), 11 + 13 + 15 + 17 + 19 + 21);
    assert.deepEqual((await verifyRollups(database.pool, null)).mismatches, []);
    await writer.close();
  });

  it('merges writes with import keys into one insert and tells each write how many of its views were new', async () => {
    const project = await buildProject(database.pool);
    // One transaction at a time: the first write goes alone, the others queue and share the next.
    const writer = createPageViewWriter({ pool: database.pool, concurrency: 1 });
    const imported = (keys: number[]) =>
      keys.map((key) => ({
        ...(views(1, `/imported/${key}`)[0] as StoredPageView),
        importKey: Buffer.from(`request ${key}`).toString('hex'),
      }));
    const results = await Promise.all([
      writer.write(project.id, views(3, '/first')),
      writer.write(project.id, imported([1, 2, 3, 4, 5])),
      // A retried batch in the same group, partly new; then a plain write; then one all stored.
      writer.write(project.id, imported([3, 4, 5, 6, 7])),
      writer.write(project.id, views(4, '/plain')),
      writer.write(project.id, imported([1, 2, 8, 8])),
    ]);
    assert.deepEqual(results, [3, 5, 2, 4, 1]);
    assert.equal(await stored(project.id), 3 + 8 + 4);
    assert.deepEqual((await verifyRollups(database.pool, null)).mismatches, []);
    await writer.close();
  });

  it('stores every view at its own millisecond, before and long after the first view of its write', async () => {
    const project = await buildProject(database.pool);
    const writer = createPageViewWriter({ pool: database.pool });
    // Offsets from the first view, as the insert sends them: negative, zero, and beyond 2^31 ms.
    const times = [
      '2026-03-05T12:00:00.123Z',
      '2025-12-31T23:59:59.999Z',
      '2026-03-05T12:00:00.123Z',
      '2026-11-26T08:07:06.005Z',
    ];
    const written = times.map((time, index) => ({
      ...(views(1, `/times/${index}`)[0] as StoredPageView),
      occurredAt: Date.parse(time),
    }));
    assert.equal(await writer.write(project.id, written), times.length);
    const result = await database.pool.query<{ path: string; occurred_at: Date }>(
      'SELECT path, occurred_at FROM analytics_page_views WHERE project_id = $1 ORDER BY path',
      [project.id],
    );
    assert.deepEqual(
      result.rows.map((row) => row.occurred_at.toISOString()),
      times,
    );
    await writer.close();
  });

  it('inserts new keys plainly, and writes a group again with ON CONFLICT when one was stored', async () => {
    const project = await buildProject(database.pool);
    // A pool of its own, to see which insert statement each write used.
    const pool = new pg.Pool({ connectionString: database.connectionString, types: quireTypeParsers() });
    const statements: string[] = [];
    pool.on('connect', (client) => {
      const query = client.query.bind(client) as (...args: unknown[]) => unknown;
      (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
        const name = (args[0] as { name?: string }).name;
        if (name?.startsWith('analytics-insert-')) statements.push(name);
        return query(...args);
      };
    });
    const writer = createPageViewWriter({ pool, conflictMemoryMilliseconds: 60_000 });
    const keyed = (keys: number[]) =>
      keys.map((key) => ({
        ...(views(1, `/keyed/${key}`)[0] as StoredPageView),
        importKey: Buffer.from(`keyed ${key}`).toString('hex'),
      }));
    assert.equal(await writer.write(project.id, keyed([1, 2])), 2);
    assert.deepEqual(statements.splice(0), ['analytics-insert-views']);
    // Key 2 is stored: the plain insert fails, and the group is written again the careful way.
    assert.equal(await writer.write(project.id, keyed([2, 3])), 1);
    assert.deepEqual(statements.splice(0), ['analytics-insert-views', 'analytics-insert-imported-views']);
    // The project stays careful for a while; another project does not.
    assert.equal(await writer.write(project.id, keyed([4])), 1);
    assert.deepEqual(statements.splice(0), ['analytics-insert-imported-views']);
    const other = await buildProject(database.pool);
    assert.equal(await writer.write(other.id, keyed([4, 5])), 2);
    assert.deepEqual(statements.splice(0), ['analytics-insert-views']);
    // A key twice in one write (one request's several entries) is written once, still plainly.
    assert.equal(await writer.write(other.id, keyed([6, 6, 7])), 2);
    assert.deepEqual(statements.splice(0), ['analytics-insert-views']);
    assert.equal(await writer.write(other.id, keyed([8])), 1);
    assert.deepEqual(statements.splice(0), ['analytics-insert-views']);
    assert.equal(await stored(project.id), 4);
    assert.equal(await stored(other.id), 5);
    assert.deepEqual((await verifyRollups(database.pool, null)).mismatches, []);
    await writer.close();
    await pool.end();
  });

  it('fails only the write that is at fault when a group fails', async () => {
    const project = await buildProject(database.pool);
    const writer = createPageViewWriter({ pool: database.pool });
    const outcomes = await Promise.allSettled([
      writer.write(project.id, views(5, '/a')),
      writer.write(project.id, views(5, '/b')),
      writer.write(project.id, views(1, '/c', 'not-a-category')),
      writer.write(project.id, views(5, '/d')),
    ]);
    assert.deepEqual(
      outcomes.map((outcome) => outcome.status),
      ['fulfilled', 'fulfilled', 'rejected', 'fulfilled'],
    );
    assert.equal(await stored(project.id), 15);
    await writer.close();
    await assert.rejects(writer.write(project.id, views(1, '/e')), /closed/);
  });
});
