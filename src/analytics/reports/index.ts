/** Reading analytics: date ranges, the range planner and the export, agent and time-series queries. */
export { queryAgents } from './agents-query.ts';
export { type DateRange, parseDateRange, parseInstant } from './date-range.ts';
export {
  type CategoryDetail,
  type PageViewsByCategory,
  type PageViewsExport,
  queryPageViews,
} from './page-views-query.ts';
export { type AnalyticsReports, createAnalyticsReports } from './report-service.ts';
export { queryTimeSeries, timeSeriesIntervals } from './time-series-query.ts';
export {
  planVisitorRange,
  queryVisitorSeries,
  queryVisitors,
  type VisitorsExport,
} from './visitors-query.ts';
