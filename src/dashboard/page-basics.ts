/**
 * What every server-rendered page shares, the dashboard's and the review pages': security headers
 * (a strict CSP that forbids framing), HTML form bodies built without prototypes, and errors
 * rendered as a page for browsers and as `{error}` for everything else.
 */
import type { FastifyInstance } from 'fastify';
import { applyErrorResponse, errorResponseOf } from '../http/error-handler.ts';
import { decodeUtf8Body } from '../http/json-body.ts';
import { parseFormBody } from './form.ts';
import { renderErrorPage } from './pages/error-page.ts';

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

export function installPageBasics(app: FastifyInstance): void {
  // Pages, not API: kept out of the OpenAPI document.
  app.addHook('onRoute', (route) => {
    route.schema = { ...route.schema, hide: true };
  });
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'buffer', bodyLimit: 256 * 1024 },
    (_request, body, done) => {
      try {
        done(null, parseFormBody(decodeUtf8Body(body as Buffer)));
      } catch (error: unknown) {
        done(error as Error, undefined);
      }
    },
  );
  app.addHook('onRequest', async (_request, reply) => {
    reply.header('content-security-policy', contentSecurityPolicy);
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'same-origin');
    reply.header('x-frame-options', 'DENY');
  });
  app.setErrorHandler((error: unknown, request, reply) => {
    const response = errorResponseOf(error);
    const { status, body } = response;
    if (status === 503) request.log.warn('database unavailable');
    else if (status >= 500) request.log.error({ err: error }, 'page request failed');
    applyErrorResponse(reply, response);
    if (!(request.headers.accept ?? '').includes('text/html')) return reply.send(body);
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(renderErrorPage(status, body.error).value);
  });
}
