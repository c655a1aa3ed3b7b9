import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createTestDatabase } from '../../../test/database.ts';
import { buildProject } from '../../../test/factories.ts';
import type { TrafficCategory } from '../classification/index.ts';
import { createPageViewWriter, type StoredPageView } from '../ingestion/index.ts';
import {
  compactAndPackVisitors,
  createVisitorIdentity,
  encodeVisitorCounts,
  insertVisitorMarks,
  VisitorSketch,
} from '../visitors/index.ts';
import { verifyRollups } from './rollup-verification.ts';

const database = await createTestDatabase();
const now = Date.parse('2026-06-10T12:00:00Z');

function view(path: string, occurredAt: number, address: string, category: TrafficCategory): StoredPageView {
  return {
    path,
    occurredAt,
    category,
    agent: null,
    classifierVersion: 'test',
    referrerHost: null,
    markdown: false,
    userAgent: `agent of ${category}`,
    address,
  };
}

describe('verifyRollups on visitor sketches', () => {
  it('passes written sketches and finds sketches that disagree with each other or with the views', async () => {
    const project = await buildProject(database.pool);
    const writer = createPageViewWriter({
      pool: database.pool,
      identity: createVisitorIdentity({ db: database.pool, now: () => now }),
    });
    const views: StoredPageView[] = [];
    for (let index = 0; index < 600; index += 1) {
      views.push(
        view(
          `/docs/${index % 4}`,
          now - (index % 30) * 3_600_000,
          `192.0.2.${index % 50}`,
          (['human', 'ai_assistant', 'ai_training', 'bot'] as const)[index % 4] as TrafficCategory,
        ),
      );
    }
    await writer.write(project.id, views);
    await writer.close();
    const clean = await verifyRollups(database.pool, project.id);
    assert.deepEqual(clean.mismatches, []);
    // Two days of three pages with visitors and the site, and the one row of marks the writer appended.
    assert.equal(clean.visitorRowsChecked, 9);

    // A day sketch that lost a visitor its hours have; a page with more visitors than views.
    const other = new VisitorSketch();
    other.add(1);
    await database.pool.query(
      `UPDATE analytics_visitor_rollups SET human = $2
       WHERE series = (SELECT id FROM analytics_rollup_series WHERE project_id = $1 AND granularity = 'day')
         AND path_id = (SELECT id FROM analytics_paths WHERE project_id = $1 AND path = '/docs/0')
         AND bucket = '2026-06-10T00:00:00Z'`,
      [project.id, other.encode()],
    );
    const pathId = (
      await database.pool.query<{ id: number }>(
        "SELECT id FROM analytics_paths WHERE project_id = $1 AND path = '/docs/1'",
        [project.id],
      )
    ).rows[0]?.id as number;
    await insertVisitorMarks(
      database.pool,
      project.id,
      Array.from({ length: 500 }, (_, value) => ({
        occurredAt: Date.parse('2026-06-10T11:00:00Z'),
        pathId,
        category: 'ai_assistant' as const,
        visitor: value * 7919,
      })),
    );
    await database.pool.query('UPDATE analytics_visitor_marks SET state = 2 WHERE state = 0');
    // A packed day that is no longer its rows' counts.
    await compactAndPackVisitors(database.pool, { now: now + 3 * 86_400_000 });
    await database.pool.query(
      `UPDATE analytics_visitor_packed SET counts = $2 WHERE project_id = $1 AND granularity = 'day'
         AND bucket = '2026-06-09T00:00:00Z'`,
      [project.id, encodeVisitorCounts(new Map([[0, [1, 0, 0, 1, 1]]]))],
    );
    const broken = await verifyRollups(database.pool, project.id);
    const found = broken.mismatches.map(
      (mismatch) => `${mismatch.granularity} ${mismatch.key}: ${mismatch.raw}`,
    );
    assert.ok(
      found.some((line) => /^day \/docs\/0 human: \d+ visitors \(union of its hours\)/.test(line)),
      found.join('\n'),
    );
    assert.ok(
      found.some((line) => /^hour \/docs\/1 ai_assistant: at most \d+ visitors \(views\)/.test(line)),
      found.join('\n'),
    );
    assert.ok(
      found.some((line) => /^day \/docs\/1 ai_assistant: \d+ visitors \(union of its hours\)/.test(line)),
      found.join('\n'),
    );
    assert.ok(
      found.some((line) => /^day site packed: \d+(,\d+){4}$/.test(line)),
      found.join('\n'),
    );
    assert.ok(broken.mismatches.every((mismatch) => mismatch.table === 'analytics_visitor_rollups'));
  });
});
