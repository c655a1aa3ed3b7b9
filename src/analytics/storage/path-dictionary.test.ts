import assert from 'node:assert/strict';
import { test } from 'node:test';
import pg from 'pg';
import { createTestDatabase } from '../../../test/database.ts';
import { buildProject } from '../../../test/factories.ts';
import { quireTypeParsers } from '../../db/database.ts';
import { assignPathIds } from './path-dictionary.ts';

const database = await createTestDatabase();

test('paths given ids at once by several processes get one dense id each', async () => {
  const project = await buildProject(database.pool);
  // A pool per "process": each keeps its own dictionary.
  const pools = Array.from(
    { length: 4 },
    () => new pg.Pool({ connectionString: database.connectionString, max: 2, types: quireTypeParsers() }),
  );
  try {
    const paths = Array.from({ length: 300 }, (_, index) => `/docs/page-${index}`);
    const dictionaries = await Promise.all(
      pools.flatMap((pool, poolIndex) =>
        // Overlapping slices, in different orders.
        [0, 1].map((round) =>
          assignPathIds(
            pool,
            project.id,
            (poolIndex % 2 === 0 ? paths : [...paths].reverse()).slice(round * 100, round * 100 + 200),
          ),
        ),
      ),
    );
    const stored = await database.pool.query<{ id: number; path: string }>(
      'SELECT id, path FROM analytics_paths WHERE project_id = $1 ORDER BY id',
      [project.id],
    );
    assert.deepEqual(
      stored.rows.map((row) => row.id),
      Array.from({ length: 300 }, (_, index) => index + 1),
    );
    assert.deepEqual(new Set(stored.rows.map((row) => row.path)), new Set(paths));
    const idOf = new Map(stored.rows.map((row) => [row.path, row.id]));
    for (const dictionary of dictionaries) {
      for (const [path, id] of dictionary.ids) assert.equal(id, idOf.get(path), path);
    }
  } finally {
    await Promise.all(pools.map((pool) => pool.end()));
  }
});
