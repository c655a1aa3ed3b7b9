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
import { clearSignInFailures, reserveSignInAttempt } from './sign-in-failures.ts';
import { findUserByEmail, normalizeEmail, recordSignIn } from './user-store.ts';

export interface LockoutPolicy {
  maximumFailures: number;
  windowSeconds: number;
}

export const defaultLockoutPolicy: LockoutPolicy = { maximumFailures: 5, windowSeconds: 15 * 60 };

export type SignIn = (email: string, password: string) => Promise<{ sessionToken: string; userId: string }>;

export function createSignIn(
  pool: pg.Pool,
  policy: LockoutPolicy = defaultLockoutPolicy,
  checkPassword: (password: string, stored: string) => Promise<boolean> = verifyPassword,
): SignIn {
  let decoyHash: Promise<string> | null = null;
  return async (typedEmail, password) => {
    const email = normalizeEmail(typedEmail).slice(0, 320);
    // The failure is recorded first and cleared on success: counting after the check let
    // concurrent guesses all pass the count before any of them was recorded.
    const attempt = await reserveSignInAttempt(pool, email, policy);
    if (!attempt.allowed) {
      const seconds = attempt.secondsUntilOldestExpires;
      const minutes = Math.ceil(seconds / 60);
      throw new RateLimitedError(
        `Too many failed sign-ins for this email; try again in ${minutes} minute${minutes === 1 ? '' : 's'}`,
        seconds,
      );
    }
    const user = await findUserByEmail(pool, email);
    decoyHash ??= hashPassword(generatePassword());
    const matches = await checkPassword(password, user?.passwordHash ?? (await decoyHash));
    if (user === null || !matches) throw new UnauthorizedError('Incorrect email or password');
    await clearSignInFailures(pool, email);
    await recordSignIn(pool, user.id);
    return { sessionToken: await insertSession(pool, user.id), userId: user.id };
  };
}
