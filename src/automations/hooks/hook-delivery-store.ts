/** Stored code-host webhooks: one SQL statement per function. */
import type { Queryable } from '../../db/database.ts';

export interface NewHookDelivery {
  id: string;
  projectId: string;
  provider: 'github' | 'gitlab';
  deliveryId: string;
  event: string;
  payload: Record<string, unknown>;
}

export interface HookDelivery extends NewHookDelivery {
  processedAt: Date | null;
}

/** Returns the new row's id, or null when this delivery was stored before (a redelivery). */
export async function insertHookDelivery(db: Queryable, delivery: NewHookDelivery): Promise<string | null> {
  const result = await db.query<{ id: string }>(
    `INSERT INTO hook_deliveries (id, project_id, provider, delivery_id, event, payload)
     VALUES ($1, $2, $3, $4, $5, $6::jsonb)
     ON CONFLICT (project_id, provider, delivery_id) DO NOTHING
     RETURNING id`,
    [
      delivery.id,
      delivery.projectId,
      delivery.provider,
      delivery.deliveryId,
      delivery.event,
      JSON.stringify(delivery.payload),
    ],
  );
  return result.rows[0]?.id ?? null;
}

/** The delivery, locked to the end of the transaction: it is processed by one worker at a time. */
export async function lockHookDelivery(db: Queryable, id: string): Promise<HookDelivery | null> {
  const result = await db.query<{
    id: string;
    project_id: string;
    provider: 'github' | 'gitlab';
    delivery_id: string;
    event: string;
    payload: Record<string, unknown>;
    processed_at: Date | null;
  }>('SELECT * FROM hook_deliveries WHERE id = $1 FOR UPDATE', [id]);
  const row = result.rows[0];
  if (!row) return null;
  return {
    id: row.id,
    projectId: row.project_id,
    provider: row.provider,
    deliveryId: row.delivery_id,
    event: row.event,
    payload: row.payload,
    processedAt: row.processed_at,
  };
}

export async function markHookDeliveryProcessed(db: Queryable, id: string, outcome: string): Promise<void> {
  await db.query('UPDATE hook_deliveries SET processed_at = now(), outcome = $2 WHERE id = $1', [
    id,
    outcome,
  ]);
}
