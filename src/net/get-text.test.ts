import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, it } from 'node:test';
import { getText } from './get-text.ts';

let requests = 0;
const server = http.createServer((request, response) => {
  requests += 1;
  switch (request.url) {
    case '/keys':
      response.end('{"keys": []}');
      return;
    case '/moved':
      response.writeHead(302, { location: '/keys' }).end();
      return;
    case '/large':
      response.end('x'.repeat(100_000));
      return;
    case '/slow':
      setTimeout(() => response.end('late'), 2_000).unref();
      return;
    default:
      response.writeHead(404).end();
  }
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
after(() => server.close());
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const limits = { timeoutMilliseconds: 1_000, maximumBytes: 1_024 };
const local = { ...limits, allowPrivateAddresses: true };

describe('getText', () => {
  it('refuses loopback and private addresses, literal or resolved, without connecting', async () => {
    const before = requests;
    await assert.rejects(getText(`${base}/keys`, limits), /private address/);
    const port = (server.address() as AddressInfo).port;
    await assert.rejects(getText(`http://localhost:${port}/keys`, limits), /private address/);
    await assert.rejects(getText(`http://[::1]:${port}/keys`, limits), /private address/);
    await assert.rejects(getText('http://10.1.2.3/keys', limits), /private address/);
    await assert.rejects(getText('file:///etc/passwd', limits), /file: URL/);
    assert.equal(requests, before);
  });

  it('reads a 2xx body, and refuses other answers, redirects, large bodies and slow servers', async () => {
    assert.equal(await getText(`${base}/keys`, local), '{"keys": []}');
    await assert.rejects(getText(`${base}/missing`, local), /answered 404/);
    await assert.rejects(getText(`${base}/moved`, local), /answered 302/);
    await assert.rejects(getText(`${base}/large`, local), /more than 1024 bytes/);
    await assert.rejects(getText(`${base}/slow`, { ...local, timeoutMilliseconds: 200 }), {
      name: 'AbortError',
    });
  });
});
