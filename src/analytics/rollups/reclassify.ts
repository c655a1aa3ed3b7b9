/**
 * Reclassifies stored page views after the classifier changed (a refreshed AI-agent table, new
 * rules): every view whose stored classifier version differs is classified again from its user
 * agent, Markdown flag and Web Bot Auth signer, learns its AI referrer from its referrer's host, and
 * the rollups of the months that still have raw events are rebuilt from them. Writers wait while
 * the rollups are rebuilt, so no view is counted twice or lost.
 */
import type pg from 'pg';
import { transaction } from '../../db/database.ts';
import { aiReferrerOf, type Classifier, type TrafficCategory } from '../classification/index.ts';
import { listMonthPartitions, packingLock } from '../storage/index.ts';
import { foldAllVisitorMarks, reclassifyVisitorMarks, visitorFoldingLocksSql } from '../visitors/index.ts';

export interface ReclassifyReport {
  classifierVersion: string;
  /** Distinct (user agent, Markdown) pairs classified again. */
  userAgents: number;
  viewsUpdated: number;
  viewsChanged: number;
  /** Visitor marks that moved with their views (between human, AI and bot). */
  visitorMarksMoved: number;
  rollupsRebuiltFrom: Date | null;
}

export async function reclassifyPageViews(
  pool: pg.Pool,
  classifier: Classifier,
  projectId: string | null,
): Promise<ReclassifyReport> {
  const report = await transaction(pool, async (client): Promise<ReclassifyReport> => {
    // Visitor folders and compaction wait too: their locks first, in the order folders take them.
    await client.query(visitorFoldingLocksSql, [projectId]);
    // Writers and the packer wait for the rebuild (readers do not): first the packing locks, which
    // writers take before they write, then the tables.
    await client.query(
      `SELECT ${packingLock('exclusive', 'id')}
       FROM (SELECT id FROM projects WHERE $1::text IS NULL OR id = $1 ORDER BY id) AS affected`,
      [projectId],
    );
    await client.query('LOCK TABLE analytics_path_rollups, analytics_agent_rollups IN EXCLUSIVE MODE');
    const stale = await client.query<{
      user_agent_id: string | null;
      markdown: boolean;
      signature_agent: string | null;
      user_agent: string | null;
    }>(
      `SELECT DISTINCT views.user_agent_id::text AS user_agent_id, views.markdown, views.signature_agent,
         agents.user_agent
       FROM analytics_page_views AS views
       LEFT JOIN analytics_user_agents AS agents ON agents.id = views.user_agent_id
       WHERE views.classifier_version <> $1 AND ($2::text IS NULL OR views.project_id = $2)`,
      [classifier.version, projectId],
    );
    const columns = {
      ids: [] as Array<string | null>,
      markdown: [] as boolean[],
      signatureAgents: [] as Array<string | null>,
      category: [] as string[],
      agent: [] as Array<string | null>,
    };
    for (const row of stale.rows) {
      const result = classifier.classify({
        userAgent: row.user_agent ?? undefined,
        markdown: row.markdown,
        // Stored as the host the header named; given back as the header's value.
        signatureAgent: row.signature_agent === null ? undefined : `"https://${row.signature_agent}"`,
      });
      columns.ids.push(row.user_agent_id);
      columns.markdown.push(row.markdown);
      columns.signatureAgents.push(row.signature_agent);
      columns.category.push(result.category);
      columns.agent.push(result.agent);
    }
    // Views stored before the AI-referrer rule learn it from their referrer's host (their utm_source
    // was never stored).
    const referrerHosts = await client.query<{ referrer_host: string }>(
      `SELECT DISTINCT referrer_host FROM analytics_page_views
       WHERE classifier_version <> $1 AND ($2::text IS NULL OR project_id = $2)
         AND referrer_host IS NOT NULL AND ai_referrer IS NULL`,
      [classifier.version, projectId],
    );
    const referrers = { hosts: [] as string[], assistants: [] as string[] };
    for (const { referrer_host: host } of referrerHosts.rows) {
      const assistant = aiReferrerOf(host, '');
      if (assistant === null) continue;
      referrers.hosts.push(host);
      referrers.assistants.push(assistant);
    }
    const matches = `views.user_agent_id IS NOT DISTINCT FROM fresh.id AND views.markdown = fresh.markdown
      AND views.signature_agent IS NOT DISTINCT FROM fresh.signature_agent
      AND views.classifier_version <> $1 AND ($2::text IS NULL OR views.project_id = $2)`;
    // Sub-statements share one snapshot: \`before\` sees the categories as they were.
    const result = await client.query<{ updated: number; changed: number }>(
      `WITH fresh AS (
         SELECT * FROM unnest($3::bigint[], $4::boolean[], $5::text[], $6::text[], $7::text[])
           AS fresh (id, markdown, category, agent, signature_agent)
       ), before AS (
         SELECT count(*) FILTER (WHERE views.category <> fresh.category) AS changed
         FROM analytics_page_views AS views JOIN fresh ON ${matches}
       ), updated AS (
         UPDATE analytics_page_views AS views
         SET category = fresh.category, agent = fresh.agent, classifier_version = $1,
           -- The verdict stays (addresses are not stored to verify again), but never on a person.
           verified = views.verified AND fresh.category <> 'human',
           ai_referrer = coalesce(views.ai_referrer, (
             SELECT referrer.assistant FROM unnest($8::text[], $9::text[]) AS referrer (host, assistant)
             WHERE referrer.host = views.referrer_host))
         FROM fresh WHERE ${matches}
         RETURNING 1
       )
       SELECT (SELECT count(*) FROM updated) AS updated, (SELECT changed FROM before) AS changed`,
      [
        classifier.version,
        projectId,
        columns.ids,
        columns.markdown,
        columns.category,
        columns.agent,
        columns.signatureAgents,
        referrers.hosts,
        referrers.assistants,
      ],
    );
    const counts = result.rows[0] ?? { updated: 0, changed: 0 };
    const oldest = (await listMonthPartitions(client))[0]?.month ?? null;
    if (oldest !== null && counts.updated > 0) await rebuildRollups(client, projectId, oldest);
    // A mark's group is its view's category's: when no view changed category, no mark moves (and
    // the marks, every one of the project's, need not be read).
    const visitorMarksMoved =
      counts.changed === 0
        ? 0
        : await reclassifyVisitorMarks(
            client,
            projectId,
            columns.ids.map((userAgentId, index) => ({
              userAgentId,
              markdown: columns.markdown[index] as boolean,
              signatureAgent: columns.signatureAgents[index] ?? null,
              category: columns.category[index] as TrafficCategory,
            })),
          );
    return {
      classifierVersion: classifier.version,
      userAgents: stale.rows.length,
      viewsUpdated: counts.updated,
      viewsChanged: counts.changed,
      visitorMarksMoved,
      rollupsRebuiltFrom: oldest,
    };
  });
  // The days whose visitors moved are counted again now, not at the next fold.
  if (report.visitorMarksMoved > 0) await foldAllVisitorMarks(pool, projectId ?? undefined);
  return report;
}

async function rebuildRollups(client: pg.PoolClient, projectId: string | null, from: Date): Promise<void> {
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
  // Series exist from a project's first view on; made sure of here all the same, since a missing one
  // would leave its views out of the rebuilt rollups.
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
     SELECT project_id, granularity, date_trunc(granularity, occurred_at, 'UTC'), category, coalesce(agent, ''), count(*),
       count(*) FILTER (WHERE verified)
     FROM analytics_page_views CROSS JOIN (VALUES ('hour'), ('day'), ('month')) AS levels (granularity)
     WHERE ($1::text IS NULL OR project_id = $1) AND occurred_at >= $2
     GROUP BY 1, 2, 3, 4, 5`,
    parameters,
  );
}
