import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import vm from 'node:vm';
import { buildTestApp } from '../../../test/app.ts';
import { createTestDatabase } from '../../../test/database.ts';
import { buildProject } from '../../../test/factories.ts';
import { updateProjectSettings } from '../../projects/project-store.ts';

const database = await createTestDatabase();
const app = await buildTestApp(database);
const project = await buildProject(database.pool);
await updateProjectSettings(database.pool, project.id, {
  analyticsAllowedOrigins: ['https://docs.example.com'],
});
const chrome =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36';

function beacon(body: unknown, headers: Record<string, string> = {}, ip = '198.51.100.1') {
  return app.inject({
    method: 'POST',
    url: `/v1/analytics/${project.id}/beacon`,
    remoteAddress: ip,
    headers: {
      origin: 'https://docs.example.com',
      'content-type': 'text/plain;charset=UTF-8',
      'user-agent': chrome,
      ...headers,
    },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

async function stored(): Promise<Array<{ path: string; category: string; referrer_host: string | null }>> {
  const result = await database.pool.query(
    'SELECT path, category, referrer_host FROM analytics_page_views WHERE project_id = $1 ORDER BY occurred_at',
    [project.id],
  );
  return result.rows;
}

describe('tracker', () => {
  it('serves a small script that posts to the beacon endpoint', async () => {
    const response = await app.inject({ method: 'GET', url: '/script.js' });
    assert.equal(response.statusCode, 200);
    assert.match(response.headers['content-type'] as string, /javascript/);
    assert.match(response.body, /\/beacon/);
    assert.match(response.body, /pushState/);
    assert.doesNotMatch(response.body, /document\.cookie|localStorage|sessionStorage/);
    assert.ok(response.body.length < 4096);
  });

  it('sends one beacon per page, including single-page-app navigations', async () => {
    const script = (await app.inject({ method: 'GET', url: '/script.js' })).body;
    const sent: Array<{ endpoint: string; body: { url: string; referrer: string } }> = [];
    const listeners: Record<string, () => void> = {};
    const location = { href: 'https://docs.example.com/docs/intro?x=1', pathname: '/docs/intro' };
    const navigate = (href: string) => {
      location.href = href;
      location.pathname = new URL(href).pathname;
    };
    const context = {
      document: {
        currentScript: {
          src: 'https://quire.example.com/script.js',
          getAttribute: (name: string) => (name === 'data-project' ? 'prj_abc' : null),
        },
        referrer: 'https://www.google.com/',
        visibilityState: 'visible',
        addEventListener() {},
      },
      location,
      history: {
        pushState: (_state: unknown, _title: string, href: string) => navigate(href),
        replaceState: (_state: unknown, _title: string, href: string) => navigate(href),
      },
      navigator: {
        sendBeacon: (endpoint: string, body: string) => sent.push({ endpoint, body: JSON.parse(body) }) > 0,
      },
      addEventListener: (name: string, listener: () => void) => {
        listeners[name] = listener;
      },
      URL,
      JSON,
      encodeURIComponent,
    };
    vm.runInNewContext(script, context);
    context.history.pushState(null, '', 'https://docs.example.com/docs/guide');
    context.history.replaceState(null, '', 'https://docs.example.com/docs/guide#section');
    navigate('https://docs.example.com/docs/intro');
    listeners.popstate?.();
    assert.deepEqual(
      sent.map((beacon) => [beacon.body.url, beacon.body.referrer]),
      [
        ['https://docs.example.com/docs/intro?x=1', 'https://www.google.com/'],
        ['https://docs.example.com/docs/guide', 'https://docs.example.com/docs/intro?x=1'],
        // A same-page navigation is no new view; the referrer is the last page recorded.
        ['https://docs.example.com/docs/intro', 'https://docs.example.com/docs/guide'],
      ],
    );
    assert.equal(sent[0]?.endpoint, 'https://quire.example.com/v1/analytics/prj_abc/beacon');
  });

  it('records a beacon from an allowed origin, without the IP, with CORS headers', async () => {
    const response = await beacon({
      url: 'https://docs.example.com/docs/intro/?q=1',
      referrer: 'https://www.google.com/',
    });
    assert.equal(response.statusCode, 202, response.body);
    assert.equal(response.headers['access-control-allow-origin'], 'https://docs.example.com');
    assert.equal(response.headers['set-cookie'], undefined);
    assert.deepEqual(await stored(), [
      { path: '/docs/intro', category: 'human', referrer_host: 'www.google.com' },
    ]);
    const columns = await database.pool.query(
      "SELECT column_name FROM information_schema.columns WHERE table_name = 'analytics_page_views'",
    );
    assert.ok(!columns.rows.some((row) => /ip|address/.test(row.column_name)), 'no column holds an IP');
    const json = await beacon(
      { url: 'https://docs.example.com/docs/b' },
      { 'content-type': 'application/json' },
    );
    assert.equal(json.statusCode, 202);
  });

  it('answers the CORS preflight for allowed origins only', async () => {
    const allowed = await app.inject({
      method: 'OPTIONS',
      url: `/v1/analytics/${project.id}/beacon`,
      headers: { origin: 'https://docs.example.com', 'access-control-request-method': 'POST' },
    });
    assert.equal(allowed.statusCode, 204);
    assert.equal(allowed.headers['access-control-allow-origin'], 'https://docs.example.com');
    const refused = await app.inject({
      method: 'OPTIONS',
      url: `/v1/analytics/${project.id}/beacon`,
      headers: { origin: 'https://evil.example' },
    });
    assert.equal(refused.statusCode, 403);
  });

  it('refuses other origins, foreign pages and bad bodies, storing nothing', async () => {
    const before = (await stored()).length;
    const cases: Array<[Promise<{ statusCode: number }>, number]> = [
      [beacon({ url: 'https://docs.example.com/a' }, { origin: 'https://evil.example' }), 403],
      [beacon({ url: 'https://docs.example.com/a' }, { origin: '' }), 403],
      [
        app.inject({
          method: 'POST',
          url: '/v1/analytics/prj_unknown/beacon',
          headers: { origin: 'https://docs.example.com', 'content-type': 'text/plain' },
          payload: '{"url":"https://docs.example.com/a"}',
        }),
        403,
      ],
      [beacon({ url: 'https://evil.example/a' }), 400],
      [beacon({ url: 'https://docs.example.com/a\u0000' }), 400],
      [beacon('not json'), 400],
      [beacon({ url: 'https://docs.example.com/a', extra: 1 }), 400],
      [beacon({ url: `https://docs.example.com/${'a'.repeat(100_000)}` }), 413],
    ];
    for (const [response, status] of cases) assert.equal((await response).statusCode, status);
    assert.equal((await stored()).length, before);
  });

  it('rate-limits each client address, whatever its user agent', async () => {
    let limited = 0;
    // 300 beacons span at most two fixed windows of 120, so at least 60 are refused.
    for (let index = 0; index < 300; index += 1) {
      const userAgent = `${chrome} variant/${index}`;
      const response = await beacon(
        { url: `https://docs.example.com/p/${index}` },
        { 'user-agent': userAgent },
        '192.0.2.77',
      );
      if (response.statusCode === 429) {
        limited += 1;
        assert.ok(Number(response.headers['retry-after']) >= 1);
      }
    }
    assert.ok(limited >= 60, `${limited} limited`);
    const other = await beacon({ url: 'https://docs.example.com/other' }, {}, '192.0.2.78');
    assert.equal(other.statusCode, 202);
    // X-Forwarded-For is not believed from a peer that is not a trusted proxy. The window may have
    // turned over during the loop: use up the current one first, so the next beacon is refused.
    for (let index = 0; index < 130; index += 1) {
      const response = await beacon({ url: 'https://docs.example.com/fill' }, {}, '192.0.2.77');
      if (response.statusCode === 429) break;
    }
    const forged = await beacon(
      { url: 'https://docs.example.com/forged' },
      { 'x-forwarded-for': '192.0.2.200' },
      '192.0.2.77',
    );
    assert.equal(forged.statusCode, 429);
  });

  it('believes X-Forwarded-For from QUIRE_TRUSTED_PROXIES only', async () => {
    const proxied = await buildTestApp(database, {
      environment: { QUIRE_TRUSTED_PROXIES: '10.0.0.0/8, ::1' },
      extraRoutes: [
        (routes) => void routes.get('/test/client-address', async (request) => ({ ip: request.ip })),
      ],
    });
    const send = async (remoteAddress: string, forwarded: string) =>
      (
        await proxied.inject({
          method: 'GET',
          url: '/test/client-address',
          remoteAddress,
          headers: { 'x-forwarded-for': forwarded },
        })
      ).json().ip;
    const seen = [
      await send('10.1.2.3', '203.0.113.9'),
      await send('192.0.2.5', '203.0.113.9'),
      await send('10.1.2.3', '203.0.113.9, 10.4.4.4'),
    ];
    assert.deepEqual(seen, ['203.0.113.9', '192.0.2.5', '203.0.113.9']);
  });
});
