/**
 * 405 for a method no route answers (`QUERY`, `PROPFIND`, ...), before anything else looks at the
 * request: without it Fastify treats an unknown method with a body as a missing Content-Type (400).
 */
import type { FastifyInstance } from 'fastify';
import { MethodNotAllowedError } from '../errors.ts';

export function installMethodCheck(app: FastifyInstance): void {
  const methods = new Set<string>(['HEAD']);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) methods.add(method.toUpperCase());
  });
  app.addHook('onRequest', async (request, reply) => {
    if (methods.has(request.method)) return;
    reply.header('allow', [...methods].sort().join(', '));
    throw new MethodNotAllowedError(request.method);
  });
}
