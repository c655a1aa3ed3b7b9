/**
 * Stores page views and updates every rollup in one statement, so that the rollups can never
 * disagree with the raw events: they commit or roll back together. Packed rows of the buckets the
 * views fall in are deleted in the same statement (rollup-packer.ts packs them again).
 */
import { createHash } from 'node:crypto';
import type { Queryable } from '../db/database.ts';
import type { PageView } from './page-view.ts';
import { floorBucket } from './range-plan.ts';
import { packedLevels, packingLock } from './rollup-packer.ts';

export interface StoredPageView extends PageView {
  /** `undefined`: the ingesting client did not report one. */
  userAgent: string | undefined;
  /** Log imports only: identifies the source line, so a re-run inserts nothing twice. */
  importKey?: Buffer;
}

const insertStatement = `
WITH user_agents AS (
  INSERT INTO analytics_user_agents (id, user_agent)
  SELECT DISTINCT ON (id) id, user_agent FROM unnest($10::bigint[], $11::text[]) AS agents (id, user_agent)
  ORDER BY id
  ON CONFLICT (id) DO NOTHING
), inserted AS (
  INSERT INTO analytics_page_views
    (project_id, occurred_at, path, category, agent, classifier_version, user_agent_id, markdown, referrer_host, import_key)
  SELECT $1, * FROM unnest(
    $2::timestamptz[], $3::text[], $4::text[], $5::text[], $6::text[], $7::bigint[], $8::boolean[], $9::text[], $12::bytea[]
  )
  ON CONFLICT DO NOTHING
  RETURNING occurred_at, path, category, agent
), path_levels (granularity) AS (
  VALUES ('hour'), ('day')
), agent_levels (granularity) AS (
  VALUES ('hour'), ('day'), ('month')
), path_rollups AS (
  INSERT INTO analytics_path_rollups AS rollup
    (project_id, granularity, bucket, path, human, ai_assistant, ai_search, ai_training, bot)
  SELECT $1, granularity, date_trunc(granularity, occurred_at, 'UTC') AS bucket, path,
    count(*) FILTER (WHERE category = 'human'),
    count(*) FILTER (WHERE category = 'ai_assistant'),
    count(*) FILTER (WHERE category = 'ai_search'),
    count(*) FILTER (WHERE category = 'ai_training'),
    count(*) FILTER (WHERE category = 'bot')
  FROM inserted CROSS JOIN path_levels
  GROUP BY granularity, bucket, path
  -- A fixed order: concurrent writers lock shared rollup rows in the same order.
  ORDER BY granularity, bucket, path
  ON CONFLICT (project_id, granularity, bucket, path) DO UPDATE SET
    human = rollup.human + excluded.human,
    ai_assistant = rollup.ai_assistant + excluded.ai_assistant,
    ai_search = rollup.ai_search + excluded.ai_search,
    ai_training = rollup.ai_training + excluded.ai_training,
    bot = rollup.bot + excluded.bot
), agent_rollups AS (
  INSERT INTO analytics_agent_rollups AS rollup (project_id, granularity, bucket, category, agent, views)
  SELECT $1, granularity, date_trunc(granularity, occurred_at, 'UTC') AS bucket, category,
    coalesce(agent, '') AS agent_name, count(*)
  FROM inserted CROSS JOIN agent_levels
  GROUP BY granularity, bucket, category, agent_name
  ORDER BY granularity, bucket, category, agent_name
  ON CONFLICT (project_id, granularity, bucket, category, agent) DO UPDATE SET
    views = rollup.views + excluded.views
), touched AS (
  SELECT * FROM unnest($13::text[], $14::timestamptz[]) AS touched (granularity, bucket)
), unpacked AS (
  DELETE FROM analytics_packed_rollups AS packed USING touched
  WHERE packed.project_id = $1 AND packed.granularity = touched.granularity AND packed.bucket = touched.bucket
), rewound AS (
  UPDATE analytics_packing AS packing SET packed_until = earliest.bucket
  FROM (SELECT granularity, min(bucket) AS bucket FROM touched GROUP BY granularity) AS earliest
  WHERE packing.project_id = $1 AND packing.granularity = earliest.granularity
    AND packing.packed_until > earliest.bucket
)
SELECT count(*)::integer AS inserted FROM inserted`;

/**
 * Inserts the views of one project and adds them to the rollups; returns how many were new
 * (views whose import key was already stored are skipped). Runs inside the caller's transaction,
 * whose whole length it holds the project's packing lock (shared) for. The month partitions must
 * exist (`ensureMonthPartitions`).
 */
export async function insertPageViews(
  db: Queryable,
  projectId: string,
  views: readonly StoredPageView[],
): Promise<number> {
  if (views.length === 0) return 0;
  const columns = {
    occurredAt: [] as Date[],
    path: [] as string[],
    category: [] as string[],
    agent: [] as Array<string | null>,
    classifierVersion: [] as string[],
    userAgentId: [] as Array<string | null>,
    markdown: [] as boolean[],
    referrerHost: [] as Array<string | null>,
    importKey: [] as Array<Buffer | null>,
  };
  // user agent -> id; a batch repeats a few user agents many times.
  const userAgentIds = new Map<string, string>();
  const hours = new Set<number>();
  for (const view of views) {
    hours.add(floorBucket('hour', view.occurredAt));
    let userAgentId: string | null = null;
    if (view.userAgent !== undefined) {
      userAgentId = userAgentIds.get(view.userAgent) ?? userAgentIdOf(view.userAgent);
      userAgentIds.set(view.userAgent, userAgentId);
    }
    columns.occurredAt.push(new Date(view.occurredAt));
    columns.path.push(view.path);
    columns.category.push(view.category);
    columns.agent.push(view.agent);
    columns.classifierVersion.push(view.classifierVersion);
    columns.userAgentId.push(userAgentId);
    columns.markdown.push(view.markdown);
    columns.referrerHost.push(view.referrerHost);
    columns.importKey.push(view.importKey ?? null);
  }
  // The packed buckets these views fall in, at every level (a packed row of one is stale now).
  const touchedLevels: string[] = [];
  const touchedBuckets: Date[] = [];
  for (const level of packedLevels) {
    for (const start of new Set([...hours].map((hour) => floorBucket(level, hour)))) {
      touchedLevels.push(level);
      touchedBuckets.push(new Date(start));
    }
  }
  await db.query({
    name: 'analytics-packing-lock-shared',
    text: `SELECT ${packingLock('shared', '$1')}`,
    values: [projectId],
  });
  // Named: prepared once per connection instead of planned on every batch.
  const result = await db.query<{ inserted: number }>({
    name: 'analytics-insert-page-views',
    text: insertStatement,
    values: [
      projectId,
      columns.occurredAt,
      columns.path,
      columns.category,
      columns.agent,
      columns.classifierVersion,
      columns.userAgentId,
      columns.markdown,
      columns.referrerHost,
      [...userAgentIds.values()],
      [...userAgentIds.keys()],
      columns.importKey,
      touchedLevels,
      touchedBuckets,
    ],
  });
  return result.rows[0]?.inserted ?? 0;
}

/** The first 8 bytes of the user agent's SHA-256 as a signed 64-bit integer (decimal text). */
export function userAgentIdOf(userAgent: string): string {
  return createHash('sha256').update(userAgent).digest().readBigInt64BE(0).toString();
}
