import { randomBytes } from 'node:crypto';
import type { Queryable } from '../db/database.ts';

export interface Webhook {
  projectId: string;
  url: string;
  secret: string;
  createdAt: Date;
}

export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64url')}`;
}

/** Sets (or replaces) the project's webhook. */
export async function upsertWebhook(
  db: Queryable,
  projectId: string,
  url: string,
  secret: string,
): Promise<Webhook> {
  const result = await db.query<{ project_id: string; url: string; secret: string; created_at: Date }>(
    `INSERT INTO project_webhooks (project_id, url, secret) VALUES ($1, $2, $3)
     ON CONFLICT (project_id) DO UPDATE SET url = EXCLUDED.url, secret = EXCLUDED.secret, created_at = now()
     RETURNING *`,
    [projectId, url, secret],
  );
  const row = result.rows[0]!;
  return { projectId: row.project_id, url: row.url, secret: row.secret, createdAt: row.created_at };
}

export async function findWebhook(db: Queryable, projectId: string): Promise<Webhook | null> {
  const result = await db.query<{ project_id: string; url: string; secret: string; created_at: Date }>(
    'SELECT * FROM project_webhooks WHERE project_id = $1',
    [projectId],
  );
  const row = result.rows[0];
  return row
    ? { projectId: row.project_id, url: row.url, secret: row.secret, createdAt: row.created_at }
    : null;
}

export async function deleteWebhook(db: Queryable, projectId: string): Promise<boolean> {
  const result = await db.query('DELETE FROM project_webhooks WHERE project_id = $1', [projectId]);
  return result.rowCount === 1;
}
