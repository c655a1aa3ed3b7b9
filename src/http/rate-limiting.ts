/**
 * Rate limits on authenticated routes, per project: routes marked `rateLimit: 'agent'` (they spend
 * model tokens) are counted in the database across processes; every other authenticated read is
 * counted in memory. A project's `agentRateLimitPerHour` setting overrides the default.
 */
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { createMemoryRateLimiter, createRateLimiter, type RateLimiter } from '../rate-limits/rate-limit.ts';
import type { App } from './app.ts';
import type { HttpDependencies } from './dependencies.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    rateLimit?: 'agent';
  }
}

/** The limit on agent job creates and follow-ups (the API's and the dashboard's alike). */
export function createAgentRateLimiter(config: Readonly<Config>, database: Database): RateLimiter {
  return createRateLimiter(database.pool, {
    bucket: 'agent',
    limit: config.agentRateLimitPerHour,
    windowSeconds: 3600,
    projectSetting: 'agentRateLimitPerHour',
  });
}

export function installRateLimiting(app: App, { config, agentRateLimiter }: HttpDependencies): void {
  const reads = createMemoryRateLimiter({ limit: config.readRateLimitPerMinute, windowSeconds: 60 });
  app.addHook('onRequest', async (request) => {
    const key = request.apiKey;
    if (key === null) return;
    if (request.routeOptions.config.rateLimit === 'agent') {
      await agentRateLimiter.consume(key.projectId);
    } else if (request.method === 'GET') {
      reads.consume(key.projectId);
    }
  });
}
