import type { FastifyInstance } from 'fastify';
import type { AccountService } from '../../accounts/account-service.ts';
import { sessionLifetimeSeconds } from '../../accounts/session.ts';
import { applyErrorResponse, errorResponseOf } from '../../http/error-handler.ts';
import { readCookie, serializeCookie, sessionCookieName, signInCsrfCookieName } from '../cookies.ts';
import { formField } from '../form.ts';
import { renderSignInPage } from '../pages/sign-in-page.ts';
import { sameToken } from '../session-access.ts';

/** Only paths inside the dashboard or a review page: `next` must not send anyone to another site. */
function safeNextPath(next: string | undefined): string {
  if (next && /^\/review\/rev_[0-9a-z]{1,64}$/.test(next)) return next;
  if (next && /^\/dashboard(?:[/?][^\s\\]*)?$/.test(next) && !next.startsWith('//')) return next;
  return '/dashboard';
}

/**
 * Sign-in and sign-out. Before a session exists, the sign-in form's CSRF protection is a
 * double-submit token: a random value in an HttpOnly cookie that the form must repeat.
 */
export function registerSignInRoutes(
  app: FastifyInstance,
  options: { accounts: AccountService; secureCookies: boolean },
): void {
  const { accounts, secureCookies } = options;
  const public_ = { config: { dashboardAccess: 'public' as const } };

  app.get<{ Querystring: { next?: string; signedOut?: string } }>(
    '/sign-in',
    public_,
    async (request, reply) => {
      const next = safeNextPath(request.query.next);
      if (request.dashboardSession) return reply.redirect(next, 303);
      // A cookie value is reused only if this service issued it: a planted one is replaced.
      const existing = readCookie(request.headers.cookie, signInCsrfCookieName);
      const csrfToken = accounts.signInTokens.verify(existing) ? existing! : accounts.signInTokens.issue();
      return reply
        .header('set-cookie', serializeCookie(signInCsrfCookieName, csrfToken, { secure: secureCookies }))
        .type('text/html; charset=utf-8')
        .send(renderSignInPage({ csrfToken, next, signedOut: request.query.signedOut === '1' }).value);
    },
  );

  app.post('/sign-in', public_, async (request, reply) => {
    const email = formField(request.body, 'email');
    const next = safeNextPath(formField(request.body, 'next'));
    const cookieText = readCookie(request.headers.cookie, signInCsrfCookieName);
    const cookieToken = accounts.signInTokens.verify(cookieText) ? cookieText : null;
    const answer = (status: number, error: string) => {
      const csrfToken = cookieToken ?? accounts.signInTokens.issue();
      return reply
        .code(status)
        .header('set-cookie', serializeCookie(signInCsrfCookieName, csrfToken, { secure: secureCookies }))
        .type('text/html; charset=utf-8')
        .send(renderSignInPage({ csrfToken, next, email, error }).value);
    };
    if (cookieToken === null || !sameToken(formField(request.body, '_csrf'), cookieToken)) {
      return answer(403, 'This form has expired; please sign in again.');
    }
    try {
      const { sessionToken } = await accounts.signIn(email, formField(request.body, 'password'));
      return reply
        .header('set-cookie', [
          serializeCookie(sessionCookieName, sessionToken, {
            secure: secureCookies,
            maximumAgeSeconds: sessionLifetimeSeconds,
          }),
          serializeCookie(signInCsrfCookieName, '', { secure: secureCookies, maximumAgeSeconds: 0 }),
        ])
        .redirect(next, 303);
    } catch (error: unknown) {
      const response = errorResponseOf(error);
      if (response.status >= 500) throw error;
      applyErrorResponse(reply, response);
      return answer(response.status, response.body.error);
    }
  });

  app.post('/sign-out', async (request, reply) => {
    if (request.dashboardSession) await accounts.deleteSession(request.dashboardSession.token);
    return reply
      .header(
        'set-cookie',
        serializeCookie(sessionCookieName, '', { secure: secureCookies, maximumAgeSeconds: 0 }),
      )
      .redirect('/dashboard/sign-in?signedOut=1', 303);
  });
}
