import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { LoggedRequest } from './logged-request.ts';
import { createRequestIdentifier } from './request-identity.ts';

const request: LoggedRequest = {
  method: 'GET',
  target: '/docs/intro',
  status: 200,
  occurredAt: Date.UTC(2026, 10, 1, 12, 0, 0),
  userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0',
  referrer: undefined,
  accept: undefined,
  ip: '203.0.113.7',
  host: 'docs.example.com',
};

// Stored views carry these keys: a change to how they are computed would import history again.
// Each was computed by the first implementation (SHA-256 digests as Buffers).
test('identities stay the ones already stored', () => {
  const identifier = createRequestIdentifier();
  const identities = [
    { ...request, requestId: 'cloudflare:8e1f0a3c9d2b4e5f' },
    request,
    request,
    { ...request, userAgent: undefined },
    { ...request, target: '/docs/é?x=1', referrer: 'https://chatgpt.com/' },
  ].map((logged) => identifier.identityOf(logged)());
  assert.deepEqual(identities, [
    '3f0f2a48ea9786cf65f141d389337833',
    'dadd19243ff1f04b17f59877a59bb854',
    'cd7a19383e808faf9bdedd3db29c7acc',
    '83158d9699f57165240cbd867c345e4b',
    'e5a3a77da1e4d087cfd80fb3f913d563',
  ]);
});

test('the same request in another source gets the same identity, its n-th repeat the n-th one', () => {
  const first = createRequestIdentifier();
  const second = createRequestIdentifier();
  const later = { ...request, occurredAt: request.occurredAt + 1000 };
  const a = [request, request, later].map((logged) => first.identityOf(logged)());
  const b = [request, later, request].map((logged) => second.identityOf(logged)());
  assert.deepEqual(b, [a[0], a[2], a[1]]);
  assert.equal(new Set(a).size, 3);
});
