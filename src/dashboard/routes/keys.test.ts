// The API keys page: project id, create (secret shown once), list, revoke; all through the real app.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildTestServices } from '../../../test/app.ts';
import { buildDashboardUser, formPost, signInSession } from '../../../test/dashboard.ts';
import { createTestDatabase } from '../../../test/database.ts';
import { bearer, buildProject } from '../../../test/factories.ts';

const database = await createTestDatabase();
const { app } = await buildTestServices(database, {
  environment: { QUIRE_PUBLIC_URL: 'http://docs.test:3000' },
});
const project = await buildProject(database.pool, { name: '<img src=x onerror=alert(1)> Docs' });
const session = await signInSession(app, await buildDashboardUser(database.pool));
const keysUrl = `/dashboard/projects/${project.id}/keys`;

test('the page shows the project id with a copy button, and an empty state', async () => {
  const page = await app.inject({ method: 'GET', url: keysUrl, headers: session.headers });
  assert.equal(page.statusCode, 200);
  assert.match(page.body, new RegExp(`<code id="project-id" class="big">${project.id}</code>`));
  assert.match(page.body, /data-copy="#project-id"/);
  assert.match(page.body, /No keys yet/);
  assert.doesNotMatch(page.body, /<img src=x/, 'the project name is escaped');
  assert.match(page.body, /&#60;img src=x onerror=alert\(1\)&#62; Docs/);
});

test('a created key is shown once, works against the API, and is listed by its last four', async () => {
  const created = await formPost(app, keysUrl, session, {
    _csrf: session.csrfToken,
    name: 'CI <bot>',
    scopes: ['read', 'write'],
  });
  assert.equal(created.statusCode, 201);
  assert.equal(created.headers['cache-control'], 'no-store');
  const secret = /<input id="new-key" class="secret" readonly value="(quire_[\w-]{43})"/.exec(
    created.body,
  )?.[1];
  assert.ok(secret, 'the secret is on the page');
  assert.match(created.body, /only time it is shown/);
  assert.match(created.body, new RegExp(`http://docs\\.test:3000/v1/projects/${project.id}`));
  assert.match(created.body, /CI &#60;bot&#62;/);

  const call = await app.inject({
    method: 'GET',
    url: `/v1/projects/${project.id}`,
    headers: bearer(secret),
  });
  assert.equal(call.statusCode, 200);

  const again = await app.inject({ method: 'GET', url: keysUrl, headers: session.headers });
  assert.equal(again.body.includes(secret), false, 'never shown again');
  assert.ok(again.body.includes(`quire_…${secret.slice(-4)}`));
  assert.match(again.body, /read, write/);
  assert.match(again.body, /<span class="badge active">active<\/span>/);
});

test('bad input re-renders the form with the problem and creates nothing', async () => {
  const before = (await database.pool.query('SELECT count(*)::int AS n FROM api_keys')).rows[0].n;
  const noScope = await formPost(app, keysUrl, session, { _csrf: session.csrfToken, name: 'x' });
  assert.equal(noScope.statusCode, 400);
  assert.match(noScope.body, /Choose at least one scope/);
  const noName = await formPost(app, keysUrl, session, {
    _csrf: session.csrfToken,
    name: ' ',
    scopes: 'read',
  });
  assert.match(noName.body, /needs a name/);
  const badScope = await formPost(app, keysUrl, session, {
    _csrf: session.csrfToken,
    name: 'x',
    scopes: 'admin',
  });
  assert.equal(badScope.statusCode, 400);
  const after = (await database.pool.query('SELECT count(*)::int AS n FROM api_keys')).rows[0].n;
  assert.equal(after, before);
});

test('revoking a key stops it at once; keys of other projects cannot be revoked here', async () => {
  const created = await formPost(app, keysUrl, session, {
    _csrf: session.csrfToken,
    name: 'temp',
    scopes: 'read',
  });
  const secret = /value="(quire_[\w-]{43})"/.exec(created.body)![1]!;
  const keyId = (await database.pool.query('SELECT id FROM api_keys WHERE name = $1', ['temp'])).rows[0].id;
  // Used once, so that the key is in the API's cache.
  assert.equal(
    (await app.inject({ method: 'GET', url: `/v1/projects/${project.id}`, headers: bearer(secret) }))
      .statusCode,
    200,
  );
  const other = await buildProject(database.pool);
  const foreign = await formPost(app, `/dashboard/projects/${other.id}/keys/${keyId}/revoke`, session, {
    _csrf: session.csrfToken,
  });
  assert.equal(foreign.statusCode, 404);
  const revoked = await formPost(app, `${keysUrl}/${keyId}/revoke`, session, { _csrf: session.csrfToken });
  assert.equal(revoked.statusCode, 303);
  assert.equal(revoked.headers.location, `${keysUrl}?done=revoked`);
  const call = await app.inject({
    method: 'GET',
    url: `/v1/projects/${project.id}`,
    headers: bearer(secret),
  });
  assert.equal(call.statusCode, 401);
  const page = await app.inject({ method: 'GET', url: revoked.headers.location!, headers: session.headers });
  assert.match(page.body, /The key is revoked/);
  assert.match(page.body, /<span class="badge revoked">revoked<\/span>/);
});

test('keys expire after the chosen 7, 30, 60 or 90 days, or never, and may carry an address allow-list', async () => {
  const user = await buildDashboardUser(database.pool);
  const session = await signInSession(app, user);
  const url = `/dashboard/projects/${project.id}/keys`;
  const page = await app.inject({ method: 'GET', url, headers: session.headers });
  for (const choice of ['7', '30', '60', '90', 'never'])
    assert.match(page.body, new RegExp(`<option value="${choice}"`));
  for (const [choice, days] of [
    ['7', 7],
    ['30', 30],
    ['60', 60],
    ['90', 90],
    ['never', null],
  ] as const) {
    const response = await formPost(app, url, session, {
      _csrf: session.csrfToken,
      name: `expires ${choice}`,
      scopes: 'read',
      expiresInDays: choice,
    });
    assert.equal(response.statusCode, 201, response.body.slice(0, 300));
    const { rows } = await database.pool.query(
      'SELECT extract(epoch FROM expires_at - created_at)::int AS seconds FROM api_keys WHERE name = $1',
      [`expires ${choice}`],
    );
    if (days === null) assert.equal(rows[0].seconds, null);
    else assert.ok(Math.abs(rows[0].seconds - days * 86_400) < 60, `${choice}: ${rows[0].seconds}`);
  }
  const bad = await formPost(app, url, session, {
    _csrf: session.csrfToken,
    name: 'x',
    scopes: 'read',
    expiresInDays: '365',
  });
  assert.equal(bad.statusCode, 400);
  const listed = await formPost(app, url, session, {
    _csrf: session.csrfToken,
    name: 'office',
    scopes: 'read',
    expiresInDays: 'never',
    allowedAddresses: '203.0.113.0/24, 2001:db8::1',
  });
  assert.equal(listed.statusCode, 201);
  assert.match(listed.body, /from 203\.0\.113\.0\/24, 2001:db8::1\/128/);
  const badList = await formPost(app, url, session, {
    _csrf: session.csrfToken,
    name: 'office',
    scopes: 'read',
    allowedAddresses: 'the office',
  });
  assert.equal(badList.statusCode, 400);
});
