/**
 * Packs the visitor counts of closed days (analytics_visitor_packed, migrations 0019 and 0021):
 * every page's and the site's counts of a day in one row, and of a third of a month and a month in
 * one row each (the sum of its days', since days never share a visitor), so an export of a year
 * reads a few dozen rows and one of 30 days about a dozen. Like the view
 * rollups' packing (rollups/rollup-packer.ts): packed rows are derived from the per-page day rows,
 * folding deletes the packed rows of the days it changes and moves the watermark back, and folders
 * hold the project's packing lock shared while the packer holds it exclusively.
 *
 * A packed row's counts are encoded like the view rollups' (storage/packed-counts.ts): for every
 * page with visitors, in ascending path-id order (the site, path id 0, first), the five counts
 * (visitor-rollups.ts `VisitorCounts`).
 */
import type pg from 'pg';
import { packingLock } from '../../db/advisory-locks.ts';
import type { Queryable } from '../../db/database.ts';
import { transaction } from '../../db/database.ts';
import {
  bucketEnd,
  decodePackedEntries,
  encodePackedEntries,
  floorBucket,
  rollupSeriesOf,
} from '../storage/index.ts';
import { countsOf, decodeSketches, type StoredSketches, type VisitorCounts } from './visitor-rollups.ts';

const dayMilliseconds = 86_400_000;
/** Late views land in a day's per-page rows for this long after it ends before it is packed. */
const packingGraceMilliseconds = 10 * 60_000;
/** Days per transaction: the lock stops the project's writers while it is held. */
const daysPerTransaction = 31;

const visitorCountsWidth = 5;

export function encodeVisitorCounts(entries: ReadonlyMap<number, Readonly<VisitorCounts>>): Buffer {
  return encodePackedEntries(
    visitorCountsWidth,
    [...entries].sort(([left], [right]) => left - right),
  );
}

/** Calls `visit` for every entry, the site's (path id 0) first; throws on a truncated buffer. */
export function decodeVisitorCounts(
  bytes: Uint8Array,
  visit: (pathId: number, counts: VisitorCounts) => void,
): void {
  decodePackedEntries(bytes, visitorCountsWidth, 'visitor counts', (pathId, counts) =>
    visit(pathId, [...counts] as VisitorCounts),
  );
}

/**
 * Counts summed per path id, five to an id, in one growable array: an export adds up dozens of
 * packed rows of thousands of pages each, and a map entry per page and row cost it most of its time.
 */
export class VisitorCountSums {
  private sums = new Float64Array(5 * 1024);
  /** Whether each path id has an entry. */
  private present = new Uint8Array(1024);

  add(pathId: number, counts: ArrayLike<number>): void {
    this.ensure(pathId);
    this.present[pathId] = 1;
    const base = pathId * 5;
    for (let index = 0; index < 5; index += 1) {
      this.sums[base + index] = (this.sums[base + index] as number) + (counts[index] as number);
    }
  }

  /**
   * Adds one visitor of a page, seen in the groups `groups` (bits: 1 human, 2 ai_assistant,
   * 4 ai_crawlers), to each of the five counts it belongs to.
   */
  addVisitor(pathId: number, groups: number): void {
    this.ensure(pathId);
    this.present[pathId] = 1;
    const base = pathId * 5;
    const sums = this.sums;
    sums[base] = (sums[base] as number) + (groups & 1);
    sums[base + 1] = (sums[base + 1] as number) + ((groups >> 1) & 1);
    sums[base + 2] = (sums[base + 2] as number) + (groups & 6 ? 1 : 0);
    sums[base + 3] = (sums[base + 3] as number) + (groups & 3 ? 1 : 0);
    sums[base + 4] = (sums[base + 4] as number) + 1;
  }

  /** Adds every entry of a packed row without building them. */
  addEncoded(bytes: Uint8Array): void {
    decodePackedEntries(bytes, visitorCountsWidth, 'visitor counts', (pathId, counts) =>
      this.add(pathId, counts),
    );
  }

  /** Visits every path id with an entry, in ascending order. */
  forEach(visit: (pathId: number, counts: VisitorCounts) => void): void {
    for (let pathId = 0; pathId < this.present.length; pathId += 1) {
      if (this.present[pathId] === 1) visit(pathId, this.get(pathId) as VisitorCounts);
    }
  }

  get(pathId: number): VisitorCounts | undefined {
    if (this.present[pathId] !== 1) return undefined;
    const base = pathId * 5;
    return [
      this.sums[base] as number,
      this.sums[base + 1] as number,
      this.sums[base + 2] as number,
      this.sums[base + 3] as number,
      this.sums[base + 4] as number,
    ];
  }

  private ensure(pathId: number): void {
    if (pathId < this.present.length) return;
    if (!Number.isInteger(pathId) || pathId > 2 ** 31) throw new RangeError(`Not a path id: ${pathId}`);
    let size = this.present.length;
    while (size <= pathId) size *= 2;
    const sums = new Float64Array(size * 5);
    sums.set(this.sums);
    const present = new Uint8Array(size);
    present.set(this.present);
    this.sums = sums;
    this.present = present;
  }
}

/** Adds `counts` to the entry of `pathId` in `sums`. */
export function addVisitorCounts(
  sums: Map<number, VisitorCounts>,
  pathId: number,
  counts: Readonly<VisitorCounts>,
): void {
  const sum = sums.get(pathId);
  if (sum === undefined) {
    sums.set(pathId, [...counts]);
    return;
  }
  for (let index = 0; index < 5; index += 1) sum[index] = (sum[index] as number) + (counts[index] as number);
}

/** A day row's counts: stored, or (rows written before migration 0019) counted from its sketches. */
export function dayRowCounts(row: { counts: number[] | null } & StoredSketches): VisitorCounts {
  return (row.counts as VisitorCounts | null) ?? countsOf(decodeSketches(row));
}

/**
 * In a folding transaction: deletes the packed rows of the days whose visitors changed and of
 * their thirds and months, and moves the watermark back to the first of them.
 */
export async function forgetPackedVisitorDays(
  db: Queryable,
  projectId: string,
  days: readonly number[],
): Promise<void> {
  if (days.length === 0) return;
  const buckets = (level: 'third' | 'month') => [...new Set(days.map((day) => floorBucket(level, day)))];
  await db.query({
    name: 'analytics-forget-packed-visitor-days',
    text: `WITH forgotten AS (
             DELETE FROM analytics_visitor_packed
             WHERE project_id = $1 AND ((granularity = 'day' AND bucket = ANY($2::timestamptz[]))
               OR (granularity = 'third' AND bucket = ANY($3::timestamptz[]))
               OR (granularity = 'month' AND bucket = ANY($4::timestamptz[])))
           )
           UPDATE analytics_visitor_packing SET packed_until = $5
           WHERE project_id = $1 AND packed_until > $5`,
    values: [
      projectId,
      days.map((day) => new Date(day)),
      buckets('third').map((third) => new Date(third)),
      buckets('month').map((month) => new Date(month)),
      new Date(Math.min(...days)),
    ],
  });
}

interface DayRow extends StoredSketches {
  bucket: number;
  path_id: number;
  counts: number[] | null;
}

/**
 * Packs the closed days not packed yet of one project, and each third and month once all its days
 * are, and returns the rows written; stops between transactions when `signal` aborts.
 */
export async function packVisitorDays(
  pool: pg.Pool,
  projectId: string,
  options: { now?: number; signal?: AbortSignal } = {},
): Promise<number> {
  const closedBefore =
    Math.floor(((options.now ?? Date.now()) - packingGraceMilliseconds) / dayMilliseconds) * dayMilliseconds;
  const series = await rollupSeriesOf(pool, projectId);
  let written = 0;
  while (options.signal?.aborted !== true) {
    const packed = await transaction(pool, async (client) => {
      await client.query(`SELECT ${packingLock('exclusive', '$1')}`, [projectId]);
      const next = await client.query<{ bucket: number | null }>(
        `SELECT (extract(epoch FROM min(bucket)) * 1000)::float8 AS bucket FROM analytics_visitor_rollups
         WHERE series = $2 AND bucket >= coalesce(
           (SELECT packed_until FROM analytics_visitor_packing WHERE project_id = $1), '-infinity')`,
        [projectId, series.day],
      );
      const first = next.rows[0]?.bucket ?? null;
      if (first === null || first >= closedBefore) return null;
      const end = Math.min(first + daysPerTransaction * dayMilliseconds, closedBefore);
      const window = [projectId, new Date(first), new Date(end)];
      const existing = await client.query<{ bucket: Date }>(
        `SELECT bucket FROM analytics_visitor_packed
         WHERE project_id = $1 AND granularity = 'day' AND bucket >= $2 AND bucket < $3`,
        window,
      );
      // Packed rows that exist are current: folding deletes those of the days it changes.
      const current = new Set(existing.rows.map((row) => row.bucket.getTime()));
      const rows = await client.query<DayRow>(
        `SELECT (extract(epoch FROM bucket) * 1000)::float8 AS bucket, path_id, counts,
           CASE WHEN counts IS NULL THEN human END AS human,
           CASE WHEN counts IS NULL THEN ai_assistant END AS ai_assistant,
           CASE WHEN counts IS NULL THEN ai_crawlers END AS ai_crawlers
         FROM analytics_visitor_rollups WHERE series = $1 AND bucket >= $2 AND bucket < $3`,
        [series.day, new Date(first), new Date(end)],
      );
      const days = new Map<number, Map<number, VisitorCounts>>();
      for (const row of rows.rows) {
        if (current.has(row.bucket)) continue;
        const entries = days.get(row.bucket) ?? new Map<number, VisitorCounts>();
        entries.set(row.path_id, dayRowCounts(row));
        days.set(row.bucket, entries);
      }
      await client.query(
        `INSERT INTO analytics_visitor_packed (project_id, granularity, bucket, counts)
         SELECT $1, 'day', * FROM unnest($2::timestamptz[], $3::bytea[])`,
        [
          projectId,
          [...days.keys()].map((day) => new Date(day)),
          [...days.values()].map(encodeVisitorCounts),
        ],
      );
      await client.query(
        `INSERT INTO analytics_visitor_packing (project_id, packed_until) VALUES ($1, $2)
         ON CONFLICT (project_id) DO UPDATE SET packed_until = excluded.packed_until`,
        [projectId, new Date(end)],
      );
      return (
        days.size +
        (await packCoarse(client, projectId, 'third', first, end)) +
        (await packCoarse(client, projectId, 'month', first, end))
      );
    });
    if (packed === null) break;
    written += packed;
  }
  return written;
}

/**
 * Packs the thirds or months over by `packedUntil` that hold a day of [from, packedUntil) and have
 * no row: the sums of their packed days.
 */
async function packCoarse(
  client: pg.PoolClient,
  projectId: string,
  level: 'third' | 'month',
  from: number,
  packedUntil: number,
): Promise<number> {
  const buckets: number[] = [];
  for (
    let start = floorBucket(level, from);
    bucketEnd(level, start) <= packedUntil;
    start = bucketEnd(level, start)
  )
    buckets.push(start);
  if (buckets.length === 0) return 0;
  const days = await client.query<{ bucket: Date; counts: Buffer }>(
    `SELECT analytics_bucket_start($2, day.bucket) AS bucket, day.counts FROM analytics_visitor_packed AS day
     WHERE day.project_id = $1 AND day.granularity = 'day'
       AND analytics_bucket_start($2, day.bucket) = ANY($3::timestamptz[])
       AND NOT EXISTS (SELECT 1 FROM analytics_visitor_packed AS coarse WHERE coarse.project_id = $1
         AND coarse.granularity = $2 AND coarse.bucket = analytics_bucket_start($2, day.bucket))`,
    [projectId, level, buckets.map((start) => new Date(start))],
  );
  const sums = new Map<number, Map<number, VisitorCounts>>();
  for (const row of days.rows) {
    const start = row.bucket.getTime();
    const entries = sums.get(start) ?? new Map<number, VisitorCounts>();
    decodeVisitorCounts(row.counts, (pathId, counts) => addVisitorCounts(entries, pathId, counts));
    sums.set(start, entries);
  }
  await client.query(
    `INSERT INTO analytics_visitor_packed (project_id, granularity, bucket, counts)
     SELECT $1, $2, * FROM unnest($3::timestamptz[], $4::bytea[])`,
    [
      projectId,
      level,
      [...sums.keys()].map((start) => new Date(start)),
      [...sums.values()].map(encodeVisitorCounts),
    ],
  );
  return sums.size;
}
