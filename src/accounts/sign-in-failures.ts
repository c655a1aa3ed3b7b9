/** Failed sign-ins per email, counted over a sliding window for lockout. */
import type { Queryable } from '../db/database.ts';

export async function recordSignInFailure(db: Queryable, email: string): Promise<void> {
  await db.query('INSERT INTO dashboard_sign_in_failures (email) VALUES ($1)', [email]);
}

/** Failures within the window, and the seconds until the oldest of them leaves it. */
export async function recentSignInFailures(
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
