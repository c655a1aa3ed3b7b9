/**
 * `Idempotency-Key` for POSTs: the first request with a key does the work and its response is
 * stored in the same transaction; a repeat within 24 hours gets that response back and does
 * nothing. A concurrent repeat waits on the key's row until the first commits. Reusing a key for a
 * different request is a 409.
 */
import { createHash } from 'node:crypto';
import type { Queryable } from '../db/database.ts';
import { ConflictError } from '../errors.ts';

export interface IdempotentRequest {
  projectId: string;
  key: string;
  /** Method, path and body: what makes two requests "the same". */
  fingerprint: string;
}

export interface StoredResponse {
  status: number;
  body: unknown;
}

export function fingerprintRequest(method: string, path: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method} ${path}\n${JSON.stringify(body)}`)
    .digest('base64url');
}

/** Claims the key; returns the stored response when the key was already used. */
export async function claimIdempotencyKey(
  db: Queryable,
  request: IdempotentRequest,
): Promise<StoredResponse | null> {
  const claimed = await db.query(
    `INSERT INTO idempotency_keys (project_id, key, request_fingerprint)
     VALUES ($1, $2, $3)
     ON CONFLICT (project_id, key) DO UPDATE
       SET request_fingerprint = EXCLUDED.request_fingerprint, response_status = NULL, response_body = NULL, created_at = now()
       WHERE idempotency_keys.created_at < now() - interval '24 hours'
     RETURNING 1`,
    [request.projectId, request.key, request.fingerprint],
  );
  if (claimed.rowCount === 1) return null;
  const existing = await db.query<{
    request_fingerprint: string;
    response_status: number;
    response_body: unknown;
  }>(
    'SELECT request_fingerprint, response_status, response_body FROM idempotency_keys WHERE project_id = $1 AND key = $2',
    [request.projectId, request.key],
  );
  const row = existing.rows[0]!;
  if (row.request_fingerprint !== request.fingerprint) {
    throw new ConflictError('This Idempotency-Key was already used for a different request');
  }
  return { status: row.response_status, body: row.response_body };
}

export async function storeIdempotentResponse(
  db: Queryable,
  request: IdempotentRequest,
  response: StoredResponse,
): Promise<void> {
  await db.query(
    'UPDATE idempotency_keys SET response_status = $3, response_body = $4::jsonb WHERE project_id = $1 AND key = $2',
    [request.projectId, request.key, response.status, JSON.stringify(response.body)],
  );
}

export async function deleteExpiredIdempotencyKeys(db: Queryable): Promise<void> {
  await db.query("DELETE FROM idempotency_keys WHERE created_at < now() - interval '24 hours'");
}
