/**
 * With no dashboard user yet (a new database, or one from before the dashboard), the server creates
 * one with a generated password, to be printed once, so that `npm start` alone is enough to sign in.
 */
import type pg from 'pg';
import { advisoryLockKeys } from '../db/advisory-locks.ts';
import { transaction } from '../db/database.ts';
import { generatePassword, hashPassword } from './password.ts';
import { countUsers, insertUser } from './user-store.ts';

const firstUserEmail = 'admin@localhost';

export interface FirstUser {
  email: string;
  password: string;
}

export async function createFirstUserIfNone(pool: pg.Pool): Promise<FirstUser | null> {
  return transaction(pool, async (client) => {
    // Several processes may start at once; one creates, the others see it.
    await client.query('SELECT pg_advisory_xact_lock($1)', [advisoryLockKeys.firstUser]);
    if ((await countUsers(client)) > 0) return null;
    const password = generatePassword();
    await insertUser(client, { email: firstUserEmail, passwordHash: await hashPassword(password) });
    return { email: firstUserEmail, password };
  });
}
