import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, describe, test } from 'node:test';
import { Type } from '@fastify/type-provider-typebox';
import { buildTestApp } from '../../test/app.ts';
import { createTestDatabase } from '../../test/database.ts';
import { bearer, buildProjectWithKey } from '../../test/factories.ts';
import { ConflictError } from '../errors.ts';
import type { RouteRegistrar } from './app.ts';

const logLines: string[] = [];
const logStream = new Writable({
  write(chunk, _encoding, callback) {
    logLines.push(String(chunk));
    callback();
  },
});

// Routes that exist only in this test, to drive every error path of the real app factory.
const testRoutes: RouteRegistrar = (app) => {
  app.post(
    '/test/:projectId/echo',
    {
      config: { scope: 'write' },
      schema: {
        params: Type.Object({ projectId: Type.String() }),
        querystring: Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 250 })) }),
        body: Type.Object(
          { prompt: Type.String({ minLength: 1 }), count: Type.Optional(Type.Integer()) },
          { additionalProperties: false },
        ),
      },
    },
    async (request) => ({ body: request.body, limit: request.query.limit ?? null }),
  );
  app.get('/test/crash', async () => {
    throw new Error('relation "secret_table" does not exist at /srv/quire/src/db.ts:12');
  });
  app.get('/test/conflict', async () => {
    throw new ConflictError('This job is archived');
  });
};

const database = await createTestDatabase();
const app = await buildTestApp(database, {
  extraRoutes: [testRoutes],
  logger: { level: 'info', stream: logStream },
  bodyLimit: 1024,
});
after(() => app.close());
const { project, key } = await buildProjectWithKey(database.pool);
const url = `/test/${project.id}/echo`;
const json = { ...bearer(key), 'content-type': 'application/json' };

describe('error responses', () => {
  test('a valid request passes through', async () => {
    const response = await app.inject({
      method: 'POST',
      url: `${url}?limit=10`,
      headers: json,
      payload: { prompt: 'hi' },
    });
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), { body: { prompt: 'hi' }, limit: 10 });
  });

  test('unknown routes are 404 with an error body', async () => {
    const response = await app.inject({ method: 'GET', url: '/v9/nothing?x=1' });
    assert.equal(response.statusCode, 404);
    assert.deepEqual(response.json(), { error: 'No route for GET /v9/nothing' });
  });

  test('a body that is not JSON is 415', async () => {
    const response = await app.inject({
      method: 'POST',
      url,
      headers: { ...bearer(key), 'content-type': 'text/plain' },
      payload: 'prompt=hi',
    });
    assert.equal(response.statusCode, 415);
    assert.match(response.json().error, /application\/json/);
  });

  test('a body over the limit is 413', async () => {
    const response = await app.inject({
      method: 'POST',
      url,
      headers: json,
      payload: { prompt: 'x'.repeat(5000) },
    });
    assert.equal(response.statusCode, 413);
    assert.deepEqual(Object.keys(response.json()), ['error']);
  });

  test('malformed JSON is 400', async () => {
    const response = await app.inject({ method: 'POST', url, headers: json, payload: '{"prompt": ' });
    assert.equal(response.statusCode, 400);
    assert.equal(response.json().error, 'Request body is not valid JSON');
  });

  test('an empty JSON body is 400', async () => {
    const response = await app.inject({ method: 'POST', url, headers: json, payload: '' });
    assert.equal(response.statusCode, 400);
  });

  test('schema violations are 400 with one detail per problem', async () => {
    const response = await app.inject({
      method: 'POST',
      url,
      headers: json,
      payload: { prompt: '', count: 'three', extra: 1 },
    });
    assert.equal(response.statusCode, 400);
    const body = response.json();
    assert.equal(body.error, 'Invalid body');
    const messages = body.details.map((detail: { message: string }) => detail.message);
    assert.ok(
      messages.some((message: string) => message.includes('body.prompt')),
      messages.join('; '),
    );
    assert.ok(
      messages.some((message: string) => message.includes('body.count')),
      messages.join('; '),
    );
    assert.ok(
      messages.some((message: string) => message.includes('unknown property "extra"')),
      messages.join('; '),
    );
  });

  test('body values are never coerced to the expected type', async () => {
    const response = await app.inject({ method: 'POST', url, headers: json, payload: { prompt: 5 } });
    assert.equal(response.statusCode, 400);
  });

  test('query strings are validated too', async () => {
    for (const limit of ['abc', '0', '251', '1.5']) {
      const response = await app.inject({
        method: 'POST',
        url: `${url}?limit=${limit}`,
        headers: json,
        payload: { prompt: 'x' },
      });
      assert.equal(response.statusCode, 400, limit);
      assert.match(response.json().details[0].message, /querystring\.limit/);
    }
  });

  test('authentication comes before body checks', async () => {
    const response = await app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'text/plain' },
      payload: 'x',
    });
    assert.equal(response.statusCode, 401);
  });

  test('domain errors keep their status and message', async () => {
    const response = await app.inject({ method: 'GET', url: '/test/conflict' });
    assert.equal(response.statusCode, 409);
    assert.deepEqual(response.json(), { error: 'This job is archived' });
  });

  test('unexpected errors are a bare 500, logged with the request id', async () => {
    const response = await app.inject({ method: 'GET', url: '/test/crash' });
    assert.equal(response.statusCode, 500);
    assert.deepEqual(response.json(), { error: 'Internal server error' });
    assert.doesNotMatch(response.body, /secret_table|\/srv/);
    const requestId = response.headers['x-request-id'];
    assert.match(String(requestId), /^req_/);
    const logged = logLines
      .map((line) => JSON.parse(line))
      .find((line) => line.reqId === requestId && line.level === 50);
    assert.ok(logged, 'the failure is logged with its request id');
    assert.match(logged.err.message, /secret_table/);
  });
});

test('logs never contain an API key or an Authorization header', () => {
  const all = logLines.join('\n');
  assert.ok(logLines.length > 0);
  assert.equal(all.includes(key), false);
  assert.doesNotMatch(all, /Bearer/i);
});
