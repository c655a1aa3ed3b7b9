import { Type } from '@fastify/type-provider-typebox';
import type { RouteRegistrar } from '../app.ts';
import { errorResponses } from '../schemas.ts';

const Status = Type.Object({ status: Type.String() });

export const registerHealthRoutes: RouteRegistrar = (app, { isReady, isAlive }) => {
  app.get(
    '/healthz',
    {
      schema: {
        tags: ['health'],
        summary: 'The process is alive (503 when it cannot recover by itself; restart it)',
        response: { 200: Status, ...errorResponses(503) },
      },
    },
    async (_request, reply) => {
      if (isAlive()) return { status: 'ok' };
      return reply.code(503).send({ error: 'The embedded PostgreSQL could not be restarted' });
    },
  );

  app.get(
    '/readyz',
    {
      schema: {
        tags: ['health'],
        summary: 'The database is reachable and migrated',
        response: { 200: Status, ...errorResponses(503) },
      },
    },
    async (request, reply) => {
      try {
        if (await isReady()) return { status: 'ready' };
        return reply.code(503).send({ error: 'Database migrations are not applied' });
      } catch (error: unknown) {
        request.log.warn({ err: error }, 'readiness check failed');
        return reply.code(503).send({ error: 'Database is unreachable' });
      }
    },
  );

  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
};
