import assert from 'node:assert/strict';
import { test } from 'node:test';
import { generatePassword, hashPassword, passwordProblem, verifyPassword } from './password.ts';

const cheap = { N: 2 ** 10, r: 8, p: 1 };

test('a hash verifies its password only, and is salted', async () => {
  const first = await hashPassword('correct horse battery', cheap);
  const second = await hashPassword('correct horse battery', cheap);
  assert.match(first, /^scrypt\$1024\$8\$1\$[\w-]+\$[\w-]+$/);
  assert.notEqual(first, second);
  assert.equal(await verifyPassword('correct horse battery', first), true);
  assert.equal(await verifyPassword('correct horse batterY', first), false);
  assert.equal(await verifyPassword('', first), false);
});

test('the default cost is memory-hard (N = 2^15, r = 8: 32 MiB)', async () => {
  const hash = await hashPassword('x'.repeat(12));
  assert.match(hash, /^scrypt\$32768\$8\$1\$/);
  assert.equal(await verifyPassword('x'.repeat(12), hash), true);
});

test('unreadable hashes never verify', async () => {
  for (const stored of ['', 'scrypt', 'bcrypt$1$2$3$abc$def', 'scrypt$x$8$1$abc$def', 'scrypt$1024$8$1$$']) {
    assert.equal(await verifyPassword('anything', stored), false, stored);
  }
});

test('generated passwords are long and random; short ones are refused', () => {
  const passwords = new Set(Array.from({ length: 50 }, generatePassword));
  assert.equal(passwords.size, 50);
  for (const password of passwords) assert.equal(passwordProblem(password), null);
  assert.match(passwordProblem('short') ?? '', /at least 12/);
});
