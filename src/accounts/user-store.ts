/** Dashboard users: one SQL statement per function. */
import type { Queryable } from '../db/database.ts';
import { newId } from '../ids.ts';

export interface DashboardUser {
  id: string;
  email: string;
  passwordHash: string;
  createdAt: Date;
  lastSignInAt: Date | null;
}

interface DashboardUserRow {
  id: string;
  email: string;
  password_hash: string;
  created_at: Date;
  last_sign_in_at: Date | null;
}

function userFromRow(row: DashboardUserRow): DashboardUser {
  return {
    id: row.id,
    email: row.email,
    passwordHash: row.password_hash,
    createdAt: row.created_at,
    lastSignInAt: row.last_sign_in_at,
  };
}

/** Emails are compared lower-cased and trimmed. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Returns null when a user with this email already exists. */
export async function insertUser(
  db: Queryable,
  user: { email: string; passwordHash: string },
): Promise<DashboardUser | null> {
  const result = await db.query<DashboardUserRow>(
    `INSERT INTO dashboard_users (id, email, password_hash) VALUES ($1, $2, $3)
     ON CONFLICT (email) DO NOTHING
     RETURNING *`,
    [newId('usr'), normalizeEmail(user.email), user.passwordHash],
  );
  const row = result.rows[0];
  return row ? userFromRow(row) : null;
}

export async function findUserByEmail(db: Queryable, email: string): Promise<DashboardUser | null> {
  const result = await db.query<DashboardUserRow>('SELECT * FROM dashboard_users WHERE email = $1', [
    normalizeEmail(email),
  ]);
  const row = result.rows[0];
  return row ? userFromRow(row) : null;
}

export async function listUsers(db: Queryable): Promise<DashboardUser[]> {
  const result = await db.query<DashboardUserRow>('SELECT * FROM dashboard_users ORDER BY created_at, id');
  return result.rows.map(userFromRow);
}

export async function countUsers(db: Queryable): Promise<number> {
  const result = await db.query<{ count: number }>('SELECT count(*) AS count FROM dashboard_users');
  return result.rows[0]?.count ?? 0;
}

/** Replaces the password; returns false when there is no such user. */
export async function updateUserPassword(
  db: Queryable,
  email: string,
  passwordHash: string,
): Promise<boolean> {
  const result = await db.query('UPDATE dashboard_users SET password_hash = $2 WHERE email = $1', [
    normalizeEmail(email),
    passwordHash,
  ]);
  return result.rowCount === 1;
}

export async function recordSignIn(db: Queryable, userId: string): Promise<void> {
  await db.query('UPDATE dashboard_users SET last_sign_in_at = now() WHERE id = $1', [userId]);
}
