/**
 * Adds visitors to the sketch rollups (analytics_visitor_rollups, migration 0014) in the writer's
 * transaction, beside the view rollups, so that visitors and views commit together. Sketches are
 * merged here, not in PostgreSQL: the rows are locked and read in one statement (in a fixed order,
 * so concurrent writers never deadlock) and written back merged in a second.
 */
import { integerArrayLiteral } from '../../db/array-literal.ts';
import type { Queryable } from '../../db/database.ts';
import type { TrafficCategory } from '../classification/index.ts';
import type { RollupSeries } from '../storage/index.ts';
import { VisitorSketch } from './visitor-sketch.ts';

/** The sketches of a page and bucket: bots are no visitors; `ai` is assembled from the AI groups. */
export const visitorGroups = ['human', 'ai_assistant', 'ai_crawlers'] as const;
export type VisitorGroup = (typeof visitorGroups)[number];

/** The path id of a site's own sketches (all its pages together). */
export const sitePathId = 0;

export function visitorGroupOf(category: TrafficCategory): VisitorGroup | null {
  if (category === 'human' || category === 'ai_assistant') return category;
  if (category === 'ai_search' || category === 'ai_training') return 'ai_crawlers';
  return null;
}

/** One counted view of a visitor. */
export interface VisitorMark {
  occurredAt: number;
  pathId: number;
  category: TrafficCategory;
  visitor: number;
}

/** Locks the rows (creating the missing ones) and returns their sketches. */
const lockRows = `
  INSERT INTO analytics_visitor_rollups AS rollup (series, bucket, path_id)
  SELECT series, to_timestamp(bucket / 1000::float8), path_id
  FROM unnest($1::integer[], $2::bigint[], $3::integer[]) AS keys (series, bucket, path_id)
  ON CONFLICT (series, bucket, path_id) DO UPDATE SET human = rollup.human
  RETURNING series, (extract(epoch FROM bucket) * 1000)::float8 AS bucket, path_id,
    human, ai_assistant, ai_crawlers`;

const writeRows = `
  UPDATE analytics_visitor_rollups AS rollup SET
    human = coalesce(merged.human, rollup.human),
    ai_assistant = coalesce(merged.ai_assistant, rollup.ai_assistant),
    ai_crawlers = coalesce(merged.ai_crawlers, rollup.ai_crawlers)
  FROM unnest($1::integer[], $2::bigint[], $3::integer[], $4::bytea[], $5::bytea[], $6::bytea[])
    AS merged (series, bucket, path_id, human, ai_assistant, ai_crawlers)
  WHERE rollup.series = merged.series AND rollup.bucket = to_timestamp(merged.bucket / 1000::float8)
    AND rollup.path_id = merged.path_id`;

const hourMilliseconds = 3_600_000;
const dayMilliseconds = 86_400_000;
/** Path ids are below 2^31 (as in the page-view writer). */
const pathIdRange = 2 ** 31;

interface RowKey {
  series: number;
  bucket: number;
  pathId: number;
}

/** Adds the marks' visitors to their pages' and the site's hour and day sketches. */
export async function addVisitorsToRollups(
  db: Queryable,
  marks: readonly VisitorMark[],
  series: RollupSeries,
): Promise<void> {
  // Keyed by (hour or day number) * 2^31 + path id: one exact double, no strings to build.
  const rows = new Map<number, RowKey & Partial<Record<VisitorGroup, VisitorSketch>>>();
  const add = (
    levelSeries: number,
    size: number,
    time: number,
    pathId: number,
    group: VisitorGroup,
    visitor: number,
  ) => {
    const number = Math.floor(time / size);
    const key = (levelSeries === series.hour ? 0 : 2 ** 52) + number * pathIdRange + pathId;
    let row = rows.get(key);
    if (row === undefined) {
      row = { series: levelSeries, bucket: number * size, pathId };
      rows.set(key, row);
    }
    let sketch = row[group];
    if (sketch === undefined) {
      sketch = new VisitorSketch();
      row[group] = sketch;
    }
    sketch.add(visitor);
  };
  for (const mark of marks) {
    const group = visitorGroupOf(mark.category);
    if (group === null) continue;
    add(series.hour, hourMilliseconds, mark.occurredAt, sitePathId, group, mark.visitor);
    add(series.hour, hourMilliseconds, mark.occurredAt, mark.pathId, group, mark.visitor);
    add(series.day, dayMilliseconds, mark.occurredAt, sitePathId, group, mark.visitor);
    add(series.day, dayMilliseconds, mark.occurredAt, mark.pathId, group, mark.visitor);
  }
  if (rows.size === 0) return;
  // Every writer locks rows in this order (series, bucket, path id).
  const ordered = [...rows.values()].sort(
    (left, right) => left.series - right.series || left.bucket - right.bucket || left.pathId - right.pathId,
  );
  const keys = [
    integerArrayLiteral(ordered.map((row) => row.series)),
    integerArrayLiteral(ordered.map((row) => row.bucket)),
    integerArrayLiteral(ordered.map((row) => row.pathId)),
  ];
  const stored = await db.query<{ series: number; bucket: number; path_id: number } & StoredSketches>({
    name: 'analytics-lock-visitor-rollups',
    text: lockRows,
    values: keys,
  });
  const existing = new Map<string, StoredSketches>();
  for (const row of stored.rows) existing.set(`${row.series} ${row.bucket} ${row.path_id}`, row);
  const merged: Record<VisitorGroup, Array<Buffer | null>> = { human: [], ai_assistant: [], ai_crawlers: [] };
  for (const row of ordered) {
    const before = existing.get(`${row.series} ${row.bucket} ${row.pathId}`);
    for (const group of visitorGroups) {
      const added = row[group];
      if (added === undefined) {
        merged[group].push(null);
        continue;
      }
      const previous = before?.[group];
      if (previous !== null && previous !== undefined) added.mergeEncoded(previous);
      merged[group].push(added.encode());
    }
  }
  await db.query({
    name: 'analytics-write-visitor-rollups',
    text: writeRows,
    values: [...keys, merged.human, merged.ai_assistant, merged.ai_crawlers],
  });
}

type StoredSketches = Record<VisitorGroup, Buffer | null>;
