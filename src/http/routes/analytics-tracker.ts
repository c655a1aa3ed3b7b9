/**
 * The browser tracker: `GET /script.js`, and the public beacon it posts to. A beacon is accepted
 * only from an origin the project allows (`quire analytics settings --allowed-origins`), for a
 * page on that origin; it is rate-limited per client and stores no IP address.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AnalyticsServices } from '../../analytics/ingestion/index.ts';
import {
  maximumHeaderLength,
  maximumRawPathLength,
  preparePageView,
} from '../../analytics/ingestion/index.ts';
import { analyticsSettingsOf } from '../../analytics/settings/index.ts';
import { ForbiddenError, InvalidInputError, isQuireError, RateLimitedError } from '../../errors.ts';
import type { ProjectService } from '../../projects/project-service.ts';
import { createMemoryRateLimiter } from '../../rate-limits/rate-limit.ts';
import type { App } from '../app.ts';
import { errorResponses, ProjectIdParameter } from '../schemas.ts';

const settingsCacheMilliseconds = 30_000;

export function registerAnalyticsTrackerRoutes(
  app: App,
  projects: ProjectService,
  services: AnalyticsServices,
): void {
  const script = fs.readFileSync(
    path.join(import.meta.dirname, '../../analytics/ingestion/tracker/script.js'),
    'utf8',
  );
  // Per client and process; the key is hashed so that not even memory holds the IP address.
  const limiter = createMemoryRateLimiter({ limit: 120, windowSeconds: 60 });
  // A client is its address (`request.ip`, which believes X-Forwarded-For only from
  // QUIRE_TRUSTED_PROXIES): keying by user agent too let anyone escape the limit by changing it.
  function countBeacon(projectId: string, ip: string): void {
    try {
      limiter.consume(createHash('sha256').update(`${projectId}\n${ip}`).digest('base64url'));
    } catch (error: unknown) {
      if (isQuireError(error) && error instanceof RateLimitedError) {
        throw new RateLimitedError('Too many page views from this client', error.retryAfterSeconds);
      }
      throw error;
    }
  }
  // Allowed origins per project, briefly cached: a beacon must not cost a database query.
  const origins = new Map<string, { origins: string[]; expires: number }>();

  async function allowedOrigins(projectId: string): Promise<string[]> {
    const cached = origins.get(projectId);
    if (cached !== undefined && cached.expires > Date.now()) return cached.origins;
    const project = await projects.find(projectId);
    const allowed = project === null ? [] : analyticsSettingsOf(project.settings).allowedOrigins;
    if (origins.size > 10_000) origins.clear();
    origins.set(projectId, { origins: allowed, expires: Date.now() + settingsCacheMilliseconds });
    return allowed;
  }

  /** The request's Origin when the project allows it; otherwise 403. */
  async function checkOrigin(request: FastifyRequest, projectId: string): Promise<string> {
    const origin = request.headers.origin;
    if (typeof origin !== 'string' || !(await allowedOrigins(projectId)).includes(origin)) {
      throw new ForbiddenError('This origin may not send page views to this project');
    }
    return origin;
  }

  function allowCors(reply: FastifyReply, origin: string): void {
    reply.header('access-control-allow-origin', origin).header('vary', 'Origin');
  }

  app.get('/script.js', { schema: { hide: true }, config: { visitors: true } }, async (_request, reply) =>
    reply
      .header('content-type', 'text/javascript; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(script),
  );

  app.register(async (plugin) => {
    const scope = plugin.withTypeProvider<TypeBoxTypeProvider>();
    // sendBeacon posts a string as text/plain (no CORS preflight); the body is still JSON.
    scope.addContentTypeParser(
      'text/plain',
      { parseAs: 'string', bodyLimit: 16 * 1024 },
      (_request, body, done) => {
        try {
          done(null, JSON.parse(body as string));
        } catch {
          done(new InvalidInputError('Request body is not valid JSON'));
        }
      },
    );

    scope.options(
      '/v1/analytics/:projectId/beacon',
      { schema: { hide: true }, config: { visitors: true } },
      async (request, reply) => {
        const origin = await checkOrigin(request, (request.params as { projectId: string }).projectId);
        allowCors(reply, origin);
        return reply
          .header('access-control-allow-methods', 'POST')
          .header('access-control-allow-headers', 'content-type')
          .header('access-control-max-age', '86400')
          .code(204)
          .send();
      },
    );

    scope.post(
      '/v1/analytics/:projectId/beacon',
      {
        bodyLimit: 16 * 1024,
        config: { visitors: true },
        schema: {
          tags: ['analytics'],
          summary: 'Record one page view from the browser tracker (public; allowed origins only)',
          params: Type.Object({ projectId: ProjectIdParameter }),
          body: Type.Object(
            {
              url: Type.String({ minLength: 1, maxLength: maximumRawPathLength }),
              referrer: Type.Optional(Type.String({ maxLength: maximumHeaderLength })),
            },
            { additionalProperties: false },
          ),
          response: { 202: Type.Null(), ...errorResponses(400, 403, 413, 415, 429) },
        },
      },
      async (request, reply) => {
        const { projectId } = request.params;
        const origin = await checkOrigin(request, projectId);
        allowCors(reply, origin);
        countBeacon(projectId, request.ip);
        if (URL.parse(request.body.url)?.origin !== origin) {
          throw new InvalidInputError('url must be a page of the sending origin');
        }
        const userAgent = request.headers['user-agent'];
        const prepared = preparePageView(
          {
            target: request.body.url,
            occurredAt: Date.now(),
            userAgent,
            referrer: request.body.referrer === '' ? undefined : request.body.referrer,
            accept: undefined,
            status: undefined,
          },
          { classifier: services.classifier, now: Date.now() },
        );
        if (!prepared.ok && prepared.kind === 'invalid') throw new InvalidInputError(prepared.reason);
        // request.ip: the client's address as Fastify's trustProxy rules give it (QUIRE_TRUSTED_PROXIES);
        // it only identifies the visitor (visitor-identity.ts) and is never stored.
        if (prepared.ok) {
          await services.writer.write(projectId, [{ ...prepared.view, userAgent, address: request.ip }]);
        }
        return reply.code(202).send(null);
      },
    );
  });
}
