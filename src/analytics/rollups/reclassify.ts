/**
 * Reclassifies stored page views after the classifier changed (a refreshed AI-agent table, new
 * rules): every view whose stored classifier version differs is classified again from its user
 * agent, Markdown flag and Web Bot Auth signer, and learns its AI referrer from its referrer's host.
 *
 * It works in short transactions of a few thousand views each (a window of a project's time), and
 * changes the rollups the way the writer does: each transaction takes its views away from the
 * rollups as they were and adds them as they are now, in the writer's statement and lock order, so
 * that writers go on meanwhile and wait, at most, for one such transaction's rollup rows. Before
 * them, the visitor marks of the profiles whose category changes move, in a transaction of their
 * own. A run that stops halfway is finished by the next.
 *
 *   const report = await reclassifyPageViews(pool, createClassifier(), projectId);
 *   report.viewsChanged // views whose category changed
 */
import type pg from 'pg';
import { advisoryLockKeys } from '../../db/advisory-locks.ts';
import { transaction } from '../../db/database.ts';
import { errorCode } from '../../errors.ts';
import { aiReferrerOf, type Classifier, type TrafficCategory } from '../classification/index.ts';
import { addToRollups, noProfiledViews, type RollupSums, sumRollups } from '../ingestion/index.ts';
import { packingLock, type RollupSeries, rollupSeriesOf } from '../storage/index.ts';
import { foldAllVisitorMarks, reclassifyVisitorMarks, visitorFoldingLocksSql } from '../visitors/index.ts';

export interface ReclassifyReport {
  classifierVersion: string;
  /** Distinct (user agent, Markdown, signer) profiles classified again. */
  userAgents: number;
  viewsUpdated: number;
  viewsChanged: number;
  /** Visitor marks that moved with their views (between human, AI and bot). */
  visitorMarksMoved: number;
  /** The transactions the views were reclassified in. */
  transactions: number;
}

export interface ReclassifyOptions {
  /** About how many views one transaction reclassifies (an hour with more is split evenly). */
  viewsPerTransaction?: number;
  /** After each transaction: the views reclassified so far, of those stale when the run began. */
  onProgress?: (views: number, total: number) => void;
}

/** A project's views from `from` (inclusive) to `to` (exclusive), epoch milliseconds. */
export interface ReclassifyWindow {
  projectId: string;
  from: number;
  to: number;
}

/** A profile's new classification. */
interface Classified {
  userAgentId: string | null;
  markdown: boolean;
  signatureAgent: string | null;
  category: TrafficCategory;
  agent: string | null;
}

/** One row of a window's change: views added (positive) or taken away, in an hour and page. */
interface ChangeRow {
  hour: number;
  path: string;
  path_id: number | null;
  category: TrafficCategory;
  agent: string | null;
  verified: boolean;
  ai_referrer: string | null;
  views: number;
}

const hourMilliseconds = 3_600_000;
const retryableCodes = new Set(['40P01', '40001']);

export async function reclassifyPageViews(
  pool: pg.Pool,
  classifier: Classifier,
  projectId: string | null,
  options: ReclassifyOptions = {},
): Promise<ReclassifyReport> {
  const report: ReclassifyReport = {
    classifierVersion: classifier.version,
    userAgents: 0,
    viewsUpdated: 0,
    viewsChanged: 0,
    visitorMarksMoved: 0,
    transactions: 0,
  };
  const classified = new Map<string, Classified>();
  // Every stale profile classified up front: the marks of all of them move together.
  let categoryChanges = false;
  for (const row of await staleProfiles(pool, classifier, projectId)) {
    if (classify(classifier, classified, row).category !== row.category) categoryChanges = true;
  }
  // The visitor marks move first, in a transaction of their own: should the run stop before its
  // views are all done, the next run finds the rest still stale and finishes both (moving marks
  // again moves none twice). A mark's group is its view's category's: when no view changes
  // category, no mark moves (and the marks, every one of the project's, need not be read).
  if (categoryChanges) {
    report.visitorMarksMoved = await transaction(pool, async (client) => {
      // Folders and compaction wait (their lock first, the order folders take them in), and the
      // visitor packer: the packing locks are shared, as folders take them, so writers go on.
      await client.query(visitorFoldingLocksSql, [projectId]);
      await client.query(
        `SELECT ${packingLock('shared', 'id')}
         FROM (SELECT id FROM projects WHERE $1::text IS NULL OR id = $1 ORDER BY id) AS affected`,
        [projectId],
      );
      return reclassifyVisitorMarks(client, projectId, [...classified.values()]);
    });
  }
  const hours = await pool.query<{ project_id: string; hour: number; views: number }>(
    `SELECT project_id, floor(extract(epoch FROM occurred_at) / 3600)::integer AS hour,
       count(*)::integer AS views
     FROM analytics_page_views
     WHERE classifier_version <> $1 AND ($2::text IS NULL OR project_id = $2)
     GROUP BY 1, 2 ORDER BY 1, 2`,
    [classifier.version, projectId],
  );
  const total = hours.rows.reduce((sum, row) => sum + row.views, 0);
  const windows = reclassifyWindows(
    hours.rows.map((row) => ({ projectId: row.project_id, hour: row.hour, views: row.views })),
    options.viewsPerTransaction ?? 5000,
  );
  for (const window of windows) {
    const series = await rollupSeriesOf(pool, window.projectId);
    for (let attempt = 1; ; attempt += 1) {
      try {
        const counts = await transaction(pool, (client) =>
          reclassifyWindow(client, classifier, window, series, classified),
        );
        report.viewsUpdated += counts.updated;
        report.viewsChanged += counts.changed;
        report.transactions += 1;
        options.onProgress?.(report.viewsUpdated, total);
        break;
      } catch (error: unknown) {
        // A deadlock with a writer (both wait for rows the other holds): one of them gives way.
        const code = errorCode(error);
        if (code === undefined || !retryableCodes.has(code) || attempt === 5) throw error;
      }
    }
  }
  report.userAgents = classified.size;
  // The days whose visitors moved are counted again now, not at the next fold.
  if (report.visitorMarksMoved > 0) await foldAllVisitorMarks(pool, projectId ?? undefined);
  return report;
}

/** A profile as stored with its views, with its user agent's text. */
interface StoredProfile {
  user_agent_id: string | null;
  markdown: boolean;
  signature_agent: string | null;
  user_agent: string | null;
}

/**
 * SQL: the distinct profiles of the views that `where` selects (of `analytics_page_views AS
 * views`), with their user agent's text; `counted`: per category and agent as stored, with the
 * views of each.
 */
function profilesOf(where: string, counted = false): string {
  const grouped = `views.user_agent_id, views.markdown, views.signature_agent${counted ? ', views.category, views.agent' : ''}`;
  return `SELECT profiles.*, agents.user_agent
    FROM (
      SELECT views.user_agent_id::text AS user_agent_id, views.markdown, views.signature_agent
        ${counted ? ', views.category, views.agent, count(*)::integer AS views' : ''}
      FROM analytics_page_views AS views WHERE ${where}
      GROUP BY ${grouped}
    ) AS profiles
    LEFT JOIN analytics_user_agents AS agents ON agents.id = profiles.user_agent_id::bigint`;
}

/** The profile's new classification, from `classified` when it was classified before. */
function classify(
  classifier: Classifier,
  classified: Map<string, Classified>,
  row: StoredProfile,
): Classified {
  const key = `${row.user_agent_id} ${row.markdown} ${row.signature_agent}`;
  let profile = classified.get(key);
  if (profile === undefined) {
    const result = classifier.classify({
      userAgent: row.user_agent ?? undefined,
      markdown: row.markdown,
      // Stored as the host the header named; given back as the header's value.
      signatureAgent: row.signature_agent === null ? undefined : `"https://${row.signature_agent}"`,
    });
    profile = {
      userAgentId: row.user_agent_id,
      markdown: row.markdown,
      signatureAgent: row.signature_agent,
      category: result.category,
      agent: result.agent,
    };
    classified.set(key, profile);
  }
  return profile;
}

/** Views that would change what they are counted as, from one category and agent to another. */
export interface ReclassificationChange {
  from: { category: TrafficCategory; agent: string | null };
  to: { category: TrafficCategory; agent: string | null };
  views: number;
}

export interface ReclassificationPreview {
  classifierVersion: string;
  /** Views stored by another classifier version. */
  staleViews: number;
  /** The views whose category or agent would change, most views first. */
  changes: ReclassificationChange[];
}

/**
 * What `reclassifyPageViews` would change, without changing anything (`quire analytics reclassify
 * --dry-run`): to review a refreshed agent table or new rules on real history before applying them.
 */
export async function previewReclassification(
  pool: pg.Pool,
  classifier: Classifier,
  projectId: string | null,
): Promise<ReclassificationPreview> {
  const classified = new Map<string, Classified>();
  const changes = new Map<string, ReclassificationChange>();
  let staleViews = 0;
  for (const row of await staleProfiles(pool, classifier, projectId)) {
    staleViews += row.views;
    const fresh = classify(classifier, classified, row);
    if (fresh.category === row.category && fresh.agent === row.agent) continue;
    const key = JSON.stringify([row.category, row.agent, fresh.category, fresh.agent]);
    const change = changes.get(key) ?? {
      from: { category: row.category, agent: row.agent },
      to: { category: fresh.category, agent: fresh.agent },
      views: 0,
    };
    change.views += row.views;
    changes.set(key, change);
  }
  const order = (change: ReclassificationChange) => JSON.stringify([change.from, change.to]);
  return {
    classifierVersion: classifier.version,
    staleViews,
    changes: [...changes.values()].sort(
      (left, right) => right.views - left.views || (order(left) < order(right) ? -1 : 1),
    ),
  };
}

/** The profiles of the stale views, per category and agent as stored, with their views. */
async function staleProfiles(
  pool: pg.Pool,
  classifier: Classifier,
  projectId: string | null,
): Promise<Array<StoredProfile & { category: TrafficCategory; agent: string | null; views: number }>> {
  const result = await pool.query<
    StoredProfile & { category: TrafficCategory; agent: string | null; views: number }
  >(profilesOf('views.classifier_version <> $1 AND ($2::text IS NULL OR views.project_id = $2)', true), [
    classifier.version,
    projectId,
  ]);
  return result.rows;
}

/**
 * The windows to reclassify, from the stale views per project and hour (sorted by both):
 * consecutive hours of a project together up to `size` views, and an hour with more split into
 * equal parts of its time.
 */
export function reclassifyWindows(
  hours: ReadonlyArray<{ projectId: string; hour: number; views: number }>,
  size: number,
): ReclassifyWindow[] {
  const windows: ReclassifyWindow[] = [];
  let open: (ReclassifyWindow & { views: number }) | null = null;
  const close = () => {
    if (open !== null) windows.push({ projectId: open.projectId, from: open.from, to: open.to });
    open = null;
  };
  for (const { projectId, hour, views } of hours) {
    const start = hour * hourMilliseconds;
    if (views > size) {
      close();
      const parts = Math.ceil(views / size);
      for (let part = 0; part < parts; part += 1) {
        windows.push({
          projectId,
          from: start + Math.floor((hourMilliseconds * part) / parts),
          to: start + Math.floor((hourMilliseconds * (part + 1)) / parts),
        });
      }
    } else if (open !== null && open.projectId === projectId && open.views + views <= size) {
      open.to = start + hourMilliseconds;
      open.views += views;
    } else {
      close();
      open = { projectId, from: start, to: start + hourMilliseconds, views };
    }
  }
  close();
  return windows;
}

/** The views of the window (`$2`-`$4`) that are stale (`$1`). */
const staleInWindow = `views.project_id = $2 AND views.occurred_at >= $3 AND views.occurred_at < $4
  AND views.classifier_version <> $1`;
/**
 * Those of a profile in `fresh`, which names no user agent 0 and no signer '' (as visitor profiles
 * do): equalities PostgreSQL can hash. `IS NOT DISTINCT FROM` compared every view with every
 * profile, 0.66 ms a view for windows of 5,000 views of as many user agents.
 */
const matchesFresh = `${staleInWindow} AND coalesce(views.user_agent_id, 0) = fresh.id
  AND views.markdown = fresh.markdown AND coalesce(views.signature_agent, '') = fresh.signature_agent`;

/**
 * Updates the window's stale views and returns, in the same snapshot, their change: per hour, page
 * and what the rollups count a view by, the views taken away (as they were) and added (as they are
 * now), netted, with the totals on every row (and on one row of nulls when nothing changed).
 */
const reclassifyStatement = `
  WITH fresh AS (
    SELECT * FROM unnest($5::bigint[], $6::boolean[], $7::text[], $8::text[], $9::text[])
      AS fresh (id, markdown, signature_agent, category, agent)
  ), referrers AS (
    SELECT * FROM unnest($10::text[], $11::text[]) AS referrer (host, assistant)
  ), before AS (
    SELECT views.occurred_at, views.path, views.category, views.agent, views.verified, views.ai_referrer,
      fresh.category AS fresh_category
    FROM analytics_page_views AS views JOIN fresh ON ${matchesFresh}
  ), updated AS (
    UPDATE analytics_page_views AS views
    SET category = fresh.category, agent = fresh.agent, classifier_version = $1,
      -- The verdict stays (addresses are not stored to verify again), but never on a person.
      verified = views.verified AND fresh.category <> 'human',
      -- Views stored before the AI-referrer rule learn it from their referrer's host (their
      -- utm_source was never stored).
      ai_referrer = coalesce(views.ai_referrer,
        (SELECT referrer.assistant FROM referrers AS referrer WHERE referrer.host = views.referrer_host))
    FROM fresh WHERE ${matchesFresh}
    RETURNING views.occurred_at, views.path, views.category, views.agent, views.verified, views.ai_referrer
  ), change AS (
    SELECT floor(extract(epoch FROM occurred_at) / 3600)::integer AS hour, path, category, agent, verified,
      ai_referrer,
      sum(sign)::integer AS views
    FROM (
      SELECT -1 AS sign, occurred_at, path, category, agent, verified, ai_referrer FROM before
      UNION ALL
      SELECT 1, occurred_at, path, category, agent, verified, ai_referrer FROM updated
    ) AS views
    GROUP BY 1, 2, 3, 4, 5, 6
    HAVING sum(sign) <> 0
  )
  SELECT totals.updated, totals.changed, change.hour, change.path, paths.id AS path_id, change.category,
    change.agent, change.verified, change.ai_referrer, change.views
  FROM (
    SELECT (SELECT count(*)::integer FROM updated) AS updated,
      (SELECT count(*)::integer FROM before WHERE category <> fresh_category) AS changed
  ) AS totals
  LEFT JOIN change ON true
  LEFT JOIN analytics_paths AS paths ON paths.project_id = $2 AND paths.path = change.path`;

/**
 * Reclassifies one window in the caller's transaction: the views, then their change added to the
 * rollups as the writer adds views (which a writer may wait for, or deadlock with: the caller
 * retries), then the agent rows it left at zero deleted, as if they had never been written.
 */
async function reclassifyWindow(
  client: pg.PoolClient,
  classifier: Classifier,
  window: ReclassifyWindow,
  series: RollupSeries,
  classified: Map<string, Classified>,
): Promise<{ updated: number; changed: number }> {
  const { projectId } = window;
  // As a writer: the packer waits (rollup-packer.ts).
  await client.query({
    name: 'analytics-packing-lock-shared',
    text: `SELECT ${packingLock('shared', '$1')}`,
    values: [projectId],
  });
  // One reclassifier at a time: no view changes between this transaction's reading and updating.
  await client.query(`SELECT pg_advisory_xact_lock(${advisoryLockKeys.reclassification}, hashtext($1))`, [
    projectId,
  ]);
  const inWindow = [classifier.version, projectId, new Date(window.from), new Date(window.to)];
  // Views written since the run began may bring profiles not classified yet.
  const profiles = await client.query<StoredProfile>(profilesOf(staleInWindow), inWindow);
  const fresh = profiles.rows.map((row) => classify(classifier, classified, row));
  const referrerHosts = await client.query<{ referrer_host: string }>(
    `SELECT DISTINCT referrer_host FROM analytics_page_views AS views
     WHERE ${staleInWindow} AND referrer_host IS NOT NULL AND ai_referrer IS NULL`,
    inWindow,
  );
  const referrers = { hosts: [] as string[], assistants: [] as string[] };
  for (const { referrer_host: host } of referrerHosts.rows) {
    const assistant = aiReferrerOf(host, '');
    if (assistant === null) continue;
    referrers.hosts.push(host);
    referrers.assistants.push(assistant);
  }
  const result = await client.query<ChangeRow & { updated: number; changed: number }>(reclassifyStatement, [
    ...inWindow,
    fresh.map((profile) => profile.userAgentId ?? '0'),
    fresh.map((profile) => profile.markdown),
    fresh.map((profile) => profile.signatureAgent ?? ''),
    fresh.map((profile) => profile.category),
    fresh.map((profile) => profile.agent),
    referrers.hosts,
    referrers.assistants,
  ]);
  const first = result.rows[0];
  const changes = result.rows.filter((row) => row.hour !== null);
  if (changes.length > 0) {
    const sums = changeSums(changes, series);
    await addToRollups(client, projectId, sums);
    await deleteEmptiedAgentRows(client, projectId, sums);
  }
  return { updated: first?.updated ?? 0, changed: first?.changed ?? 0 };
}

/** The rollup rows of a window's change, summed by the writer's arithmetic with signed weights. */
function changeSums(changes: readonly ChangeRow[], series: RollupSeries): RollupSums {
  const views = noProfiledViews();
  const profileNumbers = new Map<string, number>();
  const pathIds = new Map<string, number>();
  const weights: number[] = [];
  for (const change of changes) {
    if (change.path_id === null) throw new Error(`The path ${JSON.stringify(change.path)} has no id`);
    const key = JSON.stringify([change.category, change.agent, change.verified]);
    let number = profileNumbers.get(key);
    if (number === undefined) {
      number = views.profiles.length + 1;
      profileNumbers.set(key, number);
      // What the rollups count a view by; the rest of a profile is not summed.
      views.profiles.push({
        number,
        category: change.category,
        agent: change.agent,
        verified: change.verified,
        classifierVersion: '',
        userAgentId: null,
        markdown: false,
        signatureAgent: null,
      });
    }
    pathIds.set(change.path, change.path_id);
    views.occurredAt.push(change.hour * hourMilliseconds);
    views.paths.push(change.path);
    views.profileNumbers.push(number);
    views.referrerHosts.push(null);
    views.aiReferrers.push(change.ai_referrer);
    weights.push(change.views);
  }
  return sumRollups(views, pathIds, series, null, weights);
}

/**
 * Deletes the agent rows that a change took every view from: a writer never writes a row of no
 * views, and `quire analytics verify` reads one as a difference. Page rows never empty: a view
 * changes what it is counted as, never its hour or page.
 */
async function deleteEmptiedAgentRows(
  client: pg.PoolClient,
  projectId: string,
  sums: RollupSums,
): Promise<void> {
  const { agents } = sums;
  const emptied = agents.views.flatMap((views, index) => (views < 0 ? [index] : []));
  if (emptied.length === 0) return;
  await client.query(
    `DELETE FROM analytics_agent_rollups AS rollup
     USING unnest($2::text[], $3::bigint[], $4::text[], $5::text[]) AS emptied (granularity, bucket, category, agent)
     WHERE rollup.project_id = $1 AND rollup.granularity = emptied.granularity
       AND rollup.bucket = to_timestamp(emptied.bucket / 1000::float8) AND rollup.category = emptied.category
       AND rollup.agent = emptied.agent AND rollup.views = 0`,
    [
      projectId,
      emptied.map((index) => agents.granularity[index]),
      emptied.map((index) => agents.bucket[index]),
      emptied.map((index) => agents.category[index]),
      emptied.map((index) => agents.agent[index]),
    ],
  );
}
