/**
 * Checks the visitors (src/analytics/visitors/) against what can be known without the visitors'
 * addresses, which are stored nowhere:
 * - exactly: a day's sketch is the union of its hours' marks (and of the hour sketches written
 *   before migration 0019), a site sketch the union of its pages', a day row's counts are its
 *   sketches' counts, a packed day holds its rows' counts and a packed month the sum of its days';
 * - within the sketch error: a page's visitors in a group and hour or day are no more than its
 *   views there (every counted view with a visitor has a mark).
 * Pending marks must be folded first (verifyRollups does).
 */
import type pg from 'pg';
import { floorBucket } from '../storage/index.ts';
import {
  addVisitorCounts,
  countsOf,
  type DaySketches,
  dayRowCounts,
  decodeVisitorCounts,
  decodeVisitorMarks,
  type StoredSketches,
  sitePathId,
  type VisitorCounts,
  type VisitorGroup,
  VisitorSketch,
  visitorGroups,
} from '../visitors/index.ts';

export interface VisitorMismatch {
  projectId: string;
  granularity: 'hour' | 'day' | 'third' | 'month';
  bucket: Date;
  key: string;
  expected: string;
  found: string;
}

/** A dense sketch's estimate may exceed the true count by this much (4 standard errors). */
const allowedError = 0.023;
const hourMilliseconds = 3_600_000;
const dayMilliseconds = 86_400_000;

type Views = Record<VisitorGroup, number>;

interface DayRow extends StoredSketches {
  bucket: number;
  path_id: number;
  counts: number[] | null;
}

/** Unions of visitors by a numeric key (bucket * 2^31 + path id), per group. */
class Unions {
  readonly sketches = new Map<number, DaySketches>();

  add(key: number, group: VisitorGroup, visitor: number): void {
    this.sketchOf(key, group).add(visitor);
  }

  merge(key: number, group: VisitorGroup, encoded: Buffer): void {
    this.sketchOf(key, group).mergeEncoded(encoded);
  }

  private sketchOf(key: number, group: VisitorGroup): VisitorSketch {
    let sketches = this.sketches.get(key);
    if (sketches === undefined) {
      sketches = {};
      this.sketches.set(key, sketches);
    }
    let sketch = sketches[group];
    if (sketch === undefined) {
      sketch = new VisitorSketch();
      sketches[group] = sketch;
    }
    return sketch;
  }
}

const keyOf = (bucket: number, size: number, pathId: number) => (bucket / size) * 2 ** 31 + pathId;

/** Runs in the caller's (read-only, repeatable-read) transaction; returns rows checked and mismatches. */
export async function verifyVisitorRollups(
  client: pg.PoolClient,
  projectId: string | null,
): Promise<{ rowsChecked: number; mismatches: VisitorMismatch[] }> {
  const projects = await client.query<{ id: string }>(
    `SELECT DISTINCT project_id AS id FROM analytics_visitor_marks WHERE $1::text IS NULL OR project_id = $1
     UNION SELECT project_id FROM analytics_rollup_series AS series
       JOIN analytics_visitor_rollups AS rollup ON rollup.series = series.id
       WHERE $1::text IS NULL OR series.project_id = $1
     ORDER BY 1`,
    [projectId],
  );
  const mismatches: VisitorMismatch[] = [];
  let rowsChecked = 0;
  for (const { id } of projects.rows) {
    const checked = await verifyProject(client, id, (mismatch) => {
      if (mismatches.length < 1000) mismatches.push(mismatch);
    });
    rowsChecked += checked;
  }
  return { rowsChecked, mismatches };
}

async function verifyProject(
  client: pg.PoolClient,
  projectId: string,
  report: (mismatch: VisitorMismatch) => void,
): Promise<number> {
  const paths = new Map<number, string>();
  for (const row of (
    await client.query<{ id: number; path: string }>(
      'SELECT id, path FROM analytics_paths WHERE project_id = $1',
      [projectId],
    )
  ).rows) {
    paths.set(row.id, row.path);
  }
  const label = (pathId: number) =>
    pathId === sitePathId ? 'site' : (paths.get(pathId) ?? `path id ${pathId}`);
  const mismatch = (
    granularity: VisitorMismatch['granularity'],
    bucket: number,
    key: string,
    expected: string,
    found: string,
  ) => report({ projectId, granularity, bucket: new Date(bucket), key, expected, found });

  // The visitors of every hour and every day, from the marks and the old hour sketches.
  const hours = new Unions();
  const days = new Unions();
  const marks = await client.query<{ marks: Buffer }>(
    'SELECT marks FROM analytics_visitor_marks WHERE project_id = $1',
    [projectId],
  );
  for (const row of marks.rows) {
    decodeVisitorMarks(row.marks, (mark) => {
      const group = visitorGroups[mark.group] as VisitorGroup;
      const hour = mark.hour * hourMilliseconds;
      const day = Math.floor(hour / dayMilliseconds) * dayMilliseconds;
      hours.add(keyOf(hour, hourMilliseconds, mark.pathId), group, mark.visitor);
      days.add(keyOf(day, dayMilliseconds, mark.pathId), group, mark.visitor);
      days.add(keyOf(day, dayMilliseconds, sitePathId), group, mark.visitor);
    });
  }
  const oldHours = await client.query<{ bucket: number; path_id: number } & StoredSketches>(
    `SELECT (extract(epoch FROM bucket) * 1000)::float8 AS bucket, path_id, human, ai_assistant, ai_crawlers
     FROM analytics_visitor_rollups WHERE series = analytics_series($1, 'hour')`,
    [projectId],
  );
  for (const row of oldHours.rows) {
    const day = Math.floor(row.bucket / dayMilliseconds) * dayMilliseconds;
    for (const group of visitorGroups) {
      const encoded = row[group];
      if (encoded === null) continue;
      hours.merge(keyOf(row.bucket, hourMilliseconds, row.path_id), group, encoded);
      days.merge(keyOf(day, dayMilliseconds, row.path_id), group, encoded);
    }
  }

  // Visitors are no more than views, per page, group and hour or day.
  const views = new Map<number, Views>();
  const viewRows = await client.query<
    { granularity: 'hour' | 'day'; bucket: number; path_id: number } & Views
  >(
    `SELECT series.granularity, (extract(epoch FROM rollup.bucket) * 1000)::float8 AS bucket, rollup.path_id,
       rollup.human, rollup.ai_assistant, rollup.ai_search + rollup.ai_training AS ai_crawlers
     FROM analytics_path_rollups AS rollup
     JOIN analytics_rollup_series AS series ON series.id = rollup.series
     WHERE series.project_id = $1 AND series.granularity IN ('hour', 'day')`,
    [projectId],
  );
  for (const row of viewRows.rows) {
    const size = row.granularity === 'hour' ? hourMilliseconds : dayMilliseconds;
    views.set(keyOf(row.bucket, size, row.path_id) * (row.granularity === 'hour' ? 1 : -1), row);
  }
  for (const [level, unions, size, sign] of [
    ['hour', hours, hourMilliseconds, 1],
    ['day', days, dayMilliseconds, -1],
  ] as const) {
    for (const [key, sketches] of unions.sketches) {
      const pathId = key % 2 ** 31;
      if (pathId === sitePathId) continue;
      const bucket = Math.floor(key / 2 ** 31) * size;
      for (const group of visitorGroups) {
        const sketch = sketches[group];
        if (sketch === undefined) continue;
        const seen = views.get(key * sign)?.[group] ?? 0;
        const visitors = sketch.estimate();
        const limit = sketch.isSparse ? seen : Math.floor(seen * (1 + allowedError));
        if (visitors > limit)
          mismatch(
            level,
            bucket,
            `${label(pathId)} ${group}`,
            `at most ${seen} visitors (views)`,
            `${visitors}`,
          );
      }
    }
  }

  // Day rows: their sketches are the unions of their hours, their counts those of their sketches.
  const dayRows = await client.query<DayRow>(
    `SELECT (extract(epoch FROM bucket) * 1000)::float8 AS bucket, path_id, counts, human, ai_assistant, ai_crawlers
     FROM analytics_visitor_rollups WHERE series = analytics_series($1, 'day')`,
    [projectId],
  );
  const rowCounts = new Map<number, Map<number, VisitorCounts>>();
  for (const row of dayRows.rows) {
    const expected = days.sketches.get(keyOf(row.bucket, dayMilliseconds, row.path_id)) ?? {};
    for (const group of visitorGroups) {
      const want = expected[group];
      const wanted = want === undefined || want.isEmpty ? null : want.encode();
      const found = row[group];
      if (
        (wanted === null) !== (found === null) ||
        (wanted !== null && found !== null && !wanted.equals(found))
      ) {
        mismatch(
          'day',
          row.bucket,
          `${label(row.path_id)} ${group}`,
          `${want?.estimate() ?? 0} visitors (union of its hours)`,
          `${found === null ? 0 : VisitorSketch.decode(found).estimate()}`,
        );
      }
    }
    const counts = dayRowCounts({ ...row, counts: null });
    if (row.counts !== null && row.counts.join() !== counts.join()) {
      mismatch(
        'day',
        row.bucket,
        `${label(row.path_id)} counts`,
        `${counts.join()} (its sketches)`,
        row.counts.join(),
      );
    }
    const entries = rowCounts.get(row.bucket) ?? new Map<number, VisitorCounts>();
    entries.set(row.path_id, counts);
    rowCounts.set(row.bucket, entries);
  }
  for (const [key, sketches] of days.sketches) {
    const pathId = key % 2 ** 31;
    const bucket = Math.floor(key / 2 ** 31) * dayMilliseconds;
    const present = visitorGroups.some((group) => sketches[group] !== undefined);
    if (present && rowCounts.get(bucket)?.get(pathId) === undefined) {
      mismatch('day', bucket, label(pathId), `${countsOf(sketches).join()} (its hours)`, 'no row');
    }
  }

  // Packed days hold their rows' counts; packed thirds and months the sums of their days'.
  const packed = await client.query<{ granularity: 'day' | 'third' | 'month'; bucket: Date; counts: Buffer }>(
    `SELECT granularity, bucket, counts FROM analytics_visitor_packed WHERE project_id = $1
     ORDER BY granularity, bucket`,
    [projectId],
  );
  for (const row of packed.rows) {
    const start = row.bucket.getTime();
    const expected = new Map<number, VisitorCounts>();
    for (const [day, entries] of rowCounts) {
      if (floorBucket(row.granularity, day) === start)
        for (const [pathId, counts] of entries) addVisitorCounts(expected, pathId, counts);
    }
    const found = new Map<number, VisitorCounts>();
    decodeVisitorCounts(row.counts, (pathId, counts) => found.set(pathId, counts));
    for (const pathId of new Set([...expected.keys(), ...found.keys()])) {
      const want = expected.get(pathId)?.join() ?? 'none';
      const have = found.get(pathId)?.join() ?? 'none';
      if (want !== have) mismatch(row.granularity, start, `${label(pathId)} packed`, want, have);
    }
  }
  return dayRows.rows.length + packed.rows.length + marks.rows.length + oldHours.rows.length;
}
