import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, describe, it } from 'node:test';
import { buildTestApp } from '../../test/app.ts';
import { createTestDatabase } from '../../test/database.ts';
import { buildProjectWithKey } from '../../test/factories.ts';
import { redactedUrl } from './request-log.ts';

const lines: string[] = [];
const stream = new Writable({
  write(chunk, _encoding, callback) {
    lines.push(String(chunk));
    callback();
  },
});
const database = await createTestDatabase();
const app = await buildTestApp(database, { logger: { level: 'info', stream } });
after(() => app.close());

describe('redactedUrl', () => {
  it('replaces the values of key and header_* parameters, in any case, and nothing else', () => {
    assert.equal(
      redactedUrl('/v1/analytics/p/drains/netlify?key=quire_abc&limit=5'),
      '/v1/analytics/p/drains/netlify?key=[redacted]&limit=5',
    );
    assert.equal(
      redactedUrl('/drains/cloudflare?tags=a&header_Authorization=Bearer%20quire_abc#top'),
      '/drains/cloudflare?tags=a&header_Authorization=[redacted]#top',
    );
    assert.equal(
      redactedUrl('/x?KEY=1&Key=2&monkey=3&keys=4'),
      '/x?KEY=[redacted]&Key=[redacted]&monkey=3&keys=4',
    );
    assert.equal(redactedUrl('/docs/key=value/page?x=1'), '/docs/key=value/page?x=1');
  });
});

describe("the service's request log", () => {
  it('never holds the API key a Netlify drain sends in its URL', async () => {
    lines.length = 0;
    const { project, key } = await buildProjectWithKey(database.pool, { scopes: ['ingest'] });
    const record = {
      request_id: '01HZXKJ3Q5ZB2M8V7RSLOGGED1',
      url: 'https://docs.example.com/docs/intro',
      status_code: 200,
      method: 'GET',
      client_ip: '203.0.113.9',
      user_agent: 'Mozilla/5.0 (X11; Linux x86_64; rv:131.0) Gecko/20100101 Firefox/131.0',
      timestamp: new Date().toISOString(),
      log_type: 'traffic',
    };
    const response = await app.inject({
      method: 'POST',
      url: `/v1/analytics/${project.id}/drains/netlify?key=${encodeURIComponent(key)}`,
      payload: JSON.stringify([record]),
    });
    assert.equal(response.statusCode, 200, response.body);
    assert.deepEqual(response.json(), { accepted: 1, alreadyStored: 0, skipped: 0 });
    const logged = lines.join('');
    assert.match(logged, /drains\/netlify\?key=\[redacted\]/);
    assert.ok(!logged.includes(key) && !logged.includes(encodeURIComponent(key)), 'the key is in the log');
  });

  it("logs no visitor's address for the tracker's routes, and the client's address elsewhere", async () => {
    lines.length = 0;
    const { project } = await buildProjectWithKey(database.pool);
    const visitor = '198.51.100.77';
    const requests = [
      { method: 'GET', url: '/script.js' },
      { method: 'OPTIONS', url: `/v1/analytics/${project.id}/beacon` },
      { method: 'POST', url: `/v1/analytics/${project.id}/beacon` },
    ] as const;
    for (const request of requests)
      await app.inject({
        ...request,
        remoteAddress: visitor,
        payload: request.method === 'POST' ? '{}' : undefined,
      });
    assert.ok(lines.length >= requests.length * 2, 'every request is logged');
    assert.ok(!lines.join('').includes(visitor), "a visitor's address is in the log");
    await app.inject({ method: 'GET', url: '/healthz', remoteAddress: '192.0.2.10' });
    assert.match(lines.join(''), /"remoteAddress":"192\.0\.2\.10"/);
  });
});
