/**
 * Per-project rate limits in fixed windows. Costly operations (agent runs spend model tokens) are
 * counted in the database, so the limit holds across every API process; cheap reads are counted
 * in memory, per process.
 */
import type { Queryable } from '../db/database.ts';
import { RateLimitedError } from '../errors.ts';

export interface RateLimit {
  bucket: string;
  /** The limit, unless the project's setting named `projectSetting` holds a whole number. */
  limit: number;
  windowSeconds: number;
  projectSetting?: string;
}

export interface RateLimiter {
  /** Counts one request of the project; throws `RateLimitedError` when it is over the limit. */
  consume(projectId: string): Promise<void>;
}

interface Lease {
  tokens: number;
  /** `Date.now()` at which the lease's window ends. */
  expiresAt: number;
  /** The project's limit as the last lease reported it: sizes the next lease. */
  limit: number;
  pending: Promise<void> | null;
}

/** A lease takes at most this share of the limit, so processes sharing a project share it fairly. */
const leaseShare = 50;
const maximumLeaseSize = 100;

/**
 * A per-project limit counted in the database, so it holds across processes, without a round
 * trip per request: each process reserves requests from the database's counter in leases (a
 * fiftieth of the limit, at most 100; one at a time when the limit is small) and spends them
 * locally. The counter never grants past the limit, so all processes together never admit more
 * than it; a process that stops leaves at most one lease unspent until the window ends.
 */
export function createRateLimiter(db: Queryable, rateLimit: RateLimit): RateLimiter {
  const leases = new Map<string, Lease>();

  async function takeLease(projectId: string, lease: Lease): Promise<void> {
    const wanted = Math.max(1, Math.min(maximumLeaseSize, Math.floor(lease.limit / leaseShare)));
    const result = await db.query<{ granted: number; limit: number; expires_in: number }>({
      name: 'take-rate-limit-lease',
      // Every request of a project in this process and every other one meets on this row, so its
      // lock must be held as briefly as possible: the lease's commit does not wait for the WAL
      // flush (a crash may forget a lease, never anything else).
      text: `WITH relaxed AS (SELECT set_config('synchronous_commit', 'off', true)),
       limits AS (
         SELECT coalesce(
           (SELECT CASE WHEN settings->>$4 ~ '^[0-9]{1,9}$' THEN (settings->>$4)::int END FROM projects WHERE id = $1),
           $5) AS value
       )
       INSERT INTO rate_limit_counters AS counter (project_id, bucket, window_start, count, last_grant)
       SELECT $1, $2, to_timestamp(floor(extract(epoch FROM now()) / $3) * $3), least($6, value), least($6, value)
       FROM limits, relaxed
       ON CONFLICT (project_id, bucket, window_start) DO UPDATE
         SET count = counter.count + least($6, greatest(0, (SELECT value FROM limits) - counter.count)),
           last_grant = least($6, greatest(0, (SELECT value FROM limits) - counter.count))
       RETURNING last_grant AS granted, (SELECT value FROM limits) AS limit,
         ceil(extract(epoch FROM window_start + make_interval(secs => $3) - now()) * 1000)::int AS expires_in`,
      values: [
        projectId,
        rateLimit.bucket,
        rateLimit.windowSeconds,
        rateLimit.projectSetting ?? '',
        rateLimit.limit,
        wanted,
      ],
    });
    const row = result.rows[0]!;
    lease.tokens = row.granted;
    lease.limit = row.limit;
    lease.expiresAt = Date.now() + row.expires_in;
    if (row.granted === 0) {
      throw new RateLimitedError(
        `Rate limit exceeded: at most ${row.limit} ${rateLimit.bucket} requests per ${rateLimit.windowSeconds} seconds for this project`,
        Math.max(1, Math.ceil(row.expires_in / 1000)),
      );
    }
  }

  return {
    async consume(projectId) {
      let lease = leases.get(projectId);
      if (!lease) {
        if (leases.size > 10_000) leases.clear();
        lease = { tokens: 0, expiresAt: 0, limit: 0, pending: null };
        leases.set(projectId, lease);
      }
      for (;;) {
        if (lease.tokens > 0 && lease.expiresAt > Date.now()) {
          lease.tokens -= 1;
          return;
        }
        // One lease request per project at a time; the requests that wait for it then spend it.
        if (lease.pending) {
          await lease.pending.catch(() => {});
          continue;
        }
        const pending = takeLease(projectId, lease);
        lease.pending = pending;
        try {
          await pending;
        } finally {
          lease.pending = null;
        }
      }
    },
  };
}

export async function deleteOldRateLimitCounters(db: Queryable): Promise<void> {
  await db.query("DELETE FROM rate_limit_counters WHERE window_start < now() - interval '1 day'");
}

/** An in-memory fixed-window counter (per process). */
export function createMemoryRateLimiter(rateLimit: Omit<RateLimit, 'bucket'>, now: () => number = Date.now) {
  const windows = new Map<string, { start: number; count: number }>();
  return {
    consume(key: string): void {
      const windowMilliseconds = rateLimit.windowSeconds * 1000;
      const start = Math.floor(now() / windowMilliseconds) * windowMilliseconds;
      let window = windows.get(key);
      if (!window || window.start !== start) {
        if (windows.size > 10_000) windows.clear();
        window = { start, count: 0 };
        windows.set(key, window);
      }
      window.count += 1;
      if (window.count > rateLimit.limit) {
        throw new RateLimitedError(
          `Rate limit exceeded: at most ${rateLimit.limit} reads per ${rateLimit.windowSeconds} seconds for this project`,
          Math.max(1, Math.ceil((start + windowMilliseconds - now()) / 1000)),
        );
      }
    },
  };
}
