/**
 * The dashboard: server-rendered pages under `/dashboard`, signed in with a session cookie, working
 * without JavaScript (forms post and redirect) and enhanced by small scripts of its own (copy
 * buttons, the live step log, the chart). It uses the same services as the API, not the API.
 */
import type { FastifyInstance } from 'fastify';
import type { App, RouteRegistrar } from '../http/app.ts';
import type { HttpDependencies } from '../http/dependencies.ts';
import { createAnalyticsSource } from './analytics-source-postgres.ts';
import { installPageBasics } from './page-basics.ts';
import { renderErrorPage } from './pages/error-page.ts';
import { registerAnalyticsRoutes } from './routes/analytics.ts';
import { registerAssetRoutes } from './routes/assets.ts';
import { registerHomeRoutes } from './routes/home.ts';
import { registerJobRoutes } from './routes/jobs.ts';
import { registerKeyRoutes } from './routes/keys.ts';
import { registerReviewRoutes } from './routes/reviews.ts';
import { registerSettingsRoutes } from './routes/settings.ts';
import { registerSignInRoutes } from './routes/sign-in.ts';
import { installSessionAccess } from './session-access.ts';

export const registerDashboard: RouteRegistrar = async (app: App, dependencies: HttpDependencies) => {
  app.get('/', { schema: { hide: true } }, async (_request, reply) => reply.redirect('/dashboard', 302));
  // The local code host's pull requests keep their stable `/review/{id}` links, outside the prefix.
  await app.register(async (pages: FastifyInstance) => {
    installPageBasics(pages);
    installSessionAccess(pages, dependencies.accounts);
    registerReviewRoutes(pages, dependencies);
  });
  await app.register(async (dashboard: FastifyInstance) => dashboardPlugin(dashboard, dependencies), {
    prefix: '/dashboard',
  });
};

async function dashboardPlugin(app: FastifyInstance, dependencies: HttpDependencies): Promise<void> {
  const { config } = dependencies;
  installPageBasics(app);
  installSessionAccess(app, dependencies.accounts);
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
    streams: app.jobEventStreams,
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
