import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildTestApp } from '../../../test/app.ts';
import { createTestDatabase } from '../../../test/database.ts';
import { bearer, buildProjectWithKey } from '../../../test/factories.ts';

const database = await createTestDatabase();
// Fixed dates in these tests must not fall out of retention as the years pass.
const app = await buildTestApp(database, { environment: { QUIRE_ANALYTICS_RETENTION_MONTHS: '1200' } });
const { project, key } = await buildProjectWithKey(database.pool);
const chrome =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36';

function post(body: unknown, options: { key?: string; projectId?: string; contentType?: string } = {}) {
  return app.inject({
    method: 'POST',
    url: `/v1/analytics/${options.projectId ?? project.id}/events`,
    headers: { ...bearer(options.key ?? key), 'content-type': options.contentType ?? 'application/json' },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

async function storedCount(): Promise<number> {
  const result = await database.pool.query<{ count: number }>(
    'SELECT count(*) AS count FROM analytics_page_views WHERE project_id = $1',
    [project.id],
  );
  return result.rows[0]?.count ?? 0;
}

describe('POST /v1/analytics/:projectId/events', () => {
  it('stores valid page views, skips assets and errors, and answers 202 after commit', async () => {
    const before = await storedCount();
    const response = await post({
      events: [
        {
          path: 'https://docs.example.com/docs/intro?utm=1',
          timestamp: '2026-03-01T10:00:00Z',
          userAgent: chrome,
        },
        { path: '/docs/intro.md', timestamp: '2026-03-01T10:05:00+01:00', userAgent: 'curl/8.5.0' },
        {
          path: '/docs/a',
          timestamp: Date.parse('2026-03-02T00:00:00Z'),
          userAgent: 'GPTBot/1.2',
          status: 304,
        },
        { path: '/logo.png', userAgent: chrome },
        { path: '/missing', userAgent: chrome, status: 404 },
        { path: '/docs/b', ip: '2001:db8::1', referrer: 'https://www.google.com/', accept: 'text/html' },
      ],
    });
    assert.equal(response.statusCode, 202, response.body);
    assert.deepEqual(response.json(), { accepted: 4, skipped: 2 });
    assert.equal(await storedCount(), before + 4);
    const rows = await database.pool.query(
      `SELECT path, category, agent, referrer_host FROM analytics_page_views WHERE project_id = $1 ORDER BY occurred_at`,
      [project.id],
    );
    assert.deepEqual(
      rows.rows.slice(0, 3).map((row) => [row.path, row.category, row.agent]),
      [
        ['/docs/intro', 'ai_assistant', 'curl'],
        ['/docs/intro', 'human', null],
        ['/docs/a', 'ai_training', 'GPTBot'],
      ],
    );
    assert.equal(rows.rows.at(-1)?.referrer_host, 'www.google.com');
  });

  it('skips views older than the retention period', async () => {
    const shortRetention = await buildTestApp(database, {
      environment: { QUIRE_ANALYTICS_RETENTION_MONTHS: '2' },
    });
    const old = new Date(Date.now() - 120 * 24 * 3600 * 1000).toISOString();
    const response = await shortRetention.inject({
      method: 'POST',
      url: `/v1/analytics/${project.id}/events`,
      headers: bearer(key),
      payload: { events: [{ path: '/old', timestamp: old }, { path: '/recent' }] },
    });
    assert.equal(response.statusCode, 202, response.body);
    assert.deepEqual(response.json(), { accepted: 1, skipped: 1 });
    await shortRetention.close();
  });

  it('refuses the whole batch when any event is bad, naming each bad index', async () => {
    const before = await storedCount();
    const response = await post({
      events: [
        { path: '/fine' },
        { path: 'no-slash' },
        { path: '/x', timestamp: 'yesterday' },
        { path: '/y', ip: 'not-an-ip' },
        { path: '/z%zz' },
        { path: '/future', timestamp: '2999-01-01T00:00:00Z' },
      ],
    });
    assert.equal(response.statusCode, 400);
    const body = response.json();
    assert.match(body.error, /5 of 6 events are invalid/);
    assert.deepEqual(
      body.details.map((detail: { message: string }) => detail.message.match(/^events\[(\d+)\]/)?.[1]),
      ['1', '2', '3', '4', '5'],
    );
    assert.equal(await storedCount(), before);
  });

  it('answers hostile bodies with a 4xx and stores nothing', async () => {
    const before = await storedCount();
    const cases: Array<[unknown, number, RegExp]> = [
      ['{"events": [', 400, /not valid JSON/],
      ['', 400, /empty|JSON/],
      [[], 400, /Invalid body/],
      [{ events: [] }, 400, /Invalid body/],
      [{ events: 'x' }, 400, /Invalid body/],
      [{ events: [{}] }, 400, /path is required/],
      [{ events: [{ path: 5 }] }, 400, /must be string/],
      [{ events: [{ path: '/a', status: '200' }] }, 400, /must be integer/],
      [{ events: [{ path: '/a', extra: true }] }, 400, /unknown property \\"extra/],
      [{ events: [{ path: `/${'a'.repeat(100_000)}` }] }, 400, /must NOT have more than/],
      [{ events: [{ path: '/a', userAgent: 'u'.repeat(100_000) }] }, 400, /must NOT have more than/],
      [{ events: Array.from({ length: 1001 }, () => ({ path: '/a' })) }, 400, /must NOT have more than 1000/],
      [{ events: [{ path: '/a' }], more: 1 }, 400, /unknown property/],
    ];
    for (const [body, status, message] of cases) {
      const response = await post(body as object);
      assert.equal(
        response.statusCode,
        status,
        `${JSON.stringify(body).slice(0, 80)}: ${response.body.slice(0, 200)}`,
      );
      assert.match(response.body, message, JSON.stringify(body).slice(0, 80));
    }
    const huge = await post(JSON.stringify({ events: [{ path: `/${'a'.repeat(10 * 1024 * 1024)}` }] }));
    assert.equal(huge.statusCode, 413);
    const wrongType = await post('path=/a', { contentType: 'text/plain' });
    assert.equal(wrongType.statusCode, 415);
    assert.equal(await storedCount(), before);
  });

  it('needs a key with write or ingest scope for this project', async () => {
    const readOnly = await buildProjectWithKey(database.pool, { scopes: ['read'] });
    const ingestOnly = await buildProjectWithKey(database.pool, { scopes: ['ingest'] });
    const body = { events: [{ path: '/a' }] };
    assert.equal((await post(body, { key: readOnly.key, projectId: readOnly.project.id })).statusCode, 403);
    assert.equal(
      (await post(body, { key: ingestOnly.key, projectId: ingestOnly.project.id })).statusCode,
      202,
    );
    assert.equal((await post(body, { key: ingestOnly.key })).statusCode, 403);
    assert.equal((await post(body, { key: 'quire_nope' })).statusCode, 401);
  });
});
