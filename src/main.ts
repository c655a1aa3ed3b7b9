/**
 * The composition root: config → database → services → HTTP and/or worker. Nothing else builds
 * long-lived objects; everything below receives what it needs.
 */
import type { FastifyServerOptions } from 'fastify';
import type { Config } from './config.ts';
import { migrate } from './db/migrator.ts';
import { openDatabase } from './db/open-database.ts';
import { type App, buildApp, type RouteRegistrar } from './http/app.ts';
import { registerHealthRoutes } from './http/routes/health.ts';
import { registerProjectRoutes } from './http/routes/projects.ts';
import { registerReviewRoutes } from './http/routes/reviews.ts';
import { createDefaultProjectIfEmpty, type FirstStart } from './projects/first-start.ts';

export const routeRegistrars: RouteRegistrar[] = [
  registerHealthRoutes,
  registerProjectRoutes,
  registerReviewRoutes,
];

export interface RunningService {
  /** Where the API listens; null for a worker-only process. */
  url: string | null;
  app: App | null;
  firstStart: FirstStart | null;
  /** Stops taking work, finishes what is in flight, then leaves the database. Idempotent. */
  close(): Promise<void>;
}

export interface StartOptions {
  logger?: FastifyServerOptions['logger'];
  log?: (message: string) => void;
}

export async function startService(
  config: Readonly<Config>,
  options: StartOptions = {},
): Promise<RunningService> {
  const opened = await openDatabase(config, 'server', options.log);
  let app: App | null = null;
  try {
    await migrate(opened.database.pool);
    const firstStart = await createDefaultProjectIfEmpty(opened.database.pool);
    const dependencies = { config, database: opened.database };
    let url: string | null = null;
    if (config.role !== 'worker') {
      app = await buildApp(dependencies, routeRegistrars, { logger: options.logger ?? false });
      await app.listen({ port: config.port, host: config.host });
      const address = app.server.address();
      const port = typeof address === 'object' && address !== null ? address.port : config.port;
      url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
    }
    let closing: Promise<void> | null = null;
    const listening = app;
    return {
      url,
      app,
      firstStart,
      close() {
        closing ??= (async () => {
          await listening?.close();
          await opened.close();
        })();
        return closing;
      },
    };
  } catch (error: unknown) {
    await app?.close().catch(() => {});
    await opened.close().catch(() => {});
    throw error;
  }
}
