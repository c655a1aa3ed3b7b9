/**
 * The visitors export (`GET /v1/analytics/{projectId}/visitors`): distinct visitors per page and
 * site-wide for a range, merged from the visitor sketches of the hours and days it covers
 * (src/analytics/visitors/). Sketches can be merged but not subtracted, so a range is read as a sum
 * of whole buckets only, and there are no raw visitors to read partial hours from (nothing per view
 * outlives its day): an edge inside an hour takes the whole hour.
 */
import type { Queryable } from '../../db/database.ts';
import { ceilBucket, floorBucket, learnNewerPaths, pathDictionary } from '../storage/index.ts';
import {
  decodeVisitorMarks,
  sitePathId,
  type VisitorGroup,
  VisitorSketch,
  visitorGroups,
} from '../visitors/index.ts';
import type { PageViewCounts, PageViewsQuery } from './page-views-query.ts';
import { firstPages } from './page-views-query.ts';

export interface VisitorsExport {
  totals: PageViewCounts;
  visitors: Array<{ path: string } & PageViewCounts>;
  hasMore: boolean;
}

export type VisitorsQuery = Omit<PageViewsQuery, 'now'>;

/** Whole hours and days, each bucket once; `null` is unbounded on that side. */
export interface VisitorPiece {
  level: 'hour' | 'day';
  from: number | null;
  to: number | null;
}

export function planVisitorRange(from: number | undefined, to: number | undefined): VisitorPiece[] {
  if (from !== undefined && to !== undefined && from >= to) return [];
  const low = from === undefined ? null : floorBucket('hour', from);
  const high = to === undefined ? null : ceilBucket('hour', to);
  const dayLow = low === null ? null : ceilBucket('day', low);
  const dayHigh = high === null ? null : floorBucket('day', high);
  if (low !== null && high !== null && (dayLow as number) >= (dayHigh as number)) {
    return [{ level: 'hour', from: low, to: high }];
  }
  const pieces: VisitorPiece[] = [];
  if (low !== null && low < (dayLow as number)) pieces.push({ level: 'hour', from: low, to: dayLow });
  pieces.push({ level: 'day', from: dayLow, to: dayHigh });
  if (high !== null && (dayHigh as number) < high) pieces.push({ level: 'hour', from: dayHigh, to: high });
  return pieces;
}

interface VisitorRow {
  /** `sketches`: one page's (or, path id 0, the site's) sketches of one bucket, base64;
   *  `marks`: a row of visitor marks not folded into the sketches yet (`human` holds them);
   *  `path`: a dictionary entry; `settings`: `number` is 1 when AI crawlers count as `ai`. */
  kind: 'sketches' | 'marks' | 'path' | 'settings';
  number: number;
  path: string | null;
  human: string | null;
  ai_assistant: string | null;
  ai_crawlers: string | null;
}

const visitorsStatement = `
  SELECT 'sketches' AS kind, rollup.path_id AS number, NULL AS path, encode(rollup.human, 'base64') AS human,
    encode(rollup.ai_assistant, 'base64') AS ai_assistant, encode(rollup.ai_crawlers, 'base64') AS ai_crawlers
  FROM unnest($2::text[], $3::timestamptz[], $4::timestamptz[]) AS piece (granularity, low, high)
  JOIN analytics_rollup_series AS series ON series.project_id = $1 AND series.granularity = piece.granularity
  JOIN analytics_visitor_rollups AS rollup ON rollup.series = series.id
    AND rollup.bucket >= coalesce(piece.low, '-infinity') AND rollup.bucket < coalesce(piece.high, 'infinity')
  UNION ALL
  SELECT 'marks', 0, NULL, encode(marks, 'base64'), NULL, NULL FROM analytics_visitor_marks
  WHERE project_id = $1 AND last_hour >= coalesce($6::timestamptz, '-infinity') AND first_hour < coalesce($7::timestamptz, 'infinity')
  UNION ALL
  SELECT 'path', id, path, NULL, NULL, NULL FROM analytics_paths WHERE project_id = $1 AND id > $5
  UNION ALL
  SELECT 'settings', coalesce((settings ->> 'analyticsCountAiCrawlersAsAi')::boolean, false)::integer,
    NULL, NULL, NULL, NULL
  FROM projects WHERE id = $1`;

type Sketches = Partial<Record<VisitorGroup, VisitorSketch>>;

export async function queryVisitors(db: Queryable, query: VisitorsQuery): Promise<VisitorsExport> {
  const dictionary = pathDictionary(db, query.projectId);
  const pieces = planVisitorRange(query.range.from, query.range.to);
  // The whole hours the pieces cover, for the pending marks (none when the range is empty).
  const low = pieces.length === 0 ? 0 : (pieces[0]?.from ?? null);
  const high = pieces.length === 0 ? 0 : (pieces.at(-1)?.to ?? null);
  const result = await db.query<VisitorRow>({
    name: 'analytics-visitors',
    text: visitorsStatement,
    values: [
      query.projectId,
      pieces.map((piece) => piece.level),
      pieces.map((piece) => (piece.from === null ? null : new Date(piece.from))),
      pieces.map((piece) => (piece.to === null ? null : new Date(piece.to))),
      dictionary.complete,
      low === null ? null : new Date(low),
      high === null ? null : new Date(high),
    ],
  });
  learnNewerPaths(
    dictionary,
    result.rows.flatMap((row) =>
      row.kind === 'path' && row.path !== null ? [{ id: row.number, path: row.path }] : [],
    ),
  );
  let crawlersAreAi = false;
  const byPath = new Map<number, Sketches>();
  const sketchOf = (pathId: number, group: VisitorGroup): VisitorSketch => {
    let sketches = byPath.get(pathId);
    if (sketches === undefined) {
      sketches = {};
      byPath.set(pathId, sketches);
    }
    let sketch = sketches[group];
    if (sketch === undefined) {
      sketch = new VisitorSketch();
      sketches[group] = sketch;
    }
    return sketch;
  };
  for (const row of result.rows) {
    if (row.kind === 'settings') crawlersAreAi = row.number === 1;
    if (row.kind === 'marks' && row.human !== null) {
      decodeVisitorMarks(Buffer.from(row.human, 'base64'), (mark) => {
        const time = mark.hour * 3_600_000;
        if ((low !== null && time < low) || (high !== null && time >= high)) return;
        const group = visitorGroups[mark.group] as VisitorGroup;
        sketchOf(mark.pathId, group).add(mark.visitor);
        sketchOf(sitePathId, group).add(mark.visitor);
      });
    }
    if (row.kind !== 'sketches') continue;
    for (const group of visitorGroups) {
      const encoded = row[group];
      if (encoded !== null) sketchOf(row.number, group).mergeEncoded(Buffer.from(encoded, 'base64'));
    }
  }
  const count = (sketches: Sketches | undefined): PageViewCounts => {
    const ai = new VisitorSketch();
    if (sketches?.ai_assistant !== undefined) ai.merge(sketches.ai_assistant);
    if (crawlersAreAi && sketches?.ai_crawlers !== undefined) ai.merge(sketches.ai_crawlers);
    const total = new VisitorSketch();
    if (sketches?.human !== undefined) total.merge(sketches.human);
    total.merge(ai);
    return { human: sketches?.human?.estimate() ?? 0, ai: ai.estimate(), total: total.estimate() };
  };

  const pages: Array<{ path: string } & PageViewCounts> = [];
  for (const [pathId, sketches] of byPath) {
    if (pathId === sitePathId) continue;
    const counts = count(sketches);
    if (counts.total === 0) continue;
    const path = dictionary.paths[pathId];
    if (path === undefined) throw new Error(`A visitor rollup refers to path id ${pathId}, which is unknown`);
    pages.push({ path, ...counts });
  }
  const end = query.offset + query.limit;
  const order = firstPages(
    Float64Array.from(pages, (page) => page.total),
    pages.map((page) => page.path),
    end,
  );
  return {
    totals: count(byPath.get(sitePathId)),
    visitors: order.slice(query.offset, end).map((index) => pages[index] as (typeof pages)[number]),
    hasMore: pages.length > end,
  };
}

/**
 * Site-wide visitors (human or AI, deduplicated) per UTC hour or day, for charts: the site's
 * sketches of each bucket. Buckets without visitors are left out.
 */
export async function queryVisitorSeries(
  db: Queryable,
  query: { projectId: string; from: number; to: number; interval: 'hour' | 'day' },
): Promise<Array<{ start: string; visitors: number }>> {
  // One statement, one snapshot: a mark is either still pending or folded into the sketches.
  const result = await db.query<
    {
      kind: 'sketches' | 'marks' | 'settings';
      bucket: Date | null;
      crawlers_are_ai: boolean | null;
    } & Record<VisitorGroup, Buffer | null>
  >({
    name: 'analytics-visitor-series',
    text: `SELECT 'sketches' AS kind, bucket, human, ai_assistant, ai_crawlers, NULL::boolean AS crawlers_are_ai
      FROM analytics_visitor_rollups
      WHERE series = analytics_series($1, $2) AND path_id = $3 AND bucket >= $4 AND bucket < $5
      UNION ALL
      SELECT 'marks', NULL, marks, NULL, NULL, NULL FROM analytics_visitor_marks
      WHERE project_id = $1 AND last_hour >= $4 AND first_hour < $5
      UNION ALL
      SELECT 'settings', NULL, NULL, NULL, NULL, coalesce((settings ->> 'analyticsCountAiCrawlersAsAi')::boolean, false)
      FROM projects WHERE id = $1`,
    values: [query.projectId, query.interval, sitePathId, new Date(query.from), new Date(query.to)],
  });
  const crawlersAreAi = result.rows.some((row) => row.kind === 'settings' && row.crawlers_are_ai === true);
  const size = query.interval === 'hour' ? 3_600_000 : 86_400_000;
  const buckets = new Map<number, VisitorSketch>();
  const sketchOf = (start: number) => {
    let sketch = buckets.get(start);
    if (sketch === undefined) {
      sketch = new VisitorSketch();
      buckets.set(start, sketch);
    }
    return sketch;
  };
  for (const row of result.rows) {
    if (row.kind === 'sketches' && row.bucket !== null) {
      for (const group of visitorGroups) {
        const encoded = row[group];
        if (encoded !== null && (group !== 'ai_crawlers' || crawlersAreAi)) {
          sketchOf(row.bucket.getTime()).mergeEncoded(encoded);
        }
      }
    } else if (row.kind === 'marks' && row.human !== null) {
      decodeVisitorMarks(row.human, (mark) => {
        const time = mark.hour * 3_600_000;
        if (time < query.from || time >= query.to) return;
        if (visitorGroups[mark.group] === 'ai_crawlers' && !crawlersAreAi) return;
        sketchOf(Math.floor(time / size) * size).add(mark.visitor);
      });
    }
  }
  return [...buckets]
    .sort(([left], [right]) => left - right)
    .map(([start, sketch]) => ({ start: new Date(start).toISOString(), visitors: sketch.estimate() }));
}
