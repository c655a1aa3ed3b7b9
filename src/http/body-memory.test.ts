/**
 * The request bodies' memory budget over real sockets (bodies arrive over time, clients leave
 * halfway): a budget of 1 MiB here (a holder's share: 256 KiB), and a 900 KB batch held open by
 * sending only part of it. The listener believes `X-Forwarded-For` from the test's own address, so
 * a request can come from any client.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, it } from 'node:test';
import { buildTestServices } from '../../test/app.ts';
import { createTestDatabase } from '../../test/database.ts';
import { bearer, buildProjectWithKey } from '../../test/factories.ts';
import { eventually } from '../../test/poll.ts';

const database = await createTestDatabase();
const { app } = await buildTestServices(database, {
  environment: {
    QUIRE_REQUEST_MEMORY_MB: '1',
    QUIRE_ANALYTICS_RETENTION_MONTHS: '1200',
    QUIRE_TRUSTED_PROXIES: '127.0.0.1',
  },
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

/** Requests a test opened: whatever a failing test left open is closed after it. */
const opened = new Set<http.ClientRequest>();
afterEach(() => {
  for (const request of opened) request.destroy();
  opened.clear();
});

/**
 * A request whose body is sent when the test says: `send` part of it, `finish` it, or `leave`.
 * With a `key`, its bearer; with a `client`, the address the proxy in front says it came from.
 */
function openRequest(url: string, body: Buffer, from: { key?: string; client?: string }) {
  let sent = 0;
  const request = http.request({
    host: '127.0.0.1',
    port,
    method: 'POST',
    path: url,
    headers: {
      ...(from.key === undefined ? {} : bearer(from.key)),
      ...(from.client === undefined ? {} : { 'x-forwarded-for': from.client }),
      'content-type': 'application/json',
      'content-length': body.length,
    },
  });
  opened.add(request);
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
    openRequest(events, batch(path, bytes), { key: withKey });
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

describe('one holder holds at most a quarter of the budget', () => {
  /** A project whose batches are posted with its key. */
  async function projectPosting() {
    const { project, key } = await buildProjectWithKey(database.pool);
    const events = `/v1/analytics/${project.id}/events`;
    return {
      project,
      post: (path: string, bytes: number) => openRequest(events, batch(path, bytes), { key }),
      views: () => totalViews(project.id, key),
    };
  }

  it("a project's next body waits for its own, while another project's goes ahead", async () => {
    const busy = await projectPosting();
    const first = busy.post('/docs/first', 200_000);
    first.send(1000);
    await eventually(async () => app.bodyMemory.used === 200_000);
    // 400 KB fit the budget, but not the busy project's 256 KiB share.
    const second = busy.post('/docs/second', 200_000);
    second.finish();
    const other = await projectPosting();
    const elsewhere = other.post('/docs/elsewhere', 200_000);
    elsewhere.finish();
    await answered(elsewhere, 202);
    assert.equal(await other.views(), 1);
    assert.equal(second.settled(), false, "the busy project's second body waits for its first");

    first.finish();
    await answered(first, 202);
    await answered(second, 202);
    assert.equal(await busy.views(), 2);
    await eventually(async () => app.bodyMemory.used === 0);
  });

  it('stalled webhook deliveries from one client, which need no key, leave the rest of the budget to others', async () => {
    const target = await projectPosting();
    const webhook = `/v1/hooks/${target.project.id}/github`;
    const delivery = (client: string) => openRequest(webhook, Buffer.alloc(300_000, ' '), { client });
    const stalled = delivery('2001:db8:1:2::a');
    stalled.send(1000);
    await eventually(async () => app.bodyMemory.used === 300_000);
    // The same /64: the same client, who waits for its own.
    const sameClient = delivery('2001:db8:1:2::b');
    sameClient.send(1000);
    const otherClient = delivery('2001:db8:1:3::a');
    otherClient.send(1000);
    await eventually(async () => app.bodyMemory.used === 600_000);

    // A batch the stalled deliveries would have kept out (300 + 300 + 300 + 400 KB > 1 MiB).
    const batchOf400 = target.post('/docs/batch', 400_000);
    batchOf400.finish();
    await answered(batchOf400, 202);
    assert.equal(await target.views(), 1);
    assert.equal(app.bodyMemory.used, 600_000);

    for (const request of [stalled, otherClient]) request.leave();
    // The waiting delivery is read once its client's first is gone: it has no signature.
    sameClient.finish();
    await answered(sameClient, 401);
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
