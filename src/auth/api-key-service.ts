/** API keys as the edges use them: authenticating a request, and managing a project's keys. */
import type { Queryable } from '../db/database.ts';
import type { ApiKey } from './api-key.ts';
import type { ApiKeyCache } from './api-key-cache.ts';
import { insertApiKey, listApiKeys, type NewApiKey, revokeApiKey } from './api-key-store.ts';
import { authenticate } from './authenticate.ts';

export interface ApiKeyService {
  /** The key of an `Authorization` header; throws the authentication errors of authenticate.ts. */
  authenticate(authorization: string | undefined): Promise<ApiKey>;
  /** Makes a key; its secret is returned once, here, and never stored. */
  create(key: NewApiKey): Promise<{ key: ApiKey; secret: string }>;
  list(projectId: string): Promise<ApiKey[]>;
  /** Revokes a key and forgets it in this process's cache at once. */
  revoke(id: string): Promise<ApiKey | null>;
}

/** `cache`: recently verified keys (null to look every key up). */
export function createApiKeyService(db: Queryable, cache: ApiKeyCache | null): ApiKeyService {
  return {
    authenticate: (authorization) => authenticate(db, authorization, cache),
    create: (key) => insertApiKey(db, key),
    list: (projectId) => listApiKeys(db, projectId),
    async revoke(id) {
      const revoked = await revokeApiKey(db, id);
      // Other processes hear of it by notification; this one need not wait for it.
      cache?.evict(id);
      return revoked;
    },
  };
}
