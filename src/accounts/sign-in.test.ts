import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildDashboardUser } from '../../test/dashboard.ts';
import { createTestDatabase } from '../../test/database.ts';
import { verifyPassword } from './password.ts';
import { createSignIn } from './sign-in.ts';

const database = await createTestDatabase();

test('40 concurrent wrong passwords get at most 5 password checks; the rest are refused as locked', async () => {
  const user = await buildDashboardUser(database.pool);
  let checks = 0;
  const signIn = createSignIn(database.pool, undefined, async (password, stored) => {
    checks += 1;
    return verifyPassword(password, stored);
  });
  const outcomes = await Promise.allSettled(
    Array.from({ length: 40 }, () => signIn(user.email, 'not the password')),
  );
  const codes = outcomes.map((outcome) =>
    outcome.status === 'rejected' ? (outcome.reason as { code?: string }).code : 'signed-in',
  );
  assert.equal(checks, 5);
  assert.equal(codes.filter((code) => code === 'unauthorized').length, 5);
  assert.equal(codes.filter((code) => code === 'rate_limited').length, 35);
  await assert.rejects(signIn(user.email, user.password), { code: 'rate_limited' });
});

test('a right password clears the failure recorded for its own attempt', async () => {
  const user = await buildDashboardUser(database.pool);
  const signIn = createSignIn(database.pool, { maximumFailures: 2, windowSeconds: 900 });
  for (let attempt = 0; attempt < 5; attempt += 1) await signIn(user.email, user.password);
  const { rows } = await database.pool.query(
    'SELECT count(*)::int AS count FROM dashboard_sign_in_failures WHERE email = $1',
    [user.email],
  );
  assert.equal(rows[0].count, 0);
});
