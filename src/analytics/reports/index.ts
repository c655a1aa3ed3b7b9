/** Reading analytics: date ranges, the range planner and the export, agent and time-series queries. */
export { queryAgents } from './agents-query.ts';
export type { CategoryDetail } from './category-detail-query.ts';
export { type DateRange, parseDateRange, parseInstant } from './date-range.ts';
export { type PageViewsExport, queryPageViews } from './page-views-query.ts';
export { type AnalyticsReports, createAnalyticsReports, type PageViewsByCategory } from './report-service.ts';
export { queryTimeSeries, timeSeriesIntervals } from './time-series-query.ts';
export {
  planVisitorRange,
  queryVisitorSeries,
  queryVisitors,
  type VisitorsExport,
} from './visitors-query.ts';
