/**
 * Checks the visitor sketches (analytics_visitor_rollups) against what can be known without the
 * visitors themselves, which are stored nowhere:
 * - exactly: a day's sketch is the union of its hours' sketches, and a bucket's site sketch (path
 *   id 0) the union of its pages' (a union of the same visitors encodes to the same bytes);
 * - within the sketch error: a page's visitors in a group are no more than its views in that group
 *   (visitors-rollups.ts adds every counted view with a visitor to both).
 */
import type pg from 'pg';
import { sitePathId, type VisitorGroup, VisitorSketch, visitorGroups } from '../visitors/index.ts';

export interface VisitorMismatch {
  projectId: string;
  granularity: 'hour' | 'day';
  bucket: Date;
  key: string;
  expected: string;
  found: string;
}

/** A dense sketch's estimate may exceed the true count by this much (4 standard errors). */
const allowedError = 0.023;

interface SketchRow {
  project_id: string;
  granularity: 'hour' | 'day';
  bucket: Date;
  day: Date;
  path_id: number;
  path: string | null;
  human: Buffer | null;
  ai_assistant: Buffer | null;
  ai_crawlers: Buffer | null;
  human_views: number | null;
  ai_assistant_views: number | null;
  ai_crawler_views: number | null;
}

const sketchRows = `
  SELECT series.project_id, series.granularity, rollup.bucket, date_trunc('day', rollup.bucket, 'UTC') AS day,
    rollup.path_id, paths.path, rollup.human, rollup.ai_assistant, rollup.ai_crawlers,
    views.human AS human_views, views.ai_assistant AS ai_assistant_views,
    views.ai_search + views.ai_training AS ai_crawler_views
  FROM analytics_visitor_rollups AS rollup
  JOIN analytics_rollup_series AS series ON series.id = rollup.series
  LEFT JOIN analytics_paths AS paths ON paths.project_id = series.project_id AND paths.id = rollup.path_id
  LEFT JOIN analytics_path_rollups AS views
    ON views.series = rollup.series AND views.bucket = rollup.bucket AND views.path_id = rollup.path_id
  WHERE ($1::text IS NULL OR series.project_id = $1)
  ORDER BY series.project_id, day, series.granularity, rollup.bucket, rollup.path_id`;

const viewColumn: Record<VisitorGroup, 'human_views' | 'ai_assistant_views' | 'ai_crawler_views'> = {
  human: 'human_views',
  ai_assistant: 'ai_assistant_views',
  ai_crawlers: 'ai_crawler_views',
};

/** Runs in the caller's (read-only, repeatable-read) transaction; returns rows checked and mismatches. */
export async function verifyVisitorRollups(
  client: pg.PoolClient,
  projectId: string | null,
): Promise<{ rowsChecked: number; mismatches: VisitorMismatch[] }> {
  const result = await client.query<SketchRow>(sketchRows, [projectId]);
  const mismatches: VisitorMismatch[] = [];
  const mismatch = (row: SketchRow, key: string, expected: string, found: string) => {
    if (mismatches.length < 1000) {
      mismatches.push({
        projectId: row.project_id,
        granularity: row.granularity,
        bucket: row.bucket,
        key,
        expected,
        found,
      });
    }
  };
  const label = (row: SketchRow) =>
    row.path_id === sitePathId ? 'site' : (row.path ?? `path id ${row.path_id}`);

  // Rows come a project's day at a time: its day rows, then its hour rows.
  let index = 0;
  while (index < result.rows.length) {
    const first = result.rows[index] as SketchRow;
    const group: SketchRow[] = [];
    while (
      index < result.rows.length &&
      result.rows[index]?.project_id === first.project_id &&
      result.rows[index]?.day.getTime() === first.day.getTime()
    ) {
      group.push(result.rows[index] as SketchRow);
      index += 1;
    }
    const dayUnion = new Map<number, Record<VisitorGroup, VisitorSketch>>();
    const bucketUnion = new Map<string, Record<VisitorGroup, VisitorSketch>>();
    const union = <Key>(map: Map<Key, Record<VisitorGroup, VisitorSketch>>, key: Key) => {
      let sketches = map.get(key);
      if (sketches === undefined) {
        sketches = {
          human: new VisitorSketch(),
          ai_assistant: new VisitorSketch(),
          ai_crawlers: new VisitorSketch(),
        };
        map.set(key, sketches);
      }
      return sketches;
    };
    for (const row of group) {
      for (const visitorGroup of visitorGroups) {
        const encoded = row[visitorGroup];
        if (encoded === null) continue;
        let sketch: VisitorSketch;
        try {
          sketch = VisitorSketch.decode(encoded);
        } catch {
          mismatch(row, `${label(row)} ${visitorGroup}`, 'a sketch', 'bytes that are no sketch');
          continue;
        }
        if (row.path_id !== sitePathId) {
          union(bucketUnion, `${row.granularity} ${row.bucket.getTime()}`)[visitorGroup].merge(sketch);
          const views = row[viewColumn[visitorGroup]] ?? 0;
          const visitors = sketch.estimate();
          const limit = sketch.isSparse ? views : Math.floor(views * (1 + allowedError));
          if (visitors > limit)
            mismatch(
              row,
              `${label(row)} ${visitorGroup}`,
              `at most ${views} visitors (views)`,
              `${visitors}`,
            );
        }
        if (row.granularity === 'hour') union(dayUnion, row.path_id)[visitorGroup].merge(sketch);
      }
    }
    for (const row of group) {
      const expected =
        row.path_id === sitePathId
          ? bucketUnion.get(`${row.granularity} ${row.bucket.getTime()}`)
          : row.granularity === 'day'
            ? dayUnion.get(row.path_id)
            : undefined;
      if (expected === undefined && !(row.path_id === sitePathId || row.granularity === 'day')) continue;
      for (const visitorGroup of visitorGroups) {
        const want = expected?.[visitorGroup];
        const wanted = want === undefined || want.isEmpty ? null : want.encode();
        const found = row[visitorGroup];
        if (
          (wanted === null) !== (found === null) ||
          (wanted !== null && found !== null && !wanted.equals(found))
        ) {
          mismatch(
            row,
            `${label(row)} ${visitorGroup}`,
            `${want?.estimate() ?? 0} visitors (${row.path_id === sitePathId ? 'union of its pages' : 'union of its hours'})`,
            `${found === null ? 0 : VisitorSketch.decode(found).estimate()}`,
          );
        }
      }
    }
  }
  return { rowsChecked: result.rows.length, mismatches };
}
