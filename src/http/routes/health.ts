import { Type } from '@fastify/type-provider-typebox';
import type { RouteRegistrar } from '../app.ts';
import { errorResponses } from '../schemas.ts';

const Status = Type.Object({ status: Type.String() });

export const registerHealthRoutes: RouteRegistrar = (app, { isReady }) => {
  app.get(
    '/healthz',
    { schema: { tags: ['health'], summary: 'The process is alive', response: { 200: Status } } },
    async () => ({ status: 'ok' }),
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
