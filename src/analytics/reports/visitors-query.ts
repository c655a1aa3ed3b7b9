/**
 * The visitors export (`GET /v1/analytics/{projectId}/visitors`): distinct visitors per page and
 * site-wide for a range. A visitor is a value under its UTC day's salt, so days never share one
 * and a range's visitors are the sum of its days': whole days are read as counts (packed days and
 * months, and the per-page rows of days not packed yet), and the partial days at the edges as the
 * union of their hours' marks (src/analytics/visitors/). There are no raw visitors to read partial
 * hours from (nothing per view outlives its day): an edge inside an hour takes the whole hour.
 * Marks still pending are folded first, so an export counts every view committed before it.
 */
import type pg from 'pg';
import { ceilBucket, floorBucket, learnNewerPaths, pathDictionary } from '../storage/index.ts';
import {
  countsOf,
  type DaySketches,
  dayRowCounts,
  decodeVisitorCounts,
  decodeVisitorMarks,
  exportCounts,
  foldPendingVisitorMarks,
  pendingVisitorMarksSql,
  sitePathId,
  VisitorCountSums,
  type VisitorCounts,
  type VisitorGroup,
  VisitorSketch,
  VisitorTally,
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

const dayMilliseconds = 86_400_000;

/**
 * Before reading: whether the project has marks to fold, and for each edge whether its day has
 * visitors outside it (marks, or hour sketches written before migration 0019). An edge with none
 * holds all its day's visitors, and is read as a whole day: a range that ends now reads today's
 * counts, not every mark of today.
 */
const edgeDaysStatement = `
  SELECT ${pendingVisitorMarksSql('$1')} AS pending, ARRAY(
    SELECT EXISTS (
        SELECT 1 FROM analytics_visitor_marks WHERE project_id = $1 AND state = 2
          AND first_hour >= edge.day AND first_hour < edge.low
      ) OR EXISTS (
        SELECT 1 FROM analytics_visitor_marks WHERE project_id = $1 AND state = 2
          AND first_hour >= edge.high AND first_hour < edge.day + interval '1 day'
      ) OR EXISTS (
        SELECT 1 FROM analytics_visitor_marks WHERE project_id = $1 AND state < 2
          AND last_hour >= edge.day AND first_hour < edge.day + interval '1 day'
          AND (first_hour < edge.low OR last_hour >= edge.high)
      ) OR EXISTS (
        SELECT 1 FROM analytics_visitor_rollups WHERE series = analytics_series($1, 'hour')
          AND bucket >= edge.day AND bucket < edge.day + interval '1 day' AND (bucket < edge.low OR bucket >= edge.high)
      )
    FROM unnest($2::timestamptz[], $3::timestamptz[], $4::timestamptz[]) WITH ORDINALITY AS edge (day, low, high, number)
    ORDER BY edge.number
  ) AS outside`;

/**
 * What the export reads for whole days: packed rows (months, then thirds of a month outside them,
 * then days outside both) and the per-page rows of unpacked days.
 */
const wholeDaysStatement = `
  WITH months AS (
    SELECT bucket, analytics_bucket_end('month', bucket) AS bucket_end, counts FROM analytics_visitor_packed
    WHERE project_id = $1 AND granularity = 'month' AND bucket >= $2 AND analytics_bucket_end('month', bucket) <= $3
  ), thirds AS (
    SELECT bucket, analytics_bucket_end('third', bucket) AS bucket_end, counts FROM analytics_visitor_packed AS third
    WHERE project_id = $1 AND granularity = 'third' AND bucket >= $2 AND analytics_bucket_end('third', bucket) <= $3
      AND NOT EXISTS (SELECT 1 FROM months WHERE third.bucket >= months.bucket AND third.bucket < months.bucket_end)
  ), coarse AS (
    SELECT bucket, bucket_end FROM months UNION ALL SELECT bucket, bucket_end FROM thirds
  ), watermark AS (
    SELECT coalesce((SELECT packed_until FROM analytics_visitor_packing WHERE project_id = $1), '-infinity') AS until
  ), unpacked AS (
    -- Days before the watermark are packed; after it, a day may be packed or not yet.
    SELECT rollup.path_id, rollup.counts, rollup.human, rollup.ai_assistant, rollup.ai_crawlers
    FROM analytics_visitor_rollups AS rollup, watermark
    WHERE rollup.series = analytics_series($1, 'day') AND rollup.bucket >= greatest($2, watermark.until)
      AND rollup.bucket < $3
      -- (A third or month is packed only once all its days are, so a packed day covers theirs too.)
      AND NOT EXISTS (SELECT 1 FROM analytics_visitor_packed AS day WHERE day.project_id = $1
        AND day.granularity = 'day' AND day.bucket = rollup.bucket)
  )
  SELECT 'packed' AS kind, NULL::integer AS path_id, encode(counts, 'base64') AS counts,
    NULL::bytea AS human, NULL::bytea AS ai_assistant, NULL::bytea AS ai_crawlers
  FROM months
  UNION ALL
  SELECT 'packed', NULL, encode(counts, 'base64'), NULL, NULL, NULL FROM thirds
  UNION ALL
  SELECT 'packed', NULL, encode(day.counts, 'base64'), NULL, NULL, NULL FROM analytics_visitor_packed AS day
  WHERE day.project_id = $1 AND day.granularity = 'day' AND day.bucket >= $2 AND day.bucket < $3
    AND NOT EXISTS (SELECT 1 FROM coarse WHERE day.bucket >= coarse.bucket AND day.bucket < coarse.bucket_end)
  UNION ALL
  -- The per-page counts of the days not packed, as one text of numbers (path id, then its five
  -- counts): a row per page and day cost the export more than everything else it reads.
  SELECT 'pages', NULL, string_agg(path_id || ' ' || array_to_string(counts, ' '), ' '), NULL, NULL, NULL
  FROM unpacked WHERE counts IS NOT NULL
  HAVING count(*) > 0
  UNION ALL
  -- Rows written before migration 0019 have no counts: their sketches are counted.
  SELECT 'page', path_id, NULL, human, ai_assistant, ai_crawlers FROM unpacked WHERE counts IS NULL`;

/**
 * What the export reads for the partial days at the edges: the marks of their hours, and the hour
 * sketches written before migration 0019; plus new path ids and the project's setting.
 */
const edgesStatement = `
  SELECT 'marks' AS kind, NULL::integer AS number, NULL AS path, marks.marks AS human, NULL::bytea AS ai_assistant,
    NULL::bytea AS ai_crawlers
  FROM unnest($2::timestamptz[], $3::timestamptz[]) AS edge (low, high)
  CROSS JOIN LATERAL (
    SELECT marks FROM analytics_visitor_marks
    WHERE project_id = $1 AND state = 2 AND first_hour >= edge.low AND first_hour < edge.high
    UNION ALL
    SELECT marks FROM analytics_visitor_marks
    WHERE project_id = $1 AND state < 2 AND last_hour >= edge.low AND first_hour < edge.high
  ) AS marks
  UNION ALL
  SELECT 'sketches', rollup.path_id, (extract(epoch FROM rollup.bucket) * 1000)::text, rollup.human,
    rollup.ai_assistant, rollup.ai_crawlers
  FROM unnest($2::timestamptz[], $3::timestamptz[]) AS edge (low, high)
  JOIN analytics_visitor_rollups AS rollup ON rollup.series = analytics_series($1, 'hour')
    AND rollup.bucket >= edge.low AND rollup.bucket < edge.high
  UNION ALL
  SELECT 'path', id, path, NULL, NULL, NULL FROM analytics_paths WHERE project_id = $1 AND id > $4
  UNION ALL
  SELECT 'settings', coalesce((settings ->> 'analyticsCountAiCrawlersAsAi')::boolean, false)::integer,
    NULL, NULL, NULL, NULL
  FROM projects WHERE id = $1`;

interface WholeDayRow extends Record<VisitorGroup, Buffer | null> {
  kind: 'packed' | 'pages' | 'page';
  path_id: number | null;
  /** `packed`: a packed row, base64; `pages`: path ids and counts, space-separated. */
  counts: string | null;
}

interface EdgeRow extends Record<VisitorGroup, Buffer | null> {
  kind: 'marks' | 'sketches' | 'path' | 'settings';
  number: number | null;
  path: string | null;
}

/** The partial days at a range's edges (whole hours) and its whole days; `null`: unbounded. */
export interface VisitorRangePlan {
  /** Each within one day. */
  edges: Array<{ from: number; to: number }>;
  days: { from: number | null; to: number | null } | null;
}

export function planVisitorRange(from: number | undefined, to: number | undefined): VisitorRangePlan {
  if (from !== undefined && to !== undefined && from >= to) return { edges: [], days: null };
  const low = from === undefined ? null : floorBucket('hour', from);
  const high = to === undefined ? null : ceilBucket('hour', to);
  const dayLow = low === null ? null : ceilBucket('day', low);
  const dayHigh = high === null ? null : floorBucket('day', high);
  if (low !== null && high !== null && (dayLow as number) > (dayHigh as number)) {
    return { edges: [{ from: low, to: high }], days: null };
  }
  const edges: VisitorRangePlan['edges'] = [];
  if (low !== null && low < (dayLow as number)) edges.push({ from: low, to: dayLow as number });
  if (high !== null && (dayHigh as number) < high) edges.push({ from: dayHigh as number, to: high });
  const days =
    dayLow !== null && dayHigh !== null && dayLow >= dayHigh ? null : { from: dayLow, to: dayHigh };
  return { edges, days };
}

export async function queryVisitors(pool: pg.Pool, query: VisitorsQuery): Promise<VisitorsExport> {
  const dictionary = pathDictionary(pool, query.projectId);
  const plan = await wholeDayEdges(pool, query.projectId, planVisitorRange(query.range.from, query.range.to));
  const [wholeDays, edges] = await Promise.all([
    plan.days === null
      ? { rows: [] as WholeDayRow[] }
      : pool.query<WholeDayRow>({
          name: 'analytics-visitors-whole-days',
          text: wholeDaysStatement,
          values: [
            query.projectId,
            plan.days.from === null ? '-infinity' : new Date(plan.days.from),
            plan.days.to === null ? 'infinity' : new Date(plan.days.to),
          ],
        }),
    pool.query<EdgeRow>({
      name: 'analytics-visitors-edges',
      text: edgesStatement,
      values: [
        query.projectId,
        plan.edges.map((edge) => new Date(edge.from)),
        plan.edges.map((edge) => new Date(edge.to)),
        dictionary.complete,
      ],
    }),
  ]);
  learnNewerPaths(
    dictionary,
    edges.rows.flatMap((row) =>
      row.kind === 'path' && row.path !== null && row.number !== null
        ? [{ id: row.number, path: row.path }]
        : [],
    ),
  );
  const crawlersAreAi = edges.rows.some((row) => row.kind === 'settings' && row.number === 1);

  const sums = new VisitorCountSums();
  for (const row of wholeDays.rows) {
    // Base64 rather than bytea's hex: a third less to send and to decode.
    if (row.kind === 'packed' && row.counts !== null) sums.addEncoded(Buffer.from(row.counts, 'base64'));
    else if (row.kind === 'pages' && row.counts !== null) {
      const numbers = row.counts.split(' ');
      for (let index = 0; index + 5 < numbers.length; index += 6) {
        sums.add(Number(numbers[index]), [
          Number(numbers[index + 1]),
          Number(numbers[index + 2]),
          Number(numbers[index + 3]),
          Number(numbers[index + 4]),
          Number(numbers[index + 5]),
        ]);
      }
    } else if (row.kind === 'page' && row.path_id !== null) {
      sums.add(row.path_id, dayRowCounts({ ...row, counts: null }));
    }
  }
  const oldSketches = edges.rows.some((row) => row.kind === 'sketches');
  for (const edge of plan.edges) {
    if (oldSketches) {
      for (const [pathId, sketches] of edgeSketches(edges.rows, edge)) sums.add(pathId, countsOf(sketches));
    } else {
      countEdgeMarks(edges.rows, edge, sums);
    }
  }

  const pages: Array<{ path: string } & PageViewCounts> = [];
  sums.forEach((pathId, counts) => {
    if (pathId === sitePathId) return;
    const exported = exportCounts(counts, crawlersAreAi);
    if (exported.total === 0) return;
    const path = dictionary.paths[pathId];
    if (path === undefined) throw new Error(`A visitor count refers to path id ${pathId}, which is unknown`);
    pages.push({ path, ...exported });
  });
  const end = query.offset + query.limit;
  const order = firstPages(
    Float64Array.from(pages, (page) => page.total),
    pages.map((page) => page.path),
    end,
  );
  const site = sums.get(sitePathId);
  return {
    totals: site === undefined ? { human: 0, ai: 0, total: 0 } : exportCounts(site, crawlersAreAi),
    visitors: order.slice(query.offset, end).map((index) => pages[index] as (typeof pages)[number]),
    hasMore: pages.length > end,
  };
}

/**
 * Folds what the project has pending, then turns every edge whose day has no visitor outside it
 * into a whole day of the plan (edges lie next to the whole days, or alone in one day).
 */
async function wholeDayEdges(
  pool: pg.Pool,
  projectId: string,
  plan: VisitorRangePlan,
): Promise<VisitorRangePlan> {
  const day = (time: number) => Math.floor(time / dayMilliseconds) * dayMilliseconds;
  const result = await pool.query<{ pending: boolean; outside: boolean[] }>({
    name: 'analytics-visitors-edge-days',
    text: edgeDaysStatement,
    values: [
      projectId,
      plan.edges.map((edge) => new Date(day(edge.from))),
      plan.edges.map((edge) => new Date(edge.from)),
      plan.edges.map((edge) => new Date(edge.to)),
    ],
  });
  const row = result.rows[0];
  await foldPendingVisitorMarks(pool, projectId, { pending: row?.pending === true });
  const edges: VisitorRangePlan['edges'] = [];
  let days = plan.days;
  for (const [index, edge] of plan.edges.entries()) {
    if (row?.outside[index] !== false) {
      edges.push(edge);
      continue;
    }
    const start = day(edge.from);
    const end = start + dayMilliseconds;
    if (days === null) days = { from: start, to: end };
    else if (days.to === start) days = { ...days, to: end };
    else if (days.from === end) days = { ...days, from: start };
    else edges.push(edge);
  }
  return { edges, days };
}

/** One table for every edge counted by this process: counting is synchronous, so never shared. */
const edgeTally = new VisitorTally();

/** Adds the exact visitors of one edge's marks to `sums`, per page and for the site. */
function countEdgeMarks(
  rows: readonly EdgeRow[],
  edge: { from: number; to: number },
  sums: VisitorCountSums,
): void {
  // A mark takes five to seven bytes, and adds a pair for its page and one for the site.
  let bytes = 0;
  for (const row of rows) if (row.kind === 'marks' && row.human !== null) bytes += row.human.length;
  const tally = edgeTally;
  tally.clear(bytes / 2.5);
  for (const row of rows) {
    if (row.kind !== 'marks' || row.human === null) continue;
    decodeVisitorMarks(row.human, (mark) => {
      const time = mark.hour * 3_600_000;
      if (time < edge.from || time >= edge.to) return;
      tally.add(mark.pathId, mark.visitor, mark.group);
      tally.add(sitePathId, mark.visitor, mark.group);
    });
  }
  tally.addTo(sums);
}

/** The sketches of every page (and the site) over the hours of one edge, from marks and old hour sketches. */
function edgeSketches(
  rows: readonly EdgeRow[],
  edge: { from: number; to: number },
): Map<number, DaySketches> {
  const byPath = new Map<number, DaySketches>();
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
  for (const row of rows) {
    if (row.kind === 'marks' && row.human !== null) {
      decodeVisitorMarks(row.human, (mark) => {
        const time = mark.hour * 3_600_000;
        if (time < edge.from || time >= edge.to) return;
        const group = visitorGroups[mark.group] as VisitorGroup;
        sketchOf(mark.pathId, group).add(mark.visitor);
        sketchOf(sitePathId, group).add(mark.visitor);
      });
    } else if (row.kind === 'sketches' && row.number !== null) {
      const time = Number(row.path);
      if (time < edge.from || time >= edge.to) continue;
      for (const group of visitorGroups) {
        const encoded = row[group];
        if (encoded !== null) sketchOf(row.number, group).mergeEncoded(encoded);
      }
    }
  }
  return byPath;
}

/**
 * Site-wide visitors (human or AI, deduplicated) per UTC hour or day, for charts: a day's are its
 * site counts, an hour's the union of its marks. Buckets without visitors are left out.
 */
export async function queryVisitorSeries(
  pool: pg.Pool,
  query: { projectId: string; from: number; to: number; interval: 'hour' | 'day' },
): Promise<Array<{ start: string; visitors: number }>> {
  await foldPendingVisitorMarks(pool, query.projectId);
  const result = await pool.query<
    {
      kind: 'packed' | 'day' | 'marks' | 'sketches' | 'settings';
      bucket: number | null;
      counts: Buffer | null;
      day_counts: number[] | null;
      crawlers_are_ai: boolean | null;
    } & Record<VisitorGroup, Buffer | null>
  >({
    name: 'analytics-visitor-series',
    text: `SELECT 'packed' AS kind, (extract(epoch FROM bucket) * 1000)::float8 AS bucket, counts,
        NULL::integer[] AS day_counts, NULL::bytea AS human, NULL::bytea AS ai_assistant, NULL::bytea AS ai_crawlers,
        NULL::boolean AS crawlers_are_ai
      FROM analytics_visitor_packed
      WHERE $2 = 'day' AND project_id = $1 AND granularity = 'day' AND bucket >= $3 AND bucket < $4
      UNION ALL
      SELECT 'day', (extract(epoch FROM bucket) * 1000)::float8, NULL, counts, human, ai_assistant, ai_crawlers, NULL
      FROM analytics_visitor_rollups AS rollup
      WHERE $2 = 'day' AND series = analytics_series($1, 'day') AND path_id = ${sitePathId}
        AND bucket >= $3 AND bucket < $4
        AND NOT EXISTS (SELECT 1 FROM analytics_visitor_packed AS packed WHERE packed.project_id = $1
          AND packed.granularity = 'day' AND packed.bucket = rollup.bucket)
      UNION ALL
      SELECT 'marks', NULL, NULL, NULL, marks, NULL, NULL, NULL FROM analytics_visitor_marks
      WHERE $2 = 'hour' AND project_id = $1 AND state = 2 AND first_hour >= $3 AND first_hour < $4
      UNION ALL
      SELECT 'marks', NULL, NULL, NULL, marks, NULL, NULL, NULL FROM analytics_visitor_marks
      WHERE $2 = 'hour' AND project_id = $1 AND state < 2 AND last_hour >= $3 AND first_hour < $4
      UNION ALL
      SELECT 'sketches', (extract(epoch FROM bucket) * 1000)::float8, NULL, NULL, human, ai_assistant, ai_crawlers, NULL
      FROM analytics_visitor_rollups
      WHERE $2 = 'hour' AND series = analytics_series($1, 'hour') AND path_id = ${sitePathId}
        AND bucket >= $3 AND bucket < $4
      UNION ALL
      SELECT 'settings', NULL, NULL, NULL, NULL, NULL, NULL,
        coalesce((settings ->> 'analyticsCountAiCrawlersAsAi')::boolean, false)
      FROM projects WHERE id = $1`,
    values: [query.projectId, query.interval, new Date(query.from), new Date(query.to)],
  });
  const crawlersAreAi = result.rows.some((row) => row.kind === 'settings' && row.crawlers_are_ai === true);
  const visitorsOf = (counts: VisitorCounts) => exportCounts(counts, crawlersAreAi).total;
  const buckets = new Map<number, number>();
  const hours = new Map<number, VisitorSketch>();
  const sketchOf = (start: number) => {
    let sketch = hours.get(start);
    if (sketch === undefined) {
      sketch = new VisitorSketch();
      hours.set(start, sketch);
    }
    return sketch;
  };
  for (const row of result.rows) {
    if (row.bucket === null && row.kind !== 'marks') continue;
    if (row.kind === 'packed' && row.counts !== null) {
      decodeVisitorCounts(row.counts, (pathId, counts) => {
        if (pathId === sitePathId) buckets.set(row.bucket as number, visitorsOf(counts));
      });
    } else if (row.kind === 'day') {
      buckets.set(row.bucket as number, visitorsOf(dayRowCounts({ ...row, counts: row.day_counts })));
    } else if (row.kind === 'sketches') {
      for (const group of visitorGroups) {
        const encoded = row[group];
        if (encoded !== null && (group !== 'ai_crawlers' || crawlersAreAi)) {
          sketchOf(row.bucket as number).mergeEncoded(encoded);
        }
      }
    } else if (row.kind === 'marks' && row.human !== null) {
      decodeVisitorMarks(row.human, (mark) => {
        const time = mark.hour * 3_600_000;
        if (time < query.from || time >= query.to) return;
        if (visitorGroups[mark.group] === 'ai_crawlers' && !crawlersAreAi) return;
        sketchOf(time).add(mark.visitor);
      });
    }
  }
  for (const [start, sketch] of hours) buckets.set(start, sketch.estimate());
  return [...buckets]
    .filter(([, visitors]) => visitors > 0)
    .sort(([left], [right]) => left - right)
    .map(([start, visitors]) => ({ start: new Date(start).toISOString(), visitors }));
}
