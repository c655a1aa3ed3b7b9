/**
 * Password hashing with scrypt (memory-hard, built into Node). Stored as
 * `scrypt$N$r$p$salt$hash` so that the cost can be raised later without breaking old hashes.
 * N = 2^15, r = 8 takes 32 MiB and about 100 ms per hash here: slow for guessing, fine for sign-in.
 */
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

export interface ScryptCost {
  N: number;
  r: number;
  p: number;
}

const defaultCost: ScryptCost = { N: 2 ** 15, r: 8, p: 1 };
const keyLength = 32;

function derive(password: string, salt: Buffer, cost: ScryptCost): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // maxmem must exceed 128 * N * r; twice that leaves room.
    scrypt(password, salt, keyLength, { ...cost, maxmem: 256 * cost.N * cost.r }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

export async function hashPassword(password: string, cost: ScryptCost = defaultCost): Promise<string> {
  const salt = randomBytes(16);
  const hash = await derive(password, salt, cost);
  return ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

/** True when `password` matches; false for a wrong password or a hash it cannot read. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, N, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const cost = { N: Number(N), r: Number(r), p: Number(p) };
  if (![cost.N, cost.r, cost.p].every((value) => Number.isInteger(value) && value > 0)) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await derive(password, Buffer.from(salt, 'base64url'), cost);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** A random password for a generated account: 20 URL-safe characters (120 bits). */
export function generatePassword(): string {
  return randomBytes(15).toString('base64url');
}

const minimumPasswordLength = 12;
const maximumPasswordLength = 1024;

/** A problem with a new password, or null when it is acceptable. */
export function passwordProblem(password: string): string | null {
  if (password.length < minimumPasswordLength)
    return `A password needs at least ${minimumPasswordLength} characters`;
  if (password.length > maximumPasswordLength)
    return `A password has at most ${maximumPasswordLength} characters`;
  return null;
}
