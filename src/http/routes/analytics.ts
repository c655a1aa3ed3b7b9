/**
 * Every analytics route, sharing the process's analytics services (built and closed by the
 * composition root; retention and packing run in the maintenance of worker processes).
 */
import type { RouteRegistrar } from '../app.ts';
import { registerAnalyticsDrainRoutes } from './analytics-drains.ts';
import { registerAnalyticsEventRoutes } from './analytics-events.ts';
import { registerAnalyticsReportRoutes } from './analytics-reports.ts';
import { registerAnalyticsTrackerRoutes } from './analytics-tracker.ts';
import { registerAnalyticsVisitorRoutes } from './analytics-visitors.ts';

export const registerAnalyticsRoutes: RouteRegistrar = (app, dependencies) => {
  registerAnalyticsEventRoutes(app, dependencies.analyticsIngestion);
  registerAnalyticsDrainRoutes(app, dependencies.projects, dependencies.analyticsIngestion);
  registerAnalyticsReportRoutes(app, dependencies.analyticsReports);
  registerAnalyticsVisitorRoutes(app, dependencies.analyticsReports);
  registerAnalyticsTrackerRoutes(app, dependencies.projects, dependencies.analyticsIngestion);
};
