/**
 * Seals every stored secret under the current key: clear values left from before encryption
 * (run at every start, so upgrading encrypts them) and values sealed under an older key (after
 * `quire secrets rotate`). Each row is updated only if it has not changed meanwhile, and running
 * it twice changes nothing the second time.
 */
import type { Queryable } from '../db/database.ts';
import { resealSettings, resealValue } from './project-secrets.ts';
import type { SecretBox } from './secret-box.ts';

async function resealProjects(db: Queryable, box: SecretBox, unreadable: { count: number }): Promise<number> {
  const { rows } = await db.query<{ id: string; settings: Record<string, unknown> }>(
    'SELECT id, settings FROM projects',
  );
  let changed = 0;
  for (const row of rows) {
    const sealed = resealSettings(row.settings, box, unreadable);
    if (sealed === null) continue;
    const result = await db.query(
      'UPDATE projects SET settings = $2::jsonb WHERE id = $1 AND settings = $3::jsonb',
      [row.id, JSON.stringify(sealed), JSON.stringify(row.settings)],
    );
    changed += result.rowCount ?? 0;
  }
  return changed;
}

async function resealWebhooks(db: Queryable, box: SecretBox, unreadable: { count: number }): Promise<number> {
  const { rows } = await db.query<{ project_id: string; secret: string }>(
    'SELECT project_id, secret FROM project_webhooks',
  );
  let changed = 0;
  for (const row of rows) {
    const sealed = resealValue(row.secret, box, unreadable);
    if (sealed === row.secret) continue;
    const result = await db.query(
      'UPDATE project_webhooks SET secret = $2 WHERE project_id = $1 AND secret = $3',
      [row.project_id, sealed, row.secret],
    );
    changed += result.rowCount ?? 0;
  }
  return changed;
}

/** The number of rows resealed, and of values no known key opens (left as they are). */
export async function resealAllSecrets(
  db: Queryable,
  box: SecretBox,
): Promise<{ projects: number; webhooks: number; unreadable: number }> {
  const unreadable = { count: 0 };
  const projects = await resealProjects(db, box, unreadable);
  const webhooks = await resealWebhooks(db, box, unreadable);
  return { projects, webhooks, unreadable: unreadable.count };
}
