/**
 * What the packed page rollups (migration 0008) share between their writers, the packer and the
 * export planner: which levels are packed, when a bucket is packed, and the lock between them.
 */
import type { Granularity } from './time-buckets.ts';

export const packedLevels: readonly Granularity[] = ['hour', 'day', 'third', 'month'];

/**
 * How long after its end a bucket is packed: views that arrive a little late still land in
 * per-page rows, not in a packed row that would have to be rebuilt.
 */
export const packingGraceMilliseconds = 10 * 60_000;

/** The SQL call that takes a project's packing lock until the transaction ends. */
export function packingLock(mode: 'shared' | 'exclusive', projectIdSql: string): string {
  return `pg_advisory_xact_lock${mode === 'shared' ? '_shared' : ''}(730119, hashtext(${projectIdSql}))`;
}
