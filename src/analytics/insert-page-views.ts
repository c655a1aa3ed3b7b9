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

/** Stores the raw events; `$12` (import keys) makes a conflict skip the view instead of failing. */
const rawColumns = `
  WITH user_agents AS (
    INSERT INTO analytics_user_agents (id, user_agent)
    SELECT DISTINCT ON (id) id, user_agent FROM unnest($10::bigint[], $11::text[]) AS agents (id, user_agent)
    ORDER BY id
    ON CONFLICT (id) DO NOTHING
  )
  INSERT INTO analytics_page_views
    (project_id, occurred_at, path, category, agent, classifier_version, user_agent_id, markdown, referrer_host, import_key)
  SELECT $1, to_timestamp(occurred_at / 1000.0), path, category, agent, classifier_version, user_agent_id, markdown,
    referrer_host, import_key
  FROM unnest($2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[], $7::bigint[], $8::boolean[], $9::text[], $12::bytea[])
    AS views (occurred_at, path, category, agent, classifier_version, user_agent_id, markdown, referrer_host, import_key)`;

const insertViews = rawColumns;
// Imports learn which views were new: only those are added to the rollups.
const insertImportedViews = `${rawColumns} ON CONFLICT DO NOTHING RETURNING import_key`;

/**
 * Adds counts summed by the writer to the rollups, in a fixed order (concurrent writers lock shared
 * rollup rows in the same order), and deletes the packed rows of the buckets they fall in.
 */
const addToRollups = `
WITH path_rollups AS (
  INSERT INTO analytics_path_rollups AS rollup
    (project_id, granularity, bucket, path_id, human, ai_assistant, ai_search, ai_training, bot)
  SELECT $1, granularity, to_timestamp(bucket / 1000.0), path_id, human, ai_assistant, ai_search, ai_training, bot
  FROM unnest($2::text[], $3::bigint[], $4::integer[], $5::integer[], $6::integer[], $7::integer[], $8::integer[], $9::integer[])
    AS counts (granularity, bucket, path_id, human, ai_assistant, ai_search, ai_training, bot)
  ON CONFLICT (project_id, granularity, bucket, path_id) DO UPDATE SET
    human = rollup.human + excluded.human,
    ai_assistant = rollup.ai_assistant + excluded.ai_assistant,
    ai_search = rollup.ai_search + excluded.ai_search,
    ai_training = rollup.ai_training + excluded.ai_training,
    bot = rollup.bot + excluded.bot
), agent_rollups AS (
  INSERT INTO analytics_agent_rollups AS rollup (project_id, granularity, bucket, category, agent, views)
  SELECT $1, granularity, to_timestamp(bucket / 1000.0), category, agent, views
  FROM unnest($10::text[], $11::bigint[], $12::text[], $13::text[], $14::integer[])
    AS counts (granularity, bucket, category, agent, views)
  ON CONFLICT (project_id, granularity, bucket, category, agent) DO UPDATE SET
    views = rollup.views + excluded.views
), touched AS (
  SELECT granularity, to_timestamp(bucket / 1000.0) AS bucket
  FROM unnest($15::text[], $16::bigint[]) AS touched (granularity, bucket)
), unpacked AS (
  DELETE FROM analytics_packed_rollups AS packed USING touched
  WHERE packed.project_id = $1 AND packed.granularity = touched.granularity AND packed.bucket = touched.bucket
)
UPDATE analytics_packing AS packing SET packed_until = earliest.bucket
FROM (SELECT granularity, min(bucket) AS bucket FROM touched GROUP BY granularity) AS earliest
WHERE packing.project_id = $1 AND packing.granularity = earliest.granularity
  AND packing.packed_until > earliest.bucket`;

const categoryColumn = { human: 0, ai_assistant: 1, ai_search: 2, ai_training: 3, bot: 4 } as const;
const pathLevels = ['hour', 'day'] as const;
const agentLevels = ['hour', 'day', 'month'] as const;

/**
 * Inserts the views of one project and adds them to the rollups; returns how many were new
 * (views whose import key was already stored are skipped). Runs inside the caller's transaction,
 * whose whole length it holds the project's packing lock (shared) for. The month partitions must
 * exist (`ensureMonthPartitions`), and every path must have an id in `pathIds` (`assignPathIds`).
 */
export async function insertPageViews(
  db: Queryable,
  projectId: string,
  views: readonly StoredPageView[],
  pathIds: ReadonlyMap<string, number>,
): Promise<number> {
  if (views.length === 0) return 0;
  const columns = {
    occurredAt: [] as number[],
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
  let imported = false;
  for (const view of views) {
    let userAgentId: string | null = null;
    if (view.userAgent !== undefined) {
      userAgentId = userAgentIds.get(view.userAgent) ?? userAgentIdOf(view.userAgent);
      userAgentIds.set(view.userAgent, userAgentId);
    }
    columns.occurredAt.push(view.occurredAt);
    columns.path.push(view.path);
    columns.category.push(view.category);
    columns.agent.push(view.agent);
    columns.classifierVersion.push(view.classifierVersion);
    columns.userAgentId.push(userAgentId);
    columns.markdown.push(view.markdown);
    columns.referrerHost.push(view.referrerHost);
    columns.importKey.push(view.importKey ?? null);
    if (view.importKey !== undefined) imported = true;
  }
  await db.query({
    name: 'analytics-packing-lock-shared',
    text: `SELECT ${packingLock('shared', '$1')}`,
    values: [projectId],
  });
  // Named: prepared once per connection instead of planned on every batch.
  const result = await db.query<{ import_key: Buffer }>({
    name: imported ? 'analytics-insert-imported-views' : 'analytics-insert-views',
    text: imported ? insertImportedViews : insertViews,
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
    ],
  });
  let counted = views;
  if (imported) {
    const stored = new Set(result.rows.map((row) => row.import_key.toString('base64')));
    counted = views.filter(
      (view) => view.importKey === undefined || stored.has(view.importKey.toString('base64')),
    );
    if (counted.length === 0) return 0;
  }
  await db.query({
    name: 'analytics-add-to-rollups',
    text: addToRollups,
    values: [projectId, ...rollupColumns(counted, pathIds)],
  });
  return counted.length;
}

/** The rollup statement's arrays: the views summed per row, each level's rows in key order. */
function rollupColumns(views: readonly StoredPageView[], pathIds: ReadonlyMap<string, number>): unknown[] {
  const pathCounts = new Map<string, number[]>();
  const agentCounts = new Map<string, number>();
  const hours = new Set<number>();
  for (const view of views) {
    const pathId = pathIds.get(view.path);
    if (pathId === undefined) throw new Error(`The path ${JSON.stringify(view.path)} has no id`);
    const hour = floorBucket('hour', view.occurredAt);
    hours.add(hour);
    for (const level of pathLevels) {
      const key = `${level} ${floorBucket(level, hour)} ${pathId}`;
      let counts = pathCounts.get(key);
      if (counts === undefined) {
        counts = [0, 0, 0, 0, 0];
        pathCounts.set(key, counts);
      }
      counts[categoryColumn[view.category]] = (counts[categoryColumn[view.category]] ?? 0) + 1;
    }
    for (const level of agentLevels) {
      const key = `${level} ${floorBucket(level, hour)} ${view.category} ${view.agent ?? ''}`;
      agentCounts.set(key, (agentCounts.get(key) ?? 0) + 1);
    }
  }
  const path = {
    granularity: [] as string[],
    bucket: [] as number[],
    pathId: [] as number[],
    counts: [[], [], [], [], []] as number[][],
  };
  // Any fixed order will do, as long as every writer uses it.
  for (const key of [...pathCounts.keys()].sort()) {
    const [granularity, bucket, pathId] = key.split(' ');
    path.granularity.push(granularity as string);
    path.bucket.push(Number(bucket));
    path.pathId.push(Number(pathId));
    for (const [column, count] of (pathCounts.get(key) as number[]).entries())
      path.counts[column]?.push(count);
  }
  const agent = {
    granularity: [] as string[],
    bucket: [] as number[],
    category: [] as string[],
    agent: [] as string[],
    views: [] as number[],
  };
  for (const key of [...agentCounts.keys()].sort()) {
    const [granularity, bucket, category, ...name] = key.split(' ');
    agent.granularity.push(granularity as string);
    agent.bucket.push(Number(bucket));
    agent.category.push(category as string);
    agent.agent.push(name.join(' '));
    agent.views.push(agentCounts.get(key) as number);
  }
  // The packed buckets these views fall in, at every level (a packed row of one is stale now).
  const touched = { granularity: [] as string[], bucket: [] as number[] };
  for (const level of packedLevels) {
    for (const start of new Set([...hours].map((hour) => floorBucket(level, hour)))) {
      touched.granularity.push(level);
      touched.bucket.push(start);
    }
  }
  return [
    path.granularity,
    path.bucket,
    path.pathId,
    ...path.counts,
    agent.granularity,
    agent.bucket,
    agent.category,
    agent.agent,
    agent.views,
    touched.granularity,
    touched.bucket,
  ];
}

/** The first 8 bytes of the user agent's SHA-256 as a signed 64-bit integer (decimal text). */
export function userAgentIdOf(userAgent: string): string {
  return createHash('sha256').update(userAgent).digest().readBigInt64BE(0).toString();
}
