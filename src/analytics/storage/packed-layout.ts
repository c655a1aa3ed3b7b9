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

// The lock between writers, the packer and reclassification; its key is kept with the others.
export { packingLock } from '../../db/advisory-locks.ts';
