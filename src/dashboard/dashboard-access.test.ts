// Signing in and out, sessions, CSRF and lockout, through the real app and database.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildTestServices } from '../../test/app.ts';
import { buildDashboardUser, cookieFrom, formPost, signInSession } from '../../test/dashboard.ts';
import { createTestDatabase } from '../../test/database.ts';
import { buildProject } from '../../test/factories.ts';

const database = await createTestDatabase();
const { app } = await buildTestServices(database);
const project = await buildProject(database.pool, { name: 'Handbook' });
const html = { accept: 'text/html' };

async function signInForm(email: string, password: string, extra: Record<string, string> = {}) {
  const form = await app.inject({ method: 'GET', url: '/dashboard/sign-in' });
  const token = cookieFrom(form.headers['set-cookie'], 'quire_sign_in_csrf')!;
  return app.inject({
    method: 'POST',
    url: '/dashboard/sign-in',
    headers: { cookie: `quire_sign_in_csrf=${token}`, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ _csrf: token, email, password, ...extra }).toString(),
  });
}

test('pages redirect to sign-in, which returns to the page asked for', async () => {
  const url = `/dashboard/projects/${project.id}/keys`;
  const redirected = await app.inject({ method: 'GET', url, headers: html });
  assert.equal(redirected.statusCode, 303);
  assert.equal(redirected.headers.location, `/dashboard/sign-in?next=${encodeURIComponent(url)}`);
  const user = await buildDashboardUser(database.pool);
  const response = await signInForm(user.email.toUpperCase(), user.password, { next: url });
  assert.equal(response.statusCode, 303);
  assert.equal(response.headers.location, url);
  const cookie = [response.headers['set-cookie']].flat().find((line) => line?.startsWith('quire_session='));
  assert.match(cookie ?? '', /^quire_session=[\w-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=604800$/);
  // Without JavaScript or a session, other requests get 401, not a page.
  const api = await app.inject({ method: 'GET', url });
  assert.equal(api.statusCode, 401);
});

test('next never leaves the dashboard', async () => {
  const user = await buildDashboardUser(database.pool);
  for (const next of ['https://evil.example/', '//evil.example/dashboard', '/dashboardx', '/v1/projects']) {
    const response = await signInForm(user.email, user.password, { next });
    assert.equal(response.headers.location, '/dashboard', next);
  }
});

test('a wrong password or unknown email says the same thing, and sets no session', async () => {
  const user = await buildDashboardUser(database.pool);
  const wrong = await signInForm(user.email, 'not the password');
  const unknown = await signInForm('nobody@example.com', 'not the password');
  for (const response of [wrong, unknown]) {
    assert.equal(response.statusCode, 401);
    assert.match(response.body, /Incorrect email or password/);
    assert.equal(cookieFrom(response.headers['set-cookie'], 'quire_session'), null);
  }
  assert.match(wrong.body, new RegExp(`value="${user.email.replace('.', '\\.')}"`), 'the email is kept');
  assert.doesNotMatch(wrong.body, /not the password/);
});

test('the sign-in form needs its CSRF cookie and token', async () => {
  const user = await buildDashboardUser(database.pool);
  const response = await app.inject({
    method: 'POST',
    url: '/dashboard/sign-in',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({
      _csrf: 'x'.repeat(43),
      email: user.email,
      password: user.password,
    }).toString(),
  });
  assert.equal(response.statusCode, 403);
  assert.equal(cookieFrom(response.headers['set-cookie'], 'quire_session'), null);
});

test('five failures lock the email for a while, even with the right password', async () => {
  const user = await buildDashboardUser(database.pool);
  const other = await buildDashboardUser(database.pool);
  for (let attempt = 0; attempt < 5; attempt += 1) {
    assert.equal((await signInForm(user.email, `guess ${attempt}`)).statusCode, 401);
  }
  const locked = await signInForm(user.email, user.password);
  assert.equal(locked.statusCode, 429);
  assert.match(locked.body, /Too many failed sign-ins/);
  assert.ok(Number(locked.headers['retry-after']) > 0);
  assert.equal((await signInForm(other.email, other.password)).statusCode, 303, 'others are not affected');
  // Once the window has passed, the right password works again.
  await database.pool.query(
    "UPDATE dashboard_sign_in_failures SET failed_at = failed_at - interval '16 minutes' WHERE email = $1",
    [user.email],
  );
  assert.equal((await signInForm(user.email, user.password)).statusCode, 303);
});

test('mutations need the session CSRF token', async () => {
  const user = await buildDashboardUser(database.pool);
  const session = await signInSession(app, user);
  const url = `/dashboard/projects/${project.id}/keys`;
  const missing = await formPost(app, url, session, { name: 'k', scopes: 'read' });
  assert.equal(missing.statusCode, 403);
  assert.match(missing.body, /reload the page/);
  const wrong = await formPost(app, url, session, { _csrf: 'x'.repeat(43), name: 'k', scopes: 'read' });
  assert.equal(wrong.statusCode, 403);
  const other = await signInSession(app, await buildDashboardUser(database.pool));
  const foreign = await formPost(app, url, session, { _csrf: other.csrfToken, name: 'k', scopes: 'read' });
  assert.equal(foreign.statusCode, 403, "another session's token does not do");
  const right = await formPost(app, url, session, { _csrf: session.csrfToken, name: 'k', scopes: 'read' });
  assert.equal(right.statusCode, 201);
});

test('sign-out ends the session for good', async () => {
  const session = await signInSession(app, await buildDashboardUser(database.pool));
  const out = await formPost(app, '/dashboard/sign-out', session, { _csrf: session.csrfToken });
  assert.equal(out.statusCode, 303);
  assert.match(
    [out.headers['set-cookie']].flat().join('\n'),
    /quire_session=; Path=\/; HttpOnly; SameSite=Lax; Max-Age=0/,
  );
  const after = await app.inject({
    method: 'GET',
    url: `/dashboard/projects/${project.id}/keys`,
    headers: session.headers,
  });
  assert.equal(after.statusCode, 303, 'the old cookie no longer works');
});

test('a session unused for a day has ended', async () => {
  const session = await signInSession(app, await buildDashboardUser(database.pool));
  await database.pool.query("UPDATE dashboard_sessions SET last_seen_at = now() - interval '25 hours'");
  const page = await app.inject({
    method: 'GET',
    url: `/dashboard/projects/${project.id}/keys`,
    headers: session.headers,
  });
  assert.equal(page.statusCode, 303);
});

test('pages carry a strict content security policy and are never cached', async () => {
  const session = await signInSession(app, await buildDashboardUser(database.pool));
  const page = await app.inject({
    method: 'GET',
    url: `/dashboard/projects/${project.id}/keys`,
    headers: session.headers,
  });
  assert.equal(page.statusCode, 200);
  assert.match(String(page.headers['content-security-policy']), /script-src 'self'/);
  assert.equal(page.headers['cache-control'], 'no-store');
  const missing = await app.inject({
    method: 'GET',
    url: '/dashboard/projects/prj_nope/keys',
    headers: session.headers,
  });
  assert.equal(missing.statusCode, 404);
  assert.match(missing.body, /There is no project with this id/);
  assert.match(missing.body, /Back to the dashboard/);
});

test('the sign-in form refuses a planted CSRF cookie and issues its own', async () => {
  const user = await buildDashboardUser(database.pool);
  const planted = 'planted-by-a-sibling-subdomain-0123456789';
  const form = await app.inject({
    method: 'GET',
    url: '/dashboard/sign-in',
    headers: { cookie: `quire_sign_in_csrf=${planted}` },
  });
  const issued = cookieFrom(form.headers['set-cookie'], 'quire_sign_in_csrf');
  assert.ok(issued);
  assert.notEqual(issued, planted);
  assert.doesNotMatch(form.body, new RegExp(planted));
  const forged = await app.inject({
    method: 'POST',
    url: '/dashboard/sign-in',
    headers: { cookie: `quire_sign_in_csrf=${planted}`, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ _csrf: planted, email: user.email, password: user.password }).toString(),
  });
  assert.equal(forged.statusCode, 403);
  assert.equal(cookieFrom(forged.headers['set-cookie'], 'quire_session'), null);
  // The issued token is reused while valid: two tabs of the form both work.
  const again = await app.inject({
    method: 'GET',
    url: '/dashboard/sign-in',
    headers: { cookie: `quire_sign_in_csrf=${issued}` },
  });
  assert.equal(cookieFrom(again.headers['set-cookie'], 'quire_sign_in_csrf'), issued);
});
