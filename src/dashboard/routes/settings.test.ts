// Project settings: repository, write-only credentials, model, webhook (secret once), origins, snippet.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildTestServices } from '../../../test/app.ts';
import { buildDashboardUser, formPost, signInSession } from '../../../test/dashboard.ts';
import { createTestDatabase } from '../../../test/database.ts';
import { buildProject } from '../../../test/factories.ts';
import { findProject } from '../../projects/project-store.ts';
import { findWebhook } from '../../webhooks/webhook-store.ts';

const database = await createTestDatabase();
const { app, secrets } = await buildTestServices(database, {
  environment: { QUIRE_PUBLIC_URL: 'https://quire.example.com' },
});
const project = await buildProject(database.pool);
const session = await signInSession(app, await buildDashboardUser(database.pool));
const settingsUrl = `/dashboard/projects/${project.id}/settings`;
const post = (path: string, fields: Record<string, string>) =>
  formPost(app, `${settingsUrl}/${path}`, session, { _csrf: session.csrfToken, ...fields });
const page = async () =>
  (await app.inject({ method: 'GET', url: settingsUrl, headers: session.headers })).body;

test('repository settings are saved, and bad ones explained', async () => {
  const saved = await post('project', {
    name: 'Handbook',
    repository: 'https://github.com/acme/docs',
    ref: 'trunk',
    codeHost: 'github',
  });
  assert.equal(saved.statusCode, 303);
  const stored = await findProject(database.pool, project.id);
  assert.deepEqual(
    [stored?.name, stored?.repository, stored?.ref, stored?.codeHost],
    ['Handbook', 'https://github.com/acme/docs', 'trunk', 'github'],
  );
  const bad = await post('project', { name: 'x', repository: '', ref: '../etc', codeHost: 'github' });
  assert.equal(bad.statusCode, 400);
  assert.match(bad.body, /branch name such as main/);
});

test('code host credentials are write-only', async () => {
  const token = 'ghp_secretTokenValue123';
  await post('credentials', {
    githubToken: token,
    githubApiUrl: 'https://ghe.example.com/api/v3',
    gitlabToken: '',
  });
  let body = await page();
  assert.equal(body.includes(token), false, 'never rendered');
  assert.match(body, /Token <span class="badge completed">set<\/span>/);
  assert.match(body, /value="https:\/\/ghe\.example\.com\/api\/v3"/);
  // Saving again with the token field empty keeps it.
  await post('credentials', { githubToken: '', githubApiUrl: '' });
  let stored = await findProject(database.pool, project.id);
  const sealed = (stored!.settings.github as { token: string }).token;
  assert.doesNotMatch(sealed, /ghp_/, 'stored encrypted');
  assert.equal(secrets.open(sealed), token);
  await post('credentials', { remove: '1' });
  stored = await findProject(database.pool, project.id);
  assert.equal(stored?.settings.github, undefined);
  body = await page();
  assert.match(body, /Code host credentials|not set/);
});

test('model and rate limit; an unknown provider is refused', async () => {
  assert.equal((await post('model', { model: 'openai:gpt-5', agentRateLimitPerHour: '7' })).statusCode, 303);
  const stored = await findProject(database.pool, project.id);
  assert.equal(stored?.settings.model, 'openai:gpt-5');
  assert.equal(stored?.settings.agentRateLimitPerHour, 7);
  const bad = await post('model', { model: 'acme:thing', agentRateLimitPerHour: '' });
  assert.equal(bad.statusCode, 400);
  assert.match(bad.body, /provider anthropic, openai or openai-compatible/);
  await post('model', { model: '', agentRateLimitPerHour: '' });
  assert.equal((await findProject(database.pool, project.id))?.settings.model, undefined);
});

test('a webhook secret is shown once, then only the URL', async () => {
  const set = await post('webhook', { url: 'https://hooks.example.com/quire' });
  assert.equal(set.statusCode, 200);
  const secret = /id="webhook-secret" class="secret" readonly value="(whsec_[\w-]+)"/.exec(set.body)?.[1];
  assert.ok(secret);
  const storedSecret = (await findWebhook(database.pool, project.id))!.secret;
  assert.notEqual(storedSecret, secret, 'stored encrypted');
  assert.equal(secrets.open(storedSecret), secret);
  const body = await page();
  assert.equal(body.includes(secret), false);
  assert.match(body, /Events go to <code>https:\/\/hooks\.example\.com\/quire<\/code>/);
  assert.equal((await post('webhook', { url: 'ftp://x' })).statusCode, 400);
  await post('webhook/remove', {});
  assert.equal(await findWebhook(database.pool, project.id), null);
});

test('allowed origins are normalised, and the tracker snippet names this server and project', async () => {
  const saved = await post('origins', {
    origins: 'https://docs.example.com/\n\nhttp://localhost:3000\nhttps://docs.example.com',
  });
  assert.equal(saved.statusCode, 303);
  const stored = await findProject(database.pool, project.id);
  assert.deepEqual(stored?.settings.analyticsAllowedOrigins, [
    'https://docs.example.com',
    'http://localhost:3000',
  ]);
  const bad = await post('origins', { origins: 'https://docs.example.com/guide' });
  assert.equal(bad.statusCode, 400);
  assert.match(bad.body, /origin only/);
  const body = await page();
  assert.ok(
    body.includes(
      `&#60;script defer src=&#34;https://quire.example.com/script.js&#34; data-project=&#34;${project.id}&#34;&#62;&#60;/script&#62;`,
    ),
  );
});

test('behind an https public URL, cookies are Secure', async () => {
  const form = await app.inject({ method: 'GET', url: '/dashboard/sign-in' });
  assert.match(String(form.headers['set-cookie']), /; HttpOnly; SameSite=Lax; Secure$/);
});
