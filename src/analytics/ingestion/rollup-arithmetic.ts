/**
 * The page-view writer's arithmetic, without SQL: a batch of views grouped into profiles (the
 * columns a view shares with every view of the same client), and the views summed into the rows the
 * rollup statement adds (insert-page-views.ts). PostgreSQL only adds these sums to what it holds.
 *
 *   const profiled = profileViews(views);
 *   const sums = sumRollups(profiled, pathIds, series, null);
 *   sums.paths.counts.human // views per (series, bucket, path id), hour rows first, then day rows
 *   visitorMarksOf(views, visitors, pathIds, null) // the visitor marks of the views that have one
 */
import { hash } from 'node:crypto';
import type { TrafficCategory } from '../classification/index.ts';
import type { Granularity, RollupSeries } from '../storage/index.ts';
import { floorBucket, packedLevels } from '../storage/index.ts';
import type { VisitorMark } from '../visitors/index.ts';
import type { StoredPageView } from './page-view.ts';

/** What a view is counted as: the columns it shares with every view of the same client. */
export interface Profile {
  /** 1-based: the statement joins views to profiles by it. */
  number: number;
  category: TrafficCategory;
  agent: string | null;
  classifierVersion: string;
  userAgentId: string | null;
  markdown: boolean;
  /** The host a Web Bot Auth `Signature-Agent` named. */
  signatureAgent: string | null;
  /** The agent was verified (published addresses, reverse DNS or a valid signature). */
  verified: boolean;
}

/** A batch as columns, one element per view, each view pointing at its profile by number. */
export interface ProfiledViews {
  occurredAt: number[];
  paths: string[];
  profileNumbers: number[];
  referrerHosts: Array<string | null>;
  /** The AI assistant that sent each view (people only), or null. */
  aiReferrers: Array<string | null>;
  /** One per view when the batch is imported, else empty. */
  importKeys: string[];
  profiles: Profile[];
  /** User agent text by id, for the batch's distinct user agents. */
  userAgents: Map<string, string>;
}

/** The page rollup rows: one element per (series, bucket, path id), hour rows first, then day rows. */
export interface PathRollupRows {
  series: number[];
  /** Epoch milliseconds. */
  bucket: number[];
  pathId: number[];
  counts: Record<TrafficCategory, number[]>;
  /** Human views sent by an AI assistant. */
  aiReferred: number[];
  /** AI views (assistant, search, training) whose agent was verified. */
  verifiedAi: number[];
}

/** The agent rollup rows: one element per (granularity, bucket, category, agent), in key order. */
export interface AgentRollupRows {
  granularity: Granularity[];
  bucket: number[];
  category: TrafficCategory[];
  /** `''` for views without an agent. */
  agent: string[];
  views: number[];
  /** Of `views`, those whose agent was verified. */
  verifiedViews: number[];
}

/** The packed buckets the views fall in, at every packed level: a packed row of one is stale now. */
export interface TouchedBuckets {
  granularity: Granularity[];
  bucket: number[];
}

export interface RollupSums {
  paths: PathRollupRows;
  agents: AgentRollupRows;
  touched: TouchedBuckets;
}

/** The order of the per-category counts in a page rollup row. */
const categoryColumn: Record<TrafficCategory, number> = {
  human: 0,
  ai_assistant: 1,
  ai_search: 2,
  ai_training: 3,
  bot: 4,
};
/** After the five categories: human views sent by an AI answer, and verified AI views. */
const aiReferredColumn = 5;
const verifiedAiColumn = 6;
const countColumns = 7;
const hourMilliseconds = 3_600_000;
/** Path ids are below 2^31, so (bucket number, path id) fits one exact double as bucket * 2^31 + id. */
const pathIdRange = 2 ** 31;

/** The first 8 bytes of the user agent's SHA-256 as a signed 64-bit integer (decimal text). */
function userAgentIdOf(userAgent: string): string {
  return hash('sha256', userAgent, 'buffer').readBigInt64BE(0).toString();
}

/** No views yet, as columns. */
export function noProfiledViews(): ProfiledViews {
  return {
    occurredAt: [],
    paths: [],
    profileNumbers: [],
    referrerHosts: [],
    aiReferrers: [],
    importKeys: [],
    profiles: [],
    userAgents: new Map(),
  };
}

/**
 * The batch as columns with its profiles. A batch has few distinct profiles, and arrays with one
 * element per view are what PostgreSQL spends its time parsing, so a view carries only its
 * profile's number. Throws when imported and other views are mixed.
 */
export function profileViews(views: readonly StoredPageView[]): ProfiledViews {
  const profiled = noProfiledViews();
  // By user agent: the rest of a profile rarely differs between views of one user agent.
  const byUserAgent = new Map<string | undefined, Profile[]>();
  for (const view of views) {
    let sameClient = byUserAgent.get(view.userAgent);
    if (sameClient === undefined) {
      sameClient = [];
      byUserAgent.set(view.userAgent, sameClient);
    }
    let profile: Profile | undefined;
    for (const candidate of sameClient) {
      if (
        candidate.category === view.category &&
        candidate.agent === view.agent &&
        candidate.markdown === view.markdown &&
        candidate.classifierVersion === view.classifierVersion &&
        candidate.signatureAgent === (view.signatureAgent ?? null) &&
        candidate.verified === (view.verified ?? false)
      ) {
        profile = candidate;
        break;
      }
    }
    if (profile === undefined) {
      let userAgentId: string | null = null;
      if (view.userAgent !== undefined) {
        userAgentId = userAgentIdOf(view.userAgent);
        profiled.userAgents.set(userAgentId, view.userAgent);
      }
      profile = {
        number: profiled.profiles.length + 1,
        category: view.category,
        agent: view.agent,
        classifierVersion: view.classifierVersion,
        userAgentId,
        markdown: view.markdown,
        signatureAgent: view.signatureAgent ?? null,
        verified: view.verified ?? false,
      };
      sameClient.push(profile);
      profiled.profiles.push(profile);
    }
    profiled.occurredAt.push(view.occurredAt);
    profiled.paths.push(view.path);
    profiled.profileNumbers.push(profile.number);
    profiled.referrerHosts.push(view.referrerHost);
    profiled.aiReferrers.push(view.aiReferrer ?? null);
    if (view.importKey !== undefined) profiled.importKeys.push(view.importKey);
  }
  if (profiled.importKeys.length > 0 && profiled.importKeys.length !== views.length) {
    throw new Error('Imported and other views in one call');
  }
  return profiled;
}

/**
 * The views (those at `counted`, or all) summed into rollup rows. Views are summed per hour and
 * page, and per hour and profile, first; days, months and agents are summed from those. Every
 * path must have an id in `pathIds`. A view counts once, or `weights[i]` times (negative: taken
 * away; reclassification takes a view away as it was and adds it as it is).
 */
export function sumRollups(
  views: ProfiledViews,
  pathIds: ReadonlyMap<string, number>,
  series: RollupSeries,
  counted: readonly number[] | null,
  weights?: readonly number[],
): RollupSums {
  const { hourPages, hourProfiles } = sumHours(views, pathIds, counted, weights);
  const hours = new Set<number>();
  for (const key of hourProfiles.keys()) hours.add(Math.floor(key / pathIdRange) * hourMilliseconds);
  return {
    paths: pathRows(hourPages, series),
    agents: agentRows(hourProfiles, views.profiles),
    touched: touchedBuckets(hours),
  };
}

/** Keys are hour number * 2^31 + path id (pages) or + profile number (profiles). */
function sumHours(
  views: ProfiledViews,
  pathIds: ReadonlyMap<string, number>,
  counted: readonly number[] | null,
  weights: readonly number[] | undefined,
): { hourPages: Map<number, number[]>; hourProfiles: Map<number, number> } {
  const hourPages = new Map<number, number[]>();
  const hourProfiles = new Map<number, number>();
  const add = (index: number) => {
    const hour = Math.floor((views.occurredAt[index] as number) / hourMilliseconds);
    const path = views.paths[index] as string;
    const pathId = pathIds.get(path);
    if (pathId === undefined) throw new Error(`The path ${JSON.stringify(path)} has no id`);
    const profile = views.profiles[(views.profileNumbers[index] as number) - 1] as Profile;
    const weight = weights === undefined ? 1 : (weights[index] as number);
    const pageKey = hour * pathIdRange + pathId;
    let counts = hourPages.get(pageKey);
    if (counts === undefined) {
      counts = [0, 0, 0, 0, 0, 0, 0];
      hourPages.set(pageKey, counts);
    }
    counts[categoryColumn[profile.category]] = (counts[categoryColumn[profile.category]] as number) + weight;
    if (profile.category === 'human' && views.aiReferrers[index] != null) {
      counts[aiReferredColumn] = (counts[aiReferredColumn] as number) + weight;
    }
    if (profile.verified && profile.category !== 'human' && profile.category !== 'bot') {
      counts[verifiedAiColumn] = (counts[verifiedAiColumn] as number) + weight;
    }
    const profileKey = hour * pathIdRange + profile.number;
    hourProfiles.set(profileKey, (hourProfiles.get(profileKey) ?? 0) + weight);
  };
  if (counted === null) for (let index = 0; index < views.occurredAt.length; index += 1) add(index);
  else for (const index of counted) add(index);
  return { hourPages, hourProfiles };
}

function pathRows(hourPages: ReadonlyMap<number, number[]>, series: RollupSeries): PathRollupRows {
  const dayPages = new Map<number, number[]>();
  for (const [key, counts] of hourPages) {
    const dayKey = Math.floor(key / pathIdRange / 24) * pathIdRange + (key % pathIdRange);
    const dayCounts = dayPages.get(dayKey);
    if (dayCounts === undefined) dayPages.set(dayKey, [...counts]);
    else
      for (let column = 0; column < countColumns; column += 1)
        dayCounts[column] = (dayCounts[column] as number) + (counts[column] as number);
  }
  const columns: number[][] = Array.from({ length: countColumns }, () => []);
  const rows = { series: [] as number[], bucket: [] as number[], pathId: [] as number[] };
  // Any fixed order will do, as long as every writer uses it (concurrent writers lock shared rollup
  // rows in the same order): hours, then days, by bucket and page.
  for (const [levelSeries, level, size] of [
    [series.hour, hourPages, 1],
    [series.day, dayPages, 24],
  ] as const) {
    // A typed array sorts numbers without a comparator call per comparison.
    for (const key of Float64Array.from(level.keys()).sort()) {
      rows.series.push(levelSeries);
      rows.bucket.push(Math.floor(key / pathIdRange) * size * hourMilliseconds);
      rows.pathId.push(key % pathIdRange);
      const counts = level.get(key) as number[];
      for (let column = 0; column < countColumns; column += 1)
        columns[column]?.push(counts[column] as number);
    }
  }
  const [
    human = [],
    aiAssistant = [],
    aiSearch = [],
    aiTraining = [],
    bot = [],
    aiReferred = [],
    verifiedAi = [],
  ] = columns;
  return {
    ...rows,
    counts: { human, ai_assistant: aiAssistant, ai_search: aiSearch, ai_training: aiTraining, bot },
    aiReferred,
    verifiedAi,
  };
}

function agentRows(hourProfiles: ReadonlyMap<number, number>, profiles: readonly Profile[]): AgentRollupRows {
  // Per key: [views, verified views].
  const agentCounts = new Map<string, [number, number]>();
  for (const [key, views] of hourProfiles) {
    const hour = Math.floor(key / pathIdRange) * hourMilliseconds;
    const profile = profiles[(key % pathIdRange) - 1] as Profile;
    for (const level of ['hour', 'day', 'month'] as const) {
      const agentKey = `${level} ${floorBucket(level, hour)} ${profile.category} ${profile.agent ?? ''}`;
      const counts = agentCounts.get(agentKey) ?? [0, 0];
      counts[0] += views;
      if (profile.verified) counts[1] += views;
      agentCounts.set(agentKey, counts);
    }
  }
  const rows: AgentRollupRows = {
    granularity: [],
    bucket: [],
    category: [],
    agent: [],
    views: [],
    verifiedViews: [],
  };
  // Sorted by key: the same fixed order for every writer.
  for (const key of [...agentCounts.keys()].sort()) {
    const [granularity, bucket, category, ...name] = key.split(' ');
    rows.granularity.push(granularity as Granularity);
    rows.bucket.push(Number(bucket));
    rows.category.push(category as TrafficCategory);
    rows.agent.push(name.join(' '));
    const [views, verifiedViews] = agentCounts.get(key) as [number, number];
    rows.views.push(views);
    rows.verifiedViews.push(verifiedViews);
  }
  return rows;
}

function touchedBuckets(hours: ReadonlySet<number>): TouchedBuckets {
  const touched: TouchedBuckets = { granularity: [], bucket: [] };
  for (const level of packedLevels) {
    for (const start of new Set([...hours].map((hour) => floorBucket(level, hour)))) {
      touched.granularity.push(level);
      touched.bucket.push(start);
    }
  }
  return touched;
}

/**
 * The visitor marks of the views (those at `counted`, or all) that have a visitor value
 * (`visitors[i]` is view i's, visitor-identity.ts): what the writer appends for maintenance to fold
 * into the visitor sketches (visitor-marks.ts). Every path must have an id in `pathIds`.
 */
export function visitorMarksOf(
  views: readonly StoredPageView[],
  visitors: ReadonlyArray<number | undefined>,
  pathIds: ReadonlyMap<string, number>,
  counted: readonly number[] | null,
  /** The visitor profile of each view (visitor-profiles.ts); absent: unknown. */
  profiles?: readonly number[],
): VisitorMark[] {
  const marks: VisitorMark[] = [];
  const add = (index: number) => {
    const visitor = visitors[index];
    const view = views[index];
    if (visitor === undefined || view === undefined) return;
    const pathId = pathIds.get(view.path);
    if (pathId === undefined) throw new Error(`The path ${JSON.stringify(view.path)} has no id`);
    marks.push({
      occurredAt: view.occurredAt,
      pathId,
      category: view.category,
      visitor,
      profile: profiles?.[index] ?? 0,
    });
  };
  if (counted === null) for (let index = 0; index < views.length; index += 1) add(index);
  else for (const index of counted) add(index);
  return marks;
}
