/**
 * Rate limits on authenticated routes, per project: routes marked `rateLimit: 'agent'` (they spend
 * model tokens) are counted in the database across processes, once the request has passed
 * authorisation and validation; every other authenticated read is counted in memory. A project's `agentRateLimitPerHour` setting overrides the default.
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
    if (key === null || request.routeOptions.config.rateLimit === 'agent') return;
    if (request.method === 'GET') reads.consume(key.projectId);
  });
  // The agent limit is spent in preHandler, after authorisation and validation: a request refused
  // with 400 must not use up the hour's budget (with a limit of 2, two typos blocked a project).
  app.addHook('preHandler', async (request) => {
    const key = request.apiKey;
    if (key === null || request.routeOptions.config.rateLimit !== 'agent') return;
    await agentRateLimiter.consume(key.projectId);
  });
}
