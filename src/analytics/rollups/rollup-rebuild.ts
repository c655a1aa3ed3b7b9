/**
 * Rebuilds the page and agent rollups of the months that still have raw events from those events,
 * for when `quire analytics verify` finds a difference (a bug, a hand-edited row). One transaction
 * holds the writers and the packer of the projects it covers (without a project, of every one)
 * until it is done: the rollups are never read half rebuilt, and no view is counted twice or lost.
 * Months older than the raw events keep their rollups, which are all that remains of them.
 */
import type pg from 'pg';
import { transaction } from '../../db/database.ts';
import { listMonthPartitions, packingLock } from '../storage/index.ts';

export interface RebuildReport {
  /** Rollups from here on were rebuilt; null: no raw events are kept. */
  rebuiltFrom: Date | null;
}

export async function rebuildRollups(pool: pg.Pool, projectId: string | null): Promise<RebuildReport> {
  return transaction(pool, async (client) => {
    // The project's writers, reclassification and the packer wait (readers do not): they take its
    // packing lock before they write.
    await client.query(
      `SELECT ${packingLock('exclusive', 'id')}
       FROM (SELECT id FROM projects WHERE $1::text IS NULL OR id = $1 ORDER BY id) AS affected`,
      [projectId],
    );
    // Every project's: one created since the locks were taken would write rollup rows that these
    // statements did not delete and then count again from its views.
    if (projectId === null) {
      await client.query('LOCK TABLE analytics_path_rollups, analytics_agent_rollups IN EXCLUSIVE MODE');
    }
    const from = (await listMonthPartitions(client))[0]?.month ?? null;
    if (from === null) return { rebuiltFrom: null };
    const parameters = [projectId, from];
    const scope = '($1::text IS NULL OR project_id = $1) AND bucket >= $2';
    await client.query(
      `DELETE FROM analytics_path_rollups
       WHERE series IN (SELECT id FROM analytics_rollup_series WHERE $1::text IS NULL OR project_id = $1) AND bucket >= $2`,
      parameters,
    );
    await client.query(`DELETE FROM analytics_agent_rollups WHERE ${scope}`, parameters);
    // Packed from the old rows: packed again later (every level's buckets start at or after a month).
    await client.query(`DELETE FROM analytics_packed_rollups WHERE ${scope}`, parameters);
    await client.query(
      `UPDATE analytics_packing SET packed_until = $2
       WHERE ($1::text IS NULL OR project_id = $1) AND packed_until > $2`,
      parameters,
    );
    // Series exist from a project's first view on; made sure of here all the same, since a missing
    // one would leave its views out of the rebuilt rollups.
    await client.query(
      `INSERT INTO analytics_rollup_series (project_id, granularity)
       SELECT id, level FROM projects CROSS JOIN (VALUES ('hour'), ('day')) AS levels (level)
       WHERE $1::text IS NULL OR id = $1
       ON CONFLICT (project_id, granularity) DO NOTHING`,
      [projectId],
    );
    await client.query(
      `INSERT INTO analytics_path_rollups
         (series, bucket, path_id, human, ai_assistant, ai_search, ai_training, bot, ai_referred, verified_ai)
       SELECT series.id, date_trunc(series.granularity, occurred_at, 'UTC'), paths.id,
         count(*) FILTER (WHERE category = 'human'), count(*) FILTER (WHERE category = 'ai_assistant'),
         count(*) FILTER (WHERE category = 'ai_search'), count(*) FILTER (WHERE category = 'ai_training'),
         count(*) FILTER (WHERE category = 'bot'),
         count(*) FILTER (WHERE category = 'human' AND ai_referrer IS NOT NULL),
         count(*) FILTER (WHERE verified AND category IN ('ai_assistant', 'ai_search', 'ai_training'))
       FROM analytics_page_views AS views
       JOIN analytics_paths AS paths ON paths.project_id = views.project_id AND paths.path = views.path
       JOIN analytics_rollup_series AS series ON series.project_id = views.project_id
       WHERE ($1::text IS NULL OR views.project_id = $1) AND occurred_at >= $2
       GROUP BY 1, 2, 3`,
      parameters,
    );
    await client.query(
      `INSERT INTO analytics_agent_rollups (project_id, granularity, bucket, category, agent, views, verified_views)
       SELECT project_id, granularity, date_trunc(granularity, occurred_at, 'UTC'), category, coalesce(agent, ''),
         count(*), count(*) FILTER (WHERE verified)
       FROM analytics_page_views CROSS JOIN (VALUES ('hour'), ('day'), ('month')) AS levels (granularity)
       WHERE ($1::text IS NULL OR project_id = $1) AND occurred_at >= $2
       GROUP BY 1, 2, 3, 4, 5`,
      parameters,
    );
    return { rebuiltFrom: from };
  });
}
