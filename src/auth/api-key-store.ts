import type { Queryable } from '../db/database.ts';
import { newId } from '../ids.ts';
import { type ApiKey, generateApiKeySecret, hashApiKeySecret, type Scope } from './api-key.ts';

interface ApiKeyRow {
  id: string;
  project_id: string;
  name: string;
  scopes: Scope[];
  last_four: string;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
  expires_at: Date | null;
  allowed_addresses: string[] | null;
}

// cidr[] comes back as text[] so that node-postgres parses it into an array of strings.
const columns =
  'id, project_id, name, scopes, last_four, created_at, last_used_at, revoked_at, expires_at, allowed_addresses::text[] AS allowed_addresses';

function apiKeyFromRow(row: ApiKeyRow): ApiKey {
  return {
    id: row.id,
    projectId: row.project_id,
    name: row.name,
    scopes: row.scopes,
    lastFour: row.last_four,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    revokedAt: row.revoked_at,
    expiresAt: row.expires_at,
    allowedAddresses: row.allowed_addresses,
  };
}

export interface NewApiKey {
  projectId: string;
  name: string;
  scopes: Scope[];
  expiresAt?: Date | null;
  /** Addresses or CIDRs (`203.0.113.0/24`, `2001:db8::1`); null or absent: anywhere. */
  allowedAddresses?: string[] | null;
}

/** Creates a key; the secret is returned here once and never again. */
export async function insertApiKey(db: Queryable, key: NewApiKey): Promise<{ key: ApiKey; secret: string }> {
  const secret = generateApiKeySecret();
  const result = await db.query<ApiKeyRow>(
    `INSERT INTO api_keys (id, project_id, name, scopes, secret_hash, last_four, expires_at, allowed_addresses)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8::cidr[])
     RETURNING ${columns}`,
    [
      newId('key'),
      key.projectId,
      key.name,
      key.scopes,
      hashApiKeySecret(secret),
      secret.slice(-4),
      key.expiresAt ?? null,
      key.allowedAddresses ?? null,
    ],
  );
  return { key: apiKeyFromRow(result.rows[0]!), secret };
}

export async function findApiKeyBySecret(db: Queryable, secret: string): Promise<ApiKey | null> {
  const result = await db.query<ApiKeyRow>({
    name: 'find-api-key-by-secret',
    text: `SELECT ${columns} FROM api_keys WHERE secret_hash = $1`,
    values: [hashApiKeySecret(secret)],
  });
  const row = result.rows[0];
  return row ? apiKeyFromRow(row) : null;
}

export async function listApiKeys(db: Queryable, projectId: string): Promise<ApiKey[]> {
  const result = await db.query<ApiKeyRow>(
    `SELECT ${columns} FROM api_keys WHERE project_id = $1 ORDER BY created_at, id`,
    [projectId],
  );
  return result.rows.map(apiKeyFromRow);
}

export const apiKeyChangedChannel = 'quire_api_key_changed';

/**
 * Revokes a key; returns null when there is no such key. Revoking twice keeps the first time.
 * Every API process hears of it on commit (see api-key-cache.ts).
 */
export async function revokeApiKey(db: Queryable, id: string): Promise<ApiKey | null> {
  const result = await db.query<ApiKeyRow>(
    `UPDATE api_keys SET revoked_at = coalesce(revoked_at, now()) WHERE id = $1
     RETURNING ${columns}, pg_notify($2, id)`,
    [id, apiKeyChangedChannel],
  );
  const row = result.rows[0];
  return row ? apiKeyFromRow(row) : null;
}

/** Records use at most once a minute per key, so that busy keys cost no write per request. */
export async function touchApiKey(db: Queryable, id: string): Promise<void> {
  await db.query(
    `UPDATE api_keys SET last_used_at = now()
     WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`,
    [id],
  );
}
