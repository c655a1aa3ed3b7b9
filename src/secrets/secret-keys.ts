/**
 * Where the secret key comes from: `QUIRE_SECRET_KEY` (32 bytes as 64 hex digits or base64), with
 * `QUIRE_PREVIOUS_SECRET_KEYS` for the keys it replaced, or by default the key file
 * `<data directory>/secret.key`, created on first use with mode 600. The file holds one key per
 * line, the current one first; a rotation puts a new key in front and drops the old ones once every
 * secret is resealed.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const secretKeyFileName = 'secret.key';

/** A key from its text (64 hex digits, or base64/base64url of 32 bytes); null when it is not one. */
export function parseSecretKey(text: string): Buffer | null {
  const trimmed = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Buffer.from(trimmed, 'hex');
  if (!/^[A-Za-z0-9+/_-]{43}=?$/.test(trimmed)) return null;
  const key = Buffer.from(trimmed.replaceAll('+', '-').replaceAll('/', '_').replace(/=$/, ''), 'base64url');
  return key.length === 32 ? key : null;
}

function keyFilePath(dataDirectory: string): string {
  return path.join(dataDirectory, secretKeyFileName);
}

function readKeyFile(file: string): Buffer[] {
  const keys = fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => parseSecretKey(line));
  if (keys.length === 0 || keys.some((key) => key === null)) {
    throw new Error(`${file} does not hold secret keys (one base64url key of 32 bytes per line)`);
  }
  return keys as Buffer[];
}

function writeKeyFile(file: string, keys: readonly Buffer[]): void {
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, `${keys.map((key) => key.toString('base64url')).join('\n')}\n`, {
    mode: 0o600,
    flag: 'wx',
  });
  fs.renameSync(temporary, file);
}

/** The keys in the data directory's key file, creating it (mode 600) with a new key when absent. */
function loadKeyFile(dataDirectory: string): Buffer[] {
  const file = keyFilePath(dataDirectory);
  fs.mkdirSync(dataDirectory, { recursive: true });
  try {
    fs.writeFileSync(file, `${randomBytes(32).toString('base64url')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error: unknown) {
    // Another process made it first, or it was there already: either way, read it.
    if ((error as { code?: string }).code !== 'EEXIST') throw error;
  }
  // A key readable by others is no secret; tighten it rather than refuse to start.
  if ((fs.statSync(file).mode & 0o077) !== 0) fs.chmodSync(file, 0o600);
  return readKeyFile(file);
}

/** Puts a new key in front of the key file's keys; returns them, the new one first. */
export function addKeyToFile(dataDirectory: string): Buffer[] {
  const keys = [randomBytes(32), ...loadKeyFile(dataDirectory)];
  writeKeyFile(keyFilePath(dataDirectory), keys);
  return keys;
}

/** Keeps only the current key in the key file (after every secret was resealed under it). */
export function dropOldKeysFromFile(dataDirectory: string): void {
  const [current] = loadKeyFile(dataDirectory);
  writeKeyFile(keyFilePath(dataDirectory), [current!]);
}

/** The keys a process uses: from the configuration when set, else from the key file. */
export function loadSecretKeys(config: {
  secretKey: string | null;
  previousSecretKeys: readonly string[];
  dataDirectory: string;
}): Buffer[] {
  if (config.secretKey === null) return loadKeyFile(config.dataDirectory);
  return [config.secretKey, ...config.previousSecretKeys].map((text) => parseSecretKey(text)!);
}
