/**
 * Signing in to the dashboard: email and password against the stored scrypt hash, with lockout.
 * After `maximumFailures` failed attempts for one email within `windowSeconds`, that email is
 * refused (even with the right password) until the window has passed. The same holds for emails
 * that have no account, and they cost as long to refuse, so neither reveals which accounts exist.
 */
import type pg from 'pg';
import { RateLimitedError, UnauthorizedError } from '../errors.ts';
import { generatePassword, hashPassword, verifyPassword } from './password.ts';
import { insertSession } from './session-store.ts';
import { clearSignInFailures, recentSignInFailures, recordSignInFailure } from './sign-in-failures.ts';
import { findUserByEmail, normalizeEmail, recordSignIn } from './user-store.ts';

export interface LockoutPolicy {
  maximumFailures: number;
  windowSeconds: number;
}

export const defaultLockoutPolicy: LockoutPolicy = { maximumFailures: 5, windowSeconds: 15 * 60 };

export type SignIn = (email: string, password: string) => Promise<{ sessionToken: string; userId: string }>;

export function createSignIn(pool: pg.Pool, policy: LockoutPolicy = defaultLockoutPolicy): SignIn {
  let decoyHash: Promise<string> | null = null;
  return async (typedEmail, password) => {
    const email = normalizeEmail(typedEmail).slice(0, 320);
    const failures = await recentSignInFailures(pool, email, policy.windowSeconds);
    if (failures.count >= policy.maximumFailures) {
      const minutes = Math.ceil(failures.secondsUntilOldestExpires / 60);
      throw new RateLimitedError(
        `Too many failed sign-ins for this email; try again in ${minutes} minute${minutes === 1 ? '' : 's'}`,
        failures.secondsUntilOldestExpires,
      );
    }
    const user = await findUserByEmail(pool, email);
    decoyHash ??= hashPassword(generatePassword());
    const matches = await verifyPassword(password, user?.passwordHash ?? (await decoyHash));
    if (user === null || !matches) {
      await recordSignInFailure(pool, email);
      throw new UnauthorizedError('Incorrect email or password');
    }
    await clearSignInFailures(pool, email);
    await recordSignIn(pool, user.id);
    return { sessionToken: await insertSession(pool, user.id), userId: user.id };
  };
}
