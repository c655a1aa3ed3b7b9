/**
 * A project's hour and day page rollups are each a series (`analytics_rollup_series`): rollup rows
 * are keyed by (series, bucket, path id), integers only, which keeps the writer's upserts cheap.
 * A series is created with the project's first view and never changes: each process keeps them.
 */
import type { Queryable } from '../../db/database.ts';

export interface RollupSeries {
  hour: number;
  day: number;
}

const known = new WeakMap<object, Map<string, RollupSeries>>();

export async function rollupSeriesOf(db: Queryable, projectId: string): Promise<RollupSeries> {
  let projects = known.get(db);
  if (projects === undefined) {
    projects = new Map();
    known.set(db, projects);
  }
  const cached = projects.get(projectId);
  if (cached !== undefined) return cached;
  for (let attempt = 1; ; attempt += 1) {
    const result = await db.query<{ granularity: 'hour' | 'day'; id: number }>({
      name: 'analytics-rollup-series',
      text: `WITH created AS (
             INSERT INTO analytics_rollup_series (project_id, granularity) VALUES ($1, 'hour'), ($1, 'day')
             ON CONFLICT (project_id, granularity) DO NOTHING
             RETURNING granularity, id
           )
           SELECT granularity, id FROM created
           UNION ALL
           SELECT granularity, id FROM analytics_rollup_series WHERE project_id = $1`,
      values: [projectId],
    });
    const series: Partial<RollupSeries> = {};
    for (const row of result.rows) series[row.granularity] = row.id;
    if (series.hour !== undefined && series.day !== undefined) {
      projects.set(projectId, series as RollupSeries);
      return series as RollupSeries;
    }
    // Another process created them after this statement's snapshot: the next statement sees them.
    if (attempt === 2) throw new Error(`The rollup series of ${projectId} are missing`);
  }
}
