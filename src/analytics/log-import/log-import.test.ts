import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { createTestDatabase } from '../../../test/database.ts';
import { buildProject } from '../../../test/factories.ts';
import { createClassifier } from '../classification/index.ts';
import { createPageViewWriter } from '../ingestion/index.ts';
import { rebuildRollups, reclassifyPageViews, verifyRollups } from '../rollups/index.ts';
import { createAgentVerifier } from '../verification/index.ts';
import { importLog } from './log-import.ts';

const database = await createTestDatabase();
const classifier = createClassifier();
const writer = createPageViewWriter({ pool: database.pool });
const now = Date.parse('2026-06-01T00:00:00Z');

const chrome =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36';
const line = (day: number, target: string, status: number, agent: string, method = 'GET') =>
  `203.0.113.${day} - - [${String(day).padStart(2, '0')}/May/2026:10:00:00 +0000] "${method} ${target} HTTP/1.1" ${status} 512 "-" "${agent}"`;

const log = [
  line(1, '/docs/intro', 200, chrome),
  line(1, '/docs/intro', 200, chrome), // the same line twice: two views
  line(2, '/docs/intro.md', 200, 'curl/8.5.0'),
  line(3, '/docs/guide?x=1', 304, 'Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)'),
  line(4, '/assets/app.js', 200, chrome),
  line(5, '/docs/missing', 404, chrome),
  line(6, '/docs/intro', 200, chrome, 'POST'),
  line(7, '/docs/%zz', 200, chrome),
  'garbage that is no log line',
  '',
  `${'x'.repeat(70_000)}`,
  line(8, '/docs/guide/', 200, chrome),
].join('\n');

function run(projectId: string, text: string, format: 'combined' | 'jsonl' = 'combined') {
  return importLog({ projectId, format, source: Readable.from([text]), classifier, writer, now });
}

describe('importLog', () => {
  it('imports page views, skips the rest with reasons, and never counts a line twice', async () => {
    const project = await buildProject(database.pool);
    const first = await run(project.id, log);
    assert.deepEqual(first, {
      linesRead: 12,
      imported: 5,
      alreadyImported: 0,
      withoutUserAgent: 0,
      // In pipeline order: reading, format, request, invalid, no page view.
      skipped: {
        'empty line': 1,
        'line too long': 1,
        'not in combined log format': 1,
        'not a GET request': 1,
        'invalid: path has invalid percent-encoding': 1,
        asset: 1,
        'not a successful status': 1,
      },
    });
    assert.deepEqual(Object.keys(first.skipped), [
      'empty line',
      'line too long',
      'not in combined log format',
      'not a GET request',
      'invalid: path has invalid percent-encoding',
      'asset',
      'not a successful status',
    ]);
    const again = await run(project.id, log);
    assert.equal(again.imported, 0);
    assert.equal(again.alreadyImported, 5);
    // A longer version of the same file (the log grew): only the new line is imported.
    const grown = await run(project.id, `${log}\n${line(9, '/docs/new', 200, chrome)}`);
    assert.equal(grown.imported, 1);
    assert.equal(grown.alreadyImported, 5);

    const rows = await database.pool.query(
      'SELECT path, category, count(*)::int AS views FROM analytics_page_views WHERE project_id = $1 GROUP BY 1, 2 ORDER BY 1, 2',
      [project.id],
    );
    assert.deepEqual(rows.rows, [
      { path: '/docs/guide', category: 'ai_training', views: 1 },
      { path: '/docs/guide', category: 'human', views: 1 },
      { path: '/docs/intro', category: 'ai_assistant', views: 1 },
      { path: '/docs/intro', category: 'human', views: 2 },
      { path: '/docs/new', category: 'human', views: 1 },
    ]);
    const report = await verifyRollups(database.pool, project.id);
    assert.deepEqual(report.mismatches, []);
    assert.equal(report.rawEvents, 6);
  });

  it('skips a line with a NUL or other control character and imports the rest', async () => {
    const project = await buildProject(database.pool);
    const text = [
      line(1, '/docs/a', 200, chrome),
      line(1, '/docs/b', 200, 'Mozilla/5.0\u0000evil'),
      line(1, '/docs/c', 200, chrome),
    ].join('\n');
    const summary = await run(project.id, text);
    assert.equal(summary.imported, 2);
    assert.deepEqual(summary.skipped, { 'control characters in a field': 1 });
    const json = [
      JSON.stringify({
        ClientRequestMethod: 'GET',
        ClientRequestURI: '/docs/d',
        EdgeResponseStatus: 200,
        EdgeStartTimestamp: '2026-05-01T00:00:00Z',
        ClientRequestUserAgent: 'curl\u0001',
      }),
      JSON.stringify({
        ClientRequestMethod: 'GET',
        ClientRequestURI: '/docs/e\u0000',
        EdgeResponseStatus: 200,
        EdgeStartTimestamp: '2026-05-01T00:00:00Z',
        ClientRequestUserAgent: chrome,
      }),
    ].join('\n');
    const jsonSummary = await run(project.id, json, 'jsonl');
    assert.equal(jsonSummary.skipped['control characters in a field'], 2, JSON.stringify(jsonSummary));
  });

  it('imports JSON lines from Cloudflare and Vercel', async () => {
    const project = await buildProject(database.pool);
    const lines = [
      JSON.stringify({
        ClientRequestMethod: 'GET',
        ClientRequestURI: '/a',
        EdgeResponseStatus: 200,
        EdgeStartTimestamp: '2026-05-01T00:00:00Z',
        ClientRequestUserAgent: chrome,
      }),
      JSON.stringify({
        proxy: {
          method: 'GET',
          path: '/b',
          statusCode: 200,
          timestamp: Date.parse('2026-05-02T00:00:00Z'),
          userAgent: ['Claude-User/1.0'],
        },
      }),
      '{"not": "a request"}',
      '{broken',
    ].join('\n');
    const summary = await run(project.id, lines, 'jsonl');
    assert.equal(summary.imported, 2);
    assert.deepEqual(summary.skipped, { 'not valid JSON': 1, 'no request path': 1 });
  });
});

describe('importLog verification', () => {
  // Reverse DNS with Google's records for one address, counting its queries.
  let queries = 0;
  const verifier = createAgentVerifier({
    ipRanges: { sources: [] },
    keyDirectory: { keys: async () => [] },
    resolver: {
      async reverse(address) {
        queries += 1;
        return address === '66.249.66.1' ? ['crawl-66-249-66-1.googlebot.com'] : [];
      },
      lookup: async (hostname) => (hostname === 'crawl-66-249-66-1.googlebot.com' ? ['66.249.66.1'] : []),
    },
  });
  const googlebot = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
  const gptbot = 'Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)';
  const googleLine = (second: number, ip: string) =>
    `${ip} - - [01/May/2026:10:00:${String(second).padStart(2, '0')} +0000] "GET /docs/intro HTTP/1.1" 200 512 "-" "${googlebot}"`;
  const cloudflare = (rayId: string, userAgent: string, extra: Record<string, unknown>) =>
    JSON.stringify({
      ClientIP: '198.51.100.20',
      ClientRequestHost: 'docs.example.com',
      ClientRequestMethod: 'GET',
      ClientRequestURI: '/docs/guide',
      ClientRequestUserAgent: userAgent,
      EdgeResponseStatus: 200,
      EdgeStartTimestamp: '2026-05-01T11:00:00Z',
      RayID: rayId,
      ...extra,
    });

  async function stored(projectId: string) {
    const rows = await database.pool.query(
      'SELECT path, agent, verified, markdown FROM analytics_page_views WHERE project_id = $1 ORDER BY occurred_at, agent',
      [projectId],
    );
    return rows.rows.map((row) => [row.path, row.agent, row.verified, row.markdown]);
  }

  it('verifies the agents of imported lines, asking DNS once per agent and address', async () => {
    const project = await buildProject(database.pool);
    const text = [
      googleLine(1, '66.249.66.1'),
      googleLine(2, '66.249.66.1'),
      googleLine(3, '198.51.100.7'),
      line(4, '/docs/intro', 200, chrome),
    ].join('\n');
    const summary = await importLog({
      projectId: project.id,
      format: 'combined',
      source: Readable.from([text]),
      classifier,
      writer,
      verifier,
      now,
    });
    assert.equal(summary.imported, 4);
    assert.equal(queries, 2, 'one reverse query per address; the person is never looked up');
    assert.deepEqual(await stored(project.id), [
      ['/docs/intro', 'Googlebot', true, false],
      ['/docs/intro', 'Googlebot', true, false],
      ['/docs/intro', 'Googlebot', false, false],
      ['/docs/intro', null, false, false],
    ]);
    const report = await database.pool.query(
      'SELECT sum(views)::int AS views, sum(verified_views)::int AS verified FROM analytics_agent_rollups WHERE project_id = $1 AND granularity = $2 AND agent = $3',
      [project.id, 'day', 'Googlebot'],
    );
    assert.deepEqual(report.rows[0], { views: 3, verified: 2 });
  });

  it("reads Cloudflare's logged request headers and verified bot category from exported files", async () => {
    const project = await buildProject(database.pool);
    const text = [
      cloudflare('9a0000000000b001', gptbot, { VerifiedBotCategory: 'AI Crawler' }),
      cloudflare('9a0000000000b002', gptbot, { VerifiedBotCategory: '' }),
      cloudflare('9a0000000000b003', chrome, {
        RequestHeaders: { accept: 'text/markdown', 'x-forwarded-for': '10.0.0.1' },
      }),
    ].join('\n');
    const withVerifier = await importLog({
      projectId: project.id,
      format: 'jsonl',
      source: Readable.from([text]),
      classifier,
      writer,
      verifier,
      now,
    });
    assert.equal(withVerifier.imported, 3);
    assert.deepEqual(await stored(project.id), [
      ['/docs/guide', 'GPTBot', true, false],
      ['/docs/guide', 'GPTBot', false, false],
      ['/docs/guide', 'unknown (browser user agent)', false, true],
    ]);
  });
});

describe('verifyRollups, rebuildRollups and reclassifyPageViews', () => {
  it('finds rollups that disagree with raw events, rebuilds them, and reclassifies history', async () => {
    const project = await buildProject(database.pool);
    await run(project.id, log);
    assert.deepEqual((await verifyRollups(database.pool, project.id)).mismatches, []);

    // Tamper with a rollup: verify must notice.
    await database.pool.query(
      "UPDATE analytics_path_rollups SET human = human + 1 WHERE series = analytics_series($1, 'day') AND path_id = (SELECT id FROM analytics_paths WHERE project_id = $1 AND path = '/docs/intro')",
      [project.id],
    );
    const broken = await verifyRollups(database.pool, project.id);
    // /docs/intro was read on two days.
    assert.deepEqual(
      broken.mismatches.map((mismatch) => [mismatch.table, mismatch.granularity, mismatch.key]),
      [
        ['analytics_path_rollups', 'day', '/docs/intro'],
        ['analytics_path_rollups', 'day', '/docs/intro'],
      ],
    );

    assert.notEqual((await rebuildRollups(database.pool, project.id)).rebuiltFrom, null);
    assert.deepEqual((await verifyRollups(database.pool, project.id)).mismatches, []);
    // The detail counts are proven too: AI-referred and verified AI views, and verified agent views.
    await database.pool.query(
      "UPDATE analytics_path_rollups SET ai_referred = ai_referred + 1, verified_ai = verified_ai + 1 WHERE series = analytics_series($1, 'hour')",
      [project.id],
    );
    await database.pool.query(
      "UPDATE analytics_agent_rollups SET verified_views = verified_views + 1 WHERE project_id = $1 AND granularity = 'month'",
      [project.id],
    );
    const detail = await verifyRollups(database.pool, project.id);
    assert.deepEqual(
      [...new Set(detail.mismatches.map((mismatch) => `${mismatch.table} ${mismatch.granularity}`))],
      ['analytics_path_rollups hour', 'analytics_agent_rollups month'],
    );
    await rebuildRollups(database.pool, project.id);
    assert.deepEqual((await verifyRollups(database.pool, project.id)).mismatches, []);

    // Pretend the views were classified by an older classifier that called everything a bot (and
    // counted them so).
    await database.pool.query(
      "UPDATE analytics_page_views SET category = 'bot', agent = 'old', classifier_version = 'old' WHERE project_id = $1",
      [project.id],
    );
    await rebuildRollups(database.pool, project.id);
    const report = await reclassifyPageViews(database.pool, classifier, project.id);
    assert.equal(report.viewsUpdated, 5);
    assert.equal(report.viewsChanged, 5);
    const categories = await database.pool.query(
      'SELECT category, count(*)::int AS views FROM analytics_page_views WHERE project_id = $1 GROUP BY 1 ORDER BY 1',
      [project.id],
    );
    assert.deepEqual(categories.rows, [
      { category: 'ai_assistant', views: 1 },
      { category: 'ai_training', views: 1 },
      { category: 'human', views: 3 },
    ]);
    // The rollups changed with the views.
    assert.deepEqual((await verifyRollups(database.pool, project.id)).mismatches, []);
    const nothingLeft = await reclassifyPageViews(database.pool, classifier, project.id);
    assert.equal(nothingLeft.viewsUpdated, 0);
  });
});
