/**
 * Packs the page rollups of closed buckets (migration 0008): once an hour, day, third of a month or
 * month is over (plus a grace period for late views), its per-page counts become one row, so the
 * export reads a few rows per range instead of one per page and bucket.
 *
 * Packed rows are derived data; the per-page hour and day rows stay the source of truth. A writer
 * that adds views to a packed bucket deletes its packed row and moves the level's watermark back
 * (insert-page-views.ts), in the same statement as the views; the packer packs it again later, and
 * the export reads the per-page rows meanwhile. Writers hold the project's packing lock shared and
 * the packer holds it exclusively, so a packed row never misses a committed view.
 */
import type pg from 'pg';
import { transaction } from '../db/database.ts';
import { bucketEnd, floorBucket, type Granularity, packingGraceMilliseconds } from './range-plan.ts';

export const packedLevels: readonly Granularity[] = ['hour', 'day', 'third', 'month'];

/** The SQL call that takes a project's packing lock until the transaction ends. */
export function packingLock(mode: 'shared' | 'exclusive', projectId: string): string {
  return `pg_advisory_xact_lock${mode === 'shared' ? '_shared' : ''}(730119, hashtext(${projectId}))`;
}

/** Buckets per transaction: the lock stops the project's writers while it is held. */
const bucketsPerTransaction: Record<Granularity, number> = { hour: 24, day: 10, third: 1, month: 1 };

const assignPathIds = `
  INSERT INTO analytics_paths (project_id, id, path)
  SELECT $1, (SELECT coalesce(max(id), 0) FROM analytics_paths WHERE project_id = $1)
      + row_number() OVER (ORDER BY path COLLATE "C"), path
  FROM (
    SELECT DISTINCT path FROM analytics_path_rollups AS rollup
    WHERE project_id = $1 AND granularity = analytics_row_level($2) AND bucket >= $3 AND bucket < $4
      AND NOT EXISTS (SELECT FROM analytics_paths AS known WHERE known.project_id = $1 AND known.path = rollup.path)
  ) AS missing`;

const packBuckets = `
  WITH packed AS MATERIALIZED (
    SELECT candidate.start AS bucket, analytics_pack($1, $2, candidate.start) AS counts
    FROM analytics_buckets($2, $3, $4) AS candidate (start)
    WHERE NOT EXISTS (
      SELECT FROM analytics_packed_rollups AS existing
      WHERE existing.project_id = $1 AND existing.granularity = $2 AND existing.bucket = candidate.start
    )
  )
  INSERT INTO analytics_packed_rollups (project_id, granularity, bucket, counts)
  SELECT $1, $2, bucket, counts FROM packed WHERE counts IS NOT NULL`;

export interface PackingReport {
  /** Packed rows written. */
  packed: number;
}

/**
 * Packs every closed bucket of every level not packed yet, for one project or all of them, and
 * returns when there is nothing left to pack.
 */
export async function packRollups(
  pool: pg.Pool,
  options: { projectId?: string; now?: number } = {},
): Promise<PackingReport> {
  const now = options.now ?? Date.now();
  const projectIds =
    options.projectId === undefined
      ? (await pool.query<{ id: string }>('SELECT id FROM projects ORDER BY id')).rows.map((row) => row.id)
      : [options.projectId];
  let packed = 0;
  for (const projectId of projectIds) {
    for (const level of packedLevels) packed += await packLevel(pool, projectId, level, now);
  }
  return { packed };
}

async function packLevel(pool: pg.Pool, projectId: string, level: Granularity, now: number): Promise<number> {
  // Buckets that start before this one are over, grace period included.
  const closedBefore = floorBucket(level, now - packingGraceMilliseconds);
  let packed = 0;
  for (;;) {
    const written = await transaction(pool, async (client) => {
      await client.query(`SELECT ${packingLock('exclusive', '$1')}`, [projectId]);
      const next = await client.query<{ bucket: Date | null }>(
        `SELECT min(bucket) AS bucket FROM analytics_path_rollups
         WHERE project_id = $1 AND granularity = analytics_row_level($2)
           AND bucket >= coalesce(
             (SELECT packed_until FROM analytics_packing WHERE project_id = $1 AND granularity = $2), '-infinity')`,
        [projectId, level],
      );
      const first = next.rows[0]?.bucket;
      if (first === null || first === undefined) return null;
      const start = floorBucket(level, first.getTime());
      if (start >= closedBefore) return null;
      let end = start;
      for (let count = 0; count < bucketsPerTransaction[level] && end < closedBefore; count += 1) {
        end = bucketEnd(level, end);
      }
      const window = [projectId, level, new Date(start), new Date(end)];
      await client.query(assignPathIds, window);
      const inserted = await client.query(packBuckets, window);
      await client.query(
        `INSERT INTO analytics_packing (project_id, granularity, packed_until) VALUES ($1, $2, $3)
         ON CONFLICT (project_id, granularity) DO UPDATE SET packed_until = excluded.packed_until`,
        [projectId, level, new Date(end)],
      );
      return inserted.rowCount ?? 0;
    });
    if (written === null) return packed;
    packed += written;
  }
}

/** Packs at start and then every minute, in every API process (the lock makes it safe). */
export function startRollupPacking(options: {
  pool: pg.Pool;
  log: (message: string, error?: unknown) => void;
  intervalMilliseconds?: number;
}): { stop(): Promise<void> } {
  let running: Promise<void> | null = null;
  const run = () => {
    running ??= packRollups(options.pool)
      .then(
        () => {},
        (error: unknown) => options.log('packing analytics rollups failed', error),
      )
      .finally(() => {
        running = null;
      });
  };
  run();
  const timer = setInterval(run, options.intervalMilliseconds ?? 60_000);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
