import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import fc from 'fast-check';
import pg from 'pg';
import { createTestDatabase } from '../../../test/database.ts';
import { buildProject } from '../../../test/factories.ts';
import { advisoryLockKeys } from '../../db/advisory-locks.ts';
import { transaction } from '../../db/database.ts';
import { createClassifier } from '../classification/index.ts';
import { createPageViewWriter, type StoredPageView } from '../ingestion/index.ts';
import { queryVisitors } from '../reports/index.ts';
import { compactAndPackVisitors, createVisitorIdentity } from '../visitors/index.ts';
import { previewReclassification, reclassifyPageViews, reclassifyWindows } from './reclassify.ts';
import { rebuildRollups } from './rollup-rebuild.ts';
import { verifyRollups } from './rollup-verification.ts';

const database = await createTestDatabase();
const writer = createPageViewWriter({ pool: database.pool });
const classifier = createClassifier();
const chrome =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36';
const mistral = 'Mozilla/5.0 (compatible; MistralAI-User/1.0; +https://docs.mistral.ai/robots)';
const sogou = 'Sogou web spider/4.0(+http://www.sogou.com/docs/help/webmasters.htm#07)';
const lynx = 'Lynx/2.8.9rel.1 libwww-FM/2.14 SSL-MM/1.4.1 OpenSSL/1.1.1w';
/** User agents an older classifier stored as people whom the current one does not all call so. */
const changingUserAgents = [chrome, mistral, sogou, lynx, 'curl/8.5.0'];
/** What an older classifier called some of them. */
const formerAgents: Record<string, Partial<StoredPageView>> = {
  [mistral]: { category: 'ai_assistant', agent: 'MistralAI-User/1.0' },
  [sogou]: { category: 'ai_training', agent: 'Spider' },
};

/** A view as an older classifier stored it: everything a human, nothing verified unless said. */
function oldView(hour: number, userAgent: string, extra: Partial<StoredPageView> = {}): StoredPageView {
  return {
    path: '/guide',
    occurredAt: Date.parse('2026-05-04T00:00:00Z') + hour * 3_600_000,
    category: 'human',
    agent: null,
    classifierVersion: 'old',
    referrerHost: null,
    markdown: false,
    userAgent,
    ...extra,
  };
}

const visitorsNow = Date.parse('2026-05-10T12:00:00Z');
const visitorWriter = createPageViewWriter({
  pool: database.pool,
  identity: createVisitorIdentity({ db: database.pool, now: () => visitorsNow }),
});

/**
 * A project whose views and visitors an older classifier stored: the Mistral assistant as a
 * person, Sogou as an AI crawler, the Lynx text browser as a bot. Returns its visitors report.
 */
async function projectWithOlderVisitors() {
  const project = await buildProject(database.pool);
  await visitorWriter.write(project.id, [
    oldView(1, chrome, { address: '192.0.2.1' }),
    oldView(2, chrome, { address: '192.0.2.1' }),
    oldView(3, chrome, { address: '192.0.2.2' }),
    oldView(4, mistral, { address: '192.0.2.3' }),
    oldView(5, mistral, { address: '192.0.2.3', path: '/other' }),
    oldView(6, sogou, { address: '192.0.2.4', category: 'ai_training', agent: 'Spider' }),
    oldView(7, lynx, { address: '192.0.2.5', category: 'bot' }),
  ]);
  await compactAndPackVisitors(database.pool, { now: visitorsNow });
  await database.pool.query(
    `UPDATE projects SET settings = settings || '{"analyticsCountAiCrawlersAsAi": true}' WHERE id = $1`,
    [project.id],
  );
  const visitors = () =>
    queryVisitors(database.pool, {
      projectId: project.id,
      range: { from: undefined, to: undefined },
      limit: 10,
      offset: 0,
    });
  assert.deepEqual((await visitors()).totals, { human: 3, ai: 1, total: 4 });
  return { project, visitors };
}

/** The visitors after reclassification: Mistral's with the AI, Lynx's with the people. */
const reclassifiedVisitors = {
  totals: { human: 3, ai: 1, total: 4 },
  visitors: [
    { path: '/guide', human: 3, ai: 1, total: 4 },
    { path: '/other', human: 0, ai: 1, total: 1 },
  ],
  hasMore: false,
};

describe('quire analytics reclassify applies the issue-15 rules to stored history', () => {
  after(() => visitorWriter.close());
  it('reclassifies by user agent, Markdown flag and signer, keeps verdicts, and rebuilds the rollups', async () => {
    const project = await buildProject(database.pool);
    await writer.write(project.id, [
      oldView(1, 'Lynx/2.9.0dev.12 libwww-FM/2.14 SSL-MM/1.4.1 GNUTLS/3.7.8', {
        category: 'bot',
        agent: 'Lynx',
      }),
      oldView(2, 'Sogou web spider/4.0(+http://www.sogou.com/docs/help/webmasters.htm#07)', {
        category: 'ai_training',
        agent: 'Spider',
      }),
      oldView(3, chrome, { markdown: true }),
      oldView(4, chrome, { signatureAgent: 'chatgpt.com', verified: true }),
      oldView(5, 'Mozilla/5.0 (compatible; MistralAI-User/1.0; +https://docs.mistral.ai/robots)', {
        category: 'ai_assistant',
        agent: 'MistralAI-User/1.0',
      }),
      oldView(6, chrome, { referrerHost: 'chatgpt.com' }),
    ]);
    // A dry run says what would change, and changes nothing.
    const preview = await previewReclassification(database.pool, classifier, project.id);
    assert.equal(preview.staleViews, 6);
    assert.deepEqual(
      preview.changes.map((change) => [
        change.from.category,
        change.from.agent,
        change.to.category,
        change.to.agent,
      ]),
      [
        ['ai_assistant', 'MistralAI-User/1.0', 'ai_assistant', 'MistralAI-User'],
        ['ai_training', 'Spider', 'bot', 'Sogou'],
        ['bot', 'Lynx', 'human', null],
        ['human', null, 'ai_assistant', 'ChatGPT-Agent'],
        ['human', null, 'ai_assistant', 'unknown (browser user agent)'],
      ],
    );
    const stillStale = await database.pool.query(
      "SELECT count(*)::int AS views FROM analytics_page_views WHERE project_id = $1 AND classifier_version = 'old'",
      [project.id],
    );
    assert.equal(stillStale.rows[0].views, 6);

    const report = await reclassifyPageViews(database.pool, classifier, project.id);
    assert.equal(report.viewsUpdated, 6);
    assert.equal(report.viewsChanged, 4);
    const rows = await database.pool.query(
      'SELECT category, agent, verified FROM analytics_page_views WHERE project_id = $1 ORDER BY occurred_at',
      [project.id],
    );
    assert.deepEqual(
      rows.rows.map((row) => [row.category, row.agent, row.verified]),
      [
        ['human', null, false],
        ['bot', 'Sogou', false],
        ['ai_assistant', 'unknown (browser user agent)', false],
        ['ai_assistant', 'ChatGPT-Agent', true],
        ['ai_assistant', 'MistralAI-User', false],
        ['human', null, false],
      ],
    );
    const agents = await database.pool.query(
      `SELECT agent, views::int, verified_views::int FROM analytics_agent_rollups
       WHERE project_id = $1 AND granularity = 'day' AND agent <> '' ORDER BY agent`,
      [project.id],
    );
    assert.deepEqual(agents.rows, [
      { agent: 'ChatGPT-Agent', views: 1, verified_views: 1 },
      { agent: 'MistralAI-User', views: 1, verified_views: 0 },
      { agent: 'Sogou', views: 1, verified_views: 0 },
      { agent: 'unknown (browser user agent)', views: 1, verified_views: 0 },
    ]);
    // The view referred by chatgpt.com before the AI-referrer rule existed learns it.
    const referred = await database.pool.query(
      `SELECT ai_referrer FROM analytics_page_views WHERE project_id = $1 AND ai_referrer IS NOT NULL`,
      [project.id],
    );
    assert.deepEqual(referred.rows, [{ ai_referrer: 'ChatGPT' }]);
    const pathRollup = await database.pool.query(
      `SELECT sum(ai_referred)::int AS ai_referred, sum(verified_ai)::int AS verified_ai FROM analytics_path_rollups
       WHERE series = analytics_series($1, 'day')`,
      [project.id],
    );
    assert.deepEqual(pathRollup.rows, [{ ai_referred: 1, verified_ai: 1 }]);
    assert.deepEqual((await verifyRollups(database.pool, project.id)).mismatches, []);
  });

  it('moves visitors with their views: between human and AI, out when they become bots, in when bots become people', async () => {
    const { project, visitors } = await projectWithOlderVisitors();
    const report = await reclassifyPageViews(database.pool, classifier, project.id);
    assert.equal(report.visitorMarksMoved, 4);
    assert.deepEqual(await visitors(), reclassifiedVisitors);
    // The day is counted again from its marks, and packed again.
    await compactAndPackVisitors(database.pool, { now: visitorsNow });
    assert.deepEqual((await visitors()).totals, { human: 3, ai: 1, total: 4 });
    assert.deepEqual((await verifyRollups(database.pool, project.id)).mismatches, []);
  });

  it('is finished by the next run when it stops halfway: the marks have moved, the views follow', async () => {
    const { project, visitors } = await projectWithOlderVisitors();
    // The first window cannot start: it waits for this transaction's lock, longer than it may.
    const impatient = new pg.Pool({
      connectionString: database.pool.options.connectionString,
      options: '-c lock_timeout=100',
    });
    await transaction(database.pool, async (client) => {
      await client.query(`SELECT pg_advisory_xact_lock(${advisoryLockKeys.reclassification}, hashtext($1))`, [
        project.id,
      ]);
      await assert.rejects(reclassifyPageViews(impatient, classifier, project.id), { code: '55P03' });
    });
    await impatient.end();
    const stale = await database.pool.query(
      'SELECT count(*)::int AS views FROM analytics_page_views WHERE project_id = $1 AND classifier_version = $2',
      [project.id, 'old'],
    );
    assert.equal(stale.rows[0].views, 7);

    const report = await reclassifyPageViews(database.pool, classifier, project.id);
    assert.deepEqual([report.viewsUpdated, report.viewsChanged, report.visitorMarksMoved], [7, 4, 0]);
    assert.deepEqual(await visitors(), reclassifiedVisitors);
    assert.deepEqual((await verifyRollups(database.pool, project.id)).mismatches, []);
  });

  it('works in windows of about the given number of views, and the rollups change with them', async () => {
    const project = await buildProject(database.pool);
    const views: StoredPageView[] = [];
    for (let hour = 0; hour < 30; hour += 1) {
      for (let index = 0; index < 12; index += 1) {
        const userAgent = changingUserAgents[(hour + index) % changingUserAgents.length] as string;
        views.push(
          oldView(hour, userAgent, {
            path: `/page-${index % 4}`,
            occurredAt: Date.parse('2026-05-04T00:00:00Z') + hour * 3_600_000 + index * 60_000,
            ...formerAgents[userAgent],
          }),
        );
      }
    }
    // One busy hour, split in parts of its time.
    for (let index = 0; index < 250; index += 1) {
      views.push(
        oldView(40, mistral, {
          occurredAt: Date.parse('2026-05-05T16:00:00Z') + index * 10_000,
          ...formerAgents[mistral],
        }),
      );
    }
    await writer.write(project.id, views);
    const progress: Array<[number, number]> = [];
    const report = await reclassifyPageViews(database.pool, classifier, project.id, {
      viewsPerTransaction: 100,
      onProgress: (done, total) => progress.push([done, total]),
    });
    assert.equal(report.viewsUpdated, views.length);
    assert.equal(progress.length, report.transactions);
    assert.deepEqual(progress.at(-1), [views.length, views.length]);
    assert.ok(
      progress.every(([done], index) => index === 0 || done > (progress[index - 1] as [number, number])[0]),
    );
    // 360 views over 30 hours in windows of up to 100 (eight hours each), and 250 in three.
    assert.equal(report.transactions, 4 + 3);
    assert.deepEqual((await verifyRollups(database.pool, project.id)).mismatches, []);
    // The agent names of the older classifier are gone from the rollups, not left at zero.
    assert.ok(report.viewsChanged > 0);
    const agents = await database.pool.query(
      `SELECT DISTINCT agent FROM analytics_agent_rollups WHERE project_id = $1 ORDER BY agent`,
      [project.id],
    );
    assert.deepEqual(
      agents.rows.map((row) => row.agent),
      ['', 'MistralAI-User', 'Sogou', 'curl'],
    );
    const again = await reclassifyPageViews(database.pool, classifier, project.id, {
      viewsPerTransaction: 100,
    });
    assert.deepEqual([again.viewsUpdated, again.transactions], [0, 0]);
  });

  // The timeout ends the test if a writer waits for the held window (it would wait for ever).
  it('lets writers write while it runs, and the rollups stay exact under them', {
    timeout: 60_000,
  }, async () => {
    const project = await buildProject(database.pool);
    const views: StoredPageView[] = [];
    for (let hour = 0; hour < 24; hour += 1) {
      for (let index = 0; index < 20; index += 1) {
        views.push(oldView(hour, changingUserAgents[index % changingUserAgents.length] as string));
      }
    }
    await writer.write(project.id, views);
    // Holds the first window back: a writer of the same project must not wait for it.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let holding = () => {};
    const locked = new Promise<void>((resolve) => {
      holding = resolve;
    });
    const holder = transaction(database.pool, async (client) => {
      await client.query(`SELECT pg_advisory_xact_lock(${advisoryLockKeys.reclassification}, hashtext($1))`, [
        project.id,
      ]);
      holding();
      await held;
    });
    await locked;
    const running = reclassifyPageViews(database.pool, classifier, project.id, { viewsPerTransaction: 50 });
    // Views of the current classifier and of an older one (a process not upgraded yet), in the
    // hours being reclassified, written while the first window waits and while the others run.
    const current = (hour: number) => ({ ...oldView(hour, chrome), classifierVersion: classifier.version });
    let finished = false;
    void running.then(() => {
      finished = true;
    });
    assert.equal(await writer.write(project.id, [current(3), oldView(3, mistral)]), 2);
    assert.equal(finished, false);
    release();
    await holder;
    let written = 2;
    let done = false;
    const writing = (async () => {
      for (let round = 0; !done || round < 3; round += 1) {
        written += await writer.write(project.id, [current(round % 24), oldView((round * 7) % 24, sogou)]);
      }
    })();
    const report = await running;
    done = true;
    await writing;
    assert.ok(report.transactions >= 10, `${report.transactions} transactions`);
    assert.deepEqual((await verifyRollups(database.pool, project.id)).mismatches, []);
    const stored = await database.pool.query(
      'SELECT count(*)::int AS views FROM analytics_page_views WHERE project_id = $1',
      [project.id],
    );
    assert.equal(stored.rows[0].views, views.length + written);
  });
  it('changes the rollups exactly as rebuilding them from the views would, for any history and window size', async () => {
    const categories = ['human', 'ai_assistant', 'ai_search', 'ai_training', 'bot'] as const;
    const stored = fc.record({
      hour: fc.nat(47),
      second: fc.nat(3599),
      page: fc.nat(3),
      userAgent: fc.constantFrom(...changingUserAgents, undefined),
      category: fc.constantFrom(...categories),
      agent: fc.constantFrom(null, 'Spider', 'MistralAI-User/1.0'),
      verified: fc.boolean(),
      markdown: fc.boolean(),
      signed: fc.boolean(),
      referrerHost: fc.constantFrom(null, 'chatgpt.com', 'www.perplexity.ai', 'example.com'),
      aiReferrer: fc.constantFrom(null, 'ChatGPT'),
    });
    const rollups = async (projectId: string) => ({
      paths: (
        await database.pool.query(
          `SELECT series.granularity, rollup.bucket, rollup.path_id, human, ai_assistant, ai_search, ai_training, bot,
             ai_referred, verified_ai
           FROM analytics_path_rollups AS rollup JOIN analytics_rollup_series AS series ON series.id = rollup.series
           WHERE series.project_id = $1 ORDER BY 1, 2, 3`,
          [projectId],
        )
      ).rows,
      agents: (
        await database.pool.query(
          `SELECT granularity, bucket, category, agent, views, verified_views FROM analytics_agent_rollups
           WHERE project_id = $1 ORDER BY 1, 2, 3, 4`,
          [projectId],
        )
      ).rows,
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(stored, { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 1, max: 30 }),
        async (rows, size) => {
          const project = await buildProject(database.pool);
          await writer.write(
            project.id,
            rows.map((row) =>
              oldView(row.hour, row.userAgent as string, {
                userAgent: row.userAgent,
                occurredAt: Date.parse('2026-05-04T00:00:00Z') + row.hour * 3_600_000 + row.second * 1000,
                path: `/page-${row.page}`,
                category: row.category,
                agent: row.agent,
                verified: row.verified,
                markdown: row.markdown,
                referrerHost: row.referrerHost,
                aiReferrer: row.aiReferrer,
                ...(row.signed ? { signatureAgent: 'chatgpt.com' } : {}),
              }),
            ),
          );
          await reclassifyPageViews(database.pool, classifier, project.id, { viewsPerTransaction: size });
          const changed = await rollups(project.id);
          await rebuildRollups(database.pool, project.id);
          assert.deepEqual(changed, await rollups(project.id));
        },
      ),
      { numRuns: 12 },
    );
  });
});

describe('reclassifyWindows', () => {
  const hour = 3_600_000;
  it("groups a project's consecutive hours up to the size, splits a busier hour, and never mixes projects", () => {
    assert.deepEqual(
      reclassifyWindows(
        [
          { projectId: 'a', hour: 10, views: 40 },
          { projectId: 'a', hour: 12, views: 60 },
          { projectId: 'a', hour: 13, views: 1 },
          { projectId: 'a', hour: 14, views: 250 },
          { projectId: 'a', hour: 15, views: 100 },
          { projectId: 'b', hour: 15, views: 1 },
        ],
        100,
      ),
      [
        { projectId: 'a', from: 10 * hour, to: 13 * hour },
        { projectId: 'a', from: 13 * hour, to: 14 * hour },
        { projectId: 'a', from: 14 * hour, to: 14 * hour + hour / 3 },
        { projectId: 'a', from: 14 * hour + hour / 3, to: 14 * hour + (2 * hour) / 3 },
        { projectId: 'a', from: 14 * hour + (2 * hour) / 3, to: 15 * hour },
        { projectId: 'a', from: 15 * hour, to: 16 * hour },
        { projectId: 'b', from: 15 * hour, to: 16 * hour },
      ],
    );
    assert.deepEqual(reclassifyWindows([], 100), []);
  });
});
