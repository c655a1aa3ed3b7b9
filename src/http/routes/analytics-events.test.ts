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

  it('reads a large batch element by element and judges it as a small one: valid stored, bad refused', async () => {
    // Over 48 KiB, a plain body of this shape is read element by element (json-body.ts).
    const events = Array.from({ length: 1000 }, (_, index) => ({
      path: `/docs/large-batch-${index}`,
      timestamp: '2026-03-03T10:00:00Z',
      userAgent: chrome,
    }));
    assert.ok(JSON.stringify({ events }).length > 64 * 1024);
    const before = await storedCount();
    const response = await post({ events });
    assert.equal(response.statusCode, 202, response.body);
    assert.deepEqual(response.json(), { accepted: 1000, skipped: 0 });
    assert.equal(await storedCount(), before + 1000);
    const bad = await post({ events: [...events.slice(1), { path: 42 }] });
    assert.equal(bad.statusCode, 400, bad.body);
    assert.equal(bad.json().error, 'Invalid body');
    assert.deepEqual(bad.json().details, [{ message: 'body.events.999.path must be string' }]);
    // A quote missing in the middle: the piece fails, and so does the whole text.
    const broken = await post(
      JSON.stringify({ events }).replace('"/docs/large-batch-500"', '"/docs/large-batch-500'),
    );
    assert.equal(broken.statusCode, 400, broken.body);
    assert.equal(await storedCount(), before + 1000);
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

  it('reads signals from allowed headers, method and host: agents behind browser user agents are not people', async () => {
    const response = await post({
      events: [
        // ChatGPT agent: a Chrome user agent, signed with Web Bot Auth.
        {
          path: '/signals/signed',
          timestamp: '2026-03-03T10:00:00Z',
          method: 'GET',
          host: 'docs.example.com',
          headers: {
            'user-agent': chrome,
            'signature-agent': '"https://chatgpt.com"',
            'signature-input': 'sig1=("@authority" "signature-agent");created=1;keyid="k";tag="web-bot-auth"',
            signature: 'sig1=:AAAA:',
          },
        },
        // A fetcher with a browser user agent that prefers Markdown.
        {
          path: '/signals/markdown',
          timestamp: '2026-03-03T10:01:00Z',
          userAgent: chrome,
          headers: { accept: 'text/markdown, text/html;q=0.9', 'sec-ch-ua': '"Chromium";v="138"' },
        },
        {
          path: '/signals/person',
          timestamp: '2026-03-03T10:02:00Z',
          headers: { 'user-agent': chrome, from: 'x' },
        },
        { path: '/signals/form', timestamp: '2026-03-03T10:03:00Z', userAgent: chrome, method: 'POST' },
        {
          path: '/signals/head',
          timestamp: '2026-03-03T10:04:00Z',
          userAgent: chrome,
          method: 'head',
          host: '[2001:db8::1]:8443',
        },
      ],
    });
    assert.equal(response.statusCode, 202, response.body);
    assert.deepEqual(response.json(), { accepted: 4, skipped: 1 });
    const rows = await database.pool.query(
      `SELECT path, category, agent, signature_agent, verified FROM analytics_page_views
       WHERE project_id = $1 AND path LIKE '/signals/%' ORDER BY occurred_at`,
      [project.id],
    );
    assert.deepEqual(
      rows.rows.map((row) => [row.path, row.category, row.agent, row.signature_agent, row.verified]),
      [
        ['/signals/signed', 'ai_assistant', 'ChatGPT-Agent', 'chatgpt.com', false],
        ['/signals/markdown', 'ai_assistant', 'unknown (browser user agent)', null, false],
        ['/signals/person', 'human', null, null, false],
        ['/signals/head', 'human', null, null, false],
      ],
    );
  });

  it('refuses headers off the allow-list, bad methods and hosts, and control characters in any field', async () => {
    const before = await storedCount();
    // Control characters other than tab, CR and LF are refused by the one input rule of every route
    // (src/http/input-rules.ts); CR and LF, allowed in body text in general, by the event's own rule.
    const cases: Array<[unknown, RegExp]> = [
      [{ path: '/a', headers: { cookie: 'secret' } }, /unknown property \\"cookie/],
      [{ path: '/a', headers: { Accept: 'text/html' } }, /unknown property \\"Accept/],
      [{ path: '/a', headers: { accept: 5 } }, /must be string/],
      [{ path: '/a', headers: { signature: 's'.repeat(5000) } }, /must NOT have more than 4096/],
      [{ path: '/a', method: 'GET /evil' }, /must match pattern/],
      [{ path: '/a', host: 'evil.example/path' }, /must match pattern/],
      [{ path: '/a', userAgent: 'Mozilla/5.0\r\nX-Forged: 1' }, /userAgent contains a control character/],
      [
        { path: '/a', headers: { 'signature-agent': '"https://x.example"\u0000' } },
        /headers.signature-agent (contains a control character|must not contain control characters)/,
      ],
      [{ path: '/a\u0007' }, /path (contains a control character|must not contain control characters)/],
      [
        { path: '/a', referrer: 'https://x.example/\u001b[31m' },
        /referrer (contains a control character|must not contain control characters)/,
      ],
      // JSON.stringify leaves DEL unescaped: a body without escape sequences is still searched for it.
      [{ path: '/a', userAgent: 'Mozilla/5.0\u007f' }, /userAgent contains a control character/],
      [{ path: '/a', userAgent: 'Mozilla/5.0 \ud800' }, /userAgent is not valid Unicode text/],
    ];
    for (const [event, message] of cases) {
      const response = await post({ events: [event] });
      assert.equal(
        response.statusCode,
        400,
        `${JSON.stringify(event).slice(0, 80)}: ${response.body.slice(0, 200)}`,
      );
      assert.match(response.body, message, JSON.stringify(event).slice(0, 80));
      assert.ok(response.json().error);
    }
    assert.equal(await storedCount(), before);
  });

  it('documents the signal fields in the OpenAPI document', async () => {
    const document = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const body =
      document.paths['/v1/analytics/{projectId}/events'].post.requestBody.content['application/json'].schema;
    const event = body.properties.events.items;
    assert.ok(event.properties.method && event.properties.host);
    assert.deepEqual(Object.keys(event.properties.headers.properties).sort(), [
      'accept',
      'from',
      'referer',
      'sec-ch-ua',
      'signature',
      'signature-agent',
      'signature-input',
      'user-agent',
    ]);
    assert.equal(event.properties.headers.additionalProperties, false);
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
