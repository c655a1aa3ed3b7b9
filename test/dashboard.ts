/** Helpers for dashboard tests through `app.inject`: a user, and a signed-in session. */
import assert from 'node:assert/strict';
import { createUser } from '../src/accounts/create-user.ts';
import type { Queryable } from '../src/db/database.ts';
import type { App } from '../src/http/app.ts';

let counter = 0;

export async function buildDashboardUser(
  db: Queryable,
  overrides: { email?: string; password?: string } = {},
): Promise<{ email: string; password: string }> {
  counter += 1;
  const email = overrides.email ?? `person${counter}.${process.pid}@example.com`;
  const password = overrides.password ?? 'a password for tests';
  await createUser(db, email, password);
  return { email, password };
}

export function cookieFrom(setCookie: string | string[] | undefined, name: string): string | null {
  for (const line of [setCookie ?? []].flat()) {
    const match = new RegExp(`^${name}=([^;]*)`).exec(line);
    if (match) return match[1]!;
  }
  return null;
}

/** Signs in through the real form (with its CSRF cookie); returns the cookie header and CSRF token. */
export async function signInSession(
  app: App,
  user: { email: string; password: string },
): Promise<{ cookie: string; csrfToken: string; headers: Record<string, string> }> {
  const form = await app.inject({ method: 'GET', url: '/dashboard/sign-in' });
  const formToken = cookieFrom(form.headers['set-cookie'], 'quire_sign_in_csrf');
  assert.ok(formToken);
  const response = await app.inject({
    method: 'POST',
    url: '/dashboard/sign-in',
    headers: {
      cookie: `quire_sign_in_csrf=${formToken}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    payload: new URLSearchParams({ _csrf: formToken, email: user.email, password: user.password }).toString(),
  });
  assert.equal(response.statusCode, 303, response.body);
  const session = cookieFrom(response.headers['set-cookie'], 'quire_session');
  assert.ok(session);
  const cookie = `quire_session=${session}`;
  let page = await app.inject({ method: 'GET', url: '/dashboard', headers: { cookie, accept: 'text/html' } });
  if (page.statusCode === 303) {
    page = await app.inject({
      method: 'GET',
      url: page.headers.location!,
      headers: { cookie, accept: 'text/html' },
    });
  }
  const csrfToken = /<meta name="csrf-token" content="([^"]+)">/.exec(page.body)?.[1];
  assert.ok(csrfToken, page.body);
  return { cookie, csrfToken, headers: { cookie, accept: 'text/html' } };
}

/** A form post as a browser sends it. */
export function formPost(
  app: App,
  url: string,
  session: { cookie: string },
  fields: Record<string, string | string[]>,
) {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(fields))
    for (const one of [value].flat()) body.append(name, one);
  return app.inject({
    method: 'POST',
    url,
    headers: {
      cookie: session.cookie,
      accept: 'text/html',
      'content-type': 'application/x-www-form-urlencoded',
    },
    payload: body.toString(),
  });
}
