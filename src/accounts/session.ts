/**
 * A dashboard session as the rest of the code sees it, and the rules of its lifetime. The cookie
 * carries a random token (256 bits); only its SHA-256 is stored (session-store.ts).
 */
import { randomBytes } from 'node:crypto';

export interface DashboardSession {
  userId: string;
  email: string;
  csrfToken: string;
  expiresAt: Date;
  lastSeenAt: Date;
}

/** Sessions end this long after sign-in, or after this long unused, whichever comes first. */
export const sessionLifetimeSeconds = 7 * 24 * 3600;
export const sessionIdleSeconds = 24 * 3600;

export function generateToken(): string {
  return randomBytes(32).toString('base64url');
}
