/**
 * Visitor marks: the exact visitors of committed views, by hour and page. Merging sketches in the
 * writer's transaction (lock, read, merge, write back every page's sketch) cost the writer six
 * times its throughput; appending one row of marks costs it almost nothing. Folding adds pending
 * marks to the day sketches and counts (visitor-rollups.ts) a few seconds later, in one
 * transaction with marking them folded, so every mark is counted once; an export first folds what
 * is pending for its project. The marks stay, as the visitors of their hours (the partial days at
 * a range's edges are read from them), and once their hours are over, compaction rewrites them as
 * one row per project and hour.
 *
 * A row's marks, in hour order (a compacted row's sorted and distinct): four unsigned LEB128
 * varints each, the hour number (hours since 1970, UTC) minus the previous mark's, the path id, the
 * group (visitorGroups index, or `botGroup`) plus four times the profile (visitor-profiles.ts; 0,
 * unknown, in marks written before migration 0023, which read the same), the visitor value.
 *
 * Bots' views have marks too, in `botGroup`, which no count includes: only so that reclassifying
 * their profile as a person or an agent (visitor-reclassification.ts) gives them their visitors.
 */
import type pg from 'pg';
import { advisoryLockKeys, packingLock } from '../../db/advisory-locks.ts';
import type { Queryable } from '../../db/database.ts';
import { transaction } from '../../db/database.ts';
import type { TrafficCategory } from '../classification/index.ts';
import { rollupSeriesOf, VarintReader, VarintWriter } from '../storage/index.ts';
import { forgetPackedVisitorDays } from './visitor-packing.ts';
import { addVisitorsToDays, type VisitorMark, visitorGroupOf, visitorGroups } from './visitor-rollups.ts';

const hourMilliseconds = 3_600_000;

/** One visitor of one page in one hour and group, seen with one profile (0: unknown). */
export interface HourMark {
  hour: number;
  pathId: number;
  group: number;
  visitor: number;
  profile: number;
}

/** A mark's group and profile share a varint: the group in its two low bits. */
const profileScale = 4;

/** The group of a bot's marks, after the visitor groups: kept for reclassification, never counted. */
export const botGroup = visitorGroups.length;

/** The group of a view's marks. */
export function markGroupOf(category: TrafficCategory): number {
  const group = visitorGroupOf(category);
  return group === null ? botGroup : visitorGroups.indexOf(group);
}

/** A category of a mark group, which stands for the group where a mark is a view again. */
function categoryOfMarkGroup(group: number): TrafficCategory {
  const name = visitorGroups[group];
  return name === undefined ? 'bot' : name === 'ai_crawlers' ? 'ai_search' : name;
}

/**
 * `null` when there is no mark. `distinct`: sorted by hour, page, group, visitor and
 * profile, without repeats (compacted rows); otherwise in hour order only, repeats kept, which is all the
 * encoding needs and spares the writer a sort (folding and compaction drop repeats).
 */
export function encodeVisitorMarks(
  marks: readonly VisitorMark[],
  options: { distinct: boolean },
): { bytes: Buffer; firstHour: number; lastHour: number } | null {
  if (!options.distinct) return encodeInHourOrder(marks);
  if (marks.length === 0) return null;
  const sorted: HourMark[] = marks.map((mark) => ({
    hour: Math.floor(mark.occurredAt / hourMilliseconds),
    pathId: mark.pathId,
    group: markGroupOf(mark.category),
    visitor: mark.visitor >>> 0,
    profile: mark.profile ?? 0,
  }));
  sorted.sort(
    (left, right) =>
      left.hour - right.hour ||
      left.pathId - right.pathId ||
      left.group - right.group ||
      left.visitor - right.visitor ||
      left.profile - right.profile,
  );
  const writer = new VarintWriter();
  let previous: HourMark | undefined;
  for (const mark of sorted) {
    // Sorted, so a repeat (the same visitor of the same page, hour, group and profile) is the one before.
    if (
      previous !== undefined &&
      previous.hour === mark.hour &&
      previous.pathId === mark.pathId &&
      previous.group === mark.group &&
      previous.visitor === mark.visitor &&
      previous.profile === mark.profile
    ) {
      continue;
    }
    writer.write(mark.hour - (previous?.hour ?? 0));
    writer.write(mark.pathId);
    writer.write(mark.group + profileScale * mark.profile);
    writer.write(mark.visitor);
    previous = mark;
  }
  return {
    bytes: writer.toBuffer(),
    firstHour: (sorted[0] as HourMark).hour * hourMilliseconds,
    lastHour: (sorted.at(-1) as HourMark).hour * hourMilliseconds,
  };
}

/**
 * The writer's encoding, for every batch it commits: the marks in hour order, without an object
 * per mark (a batch's views are usually in time order already, and then nothing is sorted).
 */
function encodeInHourOrder(
  marks: readonly VisitorMark[],
): { bytes: Buffer; firstHour: number; lastHour: number } | null {
  const hours = new Float64Array(marks.length);
  const groups = new Int8Array(marks.length);
  const order: number[] = [];
  let inOrder = true;
  for (let index = 0; index < marks.length; index += 1) {
    const mark = marks[index] as VisitorMark;
    const hour = Math.floor(mark.occurredAt / hourMilliseconds);
    if (order.length > 0 && hour < (hours[order.at(-1) as number] as number)) inOrder = false;
    hours[index] = hour;
    groups[index] = markGroupOf(mark.category);
    order.push(index);
  }
  if (order.length === 0) return null;
  if (!inOrder) order.sort((left, right) => (hours[left] as number) - (hours[right] as number));
  const writer = new VarintWriter();
  let previousHour = 0;
  for (const index of order) {
    const mark = marks[index] as VisitorMark;
    const hour = hours[index] as number;
    writer.write(hour - previousHour);
    previousHour = hour;
    writer.write(mark.pathId);
    writer.write((groups[index] as number) + profileScale * (mark.profile ?? 0));
    writer.write(mark.visitor >>> 0);
  }
  return {
    bytes: writer.toBuffer(),
    firstHour: (hours[order[0] as number] as number) * hourMilliseconds,
    lastHour: previousHour * hourMilliseconds,
  };
}

/** Calls `visit` for every mark that counts, and for bots' marks too when `bots` is set. */
export function decodeVisitorMarks(
  bytes: Uint8Array,
  visit: (mark: HourMark) => void,
  options: { bots: boolean } = { bots: false },
): void {
  const reader = new VarintReader(bytes, 'visitor marks');
  let hour = 0;
  while (!reader.done) {
    hour += reader.read();
    const pathId = reader.read();
    const groupAndProfile = reader.read();
    const visitor = reader.read();
    const group = groupAndProfile % profileScale;
    if (visitor > 0xffffffff) throw new RangeError('Not visitor marks');
    if (group === botGroup && !options.bots) continue;
    visit({ hour, pathId, group, visitor, profile: Math.floor(groupAndProfile / profileScale) });
  }
}

/** Appends a writer transaction's marks (in it, so they commit with the views). */
export async function insertVisitorMarks(
  db: Queryable,
  projectId: string,
  marks: readonly VisitorMark[],
): Promise<void> {
  const encoded = encodeVisitorMarks(marks, { distinct: false });
  if (encoded === null) return;
  await db.query({
    name: 'analytics-insert-visitor-marks',
    text: `INSERT INTO analytics_visitor_marks (project_id, first_hour, last_hour, marks)
           VALUES ($1, to_timestamp($2 / 1000::float8), to_timestamp($3 / 1000::float8), $4)`,
    values: [projectId, encoded.firstHour, encoded.lastHour, encoded.bytes],
  });
}

const markStates = { pending: 0, folded: 1, compacted: 2 } as const;

/** A mark as a view's visitor again, in `group` (its own, or the one reclassification gives it). */
export function markAsVisitor(mark: HourMark, group: number): VisitorMark {
  return {
    occurredAt: mark.hour * hourMilliseconds,
    pathId: mark.pathId,
    category: categoryOfMarkGroup(group),
    visitor: mark.visitor,
    profile: mark.profile,
  };
}

/** Takes a project's folding lock until the transaction ends: one folder at a time per project. */
async function lockFolding(client: pg.PoolClient, projectId: string): Promise<void> {
  await client.query({
    name: 'analytics-visitor-folding-lock',
    text: `SELECT pg_advisory_xact_lock(${advisoryLockKeys.visitorFolding}, hashtext($1))`,
    values: [projectId],
  });
}

/**
 * Folds up to `limit` rows of one project's pending marks into its day sketches and counts and
 * marks them folded, in one transaction; waits for any other folder of the project to finish
 * first, so that when it returns, every mark committed before it began is folded. Returns the rows
 * folded (0: nothing was pending).
 */
export async function foldProjectVisitorMarks(
  pool: pg.Pool,
  projectId: string,
  limit = 200,
): Promise<number> {
  return transaction(pool, async (client) => {
    await lockFolding(client, projectId);
    // Shared with writers, exclusive for the packer: packed days never miss a folded mark.
    await client.query({
      name: 'analytics-packing-lock-shared',
      text: `SELECT ${packingLock('shared', '$1')}`,
      values: [projectId],
    });
    const pending = await client.query<{ id: string; marks: Buffer }>({
      name: 'analytics-pending-visitor-marks',
      text: `SELECT id::text, marks FROM analytics_visitor_marks
             WHERE state = ${markStates.pending} AND project_id = $1 ORDER BY id LIMIT $2`,
      values: [projectId, limit],
    });
    if (pending.rows.length === 0) return 0;
    const series = await rollupSeriesOf(pool, projectId);
    const days = await addVisitorsToDays(client, series.day, (visit) => {
      for (const row of pending.rows) {
        decodeVisitorMarks(row.marks, (mark) => visit(mark.hour, mark.pathId, mark.group, mark.visitor));
      }
    });
    await forgetPackedVisitorDays(client, projectId, days);
    await client.query({
      name: 'analytics-fold-visitor-marks',
      text: `UPDATE analytics_visitor_marks SET state = ${markStates.folded} WHERE id = ANY($1::bigint[])`,
      values: [pending.rows.map((row) => row.id)],
    });
    return pending.rows.length;
  });
}

/**
 * Folds what the project has pending, for an export that must count every committed view: a few
 * seconds of marks at most, since maintenance folds them as they come. Bounded, so that an export
 * under a flood of views still answers.
 */
export async function foldPendingVisitorMarks(
  pool: pg.Pool,
  projectId: string,
  /** Whether the caller already knows if marks are pending. */
  known?: { pending: boolean },
): Promise<void> {
  let pending = known?.pending;
  if (pending === undefined) {
    const result = await pool.query<{ pending: boolean }>({
      name: 'analytics-has-pending-visitor-marks',
      text: `SELECT ${pendingVisitorMarksSql('$1')} AS pending`,
      values: [projectId],
    });
    pending = result.rows[0]?.pending === true;
  }
  if (!pending) return;
  for (
    let round = 0;
    round < 10 && (await foldProjectVisitorMarks(pool, projectId, 1000)) === 1000;
    round += 1
  );
}

/** SQL: whether the project (`projectIdSql`) has marks not folded yet. */
export function pendingVisitorMarksSql(projectIdSql: string): string {
  return `EXISTS (SELECT 1 FROM analytics_visitor_marks WHERE state = ${markStates.pending} AND project_id = ${projectIdSql})`;
}

/** Folds every pending mark of one project, or of all (verification and tests start from folded sketches). */
export async function foldAllVisitorMarks(pool: pg.Pool, projectId?: string): Promise<void> {
  const projects =
    projectId === undefined
      ? (
          await pool.query<{ project_id: string }>(
            `SELECT DISTINCT project_id FROM analytics_visitor_marks WHERE state = ${markStates.pending}`,
          )
        ).rows.map((row) => row.project_id)
      : [projectId];
  for (const project of projects) while ((await foldProjectVisitorMarks(pool, project)) > 0);
}

/**
 * Rewrites the folded marks of hours that are over (`closedBefore`) as one row per project and
 * hour, for up to `limit` rows at a time; returns the rows rewritten (0: nothing left).
 */
export async function compactVisitorMarks(
  pool: pg.Pool,
  projectId: string,
  closedBefore: number,
  limit = 500,
): Promise<number> {
  return transaction(pool, async (client) => {
    await lockFolding(client, projectId);
    const folded = await client.query<{ id: string; marks: Buffer }>({
      name: 'analytics-compactable-visitor-marks',
      text: `SELECT id::text, marks FROM analytics_visitor_marks
             WHERE project_id = $1 AND state = ${markStates.folded} AND last_hour < $2
             ORDER BY last_hour LIMIT $3`,
      values: [projectId, new Date(closedBefore), limit],
    });
    if (folded.rows.length === 0) return 0;
    const byHour = new Map<number, HourMark[]>();
    const collect = (mark: HourMark) => {
      const marks = byHour.get(mark.hour) ?? [];
      marks.push(mark);
      byHour.set(mark.hour, marks);
    };
    // Bots' marks too: compaction keeps every mark.
    for (const row of folded.rows) decodeVisitorMarks(row.marks, collect, { bots: true });
    const hours = [...byHour.keys()].map((hour) => new Date(hour * hourMilliseconds));
    // The hours' rows compacted before join them: one row per hour, as the export expects.
    const compacted = await client.query<{ id: string; marks: Buffer }>({
      name: 'analytics-compacted-visitor-marks',
      text: `SELECT id::text, marks FROM analytics_visitor_marks
             WHERE project_id = $1 AND state = ${markStates.compacted} AND first_hour = ANY($2::timestamptz[])`,
      values: [projectId, hours],
    });
    for (const row of compacted.rows) decodeVisitorMarks(row.marks, collect, { bots: true });
    await client.query({
      name: 'analytics-delete-visitor-marks',
      text: 'DELETE FROM analytics_visitor_marks WHERE id = ANY($1::bigint[])',
      values: [[...folded.rows, ...compacted.rows].map((row) => row.id)],
    });
    const rows = [...byHour.values()].flatMap((marks) => {
      const encoded = encodeVisitorMarks(
        marks.map((mark) => markAsVisitor(mark, mark.group)),
        { distinct: true },
      );
      return encoded === null ? [] : [encoded];
    });
    await client.query({
      name: 'analytics-insert-compacted-visitor-marks',
      text: `INSERT INTO analytics_visitor_marks (project_id, first_hour, last_hour, marks, state)
             SELECT $1, to_timestamp(hour / 1000::float8), to_timestamp(hour / 1000::float8), marks, ${markStates.compacted}
             FROM unnest($2::bigint[], $3::bytea[]) AS compacted (hour, marks)`,
      values: [projectId, rows.map((row) => row.firstHour), rows.map((row) => row.bytes)],
    });
    return folded.rows.length;
  });
}
