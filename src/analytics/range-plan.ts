/**
 * Splits a time range into the pieces the export reads: whole months, days and hours from the
 * rollups, and the partial hours at either edge from raw events. For `[from, to)` the pieces are
 * disjoint and cover the range exactly, so summing them counts every view once.
 *
 *   planRange(Date.parse('2026-01-30T10:30Z'), Date.parse('2026-03-02T00:00Z'))
 *   // raw [01-30 10:30, 11:00), hours [11:00, 01-31 00:00), days [01-31, 02-01) and [03-01, 03-02),
 *   // months [02-01, 03-01)
 */

export type Granularity = 'hour' | 'day' | 'month';

/** A half-open interval of epoch milliseconds; `null` is unbounded on that side. */
export interface Interval {
  from: number | null;
  to: number | null;
}

export interface RangePlan {
  raw: Interval[];
  hour: Interval[];
  day: Interval[];
  month: Interval[];
}

const hourMilliseconds = 3_600_000;
const dayMilliseconds = 86_400_000;

export function planRange(from: number | undefined, to: number | undefined): RangePlan {
  const plan: RangePlan = { raw: [], hour: [], day: [], month: [] };
  if (from !== undefined && to !== undefined && from >= to) return plan;
  const start = from ?? null;
  const end = to ?? null;
  // Each level takes the aligned middle of what the finer level leaves; the finer level keeps the edges.
  const levels: Array<[keyof RangePlan, (time: number) => number, (time: number) => number]> = [
    ['raw', ceilHour, floorHour],
    ['hour', ceilDay, floorDay],
    ['day', ceilMonth, floorMonth],
  ];
  let low = start;
  let high = end;
  for (const [level, ceil, floor] of levels) {
    const innerLow = low === null ? null : ceil(low);
    const innerHigh = high === null ? null : floor(high);
    if (innerLow !== null && innerHigh !== null && innerLow >= innerHigh) {
      push(plan[level], low, high);
      return plan;
    }
    push(plan[level], low, innerLow);
    push(plan[level], innerHigh, high);
    low = innerLow;
    high = innerHigh;
  }
  push(plan.month, low, high, true);
  return plan;
}

function push(intervals: Interval[], from: number | null, to: number | null, unboundedAllowed = false): void {
  if (from === null && to === null && !unboundedAllowed) return;
  if (from !== null && to !== null && from >= to) return;
  // An edge piece whose bound is null has nothing on that side: the coarser level took it all.
  if (!unboundedAllowed && (from === null || to === null)) return;
  intervals.push({ from, to });
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
