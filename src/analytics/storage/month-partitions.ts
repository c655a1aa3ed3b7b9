/**
 * The monthly partitions of `analytics_page_views`, each partitioned again by project (migration
 * 0010): created on demand before an insert touches a new month or a project's first view of it,
 * listed for verification, dropped whole once past the retention period.
 */
import type { Queryable } from '../../db/database.ts';
import { floorMonth } from './time-buckets.ts';

/** Creates the partitions that hold the project's views of these times, if missing. */
export async function ensurePageViewPartitions(
  db: Queryable,
  projectId: string,
  times: Iterable<number>,
): Promise<void> {
  const months = [...new Set([...times].map(floorMonth))].sort((left, right) => left - right);
  for (const month of months) {
    await db.query('SELECT analytics_ensure_page_view_partition($1, $2)', [projectId, new Date(month)]);
  }
}

export interface MonthPartition {
  name: string;
  /** The first instant of the month. */
  month: Date;
}

export async function listMonthPartitions(db: Queryable): Promise<MonthPartition[]> {
  const result = await db.query<{ name: string }>(
    `SELECT child.relname AS name
     FROM pg_inherits
     JOIN pg_class parent ON parent.oid = pg_inherits.inhparent
     JOIN pg_class child ON child.oid = pg_inherits.inhrelid
     WHERE parent.oid = 'analytics_page_views'::regclass
     ORDER BY child.relname`,
  );
  return result.rows.flatMap(({ name }) => {
    const match = /^analytics_page_views_(\d{4})_(\d{2})$/.exec(name);
    return match ? [{ name, month: new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, 1)) }] : [];
  });
}

/**
 * Drops the raw events of every month that ended before `cutoff`. Rollups are kept, so exports
 * of old ranges still answer (to the hour); only raw edges and reclassification lose that month.
 */
export async function dropMonthPartitionsBefore(db: Queryable, cutoff: number): Promise<string[]> {
  const dropped: string[] = [];
  for (const partition of await listMonthPartitions(db)) {
    const end = Date.UTC(partition.month.getUTCFullYear(), partition.month.getUTCMonth() + 1, 1);
    if (end > cutoff) continue;
    // The name comes from the catalog and matched the pattern above; it is safe to interpolate.
    await db.query(`DROP TABLE IF EXISTS ${partition.name}`);
    dropped.push(partition.name);
  }
  return dropped;
}
