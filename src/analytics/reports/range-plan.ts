/**
 * Splits a time range into the pieces a query reads: whole buckets from the rollups, and the
 * partial hours at either edge from raw events. Summing the pieces (each with its sign) counts
 * every view of `[from, to)` exactly once.
 *
 * A partial bucket at an edge can be read two ways: its finer buckets directly, or the whole bucket
 * minus the finer buckets outside the range. The plan takes whichever reads fewer buckets, and
 * buckets that start after `now` cost nothing (they are empty).
 *
 * Two layouts: `rows` (the agent rollups: hour, day and month rows, all kept up to date by every
 * write) and `packed` (the page rollups, rollup-packer.ts: hours, days, thirds of a month and
 * months, each packed into one row once it is over). In the packed layout a bucket that is not over
 * yet has no packed row: an open hour or day is read from its per-page rows (dearer, so the plan
 * prefers finer closed buckets), and thirds and months are read only once closed.
 *
 *   planRange(Date.parse('2026-01-30T10:30Z'), Date.parse('2026-03-02T00:00Z'))
 *   // raw [01-30 10:30, 11:00), hours [11:00, 01-31 00:00), days [01-31, 02-01) and [03-01, 03-02),
 *   // months [02-01, 03-01)
 */

import {
  bucketEnd,
  ceilBucket,
  floorBucket,
  floorDay,
  type Granularity,
  packingGraceMilliseconds,
} from '../storage/index.ts';

export type PieceLevel = 'raw' | Granularity;

/** A half-open interval of epoch milliseconds at one level; `null` is unbounded on that side. */
export interface Piece {
  level: PieceLevel;
  from: number | null;
  to: number | null;
  /** -1: subtracted (the part of a whole bucket that lies outside the range). */
  sign: 1 | -1;
}

export interface PlanOptions {
  /** Lets the plan treat buckets after now as empty (and, packed, know which are closed). */
  now?: number;
  layout?: 'rows' | 'packed';
}

/** What reading a packed bucket costs, roughly its share of a site's pages, in packed hours. */
const packedCost: Record<Granularity, number> = { hour: 1, day: 4, third: 6, month: 8 };
/** An open hour or day is read from its per-page rows: about ten times dearer per page. */
const openCostFactor = 10;

interface Step {
  fine: PieceLevel;
  coarse: Granularity;
  /** Whether an edge may be read as a whole coarse bucket minus fine pieces (never from raw events,
   *  which retention may have dropped while the rollups remain). */
  complement: boolean;
}

const rowSteps: Step[] = [
  { fine: 'raw', coarse: 'hour', complement: false },
  { fine: 'hour', coarse: 'day', complement: true },
  { fine: 'day', coarse: 'month', complement: true },
];
const packedSteps: Step[] = [
  { fine: 'raw', coarse: 'hour', complement: false },
  { fine: 'hour', coarse: 'day', complement: true },
  { fine: 'day', coarse: 'third', complement: true },
  { fine: 'third', coarse: 'month', complement: true },
];

export function planRange(
  from: number | undefined,
  to: number | undefined,
  options: PlanOptions = {},
): Piece[] {
  if (from !== undefined && to !== undefined && from >= to) return [];
  const { now } = options;
  if (options.layout !== 'packed') {
    return planWith(rowSteps, from ?? null, to ?? null, (_level, start) =>
      now === undefined || start < now ? 1 : 0,
    );
  }
  const cost = (level: Granularity, start: number): number => {
    if (now === undefined) return packedCost[level];
    if (start >= now) return 0;
    if (bucketEnd(level, start) <= now - packingGraceMilliseconds) return packedCost[level];
    return level === 'hour' || level === 'day'
      ? openCostFactor * packedCost[level]
      : Number.POSITIVE_INFINITY;
  };
  if (now === undefined) return planWith(packedSteps, from ?? null, to ?? null, cost);
  // Thirds and months are read only where they are closed: before the day that is still open.
  const closedUntil = floorDay(now - packingGraceMilliseconds);
  const openSteps = packedSteps.slice(0, 2);
  if (to !== undefined && to <= closedUntil) return planWith(packedSteps, from ?? null, to, cost);
  if (from !== undefined && from >= closedUntil) return planWith(openSteps, from, to ?? null, cost);
  return [
    ...planWith(packedSteps, from ?? null, closedUntil, cost),
    ...planWith(openSteps, closedUntil, to ?? null, cost),
  ];
}

function planWith(
  steps: Step[],
  from: number | null,
  to: number | null,
  bucketCost: (level: Granularity, start: number) => number,
): Piece[] {
  const pieces: Piece[] = [];
  const add = (level: PieceLevel, low: number | null, high: number | null, sign: 1 | -1 = 1) => {
    if (low !== null && high !== null && low >= high) return;
    pieces.push({ level, from: low, to: high, sign });
  };
  // The buckets of `level` in [low, high), both boundaries of it (raw pieces are never compared).
  const cost = (level: PieceLevel, low: number, high: number): number => {
    if (level === 'raw') return 0;
    let total = 0;
    for (let start = low; start < high; start = bucketEnd(level, start)) total += bucketCost(level, start);
    return total;
  };

  let low = from;
  let high = to;
  for (const step of steps) {
    const innerLow = low === null ? null : ceilBucket(step.coarse, low);
    const innerHigh = high === null ? null : floorBucket(step.coarse, high);
    if (low !== null && high !== null && innerLow !== null && innerHigh !== null && innerLow > innerHigh) {
      // Inside one coarse bucket: its fine pieces, or the bucket minus what lies outside the range.
      const bucketStart = floorBucket(step.coarse, low);
      const bucketEnd = innerLow;
      const complementCost =
        bucketCost(step.coarse, bucketStart) +
        cost(step.fine, bucketStart, low) +
        cost(step.fine, high, bucketEnd);
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
      const bucketStart = floorBucket(step.coarse, low);
      if (
        step.complement &&
        bucketCost(step.coarse, bucketStart) + cost(step.fine, bucketStart, low) <
          cost(step.fine, low, innerLow)
      ) {
        add(step.fine, bucketStart, low, -1);
        nextLow = bucketStart;
      } else {
        add(step.fine, low, innerLow);
      }
    }
    if (high !== null && innerHigh !== null && innerHigh < high) {
      const end = ceilBucket(step.coarse, high);
      if (
        step.complement &&
        bucketCost(step.coarse, innerHigh) + cost(step.fine, high, end) < cost(step.fine, innerHigh, high)
      ) {
        add(step.fine, high, end, -1);
        nextHigh = end;
      } else {
        add(step.fine, innerHigh, high);
      }
    }
    low = nextLow;
    high = nextHigh;
  }
  const top = steps.at(-1)?.coarse ?? 'month';
  if (low === null || high === null || low < high) pieces.push({ level: top, from: low, to: high, sign: 1 });
  return pieces;
}
