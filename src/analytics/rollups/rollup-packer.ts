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
import { transaction } from '../../db/database.ts';
import {
  bucketEnd,
  encodePackedEntries,
  floorBucket,
  type Granularity,
  type PackedEntry,
  packedCountsWidth,
  packedDetailWidth,
  packedLevels,
  packingGraceMilliseconds,
  packingLock,
} from '../storage/index.ts';

/** Buckets per transaction: the lock stops the project's writers while it is held. */
const bucketsPerTransaction: Record<Granularity, number> = { hour: 24, day: 10, third: 1, month: 1 };

/** The counts and detail counters of every page in the window, per bucket of the level, by path id. */
const bucketCounts = `
  SELECT analytics_bucket_start($2, bucket) AS bucket, path_id,
    sum(human)::bigint AS human, sum(ai_assistant)::bigint AS ai_assistant,
    sum(ai_search + ai_training)::bigint AS ai_crawlers, sum(ai_referred)::bigint AS ai_referred,
    sum(ai_search)::bigint AS ai_search, sum(ai_training)::bigint AS ai_training, sum(bot)::bigint AS bot,
    sum(verified_ai)::bigint AS verified_ai
  FROM analytics_path_rollups
  WHERE series = analytics_series($1, analytics_row_level($2)) AND bucket >= $3 AND bucket < $4
  GROUP BY 1, 2
  HAVING sum(human) > 0 OR sum(ai_assistant) > 0 OR sum(ai_search + ai_training) > 0 OR sum(bot) > 0
    OR sum(ai_referred) > 0 OR sum(verified_ai) > 0
  ORDER BY 1, 2`;

interface BucketCountRow {
  bucket: Date;
  path_id: number;
  human: number;
  ai_assistant: number;
  ai_crawlers: number;
  ai_referred: number;
  ai_search: number;
  ai_training: number;
  bot: number;
  verified_ai: number;
}

export interface PackingReport {
  /** Packed rows written. */
  packed: number;
}

/**
 * Packs every closed bucket of every level not packed yet, for one project or all of them, and
 * returns when there is nothing left to pack or `signal` aborts (between transactions: what is
 * packed stays packed, the rest waits for the next pass).
 */
export async function packRollups(
  pool: pg.Pool,
  options: { projectId?: string; now?: number; signal?: AbortSignal } = {},
): Promise<PackingReport> {
  const now = options.now ?? Date.now();
  const projectIds =
    options.projectId === undefined
      ? (await pool.query<{ id: string }>('SELECT id FROM projects ORDER BY id')).rows.map((row) => row.id)
      : [options.projectId];
  let packed = 0;
  for (const projectId of projectIds) {
    for (const level of packedLevels) packed += await packLevel(pool, projectId, level, now, options.signal);
  }
  return { packed };
}

async function packLevel(
  pool: pg.Pool,
  projectId: string,
  level: Granularity,
  now: number,
  signal: AbortSignal | undefined,
): Promise<number> {
  // Buckets that start before this one are over, grace period included.
  const closedBefore = floorBucket(level, now - packingGraceMilliseconds);
  let packed = 0;
  while (signal?.aborted !== true) {
    const written = await transaction(pool, async (client) => {
      await client.query(`SELECT ${packingLock('exclusive', '$1')}`, [projectId]);
      const next = await client.query<{ bucket: Date | null }>(
        `SELECT min(bucket) AS bucket FROM analytics_path_rollups
         WHERE series = analytics_series($1, analytics_row_level($2))
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
      const existing = await client.query<{ bucket: Date }>(
        `SELECT bucket FROM analytics_packed_rollups
         WHERE project_id = $1 AND granularity = $2 AND bucket >= $3 AND bucket < $4`,
        window,
      );
      // Packed rows that exist are current: a writer deletes the packed row of every bucket it adds to.
      const current = new Set(existing.rows.map((row) => row.bucket.getTime()));
      // Per bucket: the pages with export counts, and the pages with detail counters (a page with
      // only bot views has detail and no counts).
      const entries = new Map<number, { counts: PackedEntry[]; detail: PackedEntry[] }>();
      for (const row of (await client.query<BucketCountRow>(bucketCounts, window)).rows) {
        const bucket = row.bucket.getTime();
        if (current.has(bucket)) continue;
        const bucketEntries = entries.get(bucket) ?? { counts: [], detail: [] };
        if (row.human > 0 || row.ai_assistant > 0 || row.ai_crawlers > 0) {
          bucketEntries.counts.push([row.path_id, [row.human, row.ai_assistant, row.ai_crawlers]]);
        }
        const detail = [row.ai_referred, row.ai_search, row.ai_training, row.bot, row.verified_ai];
        if (detail.some((count) => count > 0)) bucketEntries.detail.push([row.path_id, detail]);
        entries.set(bucket, bucketEntries);
      }
      const inserted = await client.query(
        `INSERT INTO analytics_packed_rollups (project_id, granularity, bucket, counts, detail)
         SELECT $1, $2, * FROM unnest($3::timestamptz[], $4::bytea[], $5::bytea[])`,
        [
          projectId,
          level,
          [...entries.keys()].map((bucket) => new Date(bucket)),
          [...entries.values()].map((bucket) => encodePackedEntries(packedCountsWidth, bucket.counts)),
          [...entries.values()].map((bucket) => encodePackedEntries(packedDetailWidth, bucket.detail)),
        ],
      );
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
  return packed;
}

/**
 * Packs at start and then every minute, in every API process (the lock makes it safe). `stop`
 * ends a pass at its next transaction: a catch-up over years of data does not hold up shutdown.
 */
export function startRollupPacking(options: {
  pool: pg.Pool;
  log: (message: string, error?: unknown) => void;
  intervalMilliseconds?: number;
}): { stop(): Promise<void> } {
  const stopping = new AbortController();
  let running: Promise<void> | null = null;
  const run = () => {
    running ??= packRollups(options.pool, { signal: stopping.signal })
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
      stopping.abort();
      await running;
    },
  };
}
