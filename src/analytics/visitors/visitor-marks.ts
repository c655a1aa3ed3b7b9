/**
 * Visitor marks: the visitors of committed views on their way into the sketches. Merging sketches
 * in the writer's transaction (lock, read, merge, write back every page's sketch) cost the writer
 * six times its throughput; appending one row of marks costs it almost nothing. The maintenance
 * loop folds the marks into analytics_visitor_rollups a few seconds later (in one transaction with
 * their deletion, so every mark is counted once), and the export reads the marks still pending.
 *
 * A row's marks, sorted and distinct: four unsigned LEB128 varints each, the hour number (hours
 * since 1970, UTC) minus the previous mark's, the path id, the group (visitorGroups index), the
 * visitor value.
 */
import type pg from 'pg';
import type { Queryable } from '../../db/database.ts';
import { transaction } from '../../db/database.ts';
import { type RollupSeries, rollupSeriesOf } from '../storage/index.ts';
import { addVisitorsToRollups, type VisitorMark, visitorGroupOf, visitorGroups } from './visitor-rollups.ts';

const hourMilliseconds = 3_600_000;

/** One visitor of one page in one hour and group. */
export interface HourMark {
  hour: number;
  pathId: number;
  group: number;
  visitor: number;
}

/** `null` when no mark counts (bots only). */
export function encodeVisitorMarks(
  marks: readonly VisitorMark[],
): { bytes: Buffer; firstHour: number; lastHour: number } | null {
  const sorted: HourMark[] = [];
  for (const mark of marks) {
    const group = visitorGroupOf(mark.category);
    if (group === null) continue;
    sorted.push({
      hour: Math.floor(mark.occurredAt / hourMilliseconds),
      pathId: mark.pathId,
      group: visitorGroups.indexOf(group),
      visitor: mark.visitor >>> 0,
    });
  }
  if (sorted.length === 0) return null;
  sorted.sort(
    (left, right) =>
      left.hour - right.hour ||
      left.pathId - right.pathId ||
      left.group - right.group ||
      left.visitor - right.visitor,
  );
  const bytes: number[] = [];
  const write = (value: number) => {
    let rest = value;
    while (rest >= 0x80) {
      bytes.push((rest % 0x80) | 0x80);
      rest = Math.floor(rest / 0x80);
    }
    bytes.push(rest);
  };
  let previousHour = 0;
  let previous: HourMark | undefined;
  for (const mark of sorted) {
    // Sorted, so a repeat (the same visitor of the same page, hour and group) is the one before.
    if (
      previous !== undefined &&
      previous.hour === mark.hour &&
      previous.pathId === mark.pathId &&
      previous.group === mark.group &&
      previous.visitor === mark.visitor
    ) {
      continue;
    }
    previous = mark;
    write(mark.hour - previousHour);
    previousHour = mark.hour;
    write(mark.pathId);
    write(mark.group);
    write(mark.visitor);
  }
  return {
    bytes: Buffer.from(bytes),
    firstHour: (sorted[0] as HourMark).hour * hourMilliseconds,
    lastHour: (sorted.at(-1) as HourMark).hour * hourMilliseconds,
  };
}

export function decodeVisitorMarks(bytes: Uint8Array, visit: (mark: HourMark) => void): void {
  let offset = 0;
  const read = (): number => {
    let value = 0;
    let scale = 1;
    for (;;) {
      const byte = bytes[offset];
      if (byte === undefined || scale > 2 ** 49) throw new RangeError('Truncated visitor marks');
      offset += 1;
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 0x80;
    }
  };
  let hour = 0;
  while (offset < bytes.length) {
    hour += read();
    const pathId = read();
    const group = read();
    const visitor = read();
    if (group >= visitorGroups.length || visitor > 0xffffffff) throw new RangeError('Not visitor marks');
    visit({ hour, pathId, group, visitor });
  }
}

/** Appends a writer transaction's marks (in it, so they commit with the views). */
export async function insertVisitorMarks(
  db: Queryable,
  projectId: string,
  marks: readonly VisitorMark[],
): Promise<void> {
  const encoded = encodeVisitorMarks(marks);
  if (encoded === null) return;
  await db.query({
    name: 'analytics-insert-visitor-marks',
    text: `INSERT INTO analytics_visitor_marks (project_id, first_hour, last_hour, marks)
           VALUES ($1, to_timestamp($2 / 1000::float8), to_timestamp($3 / 1000::float8), $4)`,
    values: [projectId, encoded.firstHour, encoded.lastHour, encoded.bytes],
  });
}

/**
 * Folds up to `limit` rows of marks into the sketch rollups and deletes them, in one transaction;
 * rows another folder holds are skipped. Returns the rows folded (0: nothing pending).
 */
export async function foldVisitorMarks(pool: pg.Pool, limit = 200): Promise<number> {
  return transaction(pool, async (client) => {
    const pending = await client.query<{ id: string; project_id: string; marks: Buffer }>({
      name: 'analytics-pending-visitor-marks',
      text: `SELECT id::text, project_id, marks FROM analytics_visitor_marks ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED`,
      values: [limit],
    });
    if (pending.rows.length === 0) return 0;
    const byProject = new Map<string, VisitorMark[]>();
    for (const row of pending.rows) {
      let marks = byProject.get(row.project_id);
      if (marks === undefined) {
        marks = [];
        byProject.set(row.project_id, marks);
      }
      const list = marks;
      decodeVisitorMarks(row.marks, (mark) =>
        list.push({
          occurredAt: mark.hour * hourMilliseconds,
          pathId: mark.pathId,
          category:
            visitorGroups[mark.group] === 'ai_crawlers'
              ? 'ai_search'
              : (visitorGroups[mark.group] as 'human' | 'ai_assistant'),
          visitor: mark.visitor,
        }),
      );
    }
    for (const [projectId, marks] of [...byProject].sort(([left], [right]) => (left < right ? -1 : 1))) {
      const series: RollupSeries = await rollupSeriesOf(pool, projectId);
      await addVisitorsToRollups(client, marks, series);
    }
    await client.query({
      name: 'analytics-delete-visitor-marks',
      text: 'DELETE FROM analytics_visitor_marks WHERE id = ANY($1::bigint[])',
      values: [pending.rows.map((row) => row.id)],
    });
    return pending.rows.length;
  });
}

/** Folds every pending mark (verification and tests start from folded sketches). */
export async function foldAllVisitorMarks(pool: pg.Pool): Promise<void> {
  while ((await foldVisitorMarks(pool)) > 0);
}
