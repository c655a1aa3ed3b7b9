/**
 * Live log drains end to end: HTTP in, real PostgreSQL, then the export. Payloads follow the
 * providers' documented shapes: Vercel https://vercel.com/docs/drains/reference/logs (entry
 * fields and the `proxy` object), Cloudflare
 * https://developers.cloudflare.com/logs/reference/log-fields/zone/http_requests/ and
 * https://developers.cloudflare.com/logs/get-started/enable-destinations/http/ (gzipped NDJSON,
 * the `{"content":"tests"}` destination check), Netlify
 * https://docs.netlify.com/manage/monitoring/log-drains/ (traffic log records).
 */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { buildTestServices } from '../../../test/app.ts';
import { createTestDatabase } from '../../../test/database.ts';
import { bearer, buildProjectWithKey } from '../../../test/factories.ts';
import { insertApiKey } from '../../auth/api-key-store.ts';

const database = await createTestDatabase();
const { app, analytics } = await buildTestServices(database, {
  environment: { QUIRE_ANALYTICS_RETENTION_MONTHS: '1200' },
  // A batch waits this long for the drains' memory budget before its 429 (10 s when serving).
  drainWaitMilliseconds: 1000,
});
const chrome =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36';
const at = Date.parse('2026-05-01T12:00:00Z');

async function exportViews(projectId: string, key: string) {
  const response = await app.inject({
    method: 'GET',
    url: `/v1/analytics/${projectId}/views?dateFrom=2026-05-01&dateTo=2026-05-02`,
    headers: bearer(key),
  });
  assert.equal(response.statusCode, 200, response.body);
  return response.json() as { totals: { human: number; ai: number; total: number }; views: unknown[] };
}

/** The drained requests' unique visitors: every provider's client address makes a visitor. */
async function exportVisitors(projectId: string, key: string) {
  const response = await app.inject({
    method: 'GET',
    url: `/v1/analytics/${projectId}/visitors?dateFrom=2026-05-01&dateTo=2026-05-02`,
    headers: bearer(key),
  });
  assert.equal(response.statusCode, 200, response.body);
  return response.json() as { totals: { human: number; ai: number; total: number }; visitors: unknown[] };
}

function drain(
  provider: string,
  projectId: string,
  key: string | null,
  payload: string | Buffer,
  headers: Record<string, string> = {},
) {
  return app.inject({
    method: 'POST',
    url: `/v1/analytics/${projectId}/drains/${provider}`,
    headers: { ...(key === null ? {} : bearer(key)), 'content-type': 'application/json', ...headers },
    payload,
  });
}

/** Vercel entries: a static request, a function request with its runtime line, a build line. */
function vercelBatch() {
  const proxy = (path: string, userAgent: string, statusCode = 200) => ({
    timestamp: at,
    method: 'GET',
    scheme: 'https',
    host: 'docs.example.com',
    path,
    userAgent: [userAgent],
    referer: 'https://www.google.com/',
    statusCode,
    clientIp: '120.75.16.101',
    region: 'sfo1',
    vercelCache: 'HIT',
  });
  const common = {
    deploymentId: 'dpl_233NRGRjVZX1caZrXWtz5g1TAksD',
    projectId: 'gdufoJxB6b9b1fEqr1jUtFkyavUU',
    host: 'docs-abc123.vercel.app',
    level: 'info',
  };
  return [
    {
      ...common,
      id: '1573817187330377061717300000',
      source: 'build',
      timestamp: at,
      type: 'stdout',
      message: 'Build completed',
      buildId: 'bld_cotnkcr76',
    },
    {
      ...common,
      id: '1573817250283254651097202070',
      source: 'static',
      timestamp: at,
      requestId: '643af4e3-975a-4cc7-9e7a-1eda11539d90',
      statusCode: 200,
      path: '/docs/intro',
      proxy: proxy('/docs/intro?ref=x', chrome),
    },
    {
      ...common,
      id: '1573817250283254651097202071',
      source: 'lambda',
      timestamp: at + 40,
      requestId: 'a1b2c3d4-0000-4000-8000-000000000001',
      statusCode: 200,
      entrypoint: 'api/render.js',
      path: '/docs/guide',
      type: 'stdout',
      message: 'rendering /docs/guide',
      proxy: proxy(
        '/docs/guide',
        'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ChatGPT-User/1.0; +https://openai.com/bot)',
      ),
    },
    {
      ...common,
      id: '1573817250283254651097202072',
      source: 'lambda',
      timestamp: at + 55,
      requestId: 'a1b2c3d4-0000-4000-8000-000000000001',
      type: 'stdout',
      message: 'rendered in 12 ms',
      proxy: proxy(
        '/docs/guide',
        'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ChatGPT-User/1.0; +https://openai.com/bot)',
      ),
    },
    {
      ...common,
      id: '1573817250283254651097202073',
      source: 'lambda',
      timestamp: at + 60,
      requestId: 'a1b2c3d4-0000-4000-8000-000000000001',
      type: 'stderr',
      message: 'a warning without proxy',
    },
    {
      ...common,
      id: '1573817250283254651097202074',
      source: 'static',
      timestamp: at,
      requestId: 'b1b2c3d4-0000-4000-8000-000000000002',
      proxy: proxy('/favicon.ico', chrome),
    },
  ];
}

describe('POST /v1/analytics/:projectId/drains/vercel', () => {
  it('counts one view per request from json and ndjson deliveries, signed, and ignores retries', async () => {
    const { project, key } = await buildProjectWithKey(database.pool);
    await database.pool.query('UPDATE projects SET settings = $2 WHERE id = $1', [
      project.id,
      { analyticsVercelDrainSecret: 'drain-secret', analyticsVercelVerifyCode: 'verify-123' },
    ]);
    const body = JSON.stringify(vercelBatch());
    const sign = (payload: string) => createHmac('sha1', 'drain-secret').update(payload).digest('hex');
    const first = await drain('vercel', project.id, key, body, { 'x-vercel-signature': sign(body) });
    assert.equal(first.statusCode, 200, first.body);
    assert.equal(first.headers['x-vercel-verify'], 'verify-123');
    assert.deepEqual(first.json(), { accepted: 2, alreadyStored: 1, skipped: 3 });
    // Vercel retries the same entries, as NDJSON this time: nothing new.
    const ndjson = vercelBatch()
      .map((entry) => JSON.stringify(entry))
      .join('\n');
    const retry = await drain('vercel', project.id, key, ndjson, {
      'x-vercel-signature': sign(ndjson),
      'content-type': 'application/x-ndjson',
    });
    assert.deepEqual(retry.json(), { accepted: 0, alreadyStored: 3, skipped: 3 });
    const views = await exportViews(project.id, key);
    assert.deepEqual(views.totals, { human: 1, ai: 1, total: 2 });
    // proxy.clientIp: one address with two user agents is two visitors, the retry adds none.
    assert.deepEqual((await exportVisitors(project.id, key)).totals, { human: 1, ai: 1, total: 2 });

    const unsigned = await drain('vercel', project.id, key, body);
    assert.equal(unsigned.statusCode, 403);
    const forged = await drain('vercel', project.id, key, body, { 'x-vercel-signature': sign(`${body} `) });
    assert.equal(forged.statusCode, 403);
    assert.match(forged.json().error, /x-vercel-signature/);
    const verification = await app.inject({
      method: 'GET',
      url: `/v1/analytics/${project.id}/drains/vercel`,
    });
    assert.equal(verification.statusCode, 200);
    assert.equal(verification.headers['x-vercel-verify'], 'verify-123');
  });
});

describe('POST /v1/analytics/:projectId/drains/cloudflare', () => {
  const record = (rayId: string, path: string, userAgent: string, extra: Record<string, unknown> = {}) => ({
    ClientIP: '198.51.100.7',
    ClientRequestHost: 'docs.example.com',
    ClientRequestMethod: 'GET',
    ClientRequestURI: path,
    ClientRequestPath: path.split('?')[0],
    ClientRequestUserAgent: userAgent,
    ClientRequestReferer: '',
    EdgeResponseStatus: 200,
    EdgeStartTimestamp: (at + 1000) * 1e6,
    EdgeEndTimestamp: (at + 1010) * 1e6,
    RayID: rayId,
    ...extra,
  });

  it('takes gzipped NDJSON, answers the destination check, and counts a RayID once', async () => {
    const { project, key } = await buildProjectWithKey(database.pool);
    const check = await drain('cloudflare', project.id, key, gzipSync('{"content":"tests"}'), {
      'content-type': 'text/plain',
    });
    assert.equal(check.statusCode, 200, check.body);
    assert.deepEqual(check.json(), { accepted: 0, alreadyStored: 0, skipped: 0 });
    const lines = [
      record('7d4f3c1a9b2e0001', '/docs/intro?x=1', chrome),
      record(
        '7d4f3c1a9b2e0002',
        '/docs/intro.md',
        'Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)',
        {
          RequestHeaders: { accept: 'text/markdown', 'signature-agent': '"https://chatgpt.com"' },
          VerifiedBotCategory: 'AI Crawler',
        },
      ),
      record('7d4f3c1a9b2e0003', '/docs/intro', 'evil\u0007agent'),
      record('7d4f3c1a9b2e0004', '/docs/intro', chrome, { ClientRequestMethod: 'POST' }),
    ];
    const body = gzipSync(`${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
    const first = await drain('cloudflare', project.id, key, body, {
      'content-type': 'application/json',
      'content-encoding': 'identity',
    });
    assert.equal(first.statusCode, 200, first.body);
    assert.deepEqual(first.json(), { accepted: 2, alreadyStored: 0, skipped: 2 });
    const retry = await drain('cloudflare', project.id, key, body);
    assert.deepEqual(retry.json(), { accepted: 0, alreadyStored: 2, skipped: 2 });
    const views = await exportViews(project.id, key);
    assert.deepEqual(views.totals, { human: 1, ai: 0, total: 1 });
    // ClientIP: the person is a visitor; the training crawler is no AI visitor by default.
    assert.deepEqual((await exportVisitors(project.id, key)).totals, { human: 1, ai: 0, total: 1 });
    const agents = await database.pool.query(
      'SELECT category, count(*)::int AS views FROM analytics_page_views WHERE project_id = $1 GROUP BY 1 ORDER BY 1',
      [project.id],
    );
    assert.deepEqual(agents.rows, [
      { category: 'ai_training', views: 1 },
      { category: 'human', views: 1 },
    ]);
  });

  it('refuses bad bodies with 4xx and stores nothing', async () => {
    const { project, key } = await buildProjectWithKey(database.pool);
    const cases: Array<[string | Buffer, number, RegExp]> = [
      ['this is not json', 400, /JSON/],
      ['[{"RayID": "1", ', 400, /JSON array/],
      ['{"a":1}', 200, /skipped/],
      [gzipSync('x').subarray(0, 8), 400, /gzip/],
      [Buffer.alloc(17 * 1024 * 1024, 0x20), 413, /too large/i],
    ];
    for (const [payload, status, pattern] of cases) {
      const response = await drain('cloudflare', project.id, key, payload);
      assert.equal(response.statusCode, status, response.body);
      assert.match(response.body, pattern);
      if (status >= 400) assert.deepEqual(Object.keys(response.json()), ['error']);
    }
    // A decompression bomb: small on the wire, over the limit once inflated.
    const bomb = gzipSync(Buffer.alloc(65 * 1024 * 1024, 0x20));
    const refused = await drain('cloudflare', project.id, key, bomb);
    assert.equal(refused.statusCode, 413, refused.body);
    assert.equal((await drain('cloudflare', project.id, null, '{}')).statusCode, 401);
    const { key: otherKey } = await buildProjectWithKey(database.pool);
    assert.equal((await drain('cloudflare', project.id, otherKey, '{}')).statusCode, 403);
    const stored = await database.pool.query(
      'SELECT count(*)::int AS count FROM analytics_page_views WHERE project_id = $1',
      [project.id],
    );
    assert.equal(stored.rows[0].count, 0);
  });
});

describe('POST /v1/analytics/:projectId/drains/netlify', () => {
  it('counts traffic records once by request_id, with the key in a header or the URL', async () => {
    const { project, key } = await buildProjectWithKey(database.pool, { scopes: ['ingest'] });
    const traffic = (requestId: string, url: string, userAgent: string) => ({
      log_type: 'traffic',
      request_id: requestId,
      method: 'GET',
      url,
      status_code: 200,
      timestamp: '2026-05-01T12:00:02.123Z',
      client_ip: '203.0.113.50',
      user_agent: userAgent,
      referrer: 'https://chatgpt.com/',
      content_type: 'text/html',
      duration: 12,
      request_size: 512,
      response_size: 20480,
      site_id: 'b1a2c3d4-e5f6-4000-8000-000000000000',
      deploy_id: '64f0c0ffee0000000000abcd',
    });
    const records = [
      traffic('01HZXKJ3Q5ZB2M8V7RSEXAMPLE', 'https://docs.example.com/docs/intro', chrome),
      traffic('01HZXKJ3Q5ZB2M8V7RSEXAMPL2', 'https://docs.example.com/docs/intro.md', 'Claude-User/1.0'),
      {
        log_type: 'functions',
        request_id: '01HZXKJ3Q5ZB2M8V7RSEXAMPL2',
        message: 'hello',
        timestamp: '2026-05-01T12:00:02.200Z',
      },
    ];
    const json = await drain('netlify', project.id, key, JSON.stringify(records));
    assert.equal(json.statusCode, 200, json.body);
    assert.deepEqual(json.json(), { accepted: 2, alreadyStored: 0, skipped: 1 });
    const ndjson = records.map((record) => JSON.stringify(record)).join('\n');
    const viaQuery = await app.inject({
      method: 'POST',
      // Netlify adds the drain's tags as query parameters (its log drains page, "Tags").
      url: `/v1/analytics/${project.id}/drains/netlify?key=${encodeURIComponent(key)}&env=prod&service=docs`,
      headers: { 'content-type': 'application/x-ndjson' },
      payload: ndjson,
    });
    assert.equal(viaQuery.statusCode, 200, viaQuery.body);
    assert.deepEqual(viaQuery.json(), { accepted: 0, alreadyStored: 2, skipped: 1 });
    // Only Netlify's route takes a key in the URL.
    const elsewhere = await app.inject({
      method: 'POST',
      url: `/v1/analytics/${project.id}/drains/cloudflare?key=${encodeURIComponent(key)}`,
      payload: '{}',
    });
    assert.equal(elsewhere.statusCode, 401);
    const reader = await insertApiKey(database.pool, {
      projectId: project.id,
      name: 'reader',
      scopes: ['read'],
    });
    const views = await exportViews(project.id, reader.secret);
    assert.deepEqual(views.totals, { human: 1, ai: 1, total: 2 });
    // client_ip: a visitor per user agent.
    assert.deepEqual((await exportVisitors(project.id, reader.secret)).totals, { human: 1, ai: 1, total: 2 });
  });

  it('skips a record with a control character, escaped or a raw DEL, and keeps the others', async () => {
    const { project, key } = await buildProjectWithKey(database.pool, { scopes: ['ingest', 'read'] });
    const traffic = (requestId: string, userAgent: string) => ({
      log_type: 'traffic',
      request_id: requestId,
      method: 'GET',
      url: 'https://docs.example.com/docs/intro',
      status_code: 200,
      timestamp: '2026-05-01T12:00:02.123Z',
      client_ip: '203.0.113.51',
      user_agent: userAgent,
    });
    const ndjson = [
      traffic('01HZXKJ3Q5ZB2M8V7RSCONTRL1', `${chrome}\u0001`),
      traffic('01HZXKJ3Q5ZB2M8V7RSCONTRL2', `${chrome}\u007f`),
      traffic('01HZXKJ3Q5ZB2M8V7RSCONTRL3', chrome),
    ]
      .map((record) => JSON.stringify(record))
      .join('\n');
    assert.ok(ndjson.includes('\u007f'), 'JSON.stringify leaves DEL raw');
    const response = await drain('netlify', project.id, key, ndjson);
    assert.equal(response.statusCode, 200, response.body);
    assert.deepEqual(response.json(), { accepted: 1, alreadyStored: 0, skipped: 2 });
    assert.deepEqual((await exportViews(project.id, key)).totals, { human: 1, ai: 0, total: 1 });
    // Without its escaped neighbour, a raw DEL alone is still found.
    const alone = await drain(
      'netlify',
      project.id,
      key,
      JSON.stringify(traffic('01HZXKJ3Q5ZB2M8V7RSCONTRL4', `${chrome}\u007f`)),
    );
    assert.deepEqual(alone.json(), { accepted: 0, alreadyStored: 0, skipped: 1 });
  });
});

describe('large drained batches', () => {
  // Over 48 KiB, a body is read record by record from its bytes (drain-body.ts), and a gzipped one
  // stays in zlib's 256 KiB chunks, so records run across chunk boundaries here.
  it('count as small ones do: every request once, retries stored once, bad records skipped', async () => {
    const { project, key } = await buildProjectWithKey(database.pool);
    const base = vercelBatch()[1] as Record<string, unknown> & { proxy: Record<string, unknown> };
    const vercel = Array.from({ length: 400 }, (_, index) => ({
      ...base,
      id: `15738172502832546510972${String(index).padStart(5, '0')}`,
      requestId: `large-${index}`,
      // A runtime line's text may hold the very separator the reader cuts arrays at.
      ...(index === 7 ? { message: 'rendered {"a":1},{"b":2} in 12 ms' } : {}),
      proxy: { ...base.proxy, path: `/docs/page-${index}` },
    }));
    const vercelBody = JSON.stringify(vercel);
    assert.ok(vercelBody.length > 128 * 1024);
    const first = await drain('vercel', project.id, key, vercelBody);
    assert.deepEqual(first.json(), { accepted: 400, alreadyStored: 0, skipped: 0 });

    const cloudflare = Array.from({ length: 1500 }, (_, index) =>
      JSON.stringify({
        ClientIP: '198.51.100.7',
        ClientRequestHost: 'docs.example.com',
        ClientRequestMethod: 'GET',
        ClientRequestURI: `/docs/page-${index}`,
        ClientRequestUserAgent: index === 3 ? `${chrome}\u0007` : chrome,
        ClientRequestReferer: 'https://www.example.org/some/long/referring/page/that/pads/the/record',
        EdgeResponseStatus: 200,
        EdgeStartTimestamp: (at + 2000 + index) * 1e6,
        RayID: `8e5a0c1b2d3f${String(index).padStart(4, '0')}`,
      }),
    );
    const inflated = `${cloudflare.join('\n')}\n`;
    assert.ok(inflated.length > 2 * 256 * 1024);
    const body = gzipSync(inflated);
    const logpush = await drain('cloudflare', project.id, key, body);
    assert.deepEqual(logpush.json(), { accepted: 1499, alreadyStored: 0, skipped: 1 });
    const retry = await drain('cloudflare', project.id, key, body);
    assert.deepEqual(retry.json(), { accepted: 0, alreadyStored: 1499, skipped: 1 });
    assert.deepEqual((await exportViews(project.id, key)).totals, { human: 1899, ai: 0, total: 1899 });
  });

  it('store nothing of a JSON array found damaged after its first thousands of entries', async () => {
    const { project, key } = await buildProjectWithKey(database.pool);
    const base = vercelBatch()[1] as Record<string, unknown> & { proxy: Record<string, unknown> };
    const entries = Array.from({ length: 12_000 }, (_, index) =>
      JSON.stringify({
        ...base,
        id: `15738172502832546510972${String(index).padStart(5, '0')}`,
        requestId: `damaged-${index}`,
        proxy: { ...base.proxy, path: `/docs/page-${index}` },
      }),
    );
    // Read in pieces, the array is known to be none only at its last entry.
    const damaged = `[${entries.join(',')},{"id": oops}]`;
    const response = await drain('vercel', project.id, key, damaged);
    assert.equal(response.statusCode, 400, response.body);
    assert.deepEqual((await exportViews(project.id, key)).totals, { human: 0, ai: 0, total: 0 });
    const whole = await drain('vercel', project.id, key, `[${entries.join(',')}]`);
    assert.deepEqual(whole.json(), { accepted: 12_000, alreadyStored: 0, skipped: 0 });
  });

  it('wait for the memory other batches hold, and are read once it is given back', async () => {
    const { project, key } = await buildProjectWithKey(database.pool);
    const body = gzipSync(
      `${JSON.stringify({
        ClientIP: '198.51.100.7',
        ClientRequestMethod: 'GET',
        ClientRequestURI: '/docs/waited',
        ClientRequestUserAgent: chrome,
        EdgeResponseStatus: 200,
        EdgeStartTimestamp: (at + 3000) * 1e6,
        RayID: '8e5a0c1b2d3fffff',
      })}\n`,
    );
    // All of the budget (QUIRE_DRAIN_MEMORY_MB, 128 MiB here), as other batches being read would hold it.
    const held = await analytics.drainMemory.reserve(128 * 1024 * 1024);
    let answered = false;
    const waiting = drain('cloudflare', project.id, key, body).then((response) => {
      answered = true;
      return response;
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(answered, false);
    assert.deepEqual((await exportViews(project.id, key)).totals, { human: 0, ai: 0, total: 0 });
    held.release();
    const response = await waiting;
    assert.equal(response.statusCode, 200, response.body);
    assert.deepEqual(response.json(), { accepted: 1, alreadyStored: 0, skipped: 0 });
    assert.equal(analytics.drainMemory.used, 0);
  });

  it('are answered 429 with Retry-After when the memory stays held past the wait, storing nothing', async () => {
    const { project, key } = await buildProjectWithKey(database.pool);
    const body = `${JSON.stringify({
      ClientIP: '198.51.100.7',
      ClientRequestMethod: 'GET',
      ClientRequestURI: '/docs/refused',
      ClientRequestUserAgent: chrome,
      EdgeResponseStatus: 200,
      EdgeStartTimestamp: (at + 4000) * 1e6,
      RayID: '8e5a0c1b2d3feeee',
    })}\n`;
    const held = await analytics.drainMemory.reserve(128 * 1024 * 1024);
    try {
      const response = await drain('cloudflare', project.id, key, body);
      assert.equal(response.statusCode, 429, response.body);
      assert.equal(response.headers['retry-after'], '5');
      assert.match(response.json().error, /busy reading other drained batches/);
    } finally {
      held.release();
    }
    assert.deepEqual((await exportViews(project.id, key)).totals, { human: 0, ai: 0, total: 0 });
    const retried = await drain('cloudflare', project.id, key, body);
    assert.deepEqual(retried.json(), { accepted: 1, alreadyStored: 0, skipped: 0 });
  });
});

describe('the drains in the OpenAPI document', () => {
  it('lists every drain with its responses', async () => {
    const document = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
    for (const provider of ['vercel', 'cloudflare', 'netlify']) {
      const operation = document.paths[`/v1/analytics/{projectId}/drains/${provider}`]?.post;
      assert.ok(operation, provider);
      for (const status of ['200', '400', '401', '403', '413', '429'])
        assert.ok(operation.responses[status], `${provider} ${status}`);
    }
    assert.ok(document.paths['/v1/analytics/{projectId}/drains/vercel'].get.responses['200']);
  });
});
