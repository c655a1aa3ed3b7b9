import { randomFillSync } from 'node:crypto';

const alphabet = '0123456789abcdefghijklmnopqrstuvwxyz';
// The largest multiple of 36 that fits in a byte: bytes from it up are skipped, so every
// character is equally likely.
const unbiasedLimit = 256 - (256 % alphabet.length);

// Random bytes are drawn from the operating system a pool at a time: a system call per identifier
// cost a fifth of the CPU time of a cached GET (one request id each) on a virtual machine.
// Every byte is used once.
const pool = Buffer.alloc(4096);
let position = pool.length;

function randomByte(): number {
  if (position === pool.length) {
    randomFillSync(pool);
    position = 0;
  }
  return pool[position++] as number;
}

/**
 * A random identifier with a readable prefix, such as `prj_4k1x...`: 20 characters of base 36
 * (about 103 bits, from the operating system's cryptographic generator), URL-safe and easy to copy.
 */
export function newId(prefix: string): string {
  let text = '';
  while (text.length < 20) {
    const byte = randomByte();
    if (byte < unbiasedLimit) text += alphabet[byte % alphabet.length];
  }
  return `${prefix}_${text}`;
}
