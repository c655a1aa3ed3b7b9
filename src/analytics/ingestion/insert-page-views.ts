/**
 * Stores page views and adds them to every rollup in the caller's transaction, so that the rollups
 * can never disagree with the raw events: they commit or roll back together. The writer sums the
 * rollup rows itself (PostgreSQL only adds them), and deletes the packed rows of the buckets the
 * views fall in (rollup-packer.ts packs them again).
 */
import { createHash } from 'node:crypto';
import { booleanArrayLiteral, integerArrayLiteral, textArrayLiteral } from '../../db/array-literal.ts';
import type { Queryable } from '../../db/database.ts';
import type { TrafficCategory } from '../classification/index.ts';
import type { RollupSeries } from '../storage/index.ts';
import { floorBucket, packedLevels, packingLock } from '../storage/index.ts';
import { insertVisitorMarks, type VisitorMark } from '../visitors/index.ts';
import type { PageView } from './page-view.ts';

export interface StoredPageView extends PageView {
  /** `undefined`: the ingesting client did not report one. */
  userAgent: string | undefined;
  /** Log imports only: identifies the source line, so a re-run inserts nothing twice. */
  importKey?: Buffer;
  /** The client's IP address, for the visitor identity only: never stored. */
  address?: string;
}

/**
 * Stores the raw events. A view's category, agent, classifier version, user agent and Markdown flag
 * come from its profile (`$4`, 1-based, into `$6`-`$10`): a batch has few distinct ones, and
 * arrays with one element per view are what PostgreSQL spends its time parsing.
 */
const rawInsert = `
  WITH user_agents AS (
    INSERT INTO analytics_user_agents (id, user_agent)
    SELECT id, user_agent FROM unnest($11::bigint[], $12::text[]) AS agents (id, user_agent)
    ON CONFLICT (id) DO NOTHING
  ), profiles AS (
    SELECT * FROM unnest($6::text[], $7::text[], $8::text[], $9::bigint[], $10::boolean[]) WITH ORDINALITY
      AS profile (category, agent, classifier_version, user_agent_id, markdown, number)
  )
  INSERT INTO analytics_page_views
    (project_id, occurred_at, path, category, agent, classifier_version, user_agent_id, markdown, referrer_host, import_key)
  -- Epoch milliseconds divided as float8, not numeric: exact to the millisecond for any year this
  -- accepts, and several times cheaper.
  SELECT $1, to_timestamp(views.occurred_at / 1000::float8), views.path, profiles.category, profiles.agent,
    profiles.classifier_version, profiles.user_agent_id, profiles.markdown, views.referrer_host, views.import_key
  FROM unnest($2::bigint[], $3::text[], $4::integer[], $5::text[], $13::bytea[])
    AS views (occurred_at, path, profile, referrer_host, import_key)
  JOIN profiles ON profiles.number = views.profile`;

// Imports (`$13`, their import keys) learn which views were new: only those go into the rollups.
const importedRawInsert = `${rawInsert} ON CONFLICT DO NOTHING RETURNING import_key`;

/**
 * Adds counts summed by the writer to the rollups, in a fixed order (concurrent writers lock shared
 * rollup rows in the same order), and deletes the packed rows of the buckets they fall in.
 */
const addToRollups = `
WITH path_rollups AS (
  INSERT INTO analytics_path_rollups AS rollup
    (series, bucket, path_id, human, ai_assistant, ai_search, ai_training, bot)
  SELECT series, to_timestamp(bucket / 1000::float8), path_id, human, ai_assistant, ai_search, ai_training, bot
  FROM unnest($2::integer[], $3::bigint[], $4::integer[], $5::integer[], $6::integer[], $7::integer[], $8::integer[], $9::integer[])
    AS counts (series, bucket, path_id, human, ai_assistant, ai_search, ai_training, bot)
  ON CONFLICT (series, bucket, path_id) DO UPDATE SET
    human = rollup.human + excluded.human,
    ai_assistant = rollup.ai_assistant + excluded.ai_assistant,
    ai_search = rollup.ai_search + excluded.ai_search,
    ai_training = rollup.ai_training + excluded.ai_training,
    bot = rollup.bot + excluded.bot
), agent_rollups AS (
  INSERT INTO analytics_agent_rollups AS rollup (project_id, granularity, bucket, category, agent, views)
  SELECT $1, granularity, to_timestamp(bucket / 1000::float8), category, agent, views
  FROM unnest($10::text[], $11::bigint[], $12::text[], $13::text[], $14::integer[])
    AS counts (granularity, bucket, category, agent, views)
  ON CONFLICT (project_id, granularity, bucket, category, agent) DO UPDATE SET
    views = rollup.views + excluded.views
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

/** What a view is counted as: the columns it shares with every view of the same client. */
interface Profile {
  number: number;
  category: TrafficCategory;
  agent: string | null;
  classifierVersion: string;
  userAgentId: string | null;
  markdown: boolean;
}

const categoryColumn: Record<TrafficCategory, number> = {
  human: 0,
  ai_assistant: 1,
  ai_search: 2,
  ai_training: 3,
  bot: 4,
};
const hourMilliseconds = 3_600_000;
/** Path ids are below 2^31, so (bucket number, path id) fits one exact double as bucket * 2^31 + id. */
const pathIdRange = 2 ** 31;

/**
 * Inserts the views of one project and adds them to the rollups; returns how many were new
 * (views whose import key was already stored are skipped). Runs inside the caller's transaction,
 * whose whole length it holds the project's packing lock (shared) for. The month partitions must
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
): Promise<number> {
  if (views.length === 0) return 0;
  const occurredAt: number[] = [];
  const paths: string[] = [];
  const profileNumbers: number[] = [];
  const referrerHosts: Array<string | null> = [];
  const importKeys: Buffer[] = [];
  // By user agent: the rest of a profile rarely differs between views of one user agent.
  const profiles = new Map<string | undefined, Profile[]>();
  const profileList: Profile[] = [];
  const userAgents = new Map<string, string>();
  for (const view of views) {
    let sameClient = profiles.get(view.userAgent);
    if (sameClient === undefined) {
      sameClient = [];
      profiles.set(view.userAgent, sameClient);
    }
    let profile: Profile | undefined;
    for (const candidate of sameClient) {
      if (
        candidate.category === view.category &&
        candidate.agent === view.agent &&
        candidate.markdown === view.markdown &&
        candidate.classifierVersion === view.classifierVersion
      ) {
        profile = candidate;
        break;
      }
    }
    if (profile === undefined) {
      let userAgentId: string | null = null;
      if (view.userAgent !== undefined) {
        userAgentId = userAgentIdOf(view.userAgent);
        userAgents.set(userAgentId, view.userAgent);
      }
      profile = {
        number: profileList.length + 1,
        category: view.category,
        agent: view.agent,
        classifierVersion: view.classifierVersion,
        userAgentId,
        markdown: view.markdown,
      };
      sameClient.push(profile);
      profileList.push(profile);
    }
    occurredAt.push(view.occurredAt);
    paths.push(view.path);
    profileNumbers.push(profile.number);
    referrerHosts.push(view.referrerHost);
    if (view.importKey !== undefined) importKeys.push(view.importKey);
  }
  const imported = importKeys.length > 0;
  if (imported && importKeys.length !== views.length) throw new Error('Imported and other views in one call');
  const userAgentIds = [...userAgents.keys()].sort();
  await db.query({
    name: 'analytics-packing-lock-shared',
    text: `SELECT ${packingLock('shared', '$1')}`,
    values: [projectId],
  });
  // Named: prepared once per connection instead of planned on every batch.
  const result = await db.query<{ import_key: Buffer }>({
    name: imported ? 'analytics-insert-imported-views' : 'analytics-insert-views',
    text: imported ? importedRawInsert : rawInsert,
    values: [
      projectId,
      integerArrayLiteral(occurredAt),
      textArrayLiteral(paths),
      integerArrayLiteral(profileNumbers),
      textArrayLiteral(referrerHosts),
      textArrayLiteral(profileList.map((profile) => profile.category)),
      textArrayLiteral(profileList.map((profile) => profile.agent)),
      textArrayLiteral(profileList.map((profile) => profile.classifierVersion)),
      textArrayLiteral(profileList.map((profile) => profile.userAgentId)),
      booleanArrayLiteral(profileList.map((profile) => profile.markdown)),
      // In id order: concurrent writers adding the same new user agents lock them in the same order.
      textArrayLiteral(userAgentIds),
      textArrayLiteral(userAgentIds.map((id) => userAgents.get(id) ?? null)),
      imported ? importKeys : null,
    ],
  });
  let counted: readonly number[] | null = null;
  if (imported) {
    const stored = new Set(result.rows.map((row) => row.import_key.toString('base64')));
    counted = importKeys.flatMap((importKey, index) =>
      stored.has(importKey.toString('base64')) ? [index] : [],
    );
    if (counted.length === 0) return 0;
  }
  await db.query({
    name: 'analytics-add-to-rollups',
    text: addToRollups,
    values: [
      projectId,
      ...rollupColumns(occurredAt, paths, profileNumbers, profileList, pathIds, series, counted),
    ],
  });
  // Appended as marks, folded into the sketches later (visitor-marks.ts): cheap for the writer.
  if (visitors !== undefined)
    await insertVisitorMarks(db, projectId, visitorMarks(views, visitors, pathIds, counted));
  return counted?.length ?? views.length;
}

function visitorMarks(
  views: readonly StoredPageView[],
  visitors: ReadonlyArray<number | undefined>,
  pathIds: ReadonlyMap<string, number>,
  counted: readonly number[] | null,
): VisitorMark[] {
  const marks: VisitorMark[] = [];
  const add = (index: number) => {
    const visitor = visitors[index];
    const view = views[index];
    if (visitor === undefined || view === undefined) return;
    const pathId = pathIds.get(view.path);
    if (pathId === undefined) throw new Error(`The path ${JSON.stringify(view.path)} has no id`);
    marks.push({ occurredAt: view.occurredAt, pathId, category: view.category, visitor });
  };
  if (counted === null) for (let index = 0; index < views.length; index += 1) add(index);
  else for (const index of counted) add(index);
  return marks;
}

/**
 * The rollup statement's arrays: the views (those at `counted`, or all) summed per row, each
 * level's rows in key order. Views are summed per hour and page, and per hour and profile, first;
 * days, months and agents are summed from those.
 */
function rollupColumns(
  occurredAt: readonly number[],
  paths: readonly string[],
  profileNumbers: readonly number[],
  profiles: readonly Profile[],
  pathIds: ReadonlyMap<string, number>,
  series: RollupSeries,
  counted: readonly number[] | null,
): unknown[] {
  const hourPages = new Map<number, number[]>();
  const hourProfiles = new Map<number, number>();
  const add = (index: number) => {
    const hour = Math.floor((occurredAt[index] as number) / hourMilliseconds);
    const path = paths[index] as string;
    const pathId = pathIds.get(path);
    if (pathId === undefined) throw new Error(`The path ${JSON.stringify(path)} has no id`);
    const profile = profiles[(profileNumbers[index] as number) - 1] as Profile;
    const pageKey = hour * pathIdRange + pathId;
    let counts = hourPages.get(pageKey);
    if (counts === undefined) {
      counts = [0, 0, 0, 0, 0];
      hourPages.set(pageKey, counts);
    }
    counts[categoryColumn[profile.category]] = (counts[categoryColumn[profile.category]] as number) + 1;
    const profileKey = hour * pathIdRange + profile.number;
    hourProfiles.set(profileKey, (hourProfiles.get(profileKey) ?? 0) + 1);
  };
  if (counted === null) for (let index = 0; index < occurredAt.length; index += 1) add(index);
  else for (const index of counted) add(index);

  const dayPages = new Map<number, number[]>();
  for (const [key, counts] of hourPages) {
    const dayKey = Math.floor(key / pathIdRange / 24) * pathIdRange + (key % pathIdRange);
    const dayCounts = dayPages.get(dayKey);
    if (dayCounts === undefined) dayPages.set(dayKey, [...counts]);
    else
      for (let column = 0; column < 5; column += 1)
        dayCounts[column] = (dayCounts[column] as number) + (counts[column] as number);
  }
  const path = {
    series: [] as number[],
    bucket: [] as number[],
    pathId: [] as number[],
    counts: [[], [], [], [], []] as number[][],
  };
  // Any fixed order will do, as long as every writer uses it: hours, then days, by bucket and page.
  for (const [levelSeries, level, size] of [
    [series.hour, hourPages, 1],
    [series.day, dayPages, 24],
  ] as const) {
    for (const key of [...level.keys()].sort((left, right) => left - right)) {
      path.series.push(levelSeries);
      path.bucket.push(Math.floor(key / pathIdRange) * size * hourMilliseconds);
      path.pathId.push(key % pathIdRange);
      for (const [column, count] of (level.get(key) as number[]).entries()) path.counts[column]?.push(count);
    }
  }

  const agentCounts = new Map<string, number>();
  const hours = new Set<number>();
  for (const [key, views] of hourProfiles) {
    const hour = Math.floor(key / pathIdRange) * hourMilliseconds;
    hours.add(hour);
    const profile = profiles[(key % pathIdRange) - 1] as Profile;
    for (const level of ['hour', 'day', 'month'] as const) {
      const agentKey = `${level} ${floorBucket(level, hour)} ${profile.category} ${profile.agent ?? ''}`;
      agentCounts.set(agentKey, (agentCounts.get(agentKey) ?? 0) + views);
    }
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
    integerArrayLiteral(path.series),
    integerArrayLiteral(path.bucket),
    integerArrayLiteral(path.pathId),
    ...path.counts.map(integerArrayLiteral),
    textArrayLiteral(agent.granularity),
    integerArrayLiteral(agent.bucket),
    textArrayLiteral(agent.category),
    textArrayLiteral(agent.agent),
    integerArrayLiteral(agent.views),
    textArrayLiteral(touched.granularity),
    integerArrayLiteral(touched.bucket),
  ];
}

/** The first 8 bytes of the user agent's SHA-256 as a signed 64-bit integer (decimal text). */
export function userAgentIdOf(userAgent: string): string {
  return createHash('sha256').update(userAgent).digest().readBigInt64BE(0).toString();
}
