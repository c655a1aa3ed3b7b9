/** The job's step log: what `GET .../job/{id}/events` returns and streams. */
import { jobEventsLockSeed } from '../db/advisory-locks.ts';
import type { Queryable } from '../db/database.ts';

export const jobEventsChannel = 'quire_agent_job_events';

export interface JobEvent {
  id: number;
  jobId: string;
  type: string;
  data: Record<string, unknown>;
  createdAt: Date;
}

interface JobEventRow {
  id: number;
  job_id: string;
  type: string;
  data: Record<string, unknown>;
  created_at: Date;
}

/**
 * Appends an event and wakes live streams. The per-job advisory lock, held to the end of the
 * transaction, makes a job's event ids commit in order, so a reader that resumes "after id N"
 * never skips one.
 */
export async function appendJobEvent(
  db: Queryable,
  jobId: string,
  type: string,
  data: Record<string, unknown> = {},
): Promise<void> {
  await db.query(
    `WITH lock AS (SELECT pg_advisory_xact_lock(hashtextextended($1, ${jobEventsLockSeed})))
     INSERT INTO agent_job_events (job_id, type, data)
     SELECT $1, $2, $3::jsonb FROM lock
     RETURNING pg_notify($4, $1)`,
    [jobId, type, JSON.stringify(data), jobEventsChannel],
  );
}

export async function listJobEvents(
  db: Queryable,
  jobId: string,
  afterId: number,
  limit: number,
): Promise<JobEvent[]> {
  const result = await db.query<JobEventRow>(
    'SELECT id, job_id, type, data, created_at FROM agent_job_events WHERE job_id = $1 AND id > $2 ORDER BY id LIMIT $3',
    [jobId, afterId, limit],
  );
  return result.rows.map((row) => ({
    id: row.id,
    jobId: row.job_id,
    type: row.type,
    data: row.data,
    createdAt: row.created_at,
  }));
}

export function presentJobEvent(event: JobEvent) {
  return { id: event.id, type: event.type, data: event.data, createdAt: event.createdAt.toISOString() };
}
