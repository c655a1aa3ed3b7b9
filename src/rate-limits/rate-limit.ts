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

/** Counts one request against the limit; throws `RateLimitedError` when it is over. */
export async function consumeRateLimit(
  db: Queryable,
  projectId: string,
  rateLimit: RateLimit,
): Promise<void> {
  const result = await db.query<{ count: number; retry_after: number; limit: number }>({
    name: 'consume-rate-limit',
    // Every request of a project updates this one row, so its lock must be held as briefly as
    // possible: the counter's commit does not wait for the WAL flush (a crash may forget a few
    // counts, never anything else). The project's own limit is read in the same statement.
    text: `WITH relaxed AS (SELECT set_config('synchronous_commit', 'off', true)),
     project_limit AS (
       SELECT CASE WHEN settings->>$4 ~ '^[0-9]{1,9}$' THEN (settings->>$4)::int END AS value
       FROM projects WHERE id = $1
     )
     INSERT INTO rate_limit_counters (project_id, bucket, window_start, count)
     SELECT $1, $2, to_timestamp(floor(extract(epoch FROM now()) / $3) * $3), 1 FROM relaxed
     ON CONFLICT (project_id, bucket, window_start) DO UPDATE SET count = rate_limit_counters.count + 1
     RETURNING count,
       ceil(extract(epoch FROM window_start + make_interval(secs => $3) - now()))::int AS retry_after,
       coalesce((SELECT value FROM project_limit), $5) AS limit`,
    values: [
      projectId,
      rateLimit.bucket,
      rateLimit.windowSeconds,
      rateLimit.projectSetting ?? '',
      rateLimit.limit,
    ],
  });
  const row = result.rows[0]!;
  if (row.count > row.limit) {
    throw new RateLimitedError(
      `Rate limit exceeded: at most ${row.limit} ${rateLimit.bucket} requests per ${rateLimit.windowSeconds} seconds for this project`,
      Math.max(1, row.retry_after),
    );
  }
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
