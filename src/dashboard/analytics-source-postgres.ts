import type { DateRange as AnalyticsRange } from '../analytics/reports/index.ts';
import { queryAgents, queryPageViews, queryTimeSeries } from '../analytics/reports/index.ts';
import type { Queryable } from '../db/database.ts';
import type { AnalyticsSource, DateRange } from './analytics-source.ts';

/** The analytics page's source on this database: the public export's queries, called in process. */
export function createAnalyticsSource(db: Queryable): AnalyticsSource | null {
  const rangeOf = (range: DateRange): AnalyticsRange => ({
    from: range.from?.getTime(),
    to: range.to?.getTime(),
  });
  return {
    views: (projectId, range, page) =>
      queryPageViews(db, { projectId, range: rangeOf(range), ...page, now: Date.now() }),
    agents: (projectId, range) => queryAgents(db, { projectId, range: rangeOf(range), now: Date.now() }),
    timeSeries: (projectId, range, interval) =>
      queryTimeSeries(db, { projectId, range: rangeOf(range), interval, now: Date.now() }),
  };
}
