// The one input rule and framework errors, through the real app: every failure the attack pass found.
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { buildTestApp } from '../../test/app.ts';
import { buildDashboardUser, formPost, signInSession } from '../../test/dashboard.ts';
import { createTestDatabase } from '../../test/database.ts';
import { bearer, buildProjectWithKey } from '../../test/factories.ts';
import { checkRequestText } from './input-rules.ts';

const database = await createTestDatabase();
const app = await buildTestApp(database, { environment: { QUIRE_AGENT_RATE_LIMIT: '2' } });
const { project, key } = await buildProjectWithKey(database.pool);
const json = { ...bearer(key), 'content-type': 'application/json' };

async function count(sql: string, parameters: unknown[]): Promise<number> {
  const result = await database.pool.query<{ count: number }>(sql, parameters);
  return Number(result.rows[0]?.count ?? 0);
}

const eventCount = () =>
  count('SELECT count(*) AS count FROM analytics_page_views WHERE project_id = $1', [project.id]);

describe('control characters and invalid text', () => {
  it('refuses a NUL in an event user agent with 400, storing nothing', async () => {
    const before = await eventCount();
    const response = await app.inject({
      method: 'POST',
      url: `/v1/analytics/${project.id}/events`,
      headers: json,
      payload: JSON.stringify({ events: [{ path: '/a' }, { path: '/b', userAgent: 'Mozilla/5.0\u0000x' }] }),
    });
    assert.equal(response.statusCode, 400, response.body);
    assert.match(
      response.json().details[0].message,
      /body\.events\[1\]\.userAgent must not contain control characters \(U\+0000/,
    );
    assert.equal(await eventCount(), before);
  });

  it('allows tab and newline in a prompt but not other controls; no job is made', async () => {
    const bell = await app.inject({
      method: 'POST',
      url: `/v2/agent/${project.id}/job`,
      headers: json,
      payload: JSON.stringify({ prompt: 'Ring \u0007 the bell' }),
    });
    assert.equal(bell.statusCode, 400);
    assert.equal(
      await count('SELECT count(*) AS count FROM agent_jobs WHERE project_id = $1', [project.id]),
      0,
    );
  });

  it('refuses %00 in query strings and path parameters, and query text that is not UTF-8', async () => {
    for (const url of [
      `/v1/analytics/${project.id}/views?dateFrom=2026-01-01%00`,
      `/v1/analytics/${project.id}%00/views`,
      `/v1/analytics/${project.id}/views?dateFrom=%FF`,
    ]) {
      const response = await app.inject({ method: 'GET', url, headers: bearer(key) });
      assert.ok([400, 403].includes(response.statusCode), `${url}: ${response.statusCode} ${response.body}`);
      assert.equal(typeof response.json().error, 'string');
    }
    const nul = await app.inject({
      method: 'GET',
      url: `/v1/analytics/${project.id}/views?dateFrom=%00`,
      headers: bearer(key),
    });
    assert.equal(nul.statusCode, 400);
  });

  it('refuses a JSON body that is not valid UTF-8, and lone surrogates', async () => {
    const bytes = Buffer.concat([
      Buffer.from('{"prompt": "caf'),
      Buffer.from([0xc3, 0x28]),
      Buffer.from('"}'),
    ]);
    const invalid = await app.inject({
      method: 'POST',
      url: `/v2/agent/${project.id}/job`,
      headers: json,
      payload: bytes,
    });
    assert.equal(invalid.statusCode, 400);
    assert.deepEqual(invalid.json(), { error: 'Request body is not valid UTF-8' });
    const surrogate = await app.inject({
      method: 'POST',
      url: `/v2/agent/${project.id}/job`,
      headers: json,
      payload: '{"prompt": "half \\ud800 a pair"}',
    });
    assert.equal(surrogate.statusCode, 400);
    assert.match(surrogate.json().details[0].message, /lone surrogate/);
  });
});

describe('dashboard forms', async () => {
  const session = await signInSession(app, await buildDashboardUser(database.pool));

  it('refuses %00 in any field with 400 and changes nothing', async () => {
    const keys = () => count('SELECT count(*) AS count FROM api_keys WHERE project_id = $1', [project.id]);
    const before = await keys();
    const keyForm = await formPost(app, `/dashboard/projects/${project.id}/keys`, session, {
      _csrf: session.csrfToken,
      name: 'nul\u0000name',
      scopes: 'read',
    });
    assert.equal(keyForm.statusCode, 400, keyForm.body);
    assert.equal(await keys(), before);
    for (const [path, fields] of [
      ['project', { name: 'A\u0000', repository: '', ref: 'main', codeHost: 'local' }],
      ['project', { name: 'Docs', repository: '/tmp/x\u0000', ref: 'main', codeHost: 'local' }],
      ['credentials', { githubToken: 'ghp_\u0000' }],
      ['model', { model: 'anthropic:x\u0000', agentRateLimitPerHour: '' }],
    ] as const) {
      const response = await formPost(app, `/dashboard/projects/${project.id}/settings/${path}`, session, {
        _csrf: session.csrfToken,
        ...fields,
      });
      assert.equal(response.statusCode, 400, `${path}: ${response.body.slice(0, 200)}`);
    }
    const project_ = await database.pool.query('SELECT name FROM projects WHERE id = $1', [project.id]);
    assert.equal(project_.rows[0].name, project.name);
  });

  it('treats __proto__, constructor, toString and hasOwnProperty as plain field names, signed in or not', async () => {
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      const anonymous = await app.inject({
        method: 'POST',
        url: '/dashboard/sign-in',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: `${name}=1&email=a@b.c&password=x`,
      });
      assert.equal(anonymous.statusCode, 403, `${name}: ${anonymous.statusCode}`);
      const other = await app.inject({
        method: 'POST',
        url: `/dashboard/projects/${project.id}/keys`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: `${name}=1&${name}=2&name=x`,
      });
      assert.equal(other.statusCode, 401, `${name}: ${other.statusCode}`);
      const signedIn = await formPost(app, `/dashboard/projects/${project.id}/keys`, session, {
        _csrf: session.csrfToken,
        [name]: 'x',
        name: `field ${name}`,
        scopes: 'read',
      });
      assert.equal(signedIn.statusCode, 201, `${name}: ${signedIn.statusCode}`);
    }
  });

  it('refuses a form body whose percent-encoding is not UTF-8', async () => {
    const response = await app.inject({
      method: 'POST',
      url: `/dashboard/projects/${project.id}/keys`,
      headers: { cookie: session.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: `_csrf=${session.csrfToken}&name=%FF&scopes=read`,
    });
    assert.equal(response.statusCode, 400);
  });
});

describe('numbers, framework errors and error bodies', () => {
  it('takes query integers in decimal only', async () => {
    for (const limit of ['0x10', '1e1', ' 16', '016', '+16', '']) {
      const response = await app.inject({
        method: 'GET',
        url: `/v1/analytics/${project.id}/views?limit=${encodeURIComponent(limit)}`,
        headers: bearer(key),
      });
      assert.equal(response.statusCode, 400, `limit=${limit}: ${response.body}`);
    }
    const decimal = await app.inject({
      method: 'GET',
      url: `/v1/analytics/${project.id}/views?limit=16`,
      headers: bearer(key),
    });
    assert.equal(decimal.statusCode, 200);
  });

  it('answers an over-long path segment (414) and an unknown method (405) with {error}', async () => {
    const long = await app.inject({ method: 'GET', url: `/v1/analytics/${'p'.repeat(200)}/views` });
    assert.equal(long.statusCode, 414);
    assert.deepEqual(long.json(), { error: 'A path segment is too long' });
    const query = await app.inject({ method: 'QUERY' as 'GET', url: `/v1/analytics/${project.id}/views` });
    assert.equal(query.statusCode, 405);
    assert.match(query.json().error, /QUERY is not supported/);
    assert.match(String(query.headers.allow), /GET/);
  });

  it('answers headers too large (431) over a real socket with {error}', async () => {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = httpRequest(
        { host: '127.0.0.1', port, path: '/healthz', headers: { 'x-large': 'a'.repeat(40_000) } },
        (response) => {
          let body = '';
          response.on('data', (chunk) => {
            body += chunk;
          });
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
        },
      );
      request.on('error', reject);
      request.end();
    });
    assert.equal(answer.status, 431);
    assert.deepEqual(JSON.parse(answer.body), { error: 'Request headers are too large' });
  });

  it('leaves raw byte bodies to the routes that read them, unwalked', () => {
    // A drain body at its 16 MiB limit. Walked as an object, each byte was a field name to check:
    // seconds of CPU per request. A field name with a control character shows whether it is walked.
    const marked = (body: Buffer) => Object.defineProperty(body, 'x\u0000', { value: 'y', enumerable: true });
    const body = marked(Buffer.alloc(16 * 1024 * 1024, 0x20));
    assert.throws(() =>
      checkRequestText({ url: '/v1/x', params: {}, query: {}, body: { ...marked(Buffer.alloc(1)) } }),
    );
    assert.doesNotThrow(() =>
      checkRequestText({ url: '/v1/analytics/x/drains/netlify', params: {}, query: {}, body }),
    );
  });

  it('caps the error body of a large bad batch: the first problems and a count', async () => {
    const events = Array.from({ length: 1000 }, () => ({ path: 5, extra: true }));
    const response = await app.inject({
      method: 'POST',
      url: `/v1/analytics/${project.id}/events`,
      headers: json,
      payload: JSON.stringify({ events }),
    });
    assert.equal(response.statusCode, 400);
    assert.ok(response.body.length < 4000, `${response.body.length} bytes`);
    const details = response.json().details as { message: string }[];
    assert.equal(details.length, 21);
    assert.match(details.at(-1)!.message, /and \d+ more problems/);
  });

  it('documents parameters with defaults as optional and dates with a pattern', async () => {
    const document = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const parameters = document.paths['/v1/analytics/{projectId}/views'].get.parameters as {
      name: string;
      required?: boolean;
      schema: { pattern?: string };
    }[];
    const limit = parameters.find((parameter) => parameter.name === 'limit')!;
    assert.notEqual(limit.required, true);
    const dateFrom = parameters.find((parameter) => parameter.name === 'dateFrom')!;
    assert.ok(dateFrom.schema.pattern);
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const operation of Object.values(
        operations as Record<string, { parameters?: typeof parameters }>,
      )) {
        for (const parameter of operation.parameters ?? []) {
          const withDefault = (parameter.schema as { default?: unknown }).default !== undefined;
          assert.ok(!(withDefault && parameter.required), `${path} ${parameter.name}`);
        }
      }
    }
  });
});

describe('the agent rate limit', () => {
  it('is spent only by requests that pass validation and authorisation', async () => {
    const { project: limited, key: limitedKey } = await buildProjectWithKey(database.pool);
    const post = (prompt: unknown, headers: Record<string, string> = bearer(limitedKey)) =>
      app.inject({
        method: 'POST',
        url: `/v2/agent/${limited.id}/job`,
        headers: { ...headers, 'content-type': 'application/json' },
        payload: JSON.stringify({ prompt }),
      });
    for (let attempt = 0; attempt < 4; attempt += 1) assert.equal((await post('')).statusCode, 400);
    assert.equal((await post('x', bearer(key))).statusCode, 403);
    assert.equal((await post('First')).statusCode, 201);
    assert.equal((await post('Second')).statusCode, 201);
    assert.equal((await post('Third')).statusCode, 429);
  });
});
