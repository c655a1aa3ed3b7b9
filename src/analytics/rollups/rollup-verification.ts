/**
 * Proves the rollups equal the raw events: for every granularity, every (bucket, page) and every
 * (bucket, category, agent) counted both ways, in one snapshot, with every count a row holds (a
 * page's categories, AI-referred and verified AI views; an agent's views and verified views).
 * Months whose raw events are gone (retention) are left out: their rollups are all that remains of
 * them. Then proves every packed row (rollup-packer.ts) equals the per-page rows it was packed from,
 * decoding it as the export does, and checks the visitor sketches (visitor-verification.ts).
 */
import type pg from 'pg';
import { transaction } from '../../db/database.ts';
import {
  decodePackedEntries,
  listMonthPartitions,
  packedCountsWidth,
  packedDetailWidth,
} from '../storage/index.ts';
import { foldAllVisitorMarks } from '../visitors/index.ts';
import { verifyVisitorRollups } from './visitor-verification.ts';

export interface RollupMismatch {
  table:
    | 'analytics_path_rollups'
    | 'analytics_agent_rollups'
    | 'analytics_packed_rollups'
    | 'analytics_visitor_rollups';
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
  /** Visitor sketch rows checked (exactly against each other, within the sketch error against views). */
  visitorRowsChecked: number;
  mismatches: RollupMismatch[];
  /** Raw events are kept from here on; rollups before it were not checked. */
  checkedFrom: Date | null;
}

const comparePaths = `
  WITH raw AS (
    SELECT project_id, date_trunc($1, occurred_at, 'UTC') AS bucket, path AS key,
      concat_ws(',', count(*) FILTER (WHERE category = 'human'), count(*) FILTER (WHERE category = 'ai_assistant'),
        count(*) FILTER (WHERE category = 'ai_search'), count(*) FILTER (WHERE category = 'ai_training'),
        count(*) FILTER (WHERE category = 'bot'),
        count(*) FILTER (WHERE category = 'human' AND ai_referrer IS NOT NULL),
        count(*) FILTER (WHERE verified AND category IN ('ai_assistant', 'ai_search', 'ai_training'))) AS counts
    FROM analytics_page_views WHERE ($3::text IS NULL OR project_id = $3)
    GROUP BY 1, 2, 3
  ), rollup AS (
    SELECT series.project_id, rollup.bucket, coalesce(paths.path, 'path id ' || rollup.path_id) AS key,
      concat_ws(',', human, ai_assistant, ai_search, ai_training, bot, ai_referred, verified_ai) AS counts
    FROM analytics_path_rollups AS rollup
    JOIN analytics_rollup_series AS series ON series.id = rollup.series
    LEFT JOIN analytics_paths AS paths ON paths.project_id = series.project_id AND paths.id = rollup.path_id
    WHERE series.granularity = $1 AND bucket >= $2 AND ($3::text IS NULL OR series.project_id = $3)
  )`;

const compareAgents = `
  WITH raw AS (
    SELECT project_id, date_trunc($1, occurred_at, 'UTC') AS bucket, category || '/' || coalesce(agent, '') AS key,
      count(*) || ',' || count(*) FILTER (WHERE verified) AS counts
    FROM analytics_page_views WHERE ($3::text IS NULL OR project_id = $3)
    GROUP BY 1, 2, 3
  ), rollup AS (
    SELECT project_id, bucket, category || '/' || agent AS key, views || ',' || verified_views AS counts
    FROM analytics_agent_rollups
    WHERE granularity = $1 AND bucket >= $2 AND ($3::text IS NULL OR project_id = $3)
  )`;

/**
 * What a packed bucket should hold, from the per-page rows: per page, its countable views (human,
 * ai_assistant, crawlers), then after `|` its detail counters (ai_referred, ai_search, ai_training,
 * bot, verified_ai); a part is `-` where the page has none of it.
 */
const packedBucketCounts = `
  SELECT path, path_id,
    CASE WHEN human > 0 OR ai_assistant > 0 OR ai_crawlers > 0 THEN concat_ws(',', human, ai_assistant, ai_crawlers)
      ELSE '-' END || '|' ||
    CASE WHEN ai_referred > 0 OR ai_search > 0 OR ai_training > 0 OR bot > 0 OR verified_ai > 0
      THEN concat_ws(',', ai_referred, ai_search, ai_training, bot, verified_ai) ELSE '-' END AS counts
  FROM (
    SELECT coalesce(paths.path, 'path id ' || rollup.path_id) AS path, rollup.path_id,
      sum(rollup.human) AS human, sum(rollup.ai_assistant) AS ai_assistant,
      sum(rollup.ai_search + rollup.ai_training) AS ai_crawlers, sum(rollup.ai_referred) AS ai_referred,
      sum(rollup.ai_search) AS ai_search, sum(rollup.ai_training) AS ai_training, sum(rollup.bot) AS bot,
      sum(rollup.verified_ai) AS verified_ai
    FROM analytics_path_rollups AS rollup
    LEFT JOIN analytics_paths AS paths ON paths.project_id = $1 AND paths.id = rollup.path_id
    WHERE rollup.series = analytics_series($1, analytics_row_level($2))
      AND rollup.bucket >= $3 AND rollup.bucket < analytics_bucket_end($2, $3)
    GROUP BY paths.path, rollup.path_id
  ) AS sums
  WHERE human > 0 OR ai_assistant > 0 OR ai_crawlers > 0 OR ai_referred > 0 OR ai_search > 0
    OR ai_training > 0 OR bot > 0 OR verified_ai > 0`;

const differences = `
  SELECT coalesce(raw.project_id, rollup.project_id) AS project_id, coalesce(raw.bucket, rollup.bucket) AS bucket,
    coalesce(raw.key, rollup.key) AS key, coalesce(raw.counts, 'none') AS raw_counts,
    coalesce(rollup.counts, 'none') AS rollup_counts
  FROM raw FULL JOIN rollup USING (project_id, bucket, key)
  WHERE raw.counts IS DISTINCT FROM rollup.counts
  ORDER BY 1, 2, 3
  LIMIT 1000`;

/** Decodes a packed row as the export does and compares it with the per-page rows, page by page. */
async function comparePackedBucket(
  client: pg.PoolClient,
  packed: { project_id: string; granularity: string; bucket: Date },
): Promise<RollupMismatch[]> {
  const stored = await client.query<{ counts: Buffer; detail: Buffer }>(
    `SELECT counts, detail FROM analytics_packed_rollups
     WHERE project_id = $1 AND granularity = $2 AND bucket = $3`,
    [packed.project_id, packed.granularity, packed.bucket],
  );
  // Per path id: [counts, detail], each '-' where the page has none, as the statement writes them.
  const decoded = new Map<number, [string, string]>();
  const entryOf = (pathId: number) => {
    const entry = decoded.get(pathId) ?? ['-', '-'];
    decoded.set(pathId, entry);
    return entry;
  };
  const row = stored.rows[0];
  const columns = [
    ['counts', packedCountsWidth],
    ['detail', packedDetailWidth],
  ] as const;
  for (const [index, [column, width]] of columns.entries()) {
    decodePackedEntries(row?.[column] ?? Buffer.alloc(0), width, `packed ${column}`, (pathId, counters) => {
      entryOf(pathId)[index] = counters.join(',');
    });
  }
  const fromPacked = new Map(
    [...decoded].map(([pathId, [counts, detail]]) => [pathId, `${counts}|${detail}`]),
  );
  const expected = await client.query<{ path: string; path_id: number; counts: string }>(packedBucketCounts, [
    packed.project_id,
    packed.granularity,
    packed.bucket,
  ]);
  const mismatch = (key: string, raw: string, rollup: string): RollupMismatch => ({
    table: 'analytics_packed_rollups',
    projectId: packed.project_id,
    granularity: packed.granularity,
    bucket: packed.bucket,
    key,
    raw,
    rollup,
  });
  const mismatches: RollupMismatch[] = [];
  for (const row of expected.rows) {
    const counts = fromPacked.get(row.path_id);
    if (counts !== row.counts) mismatches.push(mismatch(row.path, row.counts, counts ?? 'none'));
    fromPacked.delete(row.path_id);
  }
  for (const [pathId, counts] of fromPacked) mismatches.push(mismatch(`path id ${pathId}`, 'none', counts));
  return mismatches;
}

export async function verifyRollups(pool: pg.Pool, projectId: string | null): Promise<VerificationReport> {
  // Visitor marks still pending are folded first: the checks compare folded sketches.
  await foldAllVisitorMarks(pool);
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
      visitorRowsChecked: 0,
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
    // Keys only: the rows themselves are read one at a time.
    const packed = await client.query<{ project_id: string; granularity: string; bucket: Date }>(
      `SELECT project_id, granularity, bucket FROM analytics_packed_rollups
       WHERE ($1::text IS NULL OR project_id = $1) ORDER BY 1, 2, 3`,
      [projectId],
    );
    for (const row of packed.rows) {
      report.mismatches.push(...(await comparePackedBucket(client, row)));
    }
    report.packedRowsChecked = packed.rows.length;
    const visitors = await verifyVisitorRollups(client, projectId);
    report.visitorRowsChecked = visitors.rowsChecked;
    for (const mismatch of visitors.mismatches) {
      report.mismatches.push({
        table: 'analytics_visitor_rollups',
        projectId: mismatch.projectId,
        granularity: mismatch.granularity,
        bucket: mismatch.bucket,
        key: mismatch.key,
        raw: mismatch.expected,
        rollup: mismatch.found,
      });
    }
    return report;
  });
}
