/** Every analytics route, sharing one set of analytics services per app (closed with the app). */
import { createAnalyticsServices } from '../../analytics/analytics-services.ts';
import type { RouteRegistrar } from '../app.ts';
import { registerAnalyticsEventRoutes } from './analytics-events.ts';
import { registerAnalyticsReportRoutes } from './analytics-reports.ts';
import { registerAnalyticsTrackerRoutes } from './analytics-tracker.ts';

export const registerAnalyticsRoutes: RouteRegistrar = (app, { database }) => {
  const services = createAnalyticsServices(database.pool);
  app.addHook('onClose', () => services.close());
  registerAnalyticsEventRoutes(app, services);
  registerAnalyticsReportRoutes(app, database);
  registerAnalyticsTrackerRoutes(app, database, services);
};
