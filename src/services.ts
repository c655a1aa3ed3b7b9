/**
 * The services the edges (HTTP API, dashboard) use, built once per process by the composition root
 * (src/main.ts; the tests' test/app.ts) over one pool. Closing them flushes the page-view writer.
 */
import type { PgBoss } from 'pg-boss';
import { createAccountService } from './accounts/account-service.ts';
import { createJobEventFeed } from './agent-jobs/job-event-feed.ts';
import { createJobCache, createJobService } from './agent-jobs/job-service.ts';
import { createAnalyticsServices } from './analytics/ingestion/index.ts';
import { createAnalyticsReports } from './analytics/reports/index.ts';
import type { KeyDirectory, ReverseDnsResolver } from './analytics/verification/index.ts';
import type { ApiKeyCache } from './auth/api-key-cache.ts';
import { createApiKeyService } from './auth/api-key-service.ts';
import { createAutomationService } from './automations/automation-service.ts';
import { createReviewCommentService } from './automations/conversations/review-comments.ts';
import { createHookService } from './automations/hooks/hook-service.ts';
import { createCodeHostResolver } from './code-hosts/code-host-for-project.ts';
import { createReviewService } from './code-hosts/local/review-service.ts';
import { createPostgresReviewStore } from './code-hosts/local/review-store-postgres.ts';
import type { Config } from './config.ts';
import type { Database } from './db/database.ts';
import { isMigrated } from './db/migrator.ts';
import type { Notifier } from './db/notifier.ts';
import type { HttpDependencies } from './http/dependencies.ts';
import { createProjectService } from './projects/project-service.ts';
import { createRateLimiter } from './rate-limits/rate-limit.ts';
import type { SecretBox } from './secrets/index.ts';
import { createWebhookService } from './webhooks/webhook-service.ts';

export type Services = Omit<HttpDependencies, 'config'> & { close(): Promise<void> };

export async function createServices(
  config: Readonly<Config>,
  database: Database,
  dependencies: {
    boss: PgBoss;
    notifier: Notifier;
    /** Recently verified keys; null to look every key up. */
    apiKeyCache: ApiKeyCache | null;
    /** Polling clients read jobs over and over: API processes keep recent reads in memory. */
    cacheJobs: boolean;
    /** Agent verification's network adapters; default: the system resolver and HTTPS key directories. */
    verification?: { resolver?: ReverseDnsResolver; keyDirectory?: KeyDirectory };
    /** How long a drained batch waits for the drains' memory budget before its 429; tests shorten it. */
    drainWaitMilliseconds?: number;
    /** The clock automations' schedules start from; tests pass their own. */
    now?: () => Date;
    /** Seals and opens stored secrets. */
    secrets: SecretBox;
    /** False once the database supervision gave up (src/db/open-database.ts); default: alive. */
    isAlive?: () => boolean;
  },
): Promise<Services> {
  const { pool } = database;
  const { notifier } = dependencies;
  const analyticsIngestion = createAnalyticsServices(pool, {
    retentionMonths: config.analyticsRetentionMonths,
    drainMemoryBytes: config.drainMemoryMegabytes * 1024 * 1024,
    ...(dependencies.drainWaitMilliseconds === undefined
      ? {}
      : { drainWaitMilliseconds: dependencies.drainWaitMilliseconds }),
    ...dependencies.verification,
  });
  return {
    projects: createProjectService(pool, dependencies.secrets),
    apiKeys: createApiKeyService(pool, dependencies.apiKeyCache),
    jobs: createJobService({
      pool,
      boss: dependencies.boss,
      defaultModel: config.model,
      cache: dependencies.cacheJobs ? await createJobCache(notifier) : null,
    }),
    jobEvents: createJobEventFeed(pool, notifier),
    automations: createAutomationService({
      pool,
      boss: dependencies.boss,
      defaultModel: config.model,
      codeHostFor: createCodeHostResolver({
        publicUrl: config.publicUrl,
        reviews: createPostgresReviewStore(pool),
        secrets: dependencies.secrets,
      }),
      ...(dependencies.now ? { now: dependencies.now } : {}),
    }),
    hooks: createHookService({ pool, boss: dependencies.boss, secrets: dependencies.secrets }),
    analyticsIngestion,
    analyticsReports: createAnalyticsReports(pool),
    reviews: createReviewService(pool),
    reviewComments: createReviewCommentService({
      pool,
      boss: dependencies.boss,
      publicUrl: config.publicUrl,
    }),
    accounts: createAccountService(pool, dependencies.secrets.deriveKey('sign-in form tokens')),
    webhooks: createWebhookService(pool, dependencies.secrets),
    // The limit on agent job creates and follow-ups (the API's and the dashboard's alike).
    agentRateLimiter: createRateLimiter(pool, {
      bucket: 'agent',
      limit: config.agentRateLimitPerHour,
      windowSeconds: 3600,
      projectSetting: 'agentRateLimitPerHour',
    }),
    isReady: () => isMigrated(pool),
    isAlive: dependencies.isAlive ?? (() => true),
    close: () => analyticsIngestion.close(),
  };
}
