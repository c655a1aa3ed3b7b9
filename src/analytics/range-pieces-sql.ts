/**
 * Builds the `UNION ALL` of rollup and raw-event pieces for a planned range (range-plan.ts), as
 * SQL text plus parameters. The rollup rows and the raw rows come out with the same columns, so a
 * query sums them without caring where each came from.
 */
import type { Granularity, Interval, RangePlan } from './range-plan.ts';

export interface PiecesSql {
  text: string;
  parameters: unknown[];
}

/**
 * @param plan the range split into pieces
 * @param parameters the query's parameters so far (`$1` must be the project id); extended here
 * @param rollup the rollup table and the columns selected from it
 * @param raw the columns (aggregated over raw events) and the GROUP BY that matches them
 */
export function rangePiecesSql(
  plan: RangePlan,
  parameters: unknown[],
  rollup: { table: string; columns: string },
  raw: { columns: string; groupBy: string },
): string {
  const parts: string[] = [];
  const bound = (column: string, interval: Interval): string => {
    const conditions: string[] = [];
    if (interval.from !== null) {
      parameters.push(new Date(interval.from));
      conditions.push(`${column} >= $${parameters.length}`);
    }
    if (interval.to !== null) {
      parameters.push(new Date(interval.to));
      conditions.push(`${column} < $${parameters.length}`);
    }
    return conditions.map((condition) => ` AND ${condition}`).join('');
  };
  for (const granularity of ['month', 'day', 'hour'] as Granularity[]) {
    for (const interval of plan[granularity]) {
      parts.push(
        `SELECT ${rollup.columns} FROM ${rollup.table} WHERE project_id = $1 AND granularity = '${granularity}'${bound('bucket', interval)}`,
      );
    }
  }
  for (const interval of plan.raw) {
    parts.push(
      `SELECT ${raw.columns} FROM analytics_page_views WHERE project_id = $1${bound('occurred_at', interval)} GROUP BY ${raw.groupBy}`,
    );
  }
  // An empty range still needs a well-typed, empty relation.
  if (parts.length === 0) {
    parts.push(`SELECT ${rollup.columns} FROM ${rollup.table} WHERE false`);
  }
  return parts.join('\nUNION ALL\n');
}
