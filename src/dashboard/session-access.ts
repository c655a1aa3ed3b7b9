/**
 * Session-cookie access for the dashboard. Every dashboard route needs a signed-in session unless
 * it says `config: { dashboardAccess: 'public' }`; every request other than GET and HEAD must also
 * carry the session's CSRF token, as the `_csrf` form field or the `x-csrf-token` header.
 */
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { AccountService } from '../accounts/account-service.ts';
import type { DashboardSession } from '../accounts/session.ts';
import { ForbiddenError, UnauthorizedError } from '../errors.ts';
import { readCookie, sessionCookieName } from './cookies.ts';
import { formField } from './form.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** 'public': reachable without signing in (the sign-in page, assets). */
    dashboardAccess?: 'public';
  }
  interface FastifyRequest {
    dashboardSession: (DashboardSession & { token: string }) | null;
  }
}

export function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function installSessionAccess(app: FastifyInstance, accounts: AccountService): void {
  app.decorateRequest('dashboardSession', null);
  app.addHook('onRequest', async (request) => {
    const token = readCookie(request.headers.cookie, sessionCookieName);
    if (token === null) return;
    const session = await accounts.findSession(token);
    if (session === null) return;
    request.dashboardSession = { ...session, token };
    if (Date.now() - session.lastSeenAt.getTime() > 60_000) accounts.touchSession(token).catch(() => {});
  });
  // preHandler: after the body is parsed, so that the form's CSRF field can be read.
  app.addHook('preHandler', async (request, reply) => {
    if (request.routeOptions.config.dashboardAccess === 'public') return;
    const session = request.dashboardSession;
    if (session === null) {
      if (request.method === 'GET' && (request.headers.accept ?? '').includes('text/html')) {
        const next = encodeURIComponent(request.url);
        return reply.redirect(`/dashboard/sign-in?next=${next}`, 303);
      }
      throw new UnauthorizedError('Sign in to the dashboard first');
    }
    if (request.method === 'GET' || request.method === 'HEAD') return;
    const header = request.headers['x-csrf-token'];
    const given = typeof header === 'string' ? header : formField(request.body, '_csrf');
    if (!sameToken(given, session.csrfToken)) {
      throw new ForbiddenError(
        'This form has expired or did not come from the dashboard; reload the page and try again',
      );
    }
  });
}
