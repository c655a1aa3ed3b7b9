// The analytics page: range parsing, rendering of the export's data (escaped, paged, charted), CSV,
// and the page on a build without analytics.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildTestServices } from '../../../test/app.ts';
import { buildDashboardUser, signInSession } from '../../../test/dashboard.ts';
import { createTestDatabase } from '../../../test/database.ts';
import { buildProject, buildProjectWithKey } from '../../../test/factories.ts';
import { renderAnalyticsPage } from '../pages/analytics-page.ts';
import { csvCell, viewsCsvHeader, viewsCsvRows } from '../views-csv.ts';
import { readRange } from './analytics.ts';

const now = new Date('2026-05-20T12:00:00Z');

test('the range defaults to the last 30 days; "to" is inclusive in the picker, exclusive in the query', () => {
  const range = readRange({}, now);
  assert.deepEqual([range.from, range.to, range.interval], ['2026-04-21', '2026-05-20', 'day']);
  assert.equal(range.range.from?.toISOString(), '2026-04-21T00:00:00.000Z');
  assert.equal(range.range.to?.toISOString(), '2026-05-21T00:00:00.000Z');
  assert.equal(readRange({ from: '2026-05-20', to: '2026-05-20' }, now).interval, 'hour');
  assert.throws(() => readRange({ from: '2026-02-30', to: '2026-03-01' }, now), /date such as/);
  assert.throws(() => readRange({ from: '2026-05-02', to: '2026-05-01' }, now), /must not be after/);
});

const context = {
  email: 'a@example.com',
  csrfToken: 't',
  project: { id: 'prj_x', name: 'Docs' },
  projects: [],
  section: 'analytics' as const,
};

test('the page shows totals, a chart, the paged table, agents and a CSV link; paths are escaped', () => {
  const page = renderAnalyticsPage(
    context as never,
    {
      from: '2026-05-01',
      to: '2026-05-20',
      page: 2,
      data: {
        kind: 'ready',
        views: {
          totals: { human: 1200, ai: 34, total: 1234 },
          views: [{ path: '/<script>alert(1)</script>', human: 5, ai: 1, total: 6 }],
          hasMore: true,
        },
        agents: {
          categories: { human: 1200, ai_assistant: 34, ai_search: 2, ai_training: 9, bot: 3 },
          agents: [{ agent: 'ChatGPT-User', category: 'ai_assistant', views: 3000, verifiedViews: 2750 }],
        },
        series: {
          interval: 'day',
          points: [
            { start: '2026-05-01T00:00:00.000Z', human: 10, ai: 2, visitors: 7 },
            { start: '2026-05-02T00:00:00.000Z', human: 20, ai: 4, visitors: 0 },
          ],
        },
        visitors: {
          totals: { human: 400, ai: 21, total: 415 },
          visitors: [{ path: '/<script>alert(1)</script>', human: 3, ai: 1, total: 4 }],
          hasMore: false,
        },
      },
    },
    '2026-05-20',
  ).value;
  assert.match(page, /<strong>1,234<\/strong>/);
  assert.match(page, /Unique visitors<\/span><strong>415<\/strong>/);
  // Total, the category split (none given here), then visitors.
  assert.match(
    page,
    /<td class="number">6<\/td>(?:<td class="number">0<\/td>){4}<td class="number">4<\/td><\/tr>/,
  );
  assert.match(page, /<path d="M[^"]+" fill="none" stroke="#1a7f37"[^>]*data-series="visitors"/);
  assert.equal(page.includes('<script>alert'), false);
  assert.match(page, /&#60;script&#62;alert\(1\)/);
  assert.match(
    page,
    /<svg viewBox="0 0 720 220" role="img" aria-label="Views from 2026-05-01 to 2026-05-02: 30 human, 6 AI/,
  );
  assert.match(
    page,
    /href="\/dashboard\/projects\/prj_x\/analytics\?from=2026-05-01&#38;to=2026-05-20&#38;page=1">← Previous/,
  );
  assert.match(page, /page=3">Next →/);
  assert.match(page, /analytics\/views\.csv\?from=2026-05-01&#38;to=2026-05-20" download>Download CSV/);
  assert.match(page, /<td>ChatGPT-User<\/td><td>AI assistants<\/td>/);
  // Claimed vs verified views of each agent.
  assert.match(page, />Claimed<\/th><th [^>]*>Verified<\/th>/);
  assert.match(page, /<td class="number">3,000<\/td><td class="number">2,750<\/td>/);
});

test('an empty range says how to get data', () => {
  const page = renderAnalyticsPage(
    context as never,
    {
      from: '2026-05-01',
      to: '2026-05-20',
      page: 1,
      data: {
        kind: 'ready',
        views: { totals: { human: 0, ai: 0, total: 0 }, views: [], hasMore: false },
        agents: {
          categories: { human: 0, ai_assistant: 0, ai_search: 0, ai_training: 0, bot: 0 },
          agents: [],
        },
        series: { interval: 'day', points: [] },
        visitors: { totals: { human: 0, ai: 0, total: 0 }, visitors: [], hasMore: false },
      },
    },
    '2026-05-20',
  ).value;
  assert.match(page, /No page views from 2026-05-01 to 2026-05-20/);
});

test('CSV cells are quoted, and formulas are defused', () => {
  assert.equal(csvCell('/a "b"'), '"/a ""b"""');
  assert.equal(csvCell('=HYPERLINK("x")'), '"\'=HYPERLINK(""x"")"');
  assert.equal(csvCell(-3), '"-3"');
  assert.equal(
    viewsCsvRows([{ path: '/x,y', human: 1, ai: 2, total: 3 }], new Map([['/x,y', 2]])),
    '"/x,y","1","2","3","0","0","0","0","0","2"\r\n',
  );
  assert.equal(
    viewsCsvRows(
      [
        {
          path: '/z',
          human: 5,
          ai: 2,
          total: 7,
          aiReferred: 3,
          aiSearch: 4,
          aiTraining: 6,
          otherBots: 8,
          verifiedAi: 1,
        },
      ],
      new Map(),
    ),
    '"/z","5","2","7","3","4","6","8","1","0"\r\n',
  );
  assert.equal(
    viewsCsvHeader(),
    '"path","human","ai","total","aiReferred","aiSearch","aiTraining","otherBots","verifiedAi","visitors"\r\n',
  );
});

test('the page on the real app: signed in, with date errors as an error state', async () => {
  const database = await createTestDatabase();
  const { app } = await buildTestServices(database);
  const project = await buildProject(database.pool);
  const session = await signInSession(app, await buildDashboardUser(database.pool));
  const url = `/dashboard/projects/${project.id}/analytics`;
  const page = await app.inject({ method: 'GET', url, headers: session.headers });
  assert.equal(page.statusCode, 200);
  assert.match(page.body, /<h1>Analytics<\/h1>/);
  assert.match(page.body, /type="date" name="from"/);
  const bad = await app.inject({
    method: 'GET',
    url: `${url}?from=yesterday&to=2026-01-01`,
    headers: session.headers,
  });
  assert.equal(bad.statusCode, 400);
  assert.match(bad.body, /must be a date such as 2026-01-31/);
});

test('the page and the CSV show the views the analytics module stored', async () => {
  const database = await createTestDatabase();
  const { app } = await buildTestServices(database);
  const session = await signInSession(app, await buildDashboardUser(database.pool));
  const { project, key } = await buildProjectWithKey(database.pool);
  const keyProject = project.id;
  const yesterday = new Date(Date.now() - 24 * 3600 * 1000).toISOString();
  const chrome =
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36';
  const ingested = await app.inject({
    method: 'POST',
    url: `/v1/analytics/${keyProject}/events`,
    headers: { authorization: `Bearer ${key}` },
    payload: {
      events: [
        { path: '/docs/dashboard-page', timestamp: yesterday, userAgent: chrome, ip: '192.0.2.1' },
        { path: '/docs/dashboard-page', timestamp: yesterday, userAgent: chrome, ip: '192.0.2.1' },
        {
          path: '/docs/dashboard-page.md',
          timestamp: yesterday,
          userAgent: 'ChatGPT-User/1.0',
          ip: '192.0.2.1',
        },
      ],
    },
  });
  assert.equal(ingested.statusCode, 202, ingested.body);
  const page = await app.inject({
    method: 'GET',
    url: `/dashboard/projects/${keyProject}/analytics`,
    headers: session.headers,
  });
  assert.equal(page.statusCode, 200);
  assert.match(page.body, /\/docs\/dashboard-page/);
  assert.match(page.body, /ChatGPT-User/);
  const csv = await app.inject({
    method: 'GET',
    url: `/dashboard/projects/${keyProject}/analytics/views.csv`,
    headers: session.headers,
  });
  assert.equal(csv.statusCode, 200);
  // Two visitors: the same address with two user agents.
  assert.match(
    csv.body,
    /^"path","human","ai","total","aiReferred","aiSearch","aiTraining","otherBots","verifiedAi","visitors"\r\n/,
  );
  assert.match(csv.body, /"\/docs\/dashboard-page","2","1","3","0","0","0","0","0","2"/);
  assert.match(page.body, /Unique visitors<\/span><strong>2<\/strong>/);
});
