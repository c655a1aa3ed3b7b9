/**
 * Forward-only numbered migrations (`migrations/NNNN_name.sql`), applied in order, each in its own
 * transaction, under an advisory lock so that several processes starting at once are safe: the
 * first applies them, the others wait and then find nothing left to do.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type pg from 'pg';
import { advisoryLockKeys } from './advisory-locks.ts';

const migrationsDirectory = path.join(import.meta.dirname, 'migrations');

export interface Migration {
  id: number;
  name: string;
  sql: string;
}

export async function readMigrations(directory = migrationsDirectory): Promise<Migration[]> {
  const files = (await fs.readdir(directory)).filter((file) => /^\d{4}_[\w-]+\.sql$/.test(file)).sort();
  return Promise.all(
    files.map(async (file) => ({
      id: Number(file.slice(0, 4)),
      name: file.slice(5, -4),
      sql: await fs.readFile(path.join(directory, file), 'utf8'),
    })),
  );
}

/** Applies the migrations not yet applied; returns the ones it applied. */
export async function migrate(pool: pg.Pool, migrations?: Migration[]): Promise<Migration[]> {
  const all = migrations ?? (await readMigrations());
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [advisoryLockKeys.migration]);
    await client.query(`
      CREATE TABLE IF NOT EXISTS quire_migrations (
        id integer PRIMARY KEY,
        name text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now()
      )`);
    const applied = new Set(
      (await client.query<{ id: number }>('SELECT id FROM quire_migrations')).rows.map((row) => row.id),
    );
    const pending = all.filter((migration) => !applied.has(migration.id));
    for (const migration of pending) {
      await client.query('BEGIN');
      try {
        await client.query(migration.sql);
        await client.query('INSERT INTO quire_migrations (id, name) VALUES ($1, $2)', [
          migration.id,
          migration.name,
        ]);
        await client.query('COMMIT');
      } catch (error: unknown) {
        await client.query('ROLLBACK');
        throw new Error(`Migration ${migration.id} (${migration.name}) failed`, { cause: error });
      }
    }
    return pending;
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [advisoryLockKeys.migration]).catch(() => {});
    client.release();
  }
}

/** True when every known migration has been applied (the readiness check). */
export async function isMigrated(pool: pg.Pool): Promise<boolean> {
  const all = await readMigrations();
  const result = await pool.query<{ count: number }>(
    "SELECT CASE WHEN to_regclass('quire_migrations') IS NULL THEN 0 ELSE (SELECT count(*) FROM quire_migrations) END AS count",
  );
  return Number(result.rows[0]?.count ?? 0) >= all.length;
}
