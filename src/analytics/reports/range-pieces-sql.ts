/**
 * Builds the `UNION ALL` of rollup and raw-event pieces for a planned range (range-plan.ts), as
 * SQL text plus parameters. Rollup rows and raw rows come out with the same columns, counters of
 * subtracted pieces negated, so a query sums them without caring where each came from.
 */
import type { Piece } from './range-plan.ts';

/**
 * @param pieces the range split into pieces
 * @param parameters the query's parameters so far (`$1` must be the project id); extended here
 * @param rollup the rollup table, its key columns and its counter columns
 * @param raw the columns (aggregated over raw events, same names) and the GROUP BY that matches them
 */
export function rangePiecesSql(
  pieces: readonly Piece[],
  parameters: unknown[],
  rollup: { table: string; keys: string; counters: string[] },
  raw: { columns: string; groupBy: string },
): string {
  const bound = (column: string, piece: Piece): string => {
    const conditions: string[] = [];
    if (piece.from !== null) {
      parameters.push(new Date(piece.from));
      conditions.push(`${column} >= $${parameters.length}`);
    }
    if (piece.to !== null) {
      parameters.push(new Date(piece.to));
      conditions.push(`${column} < $${parameters.length}`);
    }
    return conditions.map((condition) => ` AND ${condition}`).join('');
  };
  const rollupColumns = (sign: 1 | -1) =>
    [
      rollup.keys,
      ...rollup.counters.map((counter) => (sign === 1 ? counter : `-${counter} AS ${counter}`)),
    ].join(', ');
  const parts = pieces.map((piece) =>
    piece.level === 'raw'
      ? `SELECT ${raw.columns} FROM analytics_page_views WHERE project_id = $1${bound('occurred_at', piece)} GROUP BY ${raw.groupBy}`
      : `SELECT ${rollupColumns(piece.sign)} FROM ${rollup.table} WHERE project_id = $1 AND granularity = '${piece.level}'${bound('bucket', piece)}`,
  );
  // An empty range still needs a well-typed, empty relation.
  if (parts.length === 0) parts.push(`SELECT ${rollupColumns(1)} FROM ${rollup.table} WHERE false`);
  return parts.join('\nUNION ALL\n');
}
