// `quire user ...` as a real subprocess against a test database.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { verifyPassword } from '../src/accounts/password.ts';
import { findUserByEmail } from '../src/accounts/user-store.ts';
import { createTestDatabase } from './database.ts';
import { runQuire } from './processes.ts';

const database = await createTestDatabase();
const environment = { DATABASE_URL: database.connectionString };

test('user create reads the password from standard input', async () => {
  const result = await runQuire(
    ['user', 'create', '--email', 'Writer@Example.com'],
    environment,
    'a long enough password\n',
  );
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /Created dashboard user writer@example\.com/);
  assert.doesNotMatch(result.stdout, /a long enough password/);
  const user = await findUserByEmail(database.pool, 'writer@example.com');
  assert.ok(user);
  assert.match(user.passwordHash, /^scrypt\$32768\$/);
  assert.equal(await verifyPassword('a long enough password', user.passwordHash), true);
});

test('without input, a password is generated and printed once', async () => {
  const result = await runQuire(['user', 'create', '--email', 'editor@example.com', '--json'], environment);
  assert.equal(result.code, 0, result.stderr);
  const created = JSON.parse(result.stdout);
  assert.equal(created.email, 'editor@example.com');
  assert.match(created.password, /^[\w-]{20}$/);
  const user = await findUserByEmail(database.pool, 'editor@example.com');
  assert.equal(await verifyPassword(created.password, user!.passwordHash), true);
});

test('a taken email, a bad email or a short password is refused', async () => {
  const taken = await runQuire(
    ['user', 'create', '--email', 'WRITER@example.com'],
    environment,
    'another password 1\n',
  );
  assert.equal(taken.code, 1);
  assert.match(taken.stderr, /already exists/);
  const bad = await runQuire(
    ['user', 'create', '--email', 'not an email'],
    environment,
    'another password 1\n',
  );
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /not an email address/);
  const short = await runQuire(['user', 'create', '--email', 'short@example.com'], environment, 'short\n');
  assert.equal(short.code, 1);
  assert.match(short.stderr, /at least 12 characters/);
  assert.equal(await findUserByEmail(database.pool, 'short@example.com'), null);
});

test('user list and set-password', async () => {
  const listed = JSON.parse((await runQuire(['user', 'list', '--json'], environment)).stdout);
  assert.deepEqual(
    listed.users.map((user: { email: string }) => user.email),
    ['writer@example.com', 'editor@example.com'],
  );
  const changed = await runQuire(
    ['user', 'set-password', '--email', 'writer@example.com'],
    environment,
    'the replacement password\n',
  );
  assert.equal(changed.code, 0, changed.stderr);
  const user = await findUserByEmail(database.pool, 'writer@example.com');
  assert.equal(await verifyPassword('the replacement password', user!.passwordHash), true);
  const missing = await runQuire(['user', 'set-password', '--email', 'nobody@example.com'], environment);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /No dashboard user/);
});
