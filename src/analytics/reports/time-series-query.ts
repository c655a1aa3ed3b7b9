/**
 * Views per hour or day and per category, for charts. Reads the agent rollups of one granularity;
 * buckets are whole UTC hours or days, and empty buckets are filled with zeros.
 */
import type { Queryable } from '../../db/database.ts';
import { InvalidInputError } from '../../errors.ts';
import { exportColumn, type TrafficCategory, trafficCategories } from '../classification/index.ts';
import { floorDay, floorHour } from '../storage/index.ts';
import type { DateRange } from './date-range.ts';

export const timeSeriesIntervals = ['hour', 'day'] as const;
export type TimeSeriesInterval = (typeof timeSeriesIntervals)[number];

const bucketMilliseconds: Record<TimeSeriesInterval, number> = { hour: 3_600_000, day: 86_400_000 };
const defaultBuckets: Record<TimeSeriesInterval, number> = { hour: 48, day: 30 };
const maximumBuckets = 4000;

export type TimeSeriesPoint = { start: string; human: number; ai: number } & Record<TrafficCategory, number>;

export async function queryTimeSeries(
  db: Queryable,
  query: { projectId: string; range: DateRange; interval: TimeSeriesInterval; now: number },
): Promise<{ interval: TimeSeriesInterval; points: TimeSeriesPoint[] }> {
  const size = bucketMilliseconds[query.interval];
  const floor = query.interval === 'hour' ? floorHour : floorDay;
  const ceil = (time: number) => (floor(time) === time ? time : floor(time) + size);
  const end = ceil(query.range.to ?? query.now + 1);
  const start = floor(query.range.from ?? end - defaultBuckets[query.interval] * size);
  if ((end - start) / size > maximumBuckets) {
    throw new InvalidInputError('Invalid querystring', [
      {
        message: `the range holds more than ${maximumBuckets} ${query.interval}s; narrow it or use a coarser interval`,
      },
    ]);
  }
  const result = await db.query<{
    bucket: Date;
    category: TrafficCategory;
    views: number;
    crawlers_are_ai: boolean;
  }>(
    `SELECT bucket, category, sum(views)::bigint AS views,
       (SELECT coalesce((settings ->> 'analyticsCountAiCrawlersAsAi')::boolean, false) FROM projects WHERE id = $1)
         AS crawlers_are_ai
     FROM analytics_agent_rollups
     WHERE project_id = $1 AND granularity = $2 AND bucket >= $3 AND bucket < $4
     GROUP BY bucket, category`,
    [query.projectId, query.interval, new Date(start), new Date(end)],
  );
  const points = new Map<number, TimeSeriesPoint>();
  for (let time = start; time < end; time += size) {
    const point = { start: new Date(time).toISOString(), human: 0, ai: 0 } as TimeSeriesPoint;
    for (const category of trafficCategories) point[category] = 0;
    points.set(time, point);
  }
  for (const row of result.rows) {
    const point = points.get(row.bucket.getTime());
    if (point === undefined) continue;
    // `human` is both a category and an export column; only `ai` needs adding up.
    point[row.category] += row.views;
    if (exportColumn(row.category, { countAiCrawlersAsAi: row.crawlers_are_ai }) === 'ai')
      point.ai += row.views;
  }
  return { interval: query.interval, points: [...points.values()] };
}
