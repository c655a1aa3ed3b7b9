/**
 * A per-client fixed-window counter for the public beacon endpoint, in memory. Keys are hashed,
 * so the limiter holds no IP address either. Per process: with several API processes a client
 * gets the limit once per process, which bounds abuse without a database round trip per beacon.
 */
import { createHash } from 'node:crypto';

export interface ClientRateLimiter {
  /** Counts one request; returns 0 when allowed, else the seconds until the window resets. */
  take(client: string, now: number): number;
}

export function createClientRateLimiter(options: {
  limit: number;
  windowMilliseconds: number;
}): ClientRateLimiter {
  let windowStart = 0;
  let counts = new Map<string, number>();
  return {
    take(client, now) {
      if (now - windowStart >= options.windowMilliseconds) {
        windowStart = now - (now % options.windowMilliseconds);
        counts = new Map();
      }
      const key = createHash('sha256').update(client).digest('base64url').slice(0, 22);
      const count = (counts.get(key) ?? 0) + 1;
      counts.set(key, count);
      if (count <= options.limit) return 0;
      return Math.max(1, Math.ceil((windowStart + options.windowMilliseconds - now) / 1000));
    },
  };
}
