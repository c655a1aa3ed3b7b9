/**
 * Stores page views and adds them to every rollup in the caller's transaction, so that the rollups
 * can never disagree with the raw events: they commit or roll back together. The writer sums the
 * rollup rows itself (rollup-arithmetic.ts; PostgreSQL only adds them), and deletes the packed rows
 * of the buckets the views fall in (rollup-packer.ts packs them again).
 */
import {
  booleanArrayLiteral,
  hexByteaArrayLiteral,
  integerArrayLiteral,
  textArrayLiteral,
} from '../../db/array-literal.ts';
import type { Queryable } from '../../db/database.ts';
import type { RollupSeries } from '../storage/index.ts';
import { packingLock } from '../storage/index.ts';
import { insertVisitorMarks, visitorProfileIds } from '../visitors/index.ts';
import type { StoredPageView } from './page-view.ts';
import {
  type ProfiledViews,
  profileViews,
  type RollupSums,
  sumRollups,
  visitorMarksOf,
} from './rollup-arithmetic.ts';

/**
 * Stores the raw events. A view's category, agent, classifier version, user agent and Markdown flag
 * come from its profile (`$4`, 1-based, into `$6`-`$10`): a batch has few distinct ones, and
 * arrays with one element per view are what PostgreSQL spends its time parsing.
 */
const rawInsertInputs = `
  user_agents AS (
    INSERT INTO analytics_user_agents (id, user_agent)
    SELECT id, user_agent FROM unnest($11::bigint[], $12::text[]) AS agents (id, user_agent)
    ON CONFLICT (id) DO NOTHING
  ), profiles AS (
    SELECT * FROM unnest($6::text[], $7::text[], $8::text[], $9::bigint[], $10::boolean[], $14::text[], $15::boolean[])
      WITH ORDINALITY AS profile (category, agent, classifier_version, user_agent_id, markdown, signature_agent, verified, number)
  )`;
const rawInsertRows = `
  INSERT INTO analytics_page_views
    (project_id, occurred_at, path, category, agent, classifier_version, user_agent_id, markdown, referrer_host, import_key,
     signature_agent, verified, ai_referrer)
  -- Epoch milliseconds ($17 plus each view's offset from it) divided as float8, not numeric: exact
  -- to the millisecond for any year this accepts, and several times cheaper.
  SELECT $1, to_timestamp(($17::bigint + views.occurred_at) / 1000::float8), views.path, profiles.category, profiles.agent,
    profiles.classifier_version, profiles.user_agent_id, profiles.markdown, views.referrer_host, views.import_key,
    profiles.signature_agent, profiles.verified, views.ai_referrer
  FROM unnest($2::bigint[], $3::text[], $4::integer[], $5::text[], $13::bytea[], $16::text[])
    AS views (occurred_at, path, profile, referrer_host, import_key, ai_referrer)
  JOIN profiles ON profiles.number = views.profile`;
const rawInsert = `WITH ${rawInsertInputs} ${rawInsertRows}`;

/**
 * Imports (`$13`, their import keys) learn which views were new, since only those go into the
 * rollups: the first row (`inserted`) counts them, and only when some were not new do the other
 * rows name those that were. A drain's batch is new as a whole unless the provider retried it, so
 * its keys are rarely sent back. The writer uses this statement only after a project's keys have
 * met stored ones (`optimistic`, below): `ON CONFLICT` searches the unique index for every row
 * before inserting it, which a profile put at a fifth of PostgreSQL's time for a drained view.
 */
const importedRawInsert = `
  WITH ${rawInsertInputs}, inserted AS (${rawInsertRows} ON CONFLICT DO NOTHING RETURNING import_key),
  inserted_count AS (SELECT count(*)::integer AS inserted FROM inserted)
  SELECT inserted, NULL AS import_key FROM inserted_count
  UNION ALL
  SELECT NULL, encode(import_key, 'hex') FROM inserted WHERE (SELECT inserted FROM inserted_count) < cardinality($13::bytea[])`;

/**
 * Adds counts summed by the writer to the rollups, in a fixed order (concurrent writers lock shared
 * rollup rows in the same order), and deletes the packed rows of the buckets they fall in.
 */
const addToRollupsStatement = `
WITH path_rollups AS (
  INSERT INTO analytics_path_rollups AS rollup
    (series, bucket, path_id, human, ai_assistant, ai_search, ai_training, bot, ai_referred, verified_ai)
  SELECT series, to_timestamp(bucket / 1000::float8), path_id, human, ai_assistant, ai_search, ai_training, bot,
    ai_referred, verified_ai
  FROM unnest($2::integer[], $3::bigint[], $4::integer[], $5::integer[], $6::integer[], $7::integer[], $8::integer[], $9::integer[],
      $18::integer[], $19::integer[])
    AS counts (series, bucket, path_id, human, ai_assistant, ai_search, ai_training, bot, ai_referred, verified_ai)
  ON CONFLICT (series, bucket, path_id) DO UPDATE SET
    human = rollup.human + excluded.human,
    ai_assistant = rollup.ai_assistant + excluded.ai_assistant,
    ai_search = rollup.ai_search + excluded.ai_search,
    ai_training = rollup.ai_training + excluded.ai_training,
    bot = rollup.bot + excluded.bot,
    ai_referred = rollup.ai_referred + excluded.ai_referred,
    verified_ai = rollup.verified_ai + excluded.verified_ai
), agent_rollups AS (
  INSERT INTO analytics_agent_rollups AS rollup (project_id, granularity, bucket, category, agent, views, verified_views)
  SELECT $1, granularity, to_timestamp(bucket / 1000::float8), category, agent, views, verified_views
  FROM unnest($10::text[], $11::bigint[], $12::text[], $13::text[], $14::integer[], $17::integer[])
    AS counts (granularity, bucket, category, agent, views, verified_views)
  ON CONFLICT (project_id, granularity, bucket, category, agent) DO UPDATE SET
    views = rollup.views + excluded.views,
    verified_views = rollup.verified_views + excluded.verified_views
), touched AS (
  SELECT granularity, to_timestamp(bucket / 1000::float8) AS bucket
  FROM unnest($15::text[], $16::bigint[]) AS touched (granularity, bucket)
), unpacked AS (
  DELETE FROM analytics_packed_rollups AS packed USING touched
  WHERE packed.project_id = $1 AND packed.granularity = touched.granularity AND packed.bucket = touched.bucket
)
UPDATE analytics_packing AS packing SET packed_until = earliest.bucket
FROM (SELECT granularity, min(bucket) AS bucket FROM touched GROUP BY granularity) AS earliest
WHERE packing.project_id = $1 AND packing.granularity = earliest.granularity
  AND packing.packed_until > earliest.bucket`;

/**
 * Inserts the views of one project and adds them to the rollups, then appends the visitor marks of
 * the counted views that have a visitor value; returns the indexes of the views that were new, or
 * `null` when all were (views without import keys; views whose key is already stored are skipped).
 * Runs inside the caller's transaction, whose whole length it holds the project's packing lock
 * (shared) for. The month partitions must
 * exist (`ensurePageViewPartitions`), and every path must have an id in `pathIds` (`assignPathIds`).
 */
export async function insertPageViews(
  db: Queryable,
  projectId: string,
  views: readonly StoredPageView[],
  pathIds: ReadonlyMap<string, number>,
  series: RollupSeries,
  /** The visitor value of each view (visitor-identity.ts), `undefined` where it has none. */
  visitors?: ReadonlyArray<number | undefined>,
  /**
   * Views with import keys are inserted without `ON CONFLICT`, expecting none to be stored yet: a
   * stored key then fails the statement with a unique violation (23505), and the caller must roll
   * back and call again without this. A key repeated within `views` (one request's several
   * entries) is inserted with its first view only.
   */
  optimistic = false,
): Promise<readonly number[] | null> {
  if (views.length === 0) return null;
  if (optimistic && views[0]?.importKey !== undefined) {
    const firsts = firstOfEachKey(views);
    if (firsts.length < views.length) {
      const counted = await insertPageViews(
        db,
        projectId,
        firsts.map((index) => views[index] as StoredPageView),
        pathIds,
        series,
        visitors && firsts.map((index) => visitors[index]),
        true,
      );
      return counted === null ? firsts : counted.map((index) => firsts[index] as number);
    }
  }
  const profiled = profileViews(views);
  await db.query({
    name: 'analytics-packing-lock-shared',
    text: `SELECT ${packingLock('shared', '$1')}`,
    values: [projectId],
  });
  const stored = await insertRawViews(db, projectId, profiled, optimistic);
  let counted: readonly number[] | null = null;
  if (stored !== 'all') {
    // A key twice in one call (a provider's retried entry inside one batch) was inserted once:
    // only its first view is counted, so the rollups agree with the raw rows.
    counted = profiled.importKeys.flatMap((importKey, index) => (stored.delete(importKey) ? [index] : []));
    if (counted.length === 0) return counted;
  }
  await addToRollups(db, projectId, sumRollups(profiled, pathIds, series, counted));
  // Appended as marks, folded into the sketches later (visitor-marks.ts): cheap for the writer.
  if (visitors?.some((visitor) => visitor !== undefined)) {
    const ids = await visitorProfileIds(db, projectId, profiled.profiles);
    const profiles = profiled.profileNumbers.map((number) => ids[number - 1] as number);
    await insertVisitorMarks(db, projectId, visitorMarksOf(views, visitors, pathIds, counted, profiles));
  }
  return counted;
}

/** The indexes of the first view of each import key, in order. */
function firstOfEachKey(views: readonly StoredPageView[]): number[] {
  const seen = new Set<string | undefined>();
  const firsts: number[] = [];
  for (const [index, view] of views.entries()) {
    if (seen.has(view.importKey)) continue;
    seen.add(view.importKey);
    firsts.push(index);
  }
  return firsts;
}

/**
 * Inserts the raw events; returns `'all'` when every view was new (always, for views without
 * import keys, or inserted optimistically), else the import keys of those that were.
 */
async function insertRawViews(
  db: Queryable,
  projectId: string,
  profiled: ProfiledViews,
  optimistic: boolean,
): Promise<'all' | Set<string>> {
  const { profiles, userAgents } = profiled;
  const keyed = profiled.importKeys.length > 0;
  // The plain statement takes keys as well; the unique index still refuses one already stored.
  const onConflict = keyed && !optimistic;
  const userAgentIds = [...userAgents.keys()].sort();
  const base = profiled.occurredAt[0] ?? 0;
  // Named: prepared once per connection instead of planned on every batch.
  const result = await db.query<{ inserted: number | null; import_key: string | null }>({
    name: onConflict ? 'analytics-insert-imported-views' : 'analytics-insert-views',
    text: onConflict ? importedRawInsert : rawInsert,
    values: [
      projectId,
      // As offsets from the first view: small integers, which JavaScript writes out several times
      // faster than epoch milliseconds (beyond 2^31, they are doubles).
      integerArrayLiteral(profiled.occurredAt.map((occurredAt) => occurredAt - base)),
      textArrayLiteral(profiled.paths),
      integerArrayLiteral(profiled.profileNumbers),
      textArrayLiteral(profiled.referrerHosts),
      textArrayLiteral(profiles.map((profile) => profile.category)),
      textArrayLiteral(profiles.map((profile) => profile.agent)),
      textArrayLiteral(profiles.map((profile) => profile.classifierVersion)),
      textArrayLiteral(profiles.map((profile) => profile.userAgentId)),
      booleanArrayLiteral(profiles.map((profile) => profile.markdown)),
      // In id order: concurrent writers adding the same new user agents lock them in the same order.
      textArrayLiteral(userAgentIds),
      textArrayLiteral(userAgentIds.map((id) => userAgents.get(id) ?? null)),
      keyed ? hexByteaArrayLiteral(profiled.importKeys) : null,
      textArrayLiteral(profiles.map((profile) => profile.signatureAgent)),
      booleanArrayLiteral(profiles.map((profile) => profile.verified)),
      textArrayLiteral(profiled.aiReferrers),
      base,
    ],
  });
  if (!onConflict || result.rows.some((row) => row.inserted === profiled.importKeys.length)) return 'all';
  return new Set(result.rows.flatMap((row) => (row.import_key === null ? [] : [row.import_key])));
}

/**
 * Adds summed counts to the rollups and deletes the packed rows of the buckets they touch; in the
 * caller's transaction, which holds the project's packing lock (shared) for its whole length.
 */
export async function addToRollups(db: Queryable, projectId: string, sums: RollupSums): Promise<void> {
  const { paths, agents, touched } = sums;
  await db.query({
    name: 'analytics-add-to-rollups',
    text: addToRollupsStatement,
    values: [
      projectId,
      integerArrayLiteral(paths.series),
      integerArrayLiteral(paths.bucket),
      integerArrayLiteral(paths.pathId),
      integerArrayLiteral(paths.counts.human),
      integerArrayLiteral(paths.counts.ai_assistant),
      integerArrayLiteral(paths.counts.ai_search),
      integerArrayLiteral(paths.counts.ai_training),
      integerArrayLiteral(paths.counts.bot),
      textArrayLiteral(agents.granularity),
      integerArrayLiteral(agents.bucket),
      textArrayLiteral(agents.category),
      textArrayLiteral(agents.agent),
      integerArrayLiteral(agents.views),
      textArrayLiteral(touched.granularity),
      integerArrayLiteral(touched.bucket),
      integerArrayLiteral(agents.verifiedViews),
      integerArrayLiteral(paths.aiReferred),
      integerArrayLiteral(paths.verifiedAi),
    ],
  });
}
