import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildTestApp } from '../../../test/app.ts';
import { createTestDatabase } from '../../../test/database.ts';
import { bearer, buildProjectWithKey } from '../../../test/factories.ts';
import { updateProjectSettings } from '../../projects/project-store.ts';

const database = await createTestDatabase();
// Fixed dates in these tests must not fall out of retention as the years pass.
const app = await buildTestApp(database, { environment: { QUIRE_ANALYTICS_RETENTION_MONTHS: '1200' } });
const { project, key } = await buildProjectWithKey(database.pool);

const agents = {
  human: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36',
  ai_assistant:
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ChatGPT-User/1.0; +https://openai.com/bot)',
  ai_search: 'Mozilla/5.0 (compatible; OAI-SearchBot/1.0; +https://openai.com/searchbot)',
  ai_training: 'Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)',
  bot: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
} as const;
type Category = keyof typeof agents;
const categories = Object.keys(agents) as Category[];

interface Event {
  path: string;
  time: number;
  category: Category;
}

// Deterministic pseudo-random events over two and a half months, at any minute and second.
let seed = 42;
function random(below: number): number {
  // mulberry32
  seed = (seed + 0x6d2b79f5) | 0;
  let value = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
  return Math.floor((((value ^ (value >>> 14)) >>> 0) / 4_294_967_296) * below);
}
const start = Date.parse('2026-01-20T00:00:00Z');
const span = 75 * 24 * 3600 * 1000;
const events: Event[] = Array.from({ length: 3000 }, () => ({
  path: `/docs/page-${Math.min(random(40), random(40))}`,
  time: start + random(span / 1000) * 1000,
  category: categories[random(100) < 60 ? 0 : 1 + random(4)] as Category,
}));
// And some over the last 40 days, for ranges ending now (the plan treats later buckets as empty).
const testStarted = Date.now();
for (let index = 0; index < 1000; index += 1) {
  events.push({
    path: `/docs/page-${random(25)}`,
    time: testStarted - 1000 - random(40 * 24 * 3600) * 1000,
    category: categories[random(5)] as Category,
  });
}

for (let index = 0; index < events.length; index += 1000) {
  const response = await app.inject({
    method: 'POST',
    url: `/v1/analytics/${project.id}/events`,
    headers: bearer(key),
    payload: {
      events: events.slice(index, index + 1000).map((event) => ({
        path: event.path,
        timestamp: new Date(event.time).toISOString(),
        userAgent: agents[event.category],
      })),
    },
  });
  assert.equal(response.statusCode, 202, response.body);
}

/** The export computed the obvious way, from the events this test sent. */
function expected(from: number | undefined, to: number | undefined, crawlersAreAi = false) {
  const perPath = new Map<string, { human: number; ai: number }>();
  for (const event of events) {
    if ((from !== undefined && event.time < from) || (to !== undefined && event.time >= to)) continue;
    const counts = perPath.get(event.path) ?? { human: 0, ai: 0 };
    if (event.category === 'human') counts.human += 1;
    else if (event.category === 'ai_assistant') counts.ai += 1;
    else if (crawlersAreAi && event.category !== 'bot') counts.ai += 1;
    perPath.set(event.path, counts);
  }
  const views = [...perPath.entries()]
    .map(([path, counts]) => ({ path, ...counts, total: counts.human + counts.ai }))
    .filter((row) => row.total > 0)
    .sort((left, right) => right.total - left.total || (left.path < right.path ? -1 : 1));
  const human = views.reduce((sum, row) => sum + row.human, 0);
  const ai = views.reduce((sum, row) => sum + row.ai, 0);
  return { totals: { human, ai, total: human + ai }, views };
}

async function get(path: string, query: Record<string, string> = {}) {
  const search = new URLSearchParams(query).toString();
  return app.inject({
    method: 'GET',
    url: `/v1/analytics/${project.id}/${path}?${search}`,
    headers: bearer(key),
  });
}

async function allPages(query: Record<string, string>) {
  const rows = [];
  let totals: unknown;
  for (let offset = 0; ; offset += 7) {
    const response = await get('views', { ...query, limit: '7', offset: String(offset) });
    assert.equal(response.statusCode, 200, response.body);
    const body = response.json();
    totals ??= body.totals;
    assert.deepEqual(body.totals, totals, 'totals are range-wide, the same on every page');
    rows.push(...body.views);
    if (!body.hasMore) return { totals, views: rows };
    assert.equal(body.views.length, 7);
  }
}

describe('GET /v1/analytics/:projectId/views', () => {
  it('matches the raw events exactly for ranges of every shape', async () => {
    const ranges: Array<[string | undefined, string | undefined]> = [
      [undefined, undefined],
      ['2026-02-01', '2026-03-01'],
      ['2026-01-25T10:17:33Z', '2026-03-14T05:42:10Z'],
      ['2026-02-10T12:00:00+05:30', '2026-02-10T13:30:00+05:30'],
      ['2026-02-10T12:10:00Z', '2026-02-10T12:50:00Z'],
      [undefined, '2026-02-15T08:30:00Z'],
      ['2026-03-20T23:59:59.500Z', undefined],
      ['2026-02-01', '2026-02-01'],
    ];
    const recent = (milliseconds: number) => new Date(testStarted - milliseconds).toISOString();
    ranges.push(
      [recent(30 * 24 * 3600 * 1000), recent(0)],
      [recent(30 * 24 * 3600 * 1000 + 17 * 60 * 1000), undefined],
      [recent(3 * 3600 * 1000 + 17 * 60 * 1000), new Date(testStarted + 3600 * 1000).toISOString()],
      [recent(8 * 24 * 3600 * 1000), recent(2 * 3600 * 1000)],
    );
    for (let round = 0; round < 8; round += 1) {
      const from = start + random(span / 1000) * 1000;
      ranges.push([new Date(from).toISOString(), new Date(from + random(span / 1000) * 1000).toISOString()]);
    }
    for (const [dateFrom, dateTo] of ranges) {
      const query: Record<string, string> = { limit: '250' };
      if (dateFrom !== undefined) query.dateFrom = dateFrom;
      if (dateTo !== undefined) query.dateTo = dateTo;
      const response = await get('views', query);
      assert.equal(response.statusCode, 200, response.body);
      const want = expected(
        dateFrom === undefined
          ? undefined
          : Date.parse(dateFrom.length === 10 ? `${dateFrom}T00:00:00Z` : dateFrom),
        dateTo === undefined ? undefined : Date.parse(dateTo.length === 10 ? `${dateTo}T00:00:00Z` : dateTo),
      );
      assert.deepEqual(response.json(), { ...want, hasMore: false }, `${dateFrom} .. ${dateTo}`);
    }
  });

  it('pages stably with range-wide totals and hasMore', async () => {
    const query = { dateFrom: '2026-01-28T06:30:00Z', dateTo: '2026-03-03T18:45:00Z' };
    const want = expected(Date.parse(query.dateFrom), Date.parse(query.dateTo));
    assert.ok(want.views.length > 14);
    assert.deepEqual(await allPages(query), want);
    const first = (await get('views', { ...query, limit: '1' })).json();
    assert.equal(first.hasMore, true);
    const past = (await get('views', { ...query, offset: '1000' })).json();
    assert.deepEqual(past, { totals: want.totals, views: [], hasMore: false });
    const exact = (
      await get('views', { ...query, offset: String(want.views.length - 2), limit: '2' })
    ).json();
    assert.equal(exact.views.length, 2);
    assert.equal(exact.hasMore, false);
  });

  it('defaults to 50 rows from offset 0', async () => {
    const body = (await get('views')).json();
    assert.deepEqual(body.views, expected(undefined, undefined).views.slice(0, 50));
  });

  it('rejects bad parameters with details instead of clamping', async () => {
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ limit: '0' }, /limit must be >= 1/],
      [{ limit: '251' }, /limit must be <= 250/],
      [{ limit: '1.5' }, /limit must be integer/],
      [{ limit: 'ten' }, /limit must be integer/],
      [{ offset: '-1' }, /offset must be >= 0/],
      [{ offset: '2.5' }, /offset must be integer/],
      [{ dateFrom: '2026-02-30' }, /dateFrom is not a calendar date/],
      [{ dateTo: '2026-02-01T10:00:00' }, /dateTo must match pattern/],
      [{ dateFrom: 'tomorrow', dateTo: 'x' }, /dateFrom .*dateTo/s],
      [{ dateFrom: '2026-02-02', dateTo: '2026-02-01' }, /dateFrom must not be after dateTo/],
    ];
    for (const [query, message] of cases) {
      const response = await get('views', query);
      assert.equal(response.statusCode, 400, JSON.stringify(query));
      const body = response.json();
      assert.equal(typeof body.error, 'string');
      assert.match(body.details.map((detail: { message: string }) => detail.message).join('\n'), message);
    }
  });

  it('needs a read key for this project', async () => {
    const other = await buildProjectWithKey(database.pool);
    const response = await app.inject({
      method: 'GET',
      url: `/v1/analytics/${project.id}/views`,
      headers: bearer(other.key),
    });
    assert.equal(response.statusCode, 403);
    const missing = await app.inject({ method: 'GET', url: `/v1/analytics/${project.id}/views` });
    assert.equal(missing.statusCode, 401);
  });

  it('counts AI crawlers as ai when the project says so', async () => {
    const query = { dateFrom: '2026-02-03T04:05:06Z', dateTo: '2026-03-04T05:06:07Z', limit: '250' };
    await updateProjectSettings(database.pool, project.id, { analyticsCountAiCrawlersAsAi: true });
    try {
      const want = expected(Date.parse(query.dateFrom), Date.parse(query.dateTo), true);
      assert.deepEqual((await get('views', query)).json(), { ...want, hasMore: false });
    } finally {
      await updateProjectSettings(database.pool, project.id, { analyticsCountAiCrawlersAsAi: null });
    }
  });
});

describe('GET /v1/analytics/:projectId/agents and /timeseries', () => {
  it('breaks views down per category and agent', async () => {
    const query = { dateFrom: '2026-02-03T04:05:06Z', dateTo: '2026-03-04T05:06:07Z' };
    const inRange = events.filter(
      (event) => event.time >= Date.parse(query.dateFrom) && event.time < Date.parse(query.dateTo),
    );
    const count = (category: Category) => inRange.filter((event) => event.category === category).length;
    const response = await get('agents', query);
    assert.equal(response.statusCode, 200, response.body);
    const body = response.json();
    assert.deepEqual(
      body.categories,
      Object.fromEntries(categories.map((category) => [category, count(category)])),
    );
    const byAgent = Object.fromEntries(
      body.agents.map((row: { agent: string; views: number }) => [row.agent, row.views]),
    );
    assert.deepEqual(byAgent, {
      'ChatGPT-User': count('ai_assistant'),
      'OAI-SearchBot': count('ai_search'),
      GPTBot: count('ai_training'),
      Googlebot: count('bot'),
    });
  });

  it('gives a daily series with zero-filled days', async () => {
    const response = await get('timeseries', {
      dateFrom: '2026-01-18',
      dateTo: '2026-01-22',
      interval: 'day',
    });
    assert.equal(response.statusCode, 200, response.body);
    const body = response.json();
    assert.deepEqual(
      body.points.map((point: { start: string }) => point.start.slice(0, 10)),
      ['2026-01-18', '2026-01-19', '2026-01-20', '2026-01-21'],
    );
    const dayOf = (day: string) =>
      events.filter((event) => new Date(event.time).toISOString().startsWith(day));
    for (const point of body.points) {
      const day = dayOf(point.start.slice(0, 10));
      assert.equal(point.human, day.filter((event) => event.category === 'human').length);
      assert.equal(point.ai, day.filter((event) => event.category === 'ai_assistant').length);
      assert.equal(point.bot, day.filter((event) => event.category === 'bot').length);
    }
    const tooLong = await get('timeseries', {
      dateFrom: '2000-01-01',
      dateTo: '2026-01-01',
      interval: 'hour',
    });
    assert.equal(tooLong.statusCode, 400);
    assert.equal((await get('timeseries', { interval: 'week' })).statusCode, 400);
  });
});

describe('OpenAPI document', () => {
  it('describes every analytics operation from the schemas that validate it', async () => {
    const document = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
    for (const [path, method, status] of [
      ['/v1/analytics/{projectId}/views', 'get', '200'],
      ['/v1/analytics/{projectId}/agents', 'get', '200'],
      ['/v1/analytics/{projectId}/timeseries', 'get', '200'],
      ['/v1/analytics/{projectId}/events', 'post', '202'],
      ['/v1/analytics/{projectId}/beacon', 'post', '202'],
    ] as const) {
      const operation = document.paths[path]?.[method];
      assert.ok(operation, `${method} ${path}`);
      assert.ok(operation.responses[status], `${method} ${path} ${status}`);
    }
    const views = document.paths['/v1/analytics/{projectId}/views'].get;
    const limit = views.parameters.find((parameter: { name: string }) => parameter.name === 'limit');
    assert.deepEqual(
      [limit.in, limit.schema.minimum, limit.schema.maximum, limit.schema.default],
      ['query', 1, 250, 50],
    );
    assert.deepEqual(Object.keys(views.responses['200'].content['application/json'].schema.properties), [
      'totals',
      'views',
      'hasMore',
    ]);
    assert.ok(views.responses['429']);
  });
});
