import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, it } from 'node:test';
import { createHttpKeyDirectory } from './web-bot-auth.ts';

// A key directory server that answers only when released, counting the fetches per signer.
const fetches = new Map<string, number>();
let release: () => void = () => {};
const released = new Promise<void>((resolve) => {
  release = resolve;
});
const server = http.createServer(async (request, response) => {
  const signer = request.url?.split('/')[1] ?? '';
  fetches.set(signer, (fetches.get(signer) ?? 0) + 1);
  await released;
  response.end('{"keys": []}');
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
// Released here too, so that a failed assertion cannot leave the server holding its connections.
after(() => {
  release();
  server.close();
});
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

describe('createHttpKeyDirectory', () => {
  it('fetches at most a few directories at once; a signer turned away is asked again later', async () => {
    const directory = createHttpKeyDirectory({
      urlOf: (host) => `${base}/${host}`,
      allowPrivateAddresses: true,
      maximumFetches: 2,
    });
    const first = directory.keys('a.example');
    const second = directory.keys('b.example');
    await assert.rejects(directory.keys('c.example'), /2 key directories are being fetched already/);
    release();
    assert.deepEqual(await Promise.all([first, second]), [[], []]);
    assert.deepEqual(await directory.keys('c.example'), []);
    assert.deepEqual(await directory.keys('a.example'), [], 'from the cache');
    assert.deepEqual(Object.fromEntries(fetches), { 'a.example': 1, 'b.example': 1, 'c.example': 1 });
  });
});
