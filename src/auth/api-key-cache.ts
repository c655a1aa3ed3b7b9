/**
 * Keys verified recently, kept in memory so that a request costs no key lookup. Correctness rests
 * on hearing of every change: a revocation notifies every process on commit and evicts the key
 * here, and while the notification connection is down nothing is served from the cache (it is
 * emptied on reconnection, as changes may have been missed). Entries also expire after a minute.
 */
import type { Notifier } from '../db/notifier.ts';
import type { ApiKey } from './api-key.ts';
import { apiKeyChangedChannel } from './api-key-store.ts';

export interface ApiKeyCache {
  get(secretHash: string): ApiKey | undefined;
  set(secretHash: string, key: ApiKey): void;
  evict(keyId: string): void;
}

export async function createApiKeyCache(
  notifier: Notifier,
  options: { ttlMilliseconds?: number; maxEntries?: number } = {},
): Promise<ApiKeyCache> {
  const ttl = options.ttlMilliseconds ?? 60_000;
  const maxEntries = options.maxEntries ?? 10_000;
  const entries = new Map<string, { key: ApiKey; expiresAt: number }>();
  const evict = (keyId: string) => {
    for (const [hash, entry] of entries) if (entry.key.id === keyId) entries.delete(hash);
  };
  await notifier.subscribe(apiKeyChangedChannel, evict);
  notifier.onReconnect(() => entries.clear());
  return {
    get(secretHash) {
      if (!notifier.connected()) return undefined;
      const entry = entries.get(secretHash);
      if (!entry) return undefined;
      if (entry.expiresAt < Date.now()) {
        entries.delete(secretHash);
        return undefined;
      }
      return entry.key;
    },
    set(secretHash, key) {
      if (!notifier.connected()) return;
      if (entries.size >= maxEntries) entries.clear();
      entries.set(secretHash, { key, expiresAt: Date.now() + ttl });
    },
    evict,
  };
}
