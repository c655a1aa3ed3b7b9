/**
 * The sign-in form's CSRF token (before a session exists it is a double-submit token: a cookie the
 * form must repeat). Tokens are issued by the server: the time issued (8 base-36 digits), 32
 * random characters and their HMAC-SHA256 (43 base64url characters), cookie-safe, valid
 * for a few hours, so a value planted in the cookie by someone else (a sibling subdomain can set
 * cookies) is refused instead of adopted.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

const lifetimeSeconds = 12 * 3600;

export interface SignInTokens {
  issue(): string;
  /** True for a token this service issued (under the current key) that has not expired. */
  verify(token: string | null): boolean;
}

export function createSignInTokens(key: Buffer, now: () => number = Date.now): SignInTokens {
  const sign = (payload: string) => createHmac('sha256', key).update(payload).digest('base64url');
  return {
    issue() {
      const payload = `${Math.floor(now() / 1000)
        .toString(36)
        .padStart(8, '0')}${randomBytes(24).toString('base64url')}`;
      return `${payload}${sign(payload)}`;
    },
    verify(token) {
      if (token === null) return false;
      const match = /^([0-9a-z]{8})([A-Za-z0-9_-]{32})([A-Za-z0-9_-]{43})$/.exec(token);
      if (!match) return false;
      const expected = Buffer.from(sign(`${match[1]}${match[2]}`));
      const given = Buffer.from(match[3]!);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return false;
      const age = now() / 1000 - Number.parseInt(match[1]!, 36);
      return age >= -60 && age < lifetimeSeconds;
    },
  };
}
