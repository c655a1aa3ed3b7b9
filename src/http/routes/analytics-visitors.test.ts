import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildTestApp } from '../../../test/app.ts';
import { createTestDatabase } from '../../../test/database.ts';
import { bearer, buildProjectWithKey } from '../../../test/factories.ts';

const database = await createTestDatabase();
const app = await buildTestApp(database);
const { project, key } = await buildProjectWithKey(database.pool);

const agents = [
  {
    userAgent:
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36',
    column: 'human',
  },
  {
    userAgent:
      'Mozilla/5.0 (Macintosh) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Safari/605.1.15',
    column: 'human',
  },
  {
    userAgent:
      'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ChatGPT-User/1.0; +https://openai.com/bot)',
    column: 'ai',
  },
  { userAgent: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', column: null },
] as const;

// Views over the last two days (today's and yesterday's salts are kept), 40 clients coming back.
const hour = 3_600_000;
const now = Date.now();
const events = Array.from({ length: 800 }, (_, index) => ({
  path: `/docs/page-${(index * 7) % 9}`,
  time: now - 1000 - ((index * 7919) % (40 * hour)),
  ip: index % 10 === 9 ? undefined : `192.0.2.${(index * 13) % 40}`,
  agent: agents[(index * 3) % agents.length] as (typeof agents)[number],
}));
for (let index = 0; index < events.length; index += 400) {
  const response = await app.inject({
    method: 'POST',
    url: `/v1/analytics/${project.id}/events`,
    headers: bearer(key),
    payload: {
      events: events.slice(index, index + 400).map((event) => ({
        path: event.path,
        timestamp: new Date(event.time).toISOString(),
        userAgent: event.agent.userAgent,
        ...(event.ip === undefined ? {} : { ip: event.ip }),
      })),
    },
  });
  assert.equal(response.statusCode, 202, response.body);
}

/** Distinct (UTC day, address, user agent) per page and column, from the events sent. */
function expected(from: number | undefined) {
  const sets = new Map<string, { human: Set<string>; ai: Set<string>; total: Set<string> }>();
  for (const event of events) {
    if (event.ip === undefined || event.agent.column === null) continue;
    if (from !== undefined && event.time < Math.floor(from / hour) * hour) continue;
    const visitor = `${Math.floor(event.time / 86_400_000)} ${event.ip} ${event.agent.userAgent}`;
    for (const key of ['', event.path]) {
      const set = sets.get(key) ?? { human: new Set(), ai: new Set(), total: new Set() };
      set[event.agent.column].add(visitor);
      set.total.add(visitor);
      sets.set(key, set);
    }
  }
  const counts = (key: string) => {
    const set = sets.get(key);
    return { human: set?.human.size ?? 0, ai: set?.ai.size ?? 0, total: set?.total.size ?? 0 };
  };
  const visitors = [...sets.keys()]
    .filter((path) => path !== '')
    .map((path) => ({ path, ...counts(path) }))
    .sort((left, right) => right.total - left.total || (left.path < right.path ? -1 : 1));
  return { totals: counts(''), visitors };
}

function get(query: Record<string, string> = {}) {
  return app.inject({
    method: 'GET',
    url: `/v1/analytics/${project.id}/visitors?${new URLSearchParams(query)}`,
    headers: bearer(key),
  });
}

describe('GET /v1/analytics/{projectId}/visitors', () => {
  it('answers distinct visitors per page and site-wide, exact for a small site', async () => {
    const all = expected(undefined);
    // Views without an address (every tenth) and bots are no visitors; the rest repeat a lot.
    assert.ok(all.totals.total > 0 && all.totals.total < events.length / 4);
    const response = await get();
    assert.equal(response.statusCode, 200, response.body);
    assert.deepEqual(response.json(), { ...all, hasMore: false });
    const from = new Date(now - 10 * hour).toISOString();
    const recent = expected(Date.parse(from));
    assert.deepEqual((await get({ dateFrom: from, limit: '4', offset: '2' })).json(), {
      totals: recent.totals,
      visitors: recent.visitors.slice(2, 6),
      hasMore: recent.visitors.length > 6,
    });
  });

  it('rejects bad parameters with details, as /views does', async () => {
    const queries: Array<Record<string, string>> = [
      { limit: '0' },
      { limit: '251' },
      { offset: '-1' },
      { offset: '2.5' },
      { dateFrom: '2026-02-30' },
      { dateFrom: '2026-02-02', dateTo: '2026-02-01' },
    ];
    for (const query of queries) {
      const response = await get(query);
      assert.equal(response.statusCode, 400, JSON.stringify(query));
      const body = response.json();
      assert.equal(typeof body.error, 'string');
      assert.ok(body.details.length > 0);
    }
  });

  it('needs a read key for this project', async () => {
    const other = await buildProjectWithKey(database.pool);
    const url = `/v1/analytics/${project.id}/visitors`;
    assert.equal((await app.inject({ method: 'GET', url, headers: bearer(other.key) })).statusCode, 403);
    assert.equal((await app.inject({ method: 'GET', url })).statusCode, 401);
  });

  it('is in the OpenAPI document with the parameters of /views but its detail', async () => {
    const document = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const visitors = document.paths['/v1/analytics/{projectId}/visitors'].get;
    const views = document.paths['/v1/analytics/{projectId}/views'].get;
    // detail=categories splits views by counters the visitor sketches do not keep.
    assert.deepEqual(
      visitors.parameters,
      views.parameters.filter((parameter: { name: string }) => parameter.name !== 'detail'),
    );
    assert.deepEqual(Object.keys(visitors.responses).sort(), Object.keys(views.responses).sort());
    for (const status of ['200', '400', '401', '403', '429']) assert.ok(status in visitors.responses, status);
    const schema = visitors.responses['200'].content['application/json'].schema;
    assert.deepEqual(Object.keys(schema.properties), ['totals', 'visitors', 'hasMore']);
    assert.deepEqual(Object.keys(schema.properties.visitors.items.properties), [
      'path',
      'human',
      'ai',
      'total',
    ]);
  });
});
