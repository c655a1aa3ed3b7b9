/**
 * Keys verified recently, kept in memory so that a request costs no key lookup. A revocation
 * notifies every process on commit (api-key-store.ts) and evicts the key here; the dashboard also
 * evicts at once in its own process.
 */
import { createNotifiedCache, type NotifiedCache } from '../db/notified-cache.ts';
import type { Notifier } from '../db/notifier.ts';
import type { ApiKey } from './api-key.ts';
import { apiKeyChangedChannel } from './api-key-store.ts';

export interface ApiKeyCache {
  get(secretHash: string): ApiKey | undefined;
  /** Take before reading the database; pass to `set` (see NotifiedCache). */
  generation(): number;
  set(secretHash: string, key: ApiKey, readGeneration: number): void;
  evict(keyId: string): void;
}

export async function createApiKeyCache(notifier: Notifier): Promise<ApiKeyCache> {
  const cache: NotifiedCache<ApiKey> = createNotifiedCache(notifier, {
    ttlMilliseconds: 60_000,
    maximumEntries: 10_000,
  });
  const evict = (keyId: string) => cache.evictWhere((key) => key.id === keyId);
  await notifier.subscribe(apiKeyChangedChannel, evict);
  return { get: cache.get, generation: cache.generation, set: cache.set, evict };
}
