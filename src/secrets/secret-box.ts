/**
 * Secrets at rest (code-host tokens, GitHub App keys, webhook and hook secrets), sealed with
 * AES-256-GCM from node:crypto: a random 96-bit IV per value and the 128-bit tag, as NIST SP 800-38D
 * recommends (https://nodejs.org/api/crypto.html#cryptocreatecipherivalgorithm-key-iv-options).
 * A sealed value reads `qsec1.<key id>.<iv>.<ciphertext>.<tag>` (base64url), so it names the key
 * that sealed it: after a rotation, values sealed under an older key still open while they are
 * resealed. Values written before encryption existed are clear text; they open as themselves and
 * `needsSealing` finds them.
 */
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import { NonRetriableError } from '../errors.ts';

const prefix = 'qsec1';
// Binds the ciphertext to its purpose: a value sealed by Quire opens only as a Quire secret.
const additionalData = Buffer.from('quire secret v1');

export interface SecretBox {
  /** The id of the key new values are sealed with (it changes when `refresh` finds a new one). */
  readonly keyId: string;
  seal(plain: string): string;
  /** The clear value of a sealed one (or of a legacy clear value); throws when no key opens it. */
  open(stored: string): string;
  /** True for clear values and for values sealed under a key other than the current one. */
  needsSealing(stored: string): boolean;
  /**
   * A 32-byte key for another purpose (HMAC of form tokens), derived with HKDF-SHA256 from the
   * sealing key of the moment (callers derive theirs once, at start).
   */
  deriveKey(purpose: string): Buffer;
  /**
   * Reads the keys again (after `quire secrets rotate` changed the key file): the first one seals
   * from now on, and every key read opens. Returns the sealing key's id. Without `reload`, nothing
   * changes.
   */
  refresh(): string;
}

/** The first 8 hex digits of the key's SHA-256: names a key without revealing it. */
export function keyIdOf(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 8);
}

export function isSealed(stored: string): boolean {
  return stored.startsWith(`${prefix}.`);
}

function checkKeys(keys: readonly Buffer[]): void {
  if (keys.length === 0 || keys.some((key) => key.length !== 32)) {
    throw new Error('A secret box needs one or more 32-byte keys');
  }
}

/**
 * `keys[0]` seals; every key opens. Each key is 32 bytes. `reload` reads the keys again: on
 * `refresh()` (a rotation was announced), and when a value names a key this box does not know
 * (another process rotated the key file). The keys it returns replace the sealing key; keys read
 * before are kept for opening.
 */
export function createSecretBox(
  keys: readonly Buffer[],
  options: { reload?: () => Buffer[] } = {},
): SecretBox {
  checkKeys(keys);
  const byId = new Map(keys.map((key) => [keyIdOf(key), key]));
  let current = keys[0]!;
  let keyId = keyIdOf(current);
  const refresh = (): string => {
    if (!options.reload) return keyId;
    const read = options.reload();
    checkKeys(read);
    for (const key of read) byId.set(keyIdOf(key), key);
    current = read[0]!;
    keyId = keyIdOf(current);
    return keyId;
  };
  const keyFor = (id: string): Buffer | undefined => {
    if (!byId.has(id)) refresh();
    return byId.get(id);
  };
  return {
    get keyId() {
      return keyId;
    },
    refresh,
    seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', current, iv);
      cipher.setAAD(additionalData);
      const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [prefix, keyId, iv, ciphertext, cipher.getAuthTag()]
        .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
        .join('.');
    },
    open(stored) {
      if (!isSealed(stored)) return stored;
      const [, id = '', iv = '', ciphertext = '', tag = ''] = stored.split('.');
      const key = keyFor(id);
      // The message names the key id only: never the value.
      if (key === undefined) throw new NonRetriableError(`A secret is sealed under an unknown key (${id})`);
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
        decipher.setAAD(additionalData);
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        return Buffer.concat([
          decipher.update(Buffer.from(ciphertext, 'base64url')),
          decipher.final(),
        ]).toString('utf8');
      } catch {
        throw new NonRetriableError(`A secret sealed under key ${id} does not open (altered or corrupt)`);
      }
    },
    needsSealing(stored) {
      return !isSealed(stored) || stored.split('.')[1] !== keyId;
    },
    deriveKey(purpose) {
      return Buffer.from(hkdfSync('sha256', current, Buffer.alloc(0), `quire ${purpose}`, 32));
    },
  };
}
