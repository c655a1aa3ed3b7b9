import { loadConfig } from '../src/config.ts';
import type { Database } from '../src/db/database.ts';
import { type App, type AppOptions, buildApp, type RouteRegistrar } from '../src/http/app.ts';
import { routeRegistrars } from '../src/main.ts';

/** The real application on a test database, for `app.inject` (no socket). */
export async function buildTestApp(
  database: Database,
  options: { extraRoutes?: RouteRegistrar[]; environment?: Record<string, string> } & AppOptions = {},
): Promise<App> {
  const config = loadConfig({ QUIRE_DATA_DIR: '/nonexistent', ...options.environment });
  const app = await buildApp(
    { config, database },
    [...routeRegistrars, ...(options.extraRoutes ?? [])],
    options,
  );
  await app.ready();
  return app;
}
