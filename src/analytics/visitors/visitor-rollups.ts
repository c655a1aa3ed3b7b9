/**
 * The day sketches of pages and sites (analytics_visitor_rollups, migrations 0014 and 0019) and the
 * counts read from them. A visitor is a value under its UTC day's salt, so two days never share
 * one: a range's visitors are the sum of its days' counts, and sketches only unite a day's hours.
 * Folding (visitor-marks.ts) adds the marks of committed views here, one project at a time under
 * its folding lock, so rows are read and written back without row locks.
 */
import { integerArrayLiteral } from '../../db/array-literal.ts';
import type { Queryable } from '../../db/database.ts';
import type { TrafficCategory } from '../classification/index.ts';
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
  /** The view's classification inputs (visitor-profiles.ts), so reclassification can move the
   *  mark; 0 or absent: unknown (marks written before migration 0023). */
  profile?: number;
}

/**
 * The distinct visitors of one page (or site) and day in the unions an export may ask for: human,
 * ai_assistant, AI (ai_assistant or a crawler), total (human or ai_assistant) and total with the
 * crawlers (anyone). Which of them `ai` and `total` are depends on the project's setting.
 */
export type VisitorCounts = [
  human: number,
  aiAssistant: number,
  aiWithCrawlers: number,
  total: number,
  totalWithCrawlers: number,
];

export type DaySketches = Partial<Record<VisitorGroup, VisitorSketch>>;

export function countsOf(sketches: DaySketches): VisitorCounts {
  const union = (...groups: VisitorGroup[]) => {
    const present = groups.flatMap((group) => (sketches[group] === undefined ? [] : [sketches[group]]));
    if (present.length === 1) return (present[0] as VisitorSketch).estimate();
    const merged = new VisitorSketch();
    for (const sketch of present) merged.merge(sketch);
    return merged.estimate();
  };
  return [
    union('human'),
    union('ai_assistant'),
    union('ai_assistant', 'ai_crawlers'),
    union('human', 'ai_assistant'),
    union('human', 'ai_assistant', 'ai_crawlers'),
  ];
}

/** An export's `{human, ai, total}` from counts, as the project counts AI crawlers. */
export function exportCounts(
  counts: Readonly<VisitorCounts>,
  crawlersAreAi: boolean,
): { human: number; ai: number; total: number } {
  return crawlersAreAi
    ? { human: counts[0], ai: counts[2], total: counts[4] }
    : { human: counts[0], ai: counts[1], total: counts[3] };
}

/** A day row's stored sketches, by group; null: no such visitor. */
export type StoredSketches = Record<VisitorGroup, Buffer | null>;

export function decodeSketches(stored: StoredSketches): DaySketches {
  const sketches: DaySketches = {};
  for (const group of visitorGroups) {
    const encoded = stored[group];
    if (encoded !== null) sketches[group] = VisitorSketch.decode(encoded);
  }
  return sketches;
}

const dayMilliseconds = 86_400_000;

const readDays = `
  SELECT keys.bucket, rollup.path_id, rollup.human, rollup.ai_assistant, rollup.ai_crawlers
  FROM analytics_visitor_rollups AS rollup
  JOIN unnest($2::bigint[], $3::integer[]) AS keys (bucket, path_id)
    ON rollup.bucket = to_timestamp(keys.bucket / 1000::float8) AND rollup.path_id = keys.path_id
  WHERE rollup.series = $1`;

const writeDays = `
  INSERT INTO analytics_visitor_rollups AS rollup (series, bucket, path_id, human, ai_assistant, ai_crawlers, counts)
  SELECT $1, to_timestamp(bucket / 1000::float8), path_id, human, ai_assistant, ai_crawlers,
    ARRAY[count_human, count_ai_assistant, count_ai, count_total, count_total_all]
  FROM unnest($2::bigint[], $3::integer[], $4::bytea[], $5::bytea[], $6::bytea[],
      $7::integer[], $8::integer[], $9::integer[], $10::integer[], $11::integer[])
    AS merged (bucket, path_id, human, ai_assistant, ai_crawlers,
      count_human, count_ai_assistant, count_ai, count_total, count_total_all)
  ON CONFLICT (series, bucket, path_id) DO UPDATE SET
    human = excluded.human, ai_assistant = excluded.ai_assistant, ai_crawlers = excluded.ai_crawlers,
    counts = excluded.counts`;

/** A visitor of a page in an hour (hours since 1970) and group (its `visitorGroups` index). */
export type MarkVisitor = (hour: number, pathId: number, group: number, visitor: number) => void;

/**
 * Adds the visitors `each` gives to their pages' and the site's day sketches and counts, in the
 * caller's transaction, which must hold the project's folding lock. Returns the days (start
 * instants) whose visitors changed.
 */
export async function addVisitorsToDays(
  db: Queryable,
  daySeries: number,
  each: (visit: MarkVisitor) => void,
): Promise<number[]> {
  // Day number, then path id: small integers as keys, no strings to build.
  const days = new Map<number, Map<number, { bucket: number; pathId: number; sketches: DaySketches }>>();
  const rows: Array<{ bucket: number; pathId: number; sketches: DaySketches }> = [];
  let lastDay = Number.NaN;
  let pages = new Map<number, { bucket: number; pathId: number; sketches: DaySketches }>();
  const add = (day: number, pathId: number, group: VisitorGroup, visitor: number) => {
    if (day !== lastDay) {
      lastDay = day;
      pages = days.get(day) ?? new Map();
      days.set(day, pages);
    }
    let row = pages.get(pathId);
    if (row === undefined) {
      row = { bucket: day * dayMilliseconds, pathId, sketches: {} };
      pages.set(pathId, row);
      rows.push(row);
    }
    let sketch = row.sketches[group];
    if (sketch === undefined) {
      sketch = new VisitorSketch();
      row.sketches[group] = sketch;
    }
    sketch.add(visitor);
  };
  each((hour, pathId, groupIndex, visitor) => {
    const group = visitorGroups[groupIndex] as VisitorGroup;
    const day = Math.floor(hour / 24);
    add(day, sitePathId, group, visitor);
    add(day, pathId, group, visitor);
  });
  if (rows.length === 0) return [];
  const ordered = rows.sort((left, right) => left.bucket - right.bucket || left.pathId - right.pathId);
  const buckets = integerArrayLiteral(ordered.map((row) => row.bucket));
  const pathIds = integerArrayLiteral(ordered.map((row) => row.pathId));
  const stored = await db.query<{ bucket: number; path_id: number } & StoredSketches>({
    name: 'analytics-read-visitor-days',
    text: readDays,
    values: [daySeries, buckets, pathIds],
  });
  const before = new Map<number, StoredSketches>();
  for (const row of stored.rows) before.set((row.bucket / dayMilliseconds) * 2 ** 31 + row.path_id, row);
  const sketches: Record<VisitorGroup, Array<Buffer | null>> = {
    human: [],
    ai_assistant: [],
    ai_crawlers: [],
  };
  const counts: number[][] = [[], [], [], [], []];
  for (const row of ordered) {
    const previous = before.get((row.bucket / dayMilliseconds) * 2 ** 31 + row.pathId);
    for (const group of visitorGroups) {
      const added = row.sketches[group];
      const encoded = previous?.[group] ?? null;
      if (added === undefined) {
        sketches[group].push(encoded);
        if (encoded !== null) row.sketches[group] = VisitorSketch.decode(encoded);
        continue;
      }
      if (encoded !== null) added.mergeEncoded(encoded);
      sketches[group].push(added.encode());
    }
    for (const [index, count] of countsOf(row.sketches).entries()) counts[index]?.push(count);
  }
  await db.query({
    name: 'analytics-write-visitor-days',
    text: writeDays,
    values: [
      daySeries,
      buckets,
      pathIds,
      sketches.human,
      sketches.ai_assistant,
      sketches.ai_crawlers,
      ...counts.map((column) => integerArrayLiteral(column)),
    ],
  });
  return [...new Set(ordered.map((row) => row.bucket))];
}
