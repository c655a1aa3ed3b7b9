/**
 * Rate limits on authenticated routes, per project: routes marked `rateLimit: 'agent'` (they spend
 * model tokens) are counted in the database across processes; every other authenticated read is
 * counted in memory. A project's `agentRateLimitPerHour` setting overrides the default.
 */
import { createMemoryRateLimiter } from '../rate-limits/rate-limit.ts';
import type { App } from './app.ts';
import type { HttpDependencies } from './dependencies.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    rateLimit?: 'agent';
  }
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
