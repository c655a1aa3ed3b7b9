/**
 * Dashboard sessions. The cookie carries a random token (256 bits); only its SHA-256 is stored,
 * so a copy of the database holds no usable session. Each session has its own CSRF token.
 */
import { createHash } from 'node:crypto';
import type { Queryable } from '../db/database.ts';
import {
  type DashboardSession,
  generateToken,
  sessionIdleSeconds,
  sessionLifetimeSeconds,
} from './session.ts';

function hashToken(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}

/** Creates a session; returns the cookie token, which is never stored. */
export async function insertSession(db: Queryable, userId: string): Promise<string> {
  const token = generateToken();
  await db.query(
    `INSERT INTO dashboard_sessions (token_hash, user_id, csrf_token, expires_at)
     VALUES ($1, $2, $3, now() + make_interval(secs => $4))`,
    [hashToken(token), userId, generateToken(), sessionLifetimeSeconds],
  );
  return token;
}

/** The live session for a cookie token, or null (unknown, expired or idle too long). */
export async function findSession(db: Queryable, token: string): Promise<DashboardSession | null> {
  const result = await db.query<{
    user_id: string;
    email: string;
    csrf_token: string;
    expires_at: Date;
    last_seen_at: Date;
  }>({
    name: 'find-dashboard-session',
    text: `SELECT s.user_id, u.email, s.csrf_token, s.expires_at, s.last_seen_at
     FROM dashboard_sessions s JOIN dashboard_users u ON u.id = s.user_id
     WHERE s.token_hash = $1 AND s.expires_at > now()
       AND s.last_seen_at > now() - make_interval(secs => $2)`,
    values: [hashToken(token), sessionIdleSeconds],
  });
  const row = result.rows[0];
  return row
    ? {
        userId: row.user_id,
        email: row.email,
        csrfToken: row.csrf_token,
        expiresAt: row.expires_at,
        lastSeenAt: row.last_seen_at,
      }
    : null;
}

/** Records use at most once a minute per session. */
export async function touchSession(db: Queryable, token: string): Promise<void> {
  await db.query(
    `UPDATE dashboard_sessions SET last_seen_at = now()
     WHERE token_hash = $1 AND last_seen_at < now() - interval '1 minute'`,
    [hashToken(token)],
  );
}

export async function deleteSession(db: Queryable, token: string): Promise<void> {
  await db.query('DELETE FROM dashboard_sessions WHERE token_hash = $1', [hashToken(token)]);
}

export async function deleteExpiredSessions(db: Queryable): Promise<void> {
  await db.query('DELETE FROM dashboard_sessions WHERE expires_at < now()');
}
