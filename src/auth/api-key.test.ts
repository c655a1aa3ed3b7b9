import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  generateApiKeySecret,
  grantsScope,
  hashApiKeySecret,
  isWellFormedApiKey,
  parseScopes,
} from './api-key.ts';

test('keys are quire_ plus at least 32 URL-safe random characters, each one different', () => {
  const keys = new Set(Array.from({ length: 100 }, generateApiKeySecret));
  assert.equal(keys.size, 100);
  for (const key of keys) {
    assert.match(key, /^quire_[A-Za-z0-9_-]{43}$/);
    assert.ok(isWellFormedApiKey(key));
  }
});

test('malformed keys are recognised before any lookup', () => {
  for (const text of [
    '',
    'quire_',
    'quire_short',
    `other_${'a'.repeat(43)}`,
    `quire_${'a'.repeat(42)} `,
    `quire_${'é'.repeat(40)}`,
  ]) {
    assert.equal(isWellFormedApiKey(text), false, text);
  }
});

test('hashes are SHA-256 and stable', () => {
  const key = generateApiKeySecret();
  assert.equal(hashApiKeySecret(key).length, 32);
  assert.deepEqual(hashApiKeySecret(key), hashApiKeySecret(key));
  assert.notDeepEqual(hashApiKeySecret(key), hashApiKeySecret(generateApiKeySecret()));
});

test('write implies read and ingest; ingest and read grant only themselves', () => {
  assert.ok(grantsScope(['write'], 'read'));
  assert.ok(grantsScope(['write'], 'ingest'));
  assert.ok(grantsScope(['read'], 'read'));
  assert.equal(grantsScope(['read'], 'write'), false);
  assert.equal(grantsScope(['read'], 'ingest'), false);
  assert.ok(grantsScope(['ingest'], 'ingest'));
  assert.equal(grantsScope(['ingest'], 'read'), false);
  assert.equal(grantsScope(['ingest'], 'write'), false);
});

test('scope lists parse strictly', () => {
  assert.deepEqual(parseScopes('read,write'), ['read', 'write']);
  assert.deepEqual(parseScopes(' ingest , ingest '), ['ingest']);
  assert.equal(parseScopes(''), null);
  assert.equal(parseScopes('read,admin'), null);
});
