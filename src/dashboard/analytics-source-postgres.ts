import type { DateRange as AnalyticsRange, AnalyticsReports } from '../analytics/reports/index.ts';
import type { AnalyticsSource, DateRange } from './analytics-source.ts';

/** The analytics page's source: the public export's queries, called in process. */
export function createAnalyticsSource(reports: AnalyticsReports): AnalyticsSource | null {
  const rangeOf = (range: DateRange): AnalyticsRange => ({
    from: range.from?.getTime(),
    to: range.to?.getTime(),
  });
  return {
    views: (projectId, range, page) =>
      reports.pageViewsByCategory({ projectId, range: rangeOf(range), ...page, now: Date.now() }),
    agents: (projectId, range) => reports.agents({ projectId, range: rangeOf(range), now: Date.now() }),
    timeSeries: (projectId, range, interval) =>
      reports.timeSeries({ projectId, range: rangeOf(range), interval, now: Date.now() }),
    visitors: (projectId, range, page) =>
      reports.visitors({ projectId, range: rangeOf(range), ...(page ?? { limit: 2 ** 31, offset: 0 }) }),
    visitorSeries: (projectId, range, interval) =>
      reports.visitorSeries({ projectId, from: range.from.getTime(), to: range.to.getTime(), interval }),
  };
}
