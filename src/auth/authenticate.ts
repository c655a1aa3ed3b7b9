/**
 * Turns an `Authorization` header into the key it carries, and checks that the key grants a
 * project and a scope. DESIGN.md §1: a missing, malformed, unknown, revoked or expired key is 401;
 * a key for another project (whether or not that project exists) or without the scope is 403.
 */
import type { Queryable } from '../db/database.ts';
import { ForbiddenError, UnauthorizedError } from '../errors.ts';
import { type ApiKey, grantsScope, hashApiKeySecret, isWellFormedApiKey, type Scope } from './api-key.ts';
import type { ApiKeyCache } from './api-key-cache.ts';
import { findApiKeyBySecret, touchApiKey } from './api-key-store.ts';

export async function authenticate(
  db: Queryable,
  authorization: string | undefined,
  cache: ApiKeyCache | null = null,
  now = new Date(),
): Promise<ApiKey> {
  if (authorization === undefined || authorization === '') {
    throw new UnauthorizedError('Missing Authorization header; send "Authorization: Bearer <API key>"');
  }
  const match = /^Bearer +(\S+)$/i.exec(authorization);
  if (!match || !isWellFormedApiKey(match[1]!)) {
    throw new UnauthorizedError('Malformed Authorization header; send "Authorization: Bearer quire_..."');
  }
  const secret = match[1]!;
  const hash = hashApiKeySecret(secret).toString('hex');
  let key = cache?.get(hash) ?? null;
  if (key === null) {
    const generation = cache?.generation() ?? 0;
    key = await findApiKeyBySecret(db, secret);
    if (key === null) throw new UnauthorizedError('Unknown API key');
    if (key.revokedAt === null) cache?.set(hash, key, generation);
  }
  if (key.revokedAt !== null) throw new UnauthorizedError('This API key has been revoked');
  if (key.expiresAt !== null && key.expiresAt <= now) throw new UnauthorizedError('This API key has expired');
  // At most once a minute per key, and fire and forget: bookkeeping must not slow or fail a request.
  if (key.lastUsedAt === null || now.getTime() - key.lastUsedAt.getTime() > 60_000) {
    key.lastUsedAt = now;
    touchApiKey(db, key.id).catch(() => {});
  }
  return key;
}

export function authorize(key: ApiKey, projectId: string, scope: Scope): void {
  if (key.projectId !== projectId) {
    throw new ForbiddenError('This API key does not grant access to this project');
  }
  if (!grantsScope(key.scopes, scope)) {
    throw new ForbiddenError(`This API key lacks the "${scope}" scope`);
  }
}
