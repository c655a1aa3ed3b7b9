/**
 * The request bodies' memory budget over real sockets (bodies arrive over time, clients leave
 * halfway): a budget of 1 MiB here, and a 900 KB batch held open by sending only part of it.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { buildTestServices } from '../../test/app.ts';
import { createTestDatabase } from '../../test/database.ts';
import { bearer, buildProjectWithKey } from '../../test/factories.ts';
import { eventually } from '../../test/poll.ts';

const database = await createTestDatabase();
const { app } = await buildTestServices(database, {
  environment: { QUIRE_REQUEST_MEMORY_MB: '1', QUIRE_ANALYTICS_RETENTION_MONTHS: '1200' },
  // Long enough for a held batch to finish and commit on a busy machine while another waits (the
  // 429 test waits it out whole).
  bodyMemoryWaitMilliseconds: 5000,
});
await app.listen({ port: 0, host: '127.0.0.1' });
const { port } = app.server.address() as AddressInfo;

const chrome =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36';

/** A valid batch of one human view, padded with JSON whitespace to `bytes`. */
function batch(path: string, bytes: number): Buffer {
  const json = JSON.stringify({
    events: [{ path, userAgent: chrome, timestamp: '2026-05-01T12:00:00Z' }],
  });
  return Buffer.from(json.padEnd(bytes, ' '));
}

interface Answer {
  status: number;
  retryAfter: string | undefined;
  body: string;
}

/** A request whose body is sent when the test says: `send` part of it, `finish` it, or `leave`. */
function openRequest(url: string, key: string, body: Buffer) {
  let sent = 0;
  const request = http.request({
    host: '127.0.0.1',
    port,
    method: 'POST',
    path: url,
    headers: { ...bearer(key), 'content-type': 'application/json', 'content-length': body.length },
  });
  const answered = new Promise<Answer>((resolve, reject) => {
    request.on('response', (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => {
        const retryAfter = response.headers['retry-after'];
        resolve({ status: response.statusCode ?? 0, retryAfter, body: text });
      });
    });
    request.on('error', reject);
  });
  let settled = false;
  answered.then(
    () => (settled = true),
    () => (settled = true),
  );
  request.flushHeaders();
  return {
    answered,
    settled: () => settled,
    send(bytes: number) {
      request.write(body.subarray(sent, sent + bytes));
      sent += bytes;
    },
    finish() {
      request.end(body.subarray(sent));
    },
    leave() {
      answered.catch(() => {});
      request.destroy();
    },
  };
}

async function totalViews(projectId: string, key: string): Promise<number> {
  const response = await app.inject({
    method: 'GET',
    url: `/v1/analytics/${projectId}/views?dateFrom=2026-05-01&dateTo=2026-05-02`,
    headers: bearer(key),
  });
  assert.equal(response.statusCode, 200, response.body);
  return response.json().totals.total;
}

const pause = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

/**
 * A new project whose first batch (900 KB of the 1 MiB budget) is being received: its first
 * kilobyte is sent, the rest when the test says (`first.finish()`).
 */
async function holdingTheBudget() {
  const { project, key } = await buildProjectWithKey(database.pool);
  const events = `/v1/analytics/${project.id}/events`;
  const post = (path: string, bytes: number, withKey = key) =>
    openRequest(events, withKey, batch(path, bytes));
  const first = post('/docs/first', 900_000);
  first.send(1000);
  await eventually(async () => app.bodyMemory.used === 900_000);
  return { first, post, views: () => totalViews(project.id, key) };
}

async function answered(request: ReturnType<typeof openRequest>, status: number): Promise<Answer> {
  const answer = await request.answered;
  assert.equal(answer.status, status, answer.body);
  return answer;
}

describe('request bodies share QUIRE_REQUEST_MEMORY_MB', () => {
  it('a body that does not fit waits for the one being received, then is read; both are stored', async () => {
    const { first, post, views } = await holdingTheBudget();
    const second = post('/docs/second', 300_000);
    second.finish();
    // Reads are not held back by bodies.
    assert.equal(await views(), 0);
    await pause(150);
    assert.equal(second.settled(), false, 'the second body is not read while the first holds the budget');
    assert.equal(app.bodyMemory.used, 900_000);

    first.finish();
    await answered(first, 202);
    await answered(second, 202);
    assert.equal(await views(), 2);
    await eventually(async () => app.bodyMemory.used === 0);
  });

  it('past the wait, a request gets 429 with Retry-After and stores nothing', async () => {
    const { first, post, views } = await holdingTheBudget();
    const second = post('/docs/second', 300_000);
    second.finish();
    const answer = await answered(second, 429);
    assert.equal(answer.retryAfter, '5');
    assert.match(JSON.parse(answer.body).error, /busy receiving other requests/);

    first.finish();
    await answered(first, 202);
    assert.equal(await views(), 1);
    await eventually(async () => app.bodyMemory.used === 0);
  });

  it('a client that leaves while sending or while waiting gives its share back', async () => {
    const { first, post, views } = await holdingTheBudget();
    const waiting = post('/docs/second', 300_000);
    waiting.send(1000);
    await pause(50);
    waiting.leave();
    await pause(50);
    first.leave();
    // The one that waited is granted once the first leaves, and gives it back at once.
    await eventually(async () => app.bodyMemory.used === 0);

    const after = post('/docs/after', 1_000_000);
    after.finish();
    await answered(after, 202);
    assert.equal(await views(), 1);
  });

  it('requests refused before their body is read hold nothing', async () => {
    const { first, post } = await holdingTheBudget();
    // No key: refused by authentication, before the budget.
    const anonymous = post('/docs/x', 300_000, 'quire_not-a-key');
    anonymous.finish();
    await answered(anonymous, 401);
    // Over the route's 4 MiB limit: refused with 413 from its Content-Length, unread.
    const tooLarge = post('/docs/x', 5 * 1024 * 1024);
    tooLarge.send(1000);
    await answered(tooLarge, 413);
    tooLarge.leave();
    assert.equal(app.bodyMemory.used, 900_000);
    first.finish();
    await answered(first, 202);
    await eventually(async () => app.bodyMemory.used === 0);
  });
});

it('injected requests (most tests use them) give their share back too', async () => {
  const { project, key } = await buildProjectWithKey(database.pool);
  const response = await app.inject({
    method: 'POST',
    url: `/v1/analytics/${project.id}/events`,
    headers: { ...bearer(key), 'content-type': 'application/json' },
    payload: batch('/docs/injected', 600_000),
  });
  assert.equal(response.statusCode, 202, response.body);
  await eventually(async () => app.bodyMemory.used === 0);
});

it('the OpenAPI document lists the 429 on operations that take a body', async () => {
  const document = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
  assert.ok(document.paths['/v1/analytics/{projectId}/events'].post.responses['429']);
  assert.ok(document.paths['/v2/agent/{projectId}/job'].post.responses['429']);
});
