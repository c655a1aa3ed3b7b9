/** The analytics reports as the edges use them (the API's export and the dashboard), bound to the pool. */
import type pg from 'pg';
import { queryAgents } from './agents-query.ts';
import { type PageViewsByCategory, queryPageViews, queryPageViewsByCategory } from './page-views-query.ts';
import { queryTimeSeries } from './time-series-query.ts';
import { queryVisitorSeries, queryVisitors } from './visitors-query.ts';

type QueryOf<Query extends (db: never, query: never) => unknown> = Parameters<Query>[1];

export interface AnalyticsReports {
  pageViews(query: QueryOf<typeof queryPageViews>): ReturnType<typeof queryPageViews>;
  /** The export with `aiReferred`, `aiSearch`, `aiTraining`, `otherBots`, `verifiedAi` on totals and rows. */
  pageViewsByCategory(query: QueryOf<typeof queryPageViews>): Promise<PageViewsByCategory>;
  agents(query: QueryOf<typeof queryAgents>): ReturnType<typeof queryAgents>;
  timeSeries(query: QueryOf<typeof queryTimeSeries>): ReturnType<typeof queryTimeSeries>;
  visitors(query: QueryOf<typeof queryVisitors>): ReturnType<typeof queryVisitors>;
  visitorSeries(query: QueryOf<typeof queryVisitorSeries>): ReturnType<typeof queryVisitorSeries>;
}

export function createAnalyticsReports(db: pg.Pool): AnalyticsReports {
  return {
    pageViews: (query) => queryPageViews(db, query),
    pageViewsByCategory: (query) => queryPageViewsByCategory(db, query),
    agents: (query) => queryAgents(db, query),
    timeSeries: (query) => queryTimeSeries(db, query),
    visitors: (query) => queryVisitors(db, query),
    visitorSeries: (query) => queryVisitorSeries(db, query),
  };
}
