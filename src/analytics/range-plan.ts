/**
 * Splits a time range into the pieces the export reads: whole months, days and hours from the
 * rollups, and the partial hours at either edge from raw events. Summing the pieces (each with its
 * sign) counts every view of `[from, to)` exactly once.
 *
 * A partial month (or day) at an edge can be read two ways: its days directly, or the whole month
 * minus the days outside the range. The plan takes whichever reads fewer buckets, and buckets that
 * start after `now` cost nothing (they are empty): a range ending today reads this month as one
 * bucket minus today's remainder instead of every day so far.
 *
 *   planRange(Date.parse('2026-01-30T10:30Z'), Date.parse('2026-03-02T00:00Z'))
 *   // raw [01-30 10:30, 11:00), hours [11:00, 01-31 00:00), days [01-31, 02-01) and [03-01, 03-02),
 *   // months [02-01, 03-01)
 */

export type Granularity = 'hour' | 'day' | 'month';
export type PieceLevel = 'raw' | Granularity;

/** A half-open interval of epoch milliseconds at one level; `null` is unbounded on that side. */
export interface Piece {
  level: PieceLevel;
  from: number | null;
  to: number | null;
  /** -1: subtracted (the part of a whole bucket that lies outside the range). */
  sign: 1 | -1;
}

const hourMilliseconds = 3_600_000;
const dayMilliseconds = 86_400_000;

interface Step {
  fine: PieceLevel;
  coarse: Granularity;
  ceil: (time: number) => number;
  floor: (time: number) => number;
  /** Whether an edge may be read as a whole coarse bucket minus fine pieces (never from raw events,
   *  which retention may have dropped while the rollups remain). */
  complement: boolean;
}

const steps: Step[] = [
  { fine: 'raw', coarse: 'hour', ceil: ceilHour, floor: floorHour, complement: false },
  { fine: 'hour', coarse: 'day', ceil: ceilDay, floor: floorDay, complement: true },
  { fine: 'day', coarse: 'month', ceil: ceilMonth, floor: floorMonth, complement: true },
];

export function planRange(from: number | undefined, to: number | undefined, now?: number): Piece[] {
  if (from !== undefined && to !== undefined && from >= to) return [];
  const pieces: Piece[] = [];
  const add = (level: PieceLevel, low: number | null, high: number | null, sign: 1 | -1 = 1) => {
    if (low !== null && high !== null && low >= high) return;
    pieces.push({ level, from: low, to: high, sign });
  };
  // Buckets of a fixed-size level in [low, high) that start before `now` (those may hold views).
  const cost = (level: PieceLevel, low: number, high: number): number => {
    const size = level === 'hour' ? hourMilliseconds : dayMilliseconds;
    const end = now === undefined ? high : Math.min(high, Math.max(low, now));
    return Math.ceil((end - low) / size);
  };
  const bucketCost = (start: number) => (now === undefined || start < now ? 1 : 0);

  let low = from ?? null;
  let high = to ?? null;
  for (const step of steps) {
    const innerLow = low === null ? null : step.ceil(low);
    const innerHigh = high === null ? null : step.floor(high);
    if (low !== null && high !== null && innerLow !== null && innerHigh !== null && innerLow > innerHigh) {
      // Inside one coarse bucket: its fine pieces, or the bucket minus what lies outside the range.
      const bucketStart = step.floor(low);
      const bucketEnd = innerLow;
      const complementCost =
        bucketCost(bucketStart) + cost(step.fine, bucketStart, low) + cost(step.fine, high, bucketEnd);
      if (!step.complement || complementCost >= cost(step.fine, low, high)) {
        add(step.fine, low, high);
        return pieces;
      }
      add(step.fine, bucketStart, low, -1);
      add(step.fine, high, bucketEnd, -1);
      low = bucketStart;
      high = bucketEnd;
      continue;
    }
    // Each edge: its fine pieces, or (extending the middle the coarser levels read) the whole coarse
    // bucket minus the fine pieces outside the range.
    let nextLow = innerLow;
    let nextHigh = innerHigh;
    if (low !== null && innerLow !== null && low < innerLow) {
      const bucketStart = step.floor(low);
      if (
        step.complement &&
        bucketCost(bucketStart) + cost(step.fine, bucketStart, low) < cost(step.fine, low, innerLow)
      ) {
        add(step.fine, bucketStart, low, -1);
        nextLow = bucketStart;
      } else {
        add(step.fine, low, innerLow);
      }
    }
    if (high !== null && innerHigh !== null && innerHigh < high) {
      const bucketEnd = step.ceil(high);
      if (
        step.complement &&
        bucketCost(innerHigh) + cost(step.fine, high, bucketEnd) < cost(step.fine, innerHigh, high)
      ) {
        add(step.fine, high, bucketEnd, -1);
        nextHigh = bucketEnd;
      } else {
        add(step.fine, innerHigh, high);
      }
    }
    low = nextLow;
    high = nextHigh;
  }
  if (low === null || high === null || low < high)
    pieces.push({ level: 'month', from: low, to: high, sign: 1 });
  return pieces;
}

export function floorHour(time: number): number {
  return Math.floor(time / hourMilliseconds) * hourMilliseconds;
}

function ceilHour(time: number): number {
  return Math.ceil(time / hourMilliseconds) * hourMilliseconds;
}

export function floorDay(time: number): number {
  return Math.floor(time / dayMilliseconds) * dayMilliseconds;
}

function ceilDay(time: number): number {
  return Math.ceil(time / dayMilliseconds) * dayMilliseconds;
}

export function floorMonth(time: number): number {
  const date = new Date(time);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
}

function ceilMonth(time: number): number {
  const floor = floorMonth(time);
  if (floor === time) return time;
  const date = new Date(floor);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
}
