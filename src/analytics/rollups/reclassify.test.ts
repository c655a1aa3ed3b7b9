import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createTestDatabase } from '../../../test/database.ts';
import { buildProject } from '../../../test/factories.ts';
import { createClassifier } from '../classification/index.ts';
import { createPageViewWriter, type StoredPageView } from '../ingestion/index.ts';
import { queryVisitors } from '../reports/index.ts';
import { compactAndPackVisitors, createVisitorIdentity } from '../visitors/index.ts';
import { reclassifyPageViews } from './reclassify.ts';
import { verifyRollups } from './rollup-verification.ts';

const database = await createTestDatabase();
const writer = createPageViewWriter({ pool: database.pool });
const classifier = createClassifier();
const chrome =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36';

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

describe('quire analytics reclassify applies the issue-15 rules to stored history', () => {
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
    const project = await buildProject(database.pool);
    const now = Date.parse('2026-05-10T12:00:00Z');
    const visitorWriter = createPageViewWriter({
      pool: database.pool,
      identity: createVisitorIdentity({ db: database.pool, now: () => now }),
    });
    const mistral = 'Mozilla/5.0 (compatible; MistralAI-User/1.0; +https://docs.mistral.ai/robots)';
    const sogou = 'Sogou web spider/4.0(+http://www.sogou.com/docs/help/webmasters.htm#07)';
    const lynx = 'Lynx/2.8.9rel.1 libwww-FM/2.14 SSL-MM/1.4.1 OpenSSL/1.1.1w';
    // Stored by an older classifier: the Mistral assistant as a person, Sogou as an AI crawler,
    // the Lynx text browser as a bot.
    await visitorWriter.write(project.id, [
      oldView(1, chrome, { address: '192.0.2.1' }),
      oldView(2, chrome, { address: '192.0.2.1' }),
      oldView(3, chrome, { address: '192.0.2.2' }),
      oldView(4, mistral, { address: '192.0.2.3' }),
      oldView(5, mistral, { address: '192.0.2.3', path: '/other' }),
      oldView(6, sogou, { address: '192.0.2.4', category: 'ai_training', agent: 'Spider' }),
      oldView(7, lynx, { address: '192.0.2.5', category: 'bot' }),
    ]);
    await compactAndPackVisitors(database.pool, { now });
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

    const report = await reclassifyPageViews(database.pool, classifier, project.id);
    assert.equal(report.visitorMarksMoved, 4);
    assert.deepEqual(await visitors(), {
      totals: { human: 3, ai: 1, total: 4 },
      visitors: [
        { path: '/guide', human: 3, ai: 1, total: 4 },
        { path: '/other', human: 0, ai: 1, total: 1 },
      ],
      hasMore: false,
    });
    // The day is counted again from its marks, and packed again.
    await compactAndPackVisitors(database.pool, { now });
    assert.deepEqual((await visitors()).totals, { human: 3, ai: 1, total: 4 });
    assert.deepEqual((await verifyRollups(database.pool, project.id)).mismatches, []);
    await visitorWriter.close();
  });
});
