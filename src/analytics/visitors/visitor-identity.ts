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
 *
 * A process remembers each client's value for the rest of its day (in memory only, bounded, and
 * dropped with the day's salt): most views come from clients seen minutes before, and the keyed
 * hash was the writer's largest cost.
 */
import { hash, randomBytes } from 'node:crypto';
import type { Queryable } from '../../db/database.ts';

const dayMilliseconds = 86_400_000;
/** At most this many in-memory salts for old days; then they are all forgotten and made anew. */
const maximumOldDaySalts = 400;
/** Clients remembered per process, over all projects and days; then they are all forgotten. */
const maximumRememberedClients = 200_000;

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

  /** Per day, per project: the HMAC key of the day's salt and the values of the clients seen. */
  const remembered = new Map<number, Map<string, RememberedClients>>();
  let rememberedCount = 0;

  function forgetDay(day: number): void {
    for (const clients of remembered.get(day)?.values() ?? []) {
      for (const agents of clients.values.values()) rememberedCount -= agents.size;
    }
    remembered.delete(day);
  }

  /** Forgets every remembered value but keeps the maps in use (their keys stay valid). */
  function forgetAllClients(): void {
    for (const projects of remembered.values()) {
      for (const clients of projects.values()) clients.values.clear();
    }
    rememberedCount = 0;
  }

  async function clientsOf(day: number, projectId: string, yesterday: number): Promise<RememberedClients> {
    let projects = remembered.get(day);
    let clients = projects?.get(projectId);
    if (clients !== undefined) return clients;
    const salt = day >= yesterday ? await keptSalt(day, yesterday) : oldDaySalt(day);
    projects = remembered.get(day);
    if (projects === undefined) {
      projects = new Map();
      remembered.set(day, projects);
    }
    clients = projects.get(projectId) ?? { key: hmacKey(salt), values: new Map() };
    projects.set(projectId, clients);
    return clients;
  }

  function oldDaySalt(day: number): Buffer {
    let salt = oldDays.get(day);
    if (salt === undefined) {
      if (oldDays.size >= maximumOldDaySalts) {
        // The old days' remembered values go with their salts.
        for (const old of oldDays.keys()) forgetDay(old);
        oldDays.clear();
      }
      salt = randomBytes(32);
      oldDays.set(day, salt);
    }
    return salt;
  }

  return {
    async visitorsOf(projectId, views) {
      const yesterday = Math.floor(now() / dayMilliseconds) - 1;
      for (const day of kept.keys()) if (day < yesterday) kept.delete(day);
      for (const day of remembered.keys()) if (day < yesterday && !oldDays.has(day)) forgetDay(day);
      const days = new Map<number, RememberedClients>();
      for (const view of views) {
        if (view.address === undefined) continue;
        const day = Math.floor(view.occurredAt / dayMilliseconds);
        if (!days.has(day)) days.set(day, await clientsOf(day, projectId, yesterday));
      }
      const onlyDay = days.values().next().value as RememberedClients;
      const result: Array<number | undefined> = new Array(views.length);
      for (let index = 0; index < views.length; index += 1) {
        const view = views[index] as VisitorSource;
        if (view.address === undefined) continue;
        if (rememberedCount >= maximumRememberedClients) forgetAllClients();
        const clients =
          days.size === 1
            ? onlyDay
            : (days.get(Math.floor(view.occurredAt / dayMilliseconds)) as RememberedClients);
        // address -> user agent -> value: no key string is built for a client seen before.
        const userAgent = view.userAgent ?? '';
        let agents = clients.values.get(view.address);
        if (agents === undefined) {
          agents = new Map();
          clients.values.set(view.address, agents);
        }
        let visitor = agents.get(userAgent);
        if (visitor === undefined) {
          // The digest's first four bytes, big-endian.
          visitor = Number.parseInt(
            hmacSha256(clients.key, `${projectId}\0${view.address}\0${userAgent}`).slice(0, 8),
            16,
          );
          agents.set(userAgent, visitor);
          rememberedCount += 1;
        }
        result[index] = visitor;
      }
      return result;
    },
    async forgetOldSalts() {
      const yesterday = Math.floor(now() / dayMilliseconds) - 1;
      for (const day of kept.keys()) if (day < yesterday) kept.delete(day);
      for (const day of remembered.keys()) if (day < yesterday && !oldDays.has(day)) forgetDay(day);
      const result = await options.db.query({
        name: 'analytics-forget-visitor-salts',
        text: 'DELETE FROM analytics_visitor_salts WHERE day < $1::date',
        values: [dateOf(yesterday)],
      });
      return result.rowCount ?? 0;
    },
  };
}

interface RememberedClients {
  key: HmacKey;
  /** Visitor values by address, then user agent. */
  values: Map<string, Map<string, number>>;
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
 * HMAC-SHA-256 (RFC 2104), in hex, from precomputed pads with the one-shot `crypto.hash`: `createHmac`
 * builds a key object per call, which cost the writer more than the rest of the visitor work
 * together. Digests come back as strings (the inner one as Latin-1 characters, one per byte): a
 * digest returned as a Buffer gets a backing store of its own, which made this take twice as long
 * (`node bench/request-identity.ts`).
 */
export function hmacSha256(key: HmacKey, message: string): string {
  const innerDigest = hash('sha256', Buffer.concat([key.inner, Buffer.from(message)]), 'binary');
  return hash('sha256', Buffer.concat([key.outer, Buffer.from(innerDigest, 'latin1')]), 'hex');
}

function dateOf(day: number): string {
  return new Date(day * dayMilliseconds).toISOString().slice(0, 10);
}
