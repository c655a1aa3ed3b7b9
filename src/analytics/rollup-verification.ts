/**
 * Proves the rollups equal the raw events: for every granularity, every (bucket, page) and every
 * (bucket, category, agent) counted both ways, in one snapshot. Months whose raw events are gone
 * (retention) are left out: their rollups are all that remains of them. Then proves every packed
 * row (rollup-packer.ts) equals the per-page rows it was packed from, decoding it in SQL.
 */
import type pg from 'pg';
import { transaction } from '../db/database.ts';
import { listMonthPartitions } from './month-partitions.ts';
import { packedLevels } from './rollup-packer.ts';

export interface RollupMismatch {
  table: 'analytics_path_rollups' | 'analytics_agent_rollups' | 'analytics_packed_rollups';
  projectId: string;
  granularity: string;
  bucket: Date;
  key: string;
  /** The counts from raw events (for packed rows: from the per-page rows). */
  raw: string;
  rollup: string;
}

export interface VerificationReport {
  rawEvents: number;
  rollupRowsChecked: number;
  packedRowsChecked: number;
  mismatches: RollupMismatch[];
  /** Raw events are kept from here on; rollups before it were not checked. */
  checkedFrom: Date | null;
}

const comparePaths = `
  WITH raw AS (
    SELECT project_id, date_trunc($1, occurred_at, 'UTC') AS bucket, path AS key,
      concat_ws(',', count(*) FILTER (WHERE category = 'human'), count(*) FILTER (WHERE category = 'ai_assistant'),
        count(*) FILTER (WHERE category = 'ai_search'), count(*) FILTER (WHERE category = 'ai_training'),
        count(*) FILTER (WHERE category = 'bot')) AS counts
    FROM analytics_page_views WHERE ($3::text IS NULL OR project_id = $3)
    GROUP BY 1, 2, 3
  ), rollup AS (
    SELECT project_id, bucket, path AS key, concat_ws(',', human, ai_assistant, ai_search, ai_training, bot) AS counts
    FROM analytics_path_rollups
    WHERE granularity = $1 AND bucket >= $2 AND ($3::text IS NULL OR project_id = $3)
  )`;

const compareAgents = `
  WITH raw AS (
    SELECT project_id, date_trunc($1, occurred_at, 'UTC') AS bucket, category || '/' || coalesce(agent, '') AS key,
      count(*)::text AS counts
    FROM analytics_page_views WHERE ($3::text IS NULL OR project_id = $3)
    GROUP BY 1, 2, 3
  ), rollup AS (
    SELECT project_id, bucket, category || '/' || agent AS key, views::text AS counts
    FROM analytics_agent_rollups
    WHERE granularity = $1 AND bucket >= $2 AND ($3::text IS NULL OR project_id = $3)
  )`;

const comparePacked = `
  SELECT packed.project_id, packed.bucket, difference.key, difference.raw_counts, difference.rollup_counts
  FROM analytics_packed_rollups AS packed
  CROSS JOIN LATERAL (
    SELECT coalesce(counted.path, unpacked.path, '#' || unpacked.path_id) AS key,
      coalesce(concat_ws(',', counted.human, counted.ai_assistant, counted.ai_crawlers), 'none') AS raw_counts,
      coalesce(concat_ws(',', unpacked.human, unpacked.ai_assistant, unpacked.ai_crawlers), 'none') AS rollup_counts
    FROM (
      SELECT paths.path, entry.* FROM analytics_unpack(packed.counts) AS entry
      LEFT JOIN analytics_paths AS paths ON paths.project_id = packed.project_id AND paths.id = entry.path_id
    ) AS unpacked
    FULL JOIN (
      SELECT path, sum(human) AS human, sum(ai_assistant) AS ai_assistant, sum(ai_search + ai_training) AS ai_crawlers
      FROM analytics_path_rollups
      WHERE project_id = packed.project_id AND granularity = analytics_row_level(packed.granularity)
        AND bucket >= packed.bucket AND bucket < analytics_bucket_end(packed.granularity, packed.bucket)
      GROUP BY path
      HAVING sum(human) > 0 OR sum(ai_assistant) > 0 OR sum(ai_search + ai_training) > 0
    ) AS counted ON counted.path = unpacked.path
    WHERE unpacked.path IS NULL OR counted.path IS NULL
      OR (counted.human, counted.ai_assistant, counted.ai_crawlers)
        IS DISTINCT FROM (unpacked.human, unpacked.ai_assistant, unpacked.ai_crawlers)
  ) AS difference
  WHERE packed.granularity = $1 AND ($2::text IS NULL OR packed.project_id = $2)
  ORDER BY 1, 2, 3
  LIMIT 1000`;

const differences = `
  SELECT coalesce(raw.project_id, rollup.project_id) AS project_id, coalesce(raw.bucket, rollup.bucket) AS bucket,
    coalesce(raw.key, rollup.key) AS key, coalesce(raw.counts, 'none') AS raw_counts,
    coalesce(rollup.counts, 'none') AS rollup_counts
  FROM raw FULL JOIN rollup USING (project_id, bucket, key)
  WHERE raw.counts IS DISTINCT FROM rollup.counts
  ORDER BY 1, 2, 3
  LIMIT 1000`;

export async function verifyRollups(pool: pg.Pool, projectId: string | null): Promise<VerificationReport> {
  return transaction(pool, async (client) => {
    // One snapshot for every comparison: writers commit raw and rollups together.
    await client.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const partitions = await listMonthPartitions(client);
    const checkedFrom = partitions[0]?.month ?? null;
    const raw = await client.query<{ count: number }>(
      'SELECT count(*) AS count FROM analytics_page_views WHERE ($1::text IS NULL OR project_id = $1)',
      [projectId],
    );
    const report: VerificationReport = {
      rawEvents: raw.rows[0]?.count ?? 0,
      rollupRowsChecked: 0,
      packedRowsChecked: 0,
      mismatches: [],
      checkedFrom,
    };
    for (const [table, comparison, granularities] of [
      ['analytics_path_rollups', comparePaths, ['hour', 'day']],
      ['analytics_agent_rollups', compareAgents, ['hour', 'day', 'month']],
    ] as const) {
      for (const granularity of granularities) {
        const parameters = [granularity, checkedFrom ?? new Date(8.64e15), projectId];
        const result = await client.query<{
          project_id: string;
          bucket: Date;
          key: string;
          raw_counts: string;
          rollup_counts: string;
        }>(`${comparison} ${differences}`, parameters);
        for (const row of result.rows) {
          report.mismatches.push({
            table,
            projectId: row.project_id,
            granularity,
            bucket: row.bucket,
            key: row.key,
            raw: row.raw_counts,
            rollup: row.rollup_counts,
          });
        }
        const checked = await client.query<{ count: number }>(
          `${comparison} SELECT count(*) AS count FROM rollup`,
          parameters,
        );
        report.rollupRowsChecked += checked.rows[0]?.count ?? 0;
      }
    }
    for (const granularity of packedLevels) {
      const result = await client.query<{
        project_id: string;
        bucket: Date;
        key: string;
        raw_counts: string;
        rollup_counts: string;
      }>(comparePacked, [granularity, projectId]);
      for (const row of result.rows) {
        report.mismatches.push({
          table: 'analytics_packed_rollups',
          projectId: row.project_id,
          granularity,
          bucket: row.bucket,
          key: row.key,
          raw: row.raw_counts,
          rollup: row.rollup_counts,
        });
      }
    }
    const packed = await client.query<{ count: number }>(
      'SELECT count(*) AS count FROM analytics_packed_rollups WHERE ($1::text IS NULL OR project_id = $1)',
      [projectId],
    );
    report.packedRowsChecked = packed.rows[0]?.count ?? 0;
    return report;
  });
}
