/**
 * Who a visitor is, without storing anything personal: the first 32 bits of
 * HMAC-SHA-256(salt of the view's UTC day, project \0 address \0 user agent), as Plausible does
 * (https://plausible.io/data-policy#how-we-count-unique-users-without-cookies). A salt is random,
 * kept in the database only from yesterday to tomorrow (views may arrive a day late or early), and
 * then deleted: from then on no one, Quire included, can tell which address a sketch holds. The
 * same person is therefore a new visitor every UTC day, and on every project.
 *
 * A view more than a day old (an old log imported today) gets a salt that lives only in this
 * process's memory, per day, so one import run still counts its visitors, and nothing outlives it.
 * Views without an address are views, not visitors.
 */
import { hash, randomBytes } from 'node:crypto';
import type { Queryable } from '../../db/database.ts';

const dayMilliseconds = 86_400_000;
/** At most this many in-memory salts for old days; then they are all forgotten and made anew. */
const maximumOldDaySalts = 400;

/** What the identity needs of a view. */
export interface VisitorSource {
  occurredAt: number;
  /** The client's IP address as reported (never stored); `undefined`: no visitor. */
  address?: string | undefined;
  userAgent: string | undefined;
}

export interface VisitorIdentity {
  /** The visitor value (an unsigned 32-bit integer) of each view; `undefined` where it has no address. */
  visitorsOf(projectId: string, views: readonly VisitorSource[]): Promise<Array<number | undefined>>;
  /** Deletes the salts of days before yesterday; returns how many were deleted. */
  forgetOldSalts(): Promise<number>;
}

/**
 * Creates the day's salt if it has none yet (deleting the salts of days before yesterday as it
 * does), and returns the salt.
 */
const daySaltStatement = `
  WITH forgotten AS (
    DELETE FROM analytics_visitor_salts WHERE day < $3::date
  ), created AS (
    INSERT INTO analytics_visitor_salts (day, salt) VALUES ($1::date, $2) ON CONFLICT (day) DO NOTHING
    RETURNING salt
  )
  SELECT salt FROM created
  UNION ALL
  SELECT salt FROM analytics_visitor_salts WHERE day = $1::date`;

export function createVisitorIdentity(options: { db: Queryable; now?: () => number }): VisitorIdentity {
  const now = options.now ?? Date.now;
  /** Salts from the database, by day number (days since 1970-01-01 UTC). */
  const kept = new Map<number, Buffer>();
  const oldDays = new Map<number, Buffer>();

  async function keptSalt(day: number, yesterday: number): Promise<Buffer> {
    const cached = kept.get(day);
    if (cached !== undefined) return cached;
    for (let attempt = 1; ; attempt += 1) {
      const result = await options.db.query<{ salt: Buffer }>({
        name: 'analytics-visitor-salt',
        text: daySaltStatement,
        values: [dateOf(day), randomBytes(32), dateOf(yesterday)],
      });
      const salt = result.rows[0]?.salt;
      if (salt !== undefined) {
        kept.set(day, salt);
        return salt;
      }
      // Another process created it after this statement's snapshot: the next statement sees it.
      if (attempt === 2) throw new Error(`The visitor salt of ${dateOf(day)} is missing`);
    }
  }

  function oldDaySalt(day: number): Buffer {
    let salt = oldDays.get(day);
    if (salt === undefined) {
      if (oldDays.size >= maximumOldDaySalts) oldDays.clear();
      salt = randomBytes(32);
      oldDays.set(day, salt);
    }
    return salt;
  }

  return {
    async visitorsOf(projectId, views) {
      const yesterday = Math.floor(now() / dayMilliseconds) - 1;
      for (const day of kept.keys()) if (day < yesterday) kept.delete(day);
      const salts = new Map<number, Buffer>();
      for (const view of views) {
        if (view.address === undefined) continue;
        const day = Math.floor(view.occurredAt / dayMilliseconds);
        if (!salts.has(day))
          salts.set(day, day >= yesterday ? await keptSalt(day, yesterday) : oldDaySalt(day));
      }
      // One HMAC per distinct client and day: repeat views in a batch are common.
      const known = new Map<string, number>();
      const keys = new Map<number, HmacKey>();
      for (const [day, salt] of salts) keys.set(day, hmacKey(salt));
      return views.map((view) => {
        if (view.address === undefined) return undefined;
        const day = Math.floor(view.occurredAt / dayMilliseconds);
        const message = `${projectId}\0${view.address}\0${view.userAgent ?? ''}`;
        const key = `${day}\0${message}`;
        let visitor = known.get(key);
        if (visitor === undefined) {
          visitor = hmacSha256(keys.get(day) as HmacKey, message).readUInt32BE(0);
          known.set(key, visitor);
        }
        return visitor;
      });
    },
    async forgetOldSalts() {
      const yesterday = Math.floor(now() / dayMilliseconds) - 1;
      for (const day of kept.keys()) if (day < yesterday) kept.delete(day);
      const result = await options.db.query({
        name: 'analytics-forget-visitor-salts',
        text: 'DELETE FROM analytics_visitor_salts WHERE day < $1::date',
        values: [dateOf(yesterday)],
      });
      return result.rowCount ?? 0;
    },
  };
}

/** A salt's HMAC pads (RFC 2104, section 2: the key XOR ipad, the key XOR opad). */
interface HmacKey {
  inner: Buffer;
  outer: Buffer;
}

const sha256BlockBytes = 64;

export function hmacKey(salt: Buffer): HmacKey {
  if (salt.length > sha256BlockBytes) throw new RangeError('An HMAC key this long must be hashed first');
  const inner = Buffer.alloc(sha256BlockBytes, 0x36);
  const outer = Buffer.alloc(sha256BlockBytes, 0x5c);
  for (let index = 0; index < salt.length; index += 1) {
    inner[index] = (inner[index] as number) ^ (salt[index] as number);
    outer[index] = (outer[index] as number) ^ (salt[index] as number);
  }
  return { inner, outer };
}

/**
 * HMAC-SHA-256 (RFC 2104) from precomputed pads with the one-shot `crypto.hash`: `createHmac` builds
 * a key object per call, which cost the writer more than the rest of the visitor work together.
 */
export function hmacSha256(key: HmacKey, message: string): Buffer {
  const innerDigest = hash('sha256', Buffer.concat([key.inner, Buffer.from(message)]), 'buffer');
  return hash('sha256', Buffer.concat([key.outer, innerDigest]), 'buffer');
}

function dateOf(day: number): string {
  return new Date(day * dayMilliseconds).toISOString().slice(0, 10);
}
