/**
 * What maintenance does for visitors beside folding (src/maintenance/), every minute: compacts the
 * marks of hours that are over and packs the counts of days that are over.
 */
import type pg from 'pg';
import { compactVisitorMarks } from './visitor-marks.ts';
import { packVisitorDays } from './visitor-packing.ts';

/** Hours are compacted this long after they end: marks of late views still find them open. */
const compactionGraceMilliseconds = 10 * 60_000;
const hourMilliseconds = 3_600_000;

/** Compacts and packs every project's closed hours and days; returns the rows written. */
export async function compactAndPackVisitors(
  pool: pg.Pool,
  options: { now?: number; signal?: AbortSignal } = {},
): Promise<number> {
  const now = options.now ?? Date.now();
  const closedBefore = Math.floor((now - compactionGraceMilliseconds) / hourMilliseconds) * hourMilliseconds;
  const projects = await pool.query<{ id: string }>('SELECT id FROM projects ORDER BY id');
  let written = 0;
  for (const { id } of projects.rows) {
    for (;;) {
      if (options.signal?.aborted === true) return written;
      const compacted = await compactVisitorMarks(pool, id, closedBefore);
      if (compacted === 0) break;
      written += compacted;
    }
    written += await packVisitorDays(pool, id, options);
  }
  return written;
}
