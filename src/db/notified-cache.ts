/**
 * An in-memory cache that is only as fresh as PostgreSQL notifications make it: the owner
 * subscribes to a channel that every change of the cached rows notifies on commit, and evicts.
 * While the notification connection is down nothing is served or stored (changes could be missed),
 * and a reconnection empties it. Entries also expire after a time to live.
 *
 * A read that raced with a change must not be stored: take `generation()` before reading the
 * database and pass it to `set`, which refuses the value if anything was evicted meanwhile.
 */
import type { Notifier } from './notifier.ts';

export interface NotifiedCache<Value> {
  get(key: string): Value | undefined;
  generation(): number;
  set(key: string, value: Value, readGeneration: number): void;
  evict(key: string): void;
  evictWhere(predicate: (value: Value) => boolean): void;
}

export function createNotifiedCache<Value>(
  notifier: Notifier,
  options: { ttlMilliseconds: number; maximumEntries: number },
): NotifiedCache<Value> {
  const entries = new Map<string, { value: Value; expiresAt: number }>();
  let generation = 0;
  notifier.onReconnect(() => {
    generation += 1;
    entries.clear();
  });
  return {
    generation: () => generation,
    get(key) {
      if (!notifier.connected()) return undefined;
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (entry.expiresAt < Date.now()) {
        entries.delete(key);
        return undefined;
      }
      return entry.value;
    },
    set(key, value, readGeneration) {
      if (!notifier.connected() || readGeneration !== generation) return;
      if (entries.size >= options.maximumEntries) entries.clear();
      entries.set(key, { value, expiresAt: Date.now() + options.ttlMilliseconds });
    },
    evict(key) {
      generation += 1;
      entries.delete(key);
    },
    evictWhere(predicate) {
      generation += 1;
      for (const [key, entry] of entries) if (predicate(entry.value)) entries.delete(key);
    },
  };
}
