// The visitors part of the analytics benchmark (bench/analytics.ts): sketches for the bulk-loaded
// export data set, `/visitors` over HTTP beside an exact COUNT(DISTINCT) over the raw visits, the
// error of the sketches, and their disk use per million events.
import type pg from 'pg';
import {
  compactAndPackVisitors,
  foldProjectVisitorMarks,
  insertVisitorMarks,
  type VisitorMark,
} from '../src/analytics/visitors/index.ts';

const day = 86_400_000;
const hour = 3_600_000;

/**
 * The visitor of each bulk-loaded view, as SQL: repeat visits, a log-uniform draw over the day's
 * visitors (a few come back many times, most once or twice), about three views per visitor and day.
 * `hashtext` of the day and the draw stands for the daily-salted identity.
 */
export function visitorExpression(totalEvents: number, occurredAt: string): string {
  const perDay = Math.max(2, Math.round(totalEvents / 365 / 3));
  return `hashtext(date_trunc('day', ${occurredAt}, 'UTC')::text || ':' ||
    floor(exp(random() * ln(${perDay + 1})))::int::text)`;
}

/**
 * Gives the export project the visitors of `bench_visits` the way the product does: the marks a
 * writer appends (a day's at a time), then folding, compaction and packing as maintenance runs them.
 */
export async function loadVisitorSketches(pool: pg.Pool, projectId: string, now: number): Promise<void> {
  const first = Math.floor((now - 366 * day) / day) * day;
  for (let start = first; start <= now; start += day) {
    const result = await pool.query<{
      occurred_at: number;
      path_id: number;
      category: string;
      visitor: number;
    }>(
      `SELECT (extract(epoch FROM visits.occurred_at) * 1000)::float8 AS occurred_at, paths.id AS path_id,
         visits.category, visits.visitor
       FROM bench_visits AS visits
       JOIN analytics_paths AS paths ON paths.project_id = $1 AND paths.path = visits.path
       WHERE visits.occurred_at >= $2 AND visits.occurred_at < $3`,
      [projectId, new Date(start), new Date(start + day)],
    );
    const marks: VisitorMark[] = result.rows.map((row) => ({
      occurredAt: row.occurred_at,
      pathId: row.path_id,
      category: row.category as VisitorMark['category'],
      visitor: row.visitor >>> 0,
    }));
    await insertVisitorMarks(pool, projectId, marks);
  }
  while ((await foldProjectVisitorMarks(pool, projectId, 20)) > 0);
  await compactAndPackVisitors(pool, { now });
  await pool.query(
    'VACUUM ANALYZE analytics_visitor_rollups, analytics_visitor_marks, analytics_visitor_packed',
  );
}

/** The exact answer the sketches estimate: COUNT(DISTINCT) over the raw visits, per page. */
async function exactVisitors(pool: pg.Pool, from: Date, to: Date): Promise<number> {
  const result = await pool.query<{ total: number }>(
    `WITH pages AS (
       SELECT path, count(DISTINCT visitor) FILTER (WHERE category = 'human') AS human,
         count(DISTINCT visitor) FILTER (WHERE category = 'ai_assistant') AS ai,
         count(DISTINCT visitor) FILTER (WHERE category IN ('human', 'ai_assistant')) AS total
       FROM bench_visits WHERE occurred_at >= $1 AND occurred_at < $2 GROUP BY path
     )
     SELECT (SELECT count(DISTINCT visitor) FROM bench_visits
             WHERE occurred_at >= $1 AND occurred_at < $2 AND category IN ('human', 'ai_assistant')) AS total,
       path, human, ai
     FROM pages WHERE total > 0 ORDER BY total DESC, path LIMIT 50`,
    [from, to],
  );
  return result.rows[0]?.total ?? 0;
}

export async function visitorsBenchmark(options: {
  pool: pg.Pool;
  projectId: string;
  totalEvents: number;
  end: number;
  get: (path: string) => Promise<{ status: number; body: string }>;
  percentile: (samples: number[], rank: number) => number;
}): Promise<void> {
  const { pool, projectId, end, percentile } = options;
  const size = await pool.query<{ table: string; bytes: number; rows: number }>(
    `SELECT 'day sketches and counts' AS table, coalesce(sum(pg_column_size(rollup.*)), 0)::bigint AS bytes,
       count(*)::bigint AS rows
     FROM analytics_visitor_rollups AS rollup
     JOIN analytics_rollup_series AS series ON series.id = rollup.series AND series.project_id = $1
     UNION ALL
     SELECT 'hour marks', coalesce(sum(pg_column_size(marks.*)), 0)::bigint, count(*)::bigint
     FROM analytics_visitor_marks AS marks WHERE project_id = $1
     UNION ALL
     SELECT 'packed days, thirds and months', coalesce(sum(pg_column_size(packed.*)), 0)::bigint, count(*)::bigint
     FROM analytics_visitor_packed AS packed WHERE project_id = $1`,
    [projectId],
  );
  const mebibytes = (bytes: number) => (bytes / 1_048_576).toFixed(1);
  const perMillion = (bytes: number) => mebibytes(bytes / (options.totalEvents / 1_000_000));
  const all = size.rows.reduce((sum, row) => sum + Number(row.bytes), 0);
  console.log(
    `visitor storage: ${mebibytes(all)} MiB (stored, compressed), ${perMillion(all)} MiB per million events: ` +
      size.rows
        .map((row) => `${row.table} ${row.rows} rows, ${perMillion(Number(row.bytes))} MiB`)
        .join('; '),
  );
  for (const days of [30, 365]) {
    const dateFrom = new Date(end - days * day).toISOString();
    const dateTo = new Date(end).toISOString();
    const query = `dateFrom=${encodeURIComponent(dateFrom)}&dateTo=${encodeURIComponent(dateTo)}&limit=50`;
    const timings: number[] = [];
    let total = 0;
    for (let run = 0; run < 25; run += 1) {
      const sentAt = performance.now();
      const response = await options.get(`/v1/analytics/${projectId}/visitors?${query}`);
      if (response.status !== 200) throw new Error(`/visitors answered ${response.status}: ${response.body}`);
      total = (JSON.parse(response.body) as { totals: { total: number } }).totals.total;
      if (run >= 5) timings.push(performance.now() - sentAt); // the first runs warm caches
    }
    // The same whole hours the sketches cover (an edge inside an hour takes the hour).
    const from = new Date(Math.floor(Date.parse(dateFrom) / hour) * hour);
    const to = new Date(Math.ceil(Date.parse(dateTo) / hour) * hour);
    const exact: number[] = [];
    let exactTotal = 0;
    for (let run = 0; run < 3; run += 1) {
      const sentAt = performance.now();
      exactTotal = await exactVisitors(pool, from, to);
      if (run >= 1) exact.push(performance.now() - sentAt);
    }
    const ours = percentile(timings, 50);
    const theirs = percentile(exact, 50);
    const error = exactTotal === 0 ? 0 : (100 * (total - exactTotal)) / exactTotal;
    console.log(
      `visitors ${days} days: p50 ${ours.toFixed(1)} ms, p95 ${percentile(timings, 95).toFixed(1)} ms over HTTP ` +
        `(total ${total}); exact COUNT(DISTINCT) over raw visits: p50 ${theirs.toFixed(0)} ms (total ${exactTotal}, ` +
        `sketch error ${error.toFixed(2)}%); ${(theirs / ours).toFixed(1)}x faster`,
    );
  }
}
