import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createTestDatabase } from '../../../test/database.ts';
import { buildProject } from '../../../test/factories.ts';
import { type TrafficCategory, trafficCategories } from '../classification/index.ts';
import type { StoredPageView } from '../ingestion/index.ts';
import { createPageViewWriter } from '../ingestion/index.ts';
import { packRollups, verifyRollups } from '../rollups/index.ts';
import { dropMonthPartitionsBefore } from '../storage/index.ts';
import {
  type CategoryDetail,
  compareCodePoints,
  type PageViewsExport,
  queryPageViews,
  queryPageViewsByCategory,
} from './page-views-query.ts';

const database = await createTestDatabase();
const hour = 3_600_000;
const day = 24 * hour;

function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

function generate(next: () => number, count: number, from: number, to: number): StoredPageView[] {
  return Array.from({ length: count }, () => {
    // A page only bots read: in the detail counters, never in the export's rows.
    const botsOnly = next() < 0.02;
    return {
      // A few pages take most views, as on a real site; one path sorts differently in UTF-16.
      path: botsOnly
        ? '/docs/bots-only'
        : next() < 0.05
          ? '/docs/\u{1F600}'
          : `/docs/page-${Math.floor(next() ** 3 * 40)}`,
      occurredAt: from + Math.floor(next() * (to - from)),
      category: botsOnly
        ? 'bot'
        : (trafficCategories[Math.floor(next() * trafficCategories.length)] as TrafficCategory),
      agent: null,
      classifierVersion: 'test',
      referrerHost: null,
      markdown: false,
      userAgent: 'test',
      aiReferrer: next() < 0.3 ? 'chatgpt.com' : null,
      verified: next() < 0.5,
    };
  });
}

/** The `?detail=categories` counters as docs/analytics.md defines them, from the views themselves. */
function expectedDetail(
  views: readonly StoredPageView[],
  from: number | undefined,
  to: number | undefined,
): { totals: CategoryDetail; byPath: Map<string, CategoryDetail> } {
  const none = (): CategoryDetail => ({
    aiReferred: 0,
    aiSearch: 0,
    aiTraining: 0,
    otherBots: 0,
    verifiedAi: 0,
  });
  const totals = none();
  const byPath = new Map<string, CategoryDetail>();
  for (const view of views) {
    if ((from !== undefined && view.occurredAt < from) || (to !== undefined && view.occurredAt >= to))
      continue;
    const page = byPath.get(view.path) ?? none();
    for (const detail of [page, totals]) {
      if (view.category === 'human' && view.aiReferrer != null) detail.aiReferred += 1;
      if (view.category === 'ai_search') detail.aiSearch += 1;
      if (view.category === 'ai_training') detail.aiTraining += 1;
      if (view.category === 'bot') detail.otherBots += 1;
      if (view.verified === true && ['ai_assistant', 'ai_search', 'ai_training'].includes(view.category))
        detail.verifiedAi += 1;
    }
    byPath.set(view.path, page);
  }
  return { totals, byPath };
}

/** The export as DESIGN.md defines it, computed from the views themselves. */
function expected(
  views: readonly StoredPageView[],
  from: number | undefined,
  to: number | undefined,
  crawlersAreAi: boolean,
  limit: number,
): PageViewsExport {
  const pages = new Map<string, { human: number; ai: number }>();
  for (const view of views) {
    if ((from !== undefined && view.occurredAt < from) || (to !== undefined && view.occurredAt >= to))
      continue;
    const page = pages.get(view.path) ?? { human: 0, ai: 0 };
    if (view.category === 'human') page.human += 1;
    else if (view.category === 'ai_assistant') page.ai += 1;
    else if (crawlersAreAi && (view.category === 'ai_search' || view.category === 'ai_training'))
      page.ai += 1;
    pages.set(view.path, page);
  }
  const visible = [...pages]
    .map(([path, counts]) => ({ path, ...counts, total: counts.human + counts.ai }))
    .filter((page) => page.total > 0)
    .sort(
      (left, right) =>
        right.total - left.total || Buffer.compare(Buffer.from(left.path), Buffer.from(right.path)),
    );
  const human = visible.reduce((sum, page) => sum + page.human, 0);
  const ai = visible.reduce((sum, page) => sum + page.ai, 0);
  return {
    totals: { human, ai, total: human + ai },
    views: visible.slice(0, limit),
    hasMore: visible.length > limit,
  };
}

describe('queryPageViews', () => {
  it('counts exactly from per-page rows, packed rows and raw edges, before and after packing and late views', async () => {
    const project = await buildProject(database.pool);
    const writer = createPageViewWriter({ pool: database.pool });
    const next = random(7);
    const start = Date.parse('2026-01-20T00:00:00Z');
    const now = Date.parse('2026-04-12T15:47:00Z');
    const views = generate(next, 6000, start, now);
    for (let index = 0; index < views.length; index += 500) {
      await writer.write(project.id, views.slice(index, index + 500));
    }
    const ranges: Array<[number | undefined, number | undefined]> = [
      [undefined, undefined],
      [now - 30 * day - 17 * 60_000, now - 17 * 60_000],
      [Date.parse('2026-02-01T00:00:00Z'), Date.parse('2026-03-01T00:00:00Z')],
      [undefined, Date.parse('2026-03-15T10:30:00Z')],
      [Date.parse('2026-02-11T06:00:00Z'), undefined],
    ];
    for (let round = 0; round < 12; round += 1) {
      const from = start + Math.floor(next() * 80 * 24) * hour + Math.floor(next() * 60) * 60_000;
      ranges.push([from, from + Math.floor(next() * 60 * 24 + 1) * hour - Math.floor(next() * 60) * 60_000]);
    }
    const check = async (label: string, crawlersAreAi = false) => {
      for (const [from, to] of ranges) {
        for (const plannedWithNow of [undefined, now]) {
          const query = {
            projectId: project.id,
            range: { from, to },
            now: plannedWithNow,
            limit: 25,
            offset: 0,
          };
          const want = expected(views, from, to, crawlersAreAi, 25);
          const what = `${label}: ${from && new Date(from).toISOString()} to ${to && new Date(to).toISOString()}`;
          assert.deepEqual(await queryPageViews(database.pool, query), want, what);
          const detailed = await queryPageViewsByCategory(database.pool, query);
          const detail = expectedDetail(views, from, to);
          assert.deepEqual(
            detailed,
            {
              totals: { ...want.totals, ...detail.totals },
              views: want.views.map((row) => ({ ...row, ...detail.byPath.get(row.path) })),
              hasMore: want.hasMore,
            },
            `detail=categories, ${what}`,
          );
        }
      }
    };

    await check('per-page rows');
    const packed = await packRollups(database.pool, { projectId: project.id, now });
    assert.ok(packed.packed > 1000, JSON.stringify(packed));
    await check('packed');

    // Late views land in packed hours, days, thirds and months: those are read from rows again.
    const late = generate(next, 300, start, now - day);
    await writer.write(project.id, late);
    views.push(...late);
    await check('late views');
    await packRollups(database.pool, { projectId: project.id, now });
    assert.deepEqual((await verifyRollups(database.pool, project.id)).mismatches, []);
    await check('packed again');

    await database.pool.query(
      `UPDATE projects SET settings = settings || '{"analyticsCountAiCrawlersAsAi": true}' WHERE id = $1`,
      [project.id],
    );
    await check('crawlers counted as ai', true);
    await writer.close();
  });

  it('pages through every page once, in order, with hasMore on all but the last', async () => {
    const project = await buildProject(database.pool);
    const writer = createPageViewWriter({ pool: database.pool });
    const views = generate(
      random(3),
      800,
      Date.parse('2026-01-01T00:00:00Z'),
      Date.parse('2026-02-20T00:00:00Z'),
    );
    await writer.write(project.id, views);
    await packRollups(database.pool, { projectId: project.id, now: Date.parse('2026-02-10T00:00:00Z') });
    const range = { from: Date.parse('2026-01-03T05:00:00Z'), to: undefined };
    const all = expected(views, range.from, undefined, false, 1000);
    const seen: string[] = [];
    for (let offset = 0; ; offset += 7) {
      const page = await queryPageViews(database.pool, { projectId: project.id, range, limit: 7, offset });
      assert.deepEqual(page.totals, all.totals);
      seen.push(...page.views.map((view) => view.path));
      if (!page.hasMore) break;
    }
    assert.deepEqual(
      seen,
      all.views.map((view) => view.path),
    );
    await writer.close();
  });

  it('still counts packed months whose raw events retention dropped', async () => {
    const project = await buildProject(database.pool);
    const writer = createPageViewWriter({ pool: database.pool });
    const views = generate(
      random(5),
      400,
      Date.parse('2020-03-01T00:00:00Z'),
      Date.parse('2020-05-01T00:00:00Z'),
    );
    await writer.write(project.id, views);
    await packRollups(database.pool, { projectId: project.id });
    await dropMonthPartitionsBefore(database.pool, Date.parse('2020-05-01T00:00:00Z'));
    const range = { from: Date.parse('2020-03-10T07:30:00Z'), to: Date.parse('2020-04-20T00:00:00Z') };
    // The raw edge (07:30 to 08:00) is gone with its month; everything from 08:00 on is in rollups.
    const result = await queryPageViews(database.pool, {
      projectId: project.id,
      range,
      limit: 50,
      offset: 0,
    });
    assert.deepEqual(result, expected(views, Date.parse('2020-03-10T08:00:00Z'), range.to, false, 50));
    await writer.close();
  });
});

describe('compareCodePoints', () => {
  it('orders strings as PostgreSQL orders their UTF-8 bytes in the C collation', () => {
    const strings = ['/b', '/a', '/\u{1F600}', '/\uFF5E', '/\uE000', '/', '/a/b', '/A'];
    const byBytes = [...strings].sort((left, right) => Buffer.compare(Buffer.from(left), Buffer.from(right)));
    assert.deepEqual([...strings].sort(compareCodePoints), byBytes);
  });
});
