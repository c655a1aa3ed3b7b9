/** Failed sign-ins per email, counted over a sliding window for lockout. */
import type pg from 'pg';
import { type Queryable, transaction } from '../db/database.ts';

/**
 * Counts the email's recent failures and, unless they already reach `maximumFailures`, records one
 * more, atomically: concurrent attempts for one email queue on a transaction-scoped advisory lock,
 * so 40 attempts at once cannot all see "no failures yet". The failure is recorded before the
 * password is checked (and cleared on success), so at most `maximumFailures` checks run per window.
 */
export async function reserveSignInAttempt(
  pool: pg.Pool,
  email: string,
  policy: { maximumFailures: number; windowSeconds: number },
): Promise<{ allowed: true } | { allowed: false; secondsUntilOldestExpires: number }> {
  return transaction(pool, async (client) => {
    await client.query("SELECT pg_advisory_xact_lock(hashtextextended('quire:sign-in:' || $1, 0))", [email]);
    const failures = await recentSignInFailures(client, email, policy.windowSeconds);
    if (failures.count >= policy.maximumFailures) {
      return { allowed: false, secondsUntilOldestExpires: failures.secondsUntilOldestExpires };
    }
    await recordSignInFailure(client, email);
    return { allowed: true };
  });
}

async function recordSignInFailure(db: Queryable, email: string): Promise<void> {
  await db.query('INSERT INTO dashboard_sign_in_failures (email) VALUES ($1)', [email]);
}

/** Failures within the window, and the seconds until the oldest of them leaves it. */
async function recentSignInFailures(
  db: Queryable,
  email: string,
  windowSeconds: number,
): Promise<{ count: number; secondsUntilOldestExpires: number }> {
  const result = await db.query<{ count: number; seconds: number | null }>(
    `SELECT count(*) AS count,
            ceil(extract(epoch FROM min(failed_at) + make_interval(secs => $2) - now()))::int AS seconds
     FROM dashboard_sign_in_failures
     WHERE email = $1 AND failed_at > now() - make_interval(secs => $2)`,
    [email, windowSeconds],
  );
  const row = result.rows[0];
  return { count: row?.count ?? 0, secondsUntilOldestExpires: Math.max(1, row?.seconds ?? 1) };
}

export async function clearSignInFailures(db: Queryable, email: string): Promise<void> {
  await db.query('DELETE FROM dashboard_sign_in_failures WHERE email = $1', [email]);
}

export async function deleteOldSignInFailures(db: Queryable, windowSeconds: number): Promise<void> {
  await db.query(
    'DELETE FROM dashboard_sign_in_failures WHERE failed_at < now() - make_interval(secs => $1)',
    [windowSeconds],
  );
}
