/**
 * Vercel signs every drain delivery: `x-vercel-signature` is the hex HMAC-SHA1 of the raw body
 * keyed with the drain's signature secret (https://vercel.com/docs/drains/security). Compared in
 * constant time.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export function isValidVercelSignature(body: Buffer, secret: string, header: string | undefined): boolean {
  if (header === undefined || !/^[0-9a-f]{40}$/i.test(header)) return false;
  const expected = createHmac('sha1', secret).update(body).digest();
  return timingSafeEqual(expected, Buffer.from(header, 'hex'));
}
