/**
 * UTC time buckets of the analytics rollups: hours, days, thirds of a month (the 1st–10th, 11th–20th
 * and 21st–end) and months, as epoch milliseconds.
 *
 *   floorBucket('third', Date.parse('2026-01-15T08:00Z')) // Date.parse('2026-01-11T00:00Z')
 */
export type Granularity = 'hour' | 'day' | 'third' | 'month';

const hourMilliseconds = 3_600_000;
const dayMilliseconds = 86_400_000;

/** The start of the bucket of `level` that holds `time` (UTC). */
export function floorBucket(level: Granularity, time: number): number {
  if (level === 'hour') return Math.floor(time / hourMilliseconds) * hourMilliseconds;
  if (level === 'day') return Math.floor(time / dayMilliseconds) * dayMilliseconds;
  const date = new Date(time);
  const day = level === 'month' ? 1 : date.getUTCDate() < 11 ? 1 : date.getUTCDate() < 21 ? 11 : 21;
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), day);
}

/** The end of the bucket of `level` that starts at `start`. */
export function bucketEnd(level: Granularity, start: number): number {
  if (level === 'hour') return start + hourMilliseconds;
  if (level === 'day') return start + dayMilliseconds;
  const date = new Date(start);
  if (level === 'third' && date.getUTCDate() < 21) return start + 10 * dayMilliseconds;
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
}

export function ceilBucket(level: Granularity, time: number): number {
  const floor = floorBucket(level, time);
  return floor === time ? time : bucketEnd(level, floor);
}

export function floorHour(time: number): number {
  return floorBucket('hour', time);
}

export function floorDay(time: number): number {
  return floorBucket('day', time);
}

export function floorMonth(time: number): number {
  return floorBucket('month', time);
}
