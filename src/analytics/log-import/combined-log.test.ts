import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCombinedLogLine, parseLogTime } from './combined-log.ts';
import { visitorAddressOf } from './logged-view.ts';

describe('parseCombinedLogLine', () => {
  it('reads a combined log line', () => {
    const result = parseCombinedLogLine(
      '203.0.113.9 - frank [10/Oct/2026:13:55:36 -0700] "GET /docs/intro?x=1 HTTP/1.1" 200 2326 "https://example.com/" "Mozilla/5.0 (X11) Firefox/130.0"',
    );
    assert.deepEqual(result, {
      ok: true,
      request: {
        method: 'GET',
        target: '/docs/intro?x=1',
        status: 200,
        occurredAt: Date.parse('2026-10-10T20:55:36Z'),
        referrer: 'https://example.com/',
        userAgent: 'Mozilla/5.0 (X11) Firefox/130.0',
        accept: undefined,
        ip: '203.0.113.9',
        host: undefined,
      },
    });
  });

  it('keeps the client address as logged; only an IP address identifies a visitor', () => {
    const line = (host: string) =>
      parseCombinedLogLine(`${host} - - [01/Jan/2026:00:00:00 +0000] "GET /a HTTP/1.1" 200 5 "-" "curl/8"`);
    const ipv6 = line('2001:db8::7');
    assert.ok(ipv6.ok);
    assert.equal(ipv6.request.ip, '2001:db8::7');
    assert.equal(visitorAddressOf(ipv6.request), '2001:db8::7');
    const hostName = line('client.example.net');
    assert.ok(hostName.ok);
    assert.equal(hostName.request.ip, 'client.example.net');
    assert.equal(visitorAddressOf(hostName.request), undefined);
  });

  it('reads the common format, dashes and escaped quotes', () => {
    const common = parseCombinedLogLine('::1 - - [01/Jan/2026:00:00:00 +0000] "HEAD / HTTP/1.0" 304 -');
    assert.ok(common.ok);
    assert.equal(common.request.method, 'HEAD');
    assert.equal(common.request.userAgent, undefined);
    const escaped = parseCombinedLogLine(
      '1.2.3.4 - - [01/Jan/2026:00:00:00 +0000] "GET /a HTTP/1.1" 200 5 "-" "say \\"hi\\" \\x22there\\x22 \\\\o/"',
    );
    assert.ok(escaped.ok);
    assert.equal(escaped.request.referrer, undefined);
    assert.equal(escaped.request.userAgent, 'say "hi" "there" \\o/');
    const emptyAgent = parseCombinedLogLine(
      '1.2.3.4 - - [01/Jan/2026:00:00:00 +0000] "GET /a HTTP/1.1" 200 5 "-" "-"',
    );
    assert.ok(emptyAgent.ok);
    assert.equal(emptyAgent.request.userAgent, '-');
  });

  it('gives a reason for garbage instead of throwing', () => {
    const cases: Array<[string, RegExp]> = [
      ['', /format/],
      ['hello world', /format/],
      ['1.2.3.4 - - [32/Jan/2026:00:00:00 +0000] "GET / HTTP/1.1" 200 1 "-" "x"', /timestamp/],
      ['1.2.3.4 - - [01/Foo/2026:00:00:00 +0000] "GET / HTTP/1.1" 200 1 "-" "x"', /timestamp/],
      ['1.2.3.4 - - [01/Jan/2026:00:00:00 +0000] "\\x16\\x03\\x01" 400 1 "-" "-"', /request line/],
      ['1.2.3.4 - - [01/Jan/2026:00:00:00 +0000] "GET / HTTP/1.1 extra" 200 1 "-" "-"', /request line/],
      ['1.2.3.4 - - [01/Jan/2026:00:00:00 +0000] "GET / HTTP/1.1" abc 1 "-" "-"', /format/],
    ];
    for (const [line, reason] of cases) {
      const result = parseCombinedLogLine(line);
      assert.equal(result.ok, false, line);
      if (!result.ok) assert.match(result.reason, reason, line);
    }
  });

  it('reads log times with offsets', () => {
    assert.equal(parseLogTime('01/Mar/2026:00:30:00 +0200'), Date.parse('2026-02-28T22:30:00Z'));
    assert.equal(parseLogTime('29/Feb/2025:00:00:00 +0000'), undefined);
    assert.equal(parseLogTime('01/Mar/2026:25:00:00 +0000'), undefined);
  });
});
