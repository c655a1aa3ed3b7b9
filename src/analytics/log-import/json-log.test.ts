import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseJsonLogLine } from './json-log.ts';
import { visitorAddressOf } from './logged-view.ts';

describe('parseJsonLogLine', () => {
  it('reads Cloudflare Logpush HTTP request lines', () => {
    const line = JSON.stringify({
      ClientIP: '198.51.100.7',
      ClientRequestHost: 'docs.example.com',
      ClientRequestMethod: 'GET',
      ClientRequestURI: '/docs/intro?ref=x',
      ClientRequestPath: '/docs/intro',
      ClientRequestUserAgent: 'Mozilla/5.0 (compatible; GPTBot/1.2)',
      ClientRequestReferer: 'https://chatgpt.com/',
      EdgeResponseStatus: 200,
      EdgeStartTimestamp: '2026-05-01T12:00:00Z',
      // Custom fields log the headers the zone configured, in the case it configured them: only the
      // classification signals are kept (no cookie, no forwarding header reaches the pipeline).
      RequestHeaders: {
        Accept: 'text/markdown',
        'Signature-Agent': '"https://chatgpt.com"',
        cookie: 'session=secret',
        'x-forwarded-for': '10.0.0.1',
      },
      VerifiedBotCategory: 'AI Crawler',
    });
    assert.deepEqual(parseJsonLogLine(line), {
      ok: true,
      request: {
        method: 'GET',
        target: '/docs/intro?ref=x',
        status: 200,
        occurredAt: Date.parse('2026-05-01T12:00:00Z'),
        userAgent: 'Mozilla/5.0 (compatible; GPTBot/1.2)',
        referrer: 'https://chatgpt.com/',
        accept: 'text/markdown',
        ip: '198.51.100.7',
        host: 'docs.example.com',
        requestId: undefined,
        headers: { accept: 'text/markdown', 'signature-agent': '"https://chatgpt.com"' },
        verifiedBotCategory: 'AI Crawler',
      },
    });
  });

  it('reads Cloudflare Unix timestamps in seconds, milliseconds and nanoseconds', () => {
    const at = Date.parse('2026-05-01T12:00:00Z');
    for (const timestamp of [at / 1000, at, at * 1e6, String(at * 1e6)]) {
      const result = parseJsonLogLine(
        JSON.stringify({ ClientRequestPath: '/a', EdgeStartTimestamp: timestamp }),
      );
      assert.ok(result.ok);
      assert.equal(result.request.occurredAt, at, String(timestamp));
    }
  });

  it('reads Vercel log drain lines', () => {
    const line = JSON.stringify({
      id: '1',
      source: 'edge',
      timestamp: Date.parse('2026-05-01T12:00:00Z'),
      proxy: {
        timestamp: Date.parse('2026-05-01T12:00:01Z'),
        method: 'GET',
        host: 'docs.example.com',
        path: '/docs/intro.md',
        userAgent: ['Claude-User/1.0'],
        referer: 'https://claude.ai/',
        statusCode: 304,
        clientIp: '203.0.113.1',
      },
    });
    const result = parseJsonLogLine(line);
    assert.ok(result.ok);
    assert.equal(result.request.target, '/docs/intro.md');
    assert.equal(result.request.status, 304);
    assert.equal(result.request.userAgent, 'Claude-User/1.0');
    assert.equal(result.request.occurredAt, Date.parse('2026-05-01T12:00:01Z'));
    assert.equal(result.request.ip, '203.0.113.1');
    assert.equal(visitorAddressOf(result.request), '203.0.113.1');
  });

  it("reads a Vercel static entry whose proxy holds only the method and status, from the entry's own path", () => {
    // The shape of captured static entries: `proxy` without path, host or client, `path` and `host`
    // on the entry itself (with or without a leading slash).
    for (const path of ['/_next/data/build/join.json', '_next/data/build/join.json']) {
      const line = JSON.stringify({
        id: 'R1',
        timestamp: Date.parse('2026-05-01T12:00:00Z'),
        requestId: 'fra1::abc',
        proxy: { method: 'GET', statusCode: 304 },
        source: 'static',
        host: 'web-abc.vercel.app',
        path,
      });
      const result = parseJsonLogLine(line);
      assert.ok(result.ok);
      assert.equal(result.request.target, '/_next/data/build/join.json');
      assert.equal(result.request.host, 'web-abc.vercel.app');
      assert.equal(result.request.status, 304);
    }
  });

  it('reads the batch endpoint field names', () => {
    const result = parseJsonLogLine(
      '{"path":"https://x.dev/a","timestamp":"2026-05-01T12:00:00+02:00","userAgent":"curl/8","ip":"not an address"}',
    );
    assert.ok(result.ok);
    assert.equal(result.request.ip, 'not an address');
    assert.equal(visitorAddressOf(result.request), undefined);
    assert.equal(result.request.method, 'GET');
    assert.equal(result.request.status, undefined);
    assert.equal(result.request.occurredAt, Date.parse('2026-05-01T10:00:00Z'));
  });

  it('gives a reason for garbage instead of throwing', () => {
    const cases: Array<[string, RegExp]> = [
      ['', /JSON/],
      ['{"path":', /JSON/],
      ['[1,2]', /object/],
      ['"text"', /object/],
      ['null', /object/],
      ['{"message":"build started"}', /path/],
      ['{"path":42,"timestamp":1}', /path/],
      ['{"path":"/a"}', /timestamp/],
      ['{"path":"/a","timestamp":"yesterday"}', /timestamp/],
      ['{"path":"/a","timestamp":-5}', /timestamp/],
      ['{"path":"/a","timestamp":1760000000,"status":"ok"}', /status/],
      ['{"path":"/a","timestamp":{"$date":1}}', /timestamp/],
    ];
    for (const [line, reason] of cases) {
      const result = parseJsonLogLine(line);
      assert.equal(result.ok, false, line);
      if (!result.ok) assert.match(result.reason, reason, line);
    }
  });
});
