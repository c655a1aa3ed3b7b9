import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildTestServices } from '../../../test/app.ts';
import { createTestDatabase } from '../../../test/database.ts';
import { bearer, buildProjectWithKey } from '../../../test/factories.ts';
import { updateProjectSettings } from '../../projects/project-store.ts';

const database = await createTestDatabase();
// No worker here: these tests are about the API; jobs stay as the API leaves them.
const { app } = await buildTestServices(database, {
  environment: { QUIRE_MODEL: 'anthropic:claude-sonnet-4-5' },
});
const { project, key } = await buildProjectWithKey(database.pool, {
  project: { repository: '/srv/docs', ref: 'main' },
});
const other = await buildProjectWithKey(database.pool);
const json = { ...bearer(key), 'content-type': 'application/json' };
const base = `/v2/agent/${project.id}`;

async function create(prompt: unknown, headers: Record<string, string> = {}) {
  return app.inject({
    method: 'POST',
    url: `${base}/job`,
    headers: { ...json, ...headers },
    payload: { prompt },
  });
}

describe('POST /v2/agent/{projectId}/job', () => {
  test('creates an active job (201) that GET returns at once', async () => {
    const response = await create('Document the --dry-run flag');
    assert.equal(response.statusCode, 201);
    const job = response.json();
    assert.match(job.id, /^job_/);
    assert.equal(job.status, 'active');
    assert.deepEqual(job.source, { repository: '/srv/docs', ref: 'main' });
    assert.equal(job.model, 'anthropic:claude-sonnet-4-5');
    assert.equal(job.prLink, null);
    assert.equal(job.archivedAt, null);
    assert.ok(!Number.isNaN(Date.parse(job.createdAt)));
    const read = await app.inject({ method: 'GET', url: `${base}/job/${job.id}`, headers: bearer(key) });
    assert.equal(read.statusCode, 200);
    assert.deepEqual(read.json(), job);
  });

  const invalid: [string, unknown][] = [
    ['an empty prompt', ''],
    ['a blank prompt', '   \n\t'],
    ['a prompt over 20,000 characters', 'x'.repeat(20_001)],
    ['a prompt with a NUL character (PostgreSQL text cannot hold it)', 'Fix\u0000 the typo'],
    ['a number', 42],
    ['null', null],
  ];
  for (const [name, prompt] of invalid) {
    test(`rejects ${name} with 400 and details`, async () => {
      const response = await create(prompt);
      assert.equal(response.statusCode, 400);
      assert.ok(response.json().details.length > 0);
    });
  }

  test('accepts a prompt of exactly 20,000 characters', async () => {
    assert.equal((await create('y'.repeat(20_000))).statusCode, 201);
  });

  test('rejects a missing prompt and unknown fields', async () => {
    const missing = await app.inject({ method: 'POST', url: `${base}/job`, headers: json, payload: {} });
    assert.equal(missing.statusCode, 400);
    assert.match(missing.json().details[0].message, /prompt is required/);
    const extra = await app.inject({
      method: 'POST',
      url: `${base}/job`,
      headers: json,
      payload: { prompt: 'x', model: 'y' },
    });
    assert.equal(extra.statusCode, 400);
  });

  test('rejects a body that is not a JSON object', async () => {
    const array = await app.inject({ method: 'POST', url: `${base}/job`, headers: json, payload: '["x"]' });
    assert.equal(array.statusCode, 400);
    const text = await app.inject({
      method: 'POST',
      url: `${base}/job`,
      headers: { ...bearer(key), 'content-type': 'text/plain' },
      payload: 'x',
    });
    assert.equal(text.statusCode, 415);
  });

  test('stores nothing for a rejected request', async () => {
    const before = (await database.pool.query('SELECT count(*)::int AS n FROM agent_jobs')).rows[0].n;
    await create('');
    await create(5);
    const after = (await database.pool.query('SELECT count(*)::int AS n FROM agent_jobs')).rows[0].n;
    assert.equal(after, before);
  });

  test('a read-only key cannot create (403); no key is 401', async () => {
    const { insertApiKey } = await import('../../auth/api-key-store.ts');
    const { secret } = await insertApiKey(database.pool, {
      projectId: project.id,
      name: 'r',
      scopes: ['read'],
    });
    assert.equal((await create('x', bearer(secret))).statusCode, 403);
    const anonymous = await app.inject({
      method: 'POST',
      url: `${base}/job`,
      headers: { 'content-type': 'application/json' },
      payload: { prompt: 'x' },
    });
    assert.equal(anonymous.statusCode, 401);
  });
});

describe('Idempotency-Key', () => {
  test('a repeat returns the first response and creates nothing new', async () => {
    const first = await create('Fix the typo', { 'idempotency-key': 'abc-1' });
    const second = await create('Fix the typo', { 'idempotency-key': 'abc-1' });
    assert.equal(first.statusCode, 201);
    assert.equal(second.statusCode, 201);
    assert.deepEqual(second.json(), first.json());
    const count = await database.pool.query(
      "SELECT count(*)::int AS n FROM agent_job_messages WHERE prompt = 'Fix the typo'",
    );
    assert.equal(count.rows[0].n, 1);
  });

  test('concurrent repeats create one job', async () => {
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => create('Concurrent', { 'idempotency-key': 'abc-2' })),
    );
    assert.deepEqual(new Set(responses.map((response) => response.statusCode)), new Set([201]));
    assert.equal(new Set(responses.map((response) => response.json().id)).size, 1);
  });

  test('the same key with another request is 409', async () => {
    await create('One thing', { 'idempotency-key': 'abc-3' });
    const response = await create('Another thing', { 'idempotency-key': 'abc-3' });
    assert.equal(response.statusCode, 409);
    assert.match(response.json().error, /Idempotency-Key/);
  });

  test('keys belong to a project', async () => {
    const mine = await create('Same', { 'idempotency-key': 'shared' });
    const theirs = await app.inject({
      method: 'POST',
      url: `/v2/agent/${other.project.id}/job`,
      headers: { ...bearer(other.key), 'content-type': 'application/json', 'idempotency-key': 'shared' },
      payload: { prompt: 'Same' },
    });
    assert.equal(theirs.statusCode, 201);
    assert.notEqual(theirs.json().id, mine.json().id);
  });
});

describe('GET, message, archive', () => {
  test('an unknown job, or another project’s job, is 404', async () => {
    const job = (await create('Mine')).json();
    assert.equal(
      (await app.inject({ method: 'GET', url: `${base}/job/job_nope`, headers: bearer(key) })).statusCode,
      404,
    );
    const foreign = await app.inject({
      method: 'GET',
      url: `/v2/agent/${other.project.id}/job/${job.id}`,
      headers: bearer(other.key),
    });
    assert.equal(foreign.statusCode, 404);
    const message = await app.inject({
      method: 'POST',
      url: `/v2/agent/${other.project.id}/job/${job.id}/message`,
      headers: { ...bearer(other.key), 'content-type': 'application/json' },
      payload: { prompt: 'x' },
    });
    assert.equal(message.statusCode, 404);
  });

  test('a follow-up is accepted (200) and validated like a prompt', async () => {
    const job = (await create('Start')).json();
    const response = await app.inject({
      method: 'POST',
      url: `${base}/job/${job.id}/message`,
      headers: json,
      payload: { prompt: 'And more' },
    });
    assert.equal(response.statusCode, 200);
    assert.equal(response.json().id, job.id);
    assert.equal(response.json().status, 'active');
    const bad = await app.inject({
      method: 'POST',
      url: `${base}/job/${job.id}/message`,
      headers: json,
      payload: { prompt: '' },
    });
    assert.equal(bad.statusCode, 400);
  });

  test('archive is idempotent, and an archived job refuses follow-ups with 409', async () => {
    const job = (await create('To archive')).json();
    const archived = await app.inject({
      method: 'POST',
      url: `${base}/job/${job.id}/archive`,
      headers: bearer(key),
    });
    assert.equal(archived.statusCode, 200);
    assert.equal(archived.json().status, 'archived');
    assert.ok(archived.json().archivedAt);
    const again = await app.inject({
      method: 'POST',
      url: `${base}/job/${job.id}/archive`,
      headers: bearer(key),
    });
    assert.equal(again.statusCode, 200);
    assert.equal(again.json().archivedAt, archived.json().archivedAt);
    const message = await app.inject({
      method: 'POST',
      url: `${base}/job/${job.id}/message`,
      headers: json,
      payload: { prompt: 'More' },
    });
    assert.equal(message.statusCode, 409);
    assert.match(message.json().error, /archived/);
  });
});

describe('GET /v2/agent/{projectId}/jobs', () => {
  test('pages newest first with a cursor, and filters by status', async () => {
    const listed = await buildProjectWithKey(database.pool, { project: { repository: '/srv/x' } });
    const ids: string[] = [];
    for (let index = 0; index < 5; index += 1) {
      const response = await app.inject({
        method: 'POST',
        url: `/v2/agent/${listed.project.id}/job`,
        headers: { ...bearer(listed.key), 'content-type': 'application/json' },
        payload: { prompt: `job ${index}` },
      });
      ids.push(response.json().id);
    }
    await app.inject({
      method: 'POST',
      url: `/v2/agent/${listed.project.id}/job/${ids[0]}/archive`,
      headers: bearer(listed.key),
    });
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor ? `&cursor=${cursor}` : '';
      const page = await app.inject({
        method: 'GET',
        url: `/v2/agent/${listed.project.id}/jobs?limit=2${query}`,
        headers: bearer(listed.key),
      });
      assert.equal(page.statusCode, 200);
      seen.push(...page.json().jobs.map((job: { id: string }) => job.id));
      cursor = page.json().nextCursor;
    } while (cursor);
    assert.deepEqual(seen, [...ids].reverse());
    const archived = await app.inject({
      method: 'GET',
      url: `/v2/agent/${listed.project.id}/jobs?status=archived`,
      headers: bearer(listed.key),
    });
    assert.deepEqual(
      archived.json().jobs.map((job: { id: string }) => job.id),
      [ids[0]],
    );
  });

  test('bad query parameters are 400', async () => {
    for (const query of ['status=done', 'limit=0', 'limit=101', 'cursor=garbage', 'other=1']) {
      const response = await app.inject({
        method: 'GET',
        url: `${base}/jobs?${query}`,
        headers: bearer(key),
      });
      assert.equal(response.statusCode, 400, query);
    }
  });
});

test('agent creates and follow-ups are rate limited per project, with Retry-After', async () => {
  const limited = await buildProjectWithKey(database.pool, { project: { repository: '/srv/y' } });
  await updateProjectSettings(database.pool, limited.project.id, { agentRateLimitPerHour: 2 });
  const headers = { ...bearer(limited.key), 'content-type': 'application/json' };
  const url = `/v2/agent/${limited.project.id}/job`;
  assert.equal(
    (await app.inject({ method: 'POST', url, headers, payload: { prompt: 'a' } })).statusCode,
    201,
  );
  assert.equal(
    (await app.inject({ method: 'POST', url, headers, payload: { prompt: 'b' } })).statusCode,
    201,
  );
  const refused = await app.inject({ method: 'POST', url, headers, payload: { prompt: 'c' } });
  assert.equal(refused.statusCode, 429);
  assert.ok(Number(refused.headers['retry-after']) >= 1);
  assert.match(refused.json().error, /Rate limit/);
  // Reads are limited separately.
  assert.equal(
    (
      await app.inject({
        method: 'GET',
        url: `/v2/agent/${limited.project.id}/jobs`,
        headers: bearer(limited.key),
      })
    ).statusCode,
    200,
  );
});

test('the OpenAPI document lists every job route with its schemas', async () => {
  const document = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
  assert.equal(document.openapi, '3.1.0');
  for (const [path, method] of [
    ['/v2/agent/{projectId}/job', 'post'],
    ['/v2/agent/{projectId}/job/{id}', 'get'],
    ['/v2/agent/{projectId}/job/{id}/message', 'post'],
    ['/v2/agent/{projectId}/job/{id}/archive', 'post'],
    ['/v2/agent/{projectId}/jobs', 'get'],
    ['/v2/agent/{projectId}/job/{id}/events', 'get'],
  ] as const) {
    const operation = document.paths[path]?.[method];
    assert.ok(operation, `${method} ${path}`);
    assert.ok(operation.responses['401'], `${method} ${path} documents 401`);
  }
  assert.ok(document.paths['/v2/agent/{projectId}/job'].post.responses['201']);
  const pages = Object.keys(document.paths).filter(
    (path) => path.startsWith('/dashboard') || path.startsWith('/review'),
  );
  assert.deepEqual(pages, [], 'web pages are not part of the API document');
});
