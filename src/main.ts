/**
 * The composition root: config → database → queue → services → HTTP and/or worker and maintenance.
 * Nothing else builds long-lived objects; everything below receives what it needs. The HTTP API and
 * the dashboard receive services (src/services.ts), never the pool.
 *
 * Roles: `api` serves HTTP; `worker` runs agent jobs and the maintenance loops (analytics retention,
 * rollup packing, pruning of sessions and sign-in failures; src/maintenance/); `all` does both.
 */
import type { FastifyServerOptions } from 'fastify';
import { createFirstUserIfNone, type FirstUser } from './accounts/first-user.ts';
import { createAgentRunner } from './agent/create-agent-runner.ts';
import type { AgentRunner } from './agent-jobs/agent-runner.ts';
import { type JobWorker, startJobWorker } from './agent-jobs/job-worker.ts';
import { createApiKeyCache } from './auth/api-key-cache.ts';
import { startAutomationWorker } from './automations/automation-worker.ts';
import { createCodeHostResolver } from './code-hosts/code-host-for-project.ts';
import { createPostgresReviewStore } from './code-hosts/local/review-store-postgres.ts';
import type { Config } from './config.ts';
import { registerDashboard } from './dashboard/register-dashboard.ts';
import { migrate } from './db/migrator.ts';
import { createNotifier } from './db/notifier.ts';
import { openDatabase } from './db/open-database.ts';
import { type App, buildApp, type RouteRegistrar } from './http/app.ts';
import { registerAgentJobEventRoutes } from './http/routes/agent-job-events.ts';
import { registerAgentJobRoutes } from './http/routes/agent-jobs.ts';
import { registerAnalyticsRoutes } from './http/routes/analytics.ts';
import { registerAutomationRoutes } from './http/routes/automations.ts';
import { registerHealthRoutes } from './http/routes/health.ts';
import { registerHookRoutes } from './http/routes/hooks.ts';
import { registerProjectBudgetRoutes } from './http/routes/project-budgets.ts';
import { registerProjectRoutes } from './http/routes/projects.ts';
import { startMaintenance } from './maintenance/start-maintenance.ts';
import { createDefaultProjectIfEmpty, type FirstStart } from './projects/first-start.ts';
import { startQueue } from './queue/queue.ts';
import {
  createSecretBox,
  followSecretKeyChanges,
  loadSecretKeys,
  resealAllSecrets,
} from './secrets/index.ts';
import { createServices } from './services.ts';

export const routeRegistrars: RouteRegistrar[] = [
  registerHealthRoutes,
  registerProjectRoutes,
  registerProjectBudgetRoutes,
  registerAgentJobRoutes,
  registerAgentJobEventRoutes,
  registerAutomationRoutes,
  registerHookRoutes,
  registerAnalyticsRoutes,
  registerDashboard,
];

export interface RunningService {
  /** Where the API listens; null for a worker-only process. */
  url: string | null;
  app: App | null;
  firstStart: FirstStart | null;
  /** The dashboard user made because there was none, with its password, to print once. */
  firstUser: FirstUser | null;
  /** Stops taking work, finishes what is in flight, then leaves the database. Idempotent. */
  close(): Promise<void>;
}

export interface StartOptions {
  logger?: FastifyServerOptions['logger'];
  log?: (message: string) => void;
  /** The agent that carries out runs; the real one unless a test supplies another. */
  runner?: AgentRunner;
}

export async function startService(
  config: Readonly<Config>,
  options: StartOptions = {},
): Promise<RunningService> {
  const log = options.log ?? (() => {});
  const opened = await openDatabase(config, 'server', log);
  const closers: (() => Promise<void>)[] = [() => opened.close()];
  const closeAll = async () => {
    for (const close of closers.splice(0).reverse()) await close().catch(() => {});
  };
  try {
    const { database } = opened;
    await migrate(database.pool);
    const secrets = createSecretBox(loadSecretKeys(config), { reload: () => loadSecretKeys(config) });
    // Clear values stored before encryption existed (or under a rotated-out key) are sealed now.
    const resealed = await resealAllSecrets(database.pool, secrets);
    if (resealed.unreadable > 0) {
      log(
        `${resealed.unreadable} stored secret(s) open with no known key (QUIRE_SECRET_KEY or secret.key changed?)`,
      );
    }
    const firstStart = await createDefaultProjectIfEmpty(database.pool);
    const firstUser = config.role === 'worker' ? null : await createFirstUserIfNone(database.pool);
    const boss = await startQueue({
      connectionString: database.connectionString,
      supervise: config.role !== 'api',
      runExpirySeconds: config.jobTimeoutSeconds + 120,
    });
    closers.push(() => boss.stop({ graceful: true, close: true, timeout: 10_000 }));
    const notifier = createNotifier(database.connectionString);
    closers.push(() => notifier.close());
    // After `quire secrets rotate`, seal under the new key without a restart.
    const stopFollowingKeys = await followSecretKeyChanges(notifier, secrets, log);
    closers.push(async () => stopFollowingKeys());
    const services = await createServices(config, database, {
      boss,
      notifier,
      apiKeyCache: config.role === 'worker' ? null : await createApiKeyCache(notifier),
      // Polling clients read jobs over and over: API processes keep recent reads in memory.
      cacheJobs: config.role !== 'worker',
      secrets,
      isAlive: opened.isAlive,
    });
    // Closed after the listener: in-flight requests may still write page views.
    closers.push(() => services.close());

    let worker: JobWorker | null = null;
    if (config.role !== 'api') {
      worker = await startJobWorker({
        pool: database.pool,
        boss,
        notifier,
        runner:
          options.runner ??
          createAgentRunner(config, database, {
            secrets,
            limits: { maximumWallTimeMs: config.jobTimeoutSeconds * 1000 },
          }),
        concurrency: config.workerConcurrency,
        timeoutSeconds: config.jobTimeoutSeconds,
        webhookAllowPrivate: config.webhookAllowPrivate,
        secrets,
        log: (message, fields) => log(`${message} ${JSON.stringify(fields ?? {})}`),
      });
    }

    let app: App | null = null;
    let url: string | null = null;
    if (config.role !== 'worker') {
      app = await buildApp({ config, ...services }, routeRegistrars, { logger: options.logger ?? false });
      const listening = app;
      closers.push(() => listening.close());
      await app.listen({ port: config.port, host: config.host });
      const address = app.server.address();
      const port = typeof address === 'object' && address !== null ? address.port : config.port;
      url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
    }
    // Closed in reverse: the worker hands back its runs, then the listener finishes in-flight requests.
    if (worker) {
      const running = worker;
      closers.push(() => running.stop());
    }
    if (config.role !== 'api') {
      const automationWorker = await startAutomationWorker({
        pool: database.pool,
        boss,
        defaultModel: config.model,
        codeHostFor: createCodeHostResolver({
          publicUrl: config.publicUrl,
          reviews: createPostgresReviewStore(database.pool),
          secrets,
        }),
        log: (message, error) => log(error === undefined ? message : `${message}: ${String(error)}`),
      });
      closers.push(() => automationWorker.stop());
      const logger = app?.log ?? null;
      const maintenance = startMaintenance({
        pool: database.pool,
        retentionMonths: config.analyticsRetentionMonths,
        log: (message, error) => {
          if (logger === null) log(error === undefined ? message : `${message}: ${String(error)}`);
          else if (error === undefined) logger.info(message);
          else logger.error({ err: error }, message);
        },
      });
      closers.push(() => maintenance.stop());
    }

    let closing: Promise<void> | null = null;
    return {
      url,
      app,
      firstStart,
      firstUser,
      close() {
        closing ??= closeAll();
        return closing;
      },
    };
  } catch (error: unknown) {
    await closeAll();
    throw error;
  }
}
