/**
 * The dashboard: server-rendered pages under `/dashboard`, signed in with a session cookie, working
 * without JavaScript (forms post and redirect) and enhanced by small scripts of its own (copy
 * buttons, the live step log, the chart). It uses the same services as the API, not the API.
 */
import type { FastifyInstance } from 'fastify';
import type { App, RouteRegistrar } from '../http/app.ts';
import type { HttpDependencies } from '../http/dependencies.ts';
import { applyErrorResponse, errorResponseOf } from '../http/error-handler.ts';
import { createJobEventStreams } from '../http/job-event-stream.ts';
import { createAnalyticsSource } from './analytics-source-postgres.ts';
import { parseFormBody } from './form.ts';
import { renderErrorPage } from './pages/error-page.ts';
import { registerAnalyticsRoutes } from './routes/analytics.ts';
import { registerAssetRoutes } from './routes/assets.ts';
import { registerHomeRoutes } from './routes/home.ts';
import { registerJobRoutes } from './routes/jobs.ts';
import { registerKeyRoutes } from './routes/keys.ts';
import { registerSettingsRoutes } from './routes/settings.ts';
import { registerSignInRoutes } from './routes/sign-in.ts';
import { installSessionAccess } from './session-access.ts';

const contentSecurityPolicy = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "object-src 'none'",
].join('; ');

export const registerDashboard: RouteRegistrar = async (app: App, dependencies: HttpDependencies) => {
  app.get('/', { schema: { hide: true } }, async (_request, reply) => reply.redirect('/dashboard', 302));
  await app.register(async (dashboard: FastifyInstance) => dashboardPlugin(dashboard, dependencies), {
    prefix: '/dashboard',
  });
};

async function dashboardPlugin(app: FastifyInstance, dependencies: HttpDependencies): Promise<void> {
  const { config } = dependencies;
  // Pages, not API: kept out of the OpenAPI document.
  app.addHook('onRoute', (route) => {
    route.schema = { ...route.schema, hide: true };
  });
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 256 * 1024 },
    (_request, body, done) => done(null, parseFormBody(String(body))),
  );
  app.addHook('onRequest', async (_request, reply) => {
    reply.header('content-security-policy', contentSecurityPolicy);
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'same-origin');
    reply.header('x-frame-options', 'DENY');
  });
  installSessionAccess(app, dependencies.accounts);

  app.setErrorHandler((error: unknown, request, reply) => {
    const response = errorResponseOf(error);
    const { status, body } = response;
    if (status >= 500) request.log.error({ err: error }, 'dashboard request failed');
    applyErrorResponse(reply, response);
    if (!(request.headers.accept ?? '').includes('text/html')) return reply.send(body);
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(renderErrorPage(status, body.error).value);
  });
  app.setNotFoundHandler((request, reply) =>
    reply
      .code(404)
      .type('text/html; charset=utf-8')
      .send(renderErrorPage(404, `There is no dashboard page at ${request.url.split('?')[0]}`).value),
  );

  registerAssetRoutes(app);
  const { projects } = dependencies;
  registerSignInRoutes(app, {
    accounts: dependencies.accounts,
    secureCookies: config.publicUrl.startsWith('https:'),
  });
  registerHomeRoutes(app, projects);
  registerKeyRoutes(app, { projects, apiKeys: dependencies.apiKeys, publicUrl: config.publicUrl });
  registerJobRoutes(app, {
    projects,
    jobs: dependencies.jobs,
    jobEvents: dependencies.jobEvents,
    reviews: dependencies.reviews,
    streams: createJobEventStreams(app, dependencies.jobEvents),
    consumeAgentRateLimit: (projectId) => dependencies.agentRateLimiter.consume(projectId),
  });
  registerAnalyticsRoutes(app, { projects, source: createAnalyticsSource(dependencies.analyticsReports) });
  registerSettingsRoutes(app, {
    projects,
    webhooks: dependencies.webhooks,
    publicUrl: config.publicUrl,
    defaultModel: config.model,
    defaultAgentRateLimit: config.agentRateLimitPerHour,
  });
}
