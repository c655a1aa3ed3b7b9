// Key rotation with a server running: `quire secrets rotate` reseals every stored secret under a new
// key, and the running server opens them and seals new ones under that key at once, without a
// restart; `--drop-old` while it runs loses nothing, and after a restart every secret still opens.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';
import pg from 'pg';
import { createSecretBox, loadSecretKeys } from '../src/secrets/index.ts';
import { eventually } from './poll.ts';
import { embeddedDatabaseUrl, runQuire, startQuireServer, temporaryDirectory } from './processes.ts';

const dataDirectory = path.join(await temporaryDirectory(), 'data');
const environment = { QUIRE_DATA_DIR: dataDirectory };

/** The key id a sealed value names (`qsec1.<key id>.…`). */
const keyIdOf = (sealed: string) => sealed.split('.')[1];

function cookies(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
}

/** Signs in to the dashboard over HTTP, as a browser does; returns the cookie and the CSRF token. */
async function signIn(url: string, email: string, password: string) {
  const form = await fetch(`${url}/dashboard/sign-in`);
  const formCookie = cookies(form);
  const formToken = /quire_sign_in_csrf=([^;]+)/.exec(formCookie)?.[1] ?? '';
  const signedIn = await fetch(`${url}/dashboard/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie: formCookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ _csrf: formToken, email, password }).toString(),
  });
  assert.equal(signedIn.status, 303, await signedIn.text());
  const cookie = cookies(signedIn);
  const page = await fetch(`${url}/dashboard`, { headers: { cookie, accept: 'text/html' } });
  const csrfToken = /<meta name="csrf-token" content="([^"]+)">/.exec(await page.text())?.[1];
  assert.ok(csrfToken);
  return { cookie, csrfToken };
}

test('a running server follows `quire secrets rotate` without a restart', { timeout: 120_000 }, async () => {
  let server = await startQuireServer(environment);
  const projectId = /with id (prj_[a-z0-9]+)/.exec(server.output())?.[1] ?? '';
  const password = /with this password, shown only this once:\s+(\S+)/.exec(server.output())?.[1] ?? '';
  assert.ok(projectId && password, server.output());
  // The database stops with the server's graceful stop: a connection per look.
  const stored = async (sql: string) => {
    const client = new pg.Client({ connectionString: await embeddedDatabaseUrl(dataDirectory) });
    await client.connect();
    try {
      return (await client.query<{ secret: string }>(sql, [projectId])).rows[0]!.secret;
    } finally {
      await client.end();
    }
  };
  const storedHookSecret = () =>
    stored("SELECT settings->>'hookSecret' AS secret FROM projects WHERE id = $1");
  const storedWebhookSecret = () => stored('SELECT secret FROM project_webhooks WHERE project_id = $1');
  // The server opens the hook secret to verify a delivery: 202 when it opens, 401 for a wrong token.
  const hook = (url: string, token: string) =>
    fetch(`${url}/v1/hooks/${projectId}/gitlab`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-gitlab-token': token,
        'x-gitlab-event': 'Note Hook',
      },
      body: '{}',
    }).then((response) => response.status);
  // The server seals a new webhook secret (the dashboard shows it once).
  const setWebhook = async (url: string) => {
    const session = await signIn(url, 'admin@localhost', password);
    const response = await fetch(`${url}/dashboard/projects/${projectId}/settings/webhook`, {
      method: 'POST',
      headers: {
        cookie: session.cookie,
        accept: 'text/html',
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({
        _csrf: session.csrfToken,
        url: 'https://hooks.example.com/quire',
      }).toString(),
    });
    const body = await response.text();
    assert.equal(response.status, 200, body);
    const secret = /id="webhook-secret" class="secret" readonly value="(whsec_[\w-]+)"/.exec(body)?.[1];
    assert.ok(secret, body);
    return secret;
  };
  const rotate = async (...args: string[]) => {
    const result = await runQuire(['secrets', 'rotate', '--json', ...args], environment);
    assert.equal(result.code, 0, result.stderr);
    return JSON.parse(result.stdout) as { keyId: string; projects: number; webhooks: number };
  };

  const set = await runQuire(['project', 'update', projectId, '--hook-secret', 'hook-secret-1'], environment);
  assert.equal(set.code, 0, set.stderr);
  assert.equal(await hook(server.url, 'hook-secret-1'), 202);
  assert.equal(await hook(server.url, 'wrong'), 401);
  const firstKey = keyIdOf(await storedHookSecret());

  const rotated = await rotate();
  assert.notEqual(rotated.keyId, firstKey);
  assert.equal(rotated.projects, 1);
  assert.equal(keyIdOf(await storedHookSecret()), rotated.keyId);
  // The server seals under the new key from now on: it hears of the rotation by a notification
  // (before it opens anything sealed under the new key, which would make it read the keys too).
  const webhookSecret = await eventually(
    async () => {
      const secret = await setWebhook(server.url);
      return keyIdOf(await storedWebhookSecret()) === rotated.keyId && secret;
    },
    { message: `the server seals under the old key:\n${server.output()}` },
  );
  assert.match(server.output(), new RegExp(`secrets are sealed under key ${rotated.keyId} from now on`));
  assert.equal(await hook(server.url, 'hook-secret-1'), 202, 'the server opens what the rotation resealed');

  // The old key leaves the key file while the server runs: nothing it sealed needed it.
  const dropped = await rotate('--drop-old');
  assert.equal(dropped.keyId, rotated.keyId);
  assert.deepEqual([dropped.projects, dropped.webhooks], [0, 0]);
  assert.equal(
    (await fs.readFile(path.join(dataDirectory, 'secret.key'), 'utf8')).trim().split('\n').length,
    1,
  );
  assert.equal(await hook(server.url, 'hook-secret-1'), 202);

  // After a restart every stored secret opens with the key file alone.
  server.child.kill('SIGTERM');
  assert.equal(await server.exited, 0);
  server = await startQuireServer(environment);
  assert.doesNotMatch(server.output(), /open with no known key/);
  assert.equal(await hook(server.url, 'hook-secret-1'), 202);
  const box = createSecretBox(loadSecretKeys({ secretKey: null, previousSecretKeys: [], dataDirectory }));
  assert.equal(box.keyId, rotated.keyId);
  assert.equal(box.open(await storedWebhookSecret()), webhookSecret);
  assert.equal(box.open(await storedHookSecret()), 'hook-secret-1');
  server.child.kill('SIGTERM');
  assert.equal(await server.exited, 0);
});
