/** Every analytics route, sharing one set of analytics services per app (closed with the app). */
import { createAnalyticsServices } from '../../analytics/ingestion/index.ts';
import { startRetention, startRollupPacking } from '../../analytics/rollups/index.ts';
import type { RouteRegistrar } from '../app.ts';
import { registerAnalyticsEventRoutes } from './analytics-events.ts';
import { registerAnalyticsReportRoutes } from './analytics-reports.ts';
import { registerAnalyticsTrackerRoutes } from './analytics-tracker.ts';

export const registerAnalyticsRoutes: RouteRegistrar = (app, { config, database }) => {
  const services = createAnalyticsServices(database.pool, {
    retentionMonths: config.analyticsRetentionMonths,
  });
  let retention: { stop(): void } | null = null;
  let packing: { stop(): Promise<void> } | null = null;
  const log = (message: string, error?: unknown) =>
    error === undefined ? app.log.info(message) : app.log.error({ err: error }, message);
  app.addHook('onListen', async () => {
    retention ??= startRetention({ pool: database.pool, months: config.analyticsRetentionMonths, log });
    packing ??= startRollupPacking({ pool: database.pool, log });
  });
  app.addHook('onClose', async () => {
    retention?.stop();
    await packing?.stop();
    await services.close();
  });
  registerAnalyticsEventRoutes(app, services);
  registerAnalyticsReportRoutes(app, database);
  registerAnalyticsTrackerRoutes(app, database, services);
};
