import { after } from 'node:test';
import type { AgentRunner } from '../src/agent-jobs/agent-runner.ts';
import type { JobService } from '../src/agent-jobs/job-service.ts';
import { type JobWorker, startJobWorker } from '../src/agent-jobs/job-worker.ts';
import type { AnalyticsServices } from '../src/analytics/ingestion/index.ts';
import type { KeyDirectory, ReverseDnsResolver } from '../src/analytics/verification/index.ts';
import { createApiKeyCache } from '../src/auth/api-key-cache.ts';
import type { CodeHost, CodeHostProject } from '../src/code-hosts/code-host.ts';
import { createCodeHostResolver } from '../src/code-hosts/code-host-for-project.ts';
import { createPostgresReviewStore } from '../src/code-hosts/local/review-store-postgres.ts';
import { type Config, loadConfig } from '../src/config.ts';
import type { Database } from '../src/db/database.ts';
import { createNotifier, type Notifier } from '../src/db/notifier.ts';
import { type App, type AppOptions, buildApp, type RouteRegistrar } from '../src/http/app.ts';
import { routeRegistrars } from '../src/main.ts';
import { startQueue } from '../src/queue/queue.ts';
import { createSecretBox, loadSecretKeys, type SecretBox } from '../src/secrets/index.ts';
import { createServices } from '../src/services.ts';

/** The secret key of test services (a fixed one: tests may open what they sealed). */
export const testSecretKey = 'Gk9q4Yw0b7o2Qm3f8V1cX5nR6tJ8uL0aZ2eH4iK7sP0';

/** A secret box under the test key, for tests that build code hosts or runners themselves. */
export function testSecrets(): SecretBox {
  return createSecretBox(
    loadSecretKeys({ secretKey: testSecretKey, previousSecretKeys: [], dataDirectory: '' }),
  );
}

/** Projects' code hosts as the composition root resolves them, on the test database and secret key. */
export function testCodeHosts(
  database: Database,
  publicUrl = 'http://quire.test',
): (project: CodeHostProject) => CodeHost {
  return createCodeHostResolver({
    publicUrl,
    reviews: createPostgresReviewStore(database.pool),
    secrets: testSecrets(),
  });
}

export interface TestServices {
  secrets: SecretBox;
  app: App;
  config: Readonly<Config>;
  jobs: JobService;
  notifier: Notifier;
  boss: Awaited<ReturnType<typeof startQueue>>;
  /** The process's analytics objects, as the routes use them. */
  analytics: AnalyticsServices;
  /** Starts a worker in this process with the given agent; stopped after the file's tests. */
  startWorker(
    runner: AgentRunner,
    overrides?: { timeoutSeconds?: number; concurrency?: number },
  ): Promise<JobWorker>;
}

/** The real application and services on a test database, for `app.inject` (no socket). */
export async function buildTestApp(
  database: Database,
  options: {
    extraRoutes?: RouteRegistrar[];
    environment?: Record<string, string>;
    verification?: { resolver?: ReverseDnsResolver; keyDirectory?: KeyDirectory };
  } & AppOptions = {},
): Promise<App> {
  return (await buildTestServices(database, options)).app;
}

export async function buildTestServices(
  database: Database,
  options: {
    extraRoutes?: RouteRegistrar[];
    environment?: Record<string, string>;
    verification?: { resolver?: ReverseDnsResolver; keyDirectory?: KeyDirectory };
    drainWaitMilliseconds?: number;
  } & AppOptions = {},
): Promise<TestServices> {
  const config = loadConfig({
    QUIRE_DATA_DIR: '/nonexistent',
    QUIRE_SECRET_KEY: testSecretKey,
    ...options.environment,
  });
  const secrets = createSecretBox(loadSecretKeys(config));
  const boss = await startQueue({
    connectionString: database.connectionString,
    supervise: true,
    runExpirySeconds: 600,
  });
  const notifier = createNotifier(database.connectionString);
  const services = await createServices(config, database, {
    boss,
    notifier,
    apiKeyCache: await createApiKeyCache(notifier),
    cacheJobs: true,
    // No test reaches the network: reverse DNS answers nothing unless a test passes a fake.
    verification: options.verification ?? { resolver: { reverse: async () => [], lookup: async () => [] } },
    ...(options.drainWaitMilliseconds === undefined
      ? {}
      : { drainWaitMilliseconds: options.drainWaitMilliseconds }),
    secrets,
  });
  const { jobs } = services;
  const app = await buildApp(
    { config, ...services },
    [...routeRegistrars, ...(options.extraRoutes ?? [])],
    options,
  );
  await app.ready();
  const workers: JobWorker[] = [];
  after(async () => {
    for (const worker of workers) await worker.stop();
    await app.close();
    await services.close();
    await boss.stop({ graceful: false, close: true });
    await notifier.close();
  });
  return {
    app,
    config,
    secrets,
    jobs,
    notifier,
    boss,
    analytics: services.analyticsIngestion,
    async startWorker(runner, overrides = {}) {
      const worker = await startJobWorker({
        pool: database.pool,
        boss,
        notifier,
        runner,
        concurrency: overrides.concurrency ?? 2,
        timeoutSeconds: overrides.timeoutSeconds ?? 60,
        webhookAllowPrivate: true,
        secrets,
        log: () => {},
      });
      workers.push(worker);
      return worker;
    },
  };
}
