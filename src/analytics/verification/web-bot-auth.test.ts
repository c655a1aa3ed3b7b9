import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, it } from 'node:test';
import vectors from '../../../test/fixtures/web-bot-auth/web_bot_auth_architecture_v2.json' with {
  type: 'json',
};
import { startWebBotAuthDouble } from '../../../test/web-bot-auth-double.ts';
import { createHttpKeyDirectory, verifiedByWebBotAuth } from './web-bot-auth.ts';

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

/**
 * The reference implementation's published vectors (test/fixtures/web-bot-auth/README.md): requests
 * signed by another implementation than ours, with RFC 9421's Ed25519 test key, whose directory the
 * double serves. Its RSA vectors are outside Web Bot Auth's Ed25519 and are not expected to verify.
 */
describe('verifiedByWebBotAuth on the reference vectors', async () => {
  const agent = await startWebBotAuthDouble();
  const directory = createHttpKeyDirectory({ urlOf: () => agent.url, allowPrivateAddresses: true });
  const signed = vectors.filter((vector) => vector.key.kty === 'OKP');
  const requestOf = (
    vector: (typeof vectors)[number],
    overrides: { host?: string; signatureAgent?: string } = {},
  ) => {
    const url = new URL(vector.target_url);
    const signatureAgent = overrides.signatureAgent ?? vector.signature_agent;
    return {
      method: 'GET',
      host: overrides.host ?? url.host,
      target: `${url.pathname}${url.search}`,
      headers: {
        signature: vector.signature,
        'signature-input': vector.signature_input,
        ...(signatureAgent === undefined ? {} : { 'signature-agent': signatureAgent }),
      },
    };
  };

  it('verifies an Ed25519 signature that covers its Signature-Agent (a dictionary member, `;key=`)', async () => {
    const vector = signed.find((candidate) => candidate.signature_agent !== undefined);
    assert.ok(vector);
    assert.equal(await verifiedByWebBotAuth(directory, requestOf(vector)), true);
  });

  it('refuses the same signature for another authority, or without a Signature-Agent to find keys', async () => {
    for (const vector of signed) {
      assert.equal(await verifiedByWebBotAuth(directory, requestOf(vector, { host: 'example.org' })), false);
    }
    const unnamed = signed.find((candidate) => candidate.signature_agent === undefined);
    assert.ok(unnamed);
    assert.equal(await verifiedByWebBotAuth(directory, requestOf(unnamed)), false);
    // Valid over the authority alone, but the Signature-Agent its keys are looked up by is not signed.
    const uncovered = requestOf(unnamed, { signatureAgent: '"https://signature-agent.test"' });
    assert.equal(await verifiedByWebBotAuth(directory, uncovered), false);
  });

  it('refuses RSA signatures: Web Bot Auth keys are Ed25519', async () => {
    const rsa = vectors.find((vector) => vector.key.kty === 'RSA' && vector.signature_agent !== undefined);
    assert.ok(rsa);
    assert.equal(await verifiedByWebBotAuth(directory, requestOf(rsa)), false);
  });

  it('refuses a signature whose covered Signature-Agent was changed', async () => {
    const vector = signed.find((candidate) => candidate.signature_agent !== undefined);
    assert.ok(vector);
    const changed = requestOf(vector, { signatureAgent: 'agent2="https://other-agent.test"' });
    assert.equal(await verifiedByWebBotAuth(directory, changed), false);
  });
});
