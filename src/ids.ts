import { randomBytes } from 'node:crypto';

const alphabet = '0123456789abcdefghijklmnopqrstuvwxyz';

/**
 * A random identifier with a readable prefix, such as `prj_4k1x...`: 20 characters of base 36
 * (about 103 bits), URL-safe and easy to copy.
 */
export function newId(prefix: string): string {
  const bytes = randomBytes(20);
  let text = '';
  for (const byte of bytes) text += alphabet[byte % alphabet.length];
  return `${prefix}_${text}`;
}
