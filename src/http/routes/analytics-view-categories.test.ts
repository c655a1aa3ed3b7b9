import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildTestApp } from '../../../test/app.ts';
import { createTestDatabase } from '../../../test/database.ts';
import { bearer, buildProjectWithKey } from '../../../test/factories.ts';
import { startWebBotAuthDouble } from '../../../test/web-bot-auth-double.ts';
import { createHttpKeyDirectory } from '../../analytics/verification/index.ts';

const database = await createTestDatabase();
const agent = await startWebBotAuthDouble();
const app = await buildTestApp(database, {
  environment: { QUIRE_ANALYTICS_RETENTION_MONTHS: '1200' },
  verification: {
    keyDirectory: createHttpKeyDirectory({ urlOf: () => agent.url, allowPrivateAddresses: true }),
  },
});
const { project, key } = await buildProjectWithKey(database.pool);
const chrome =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Safari/537.36';
const searchBot =
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; OAI-SearchBot/1.0; +https://openai.com/searchbot';
const claudeBot =
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)';

async function ingest(events: unknown[]) {
  const response = await app.inject({
    method: 'POST',
    url: `/v1/analytics/${project.id}/events`,
    headers: bearer(key),
    payload: { events },
  });
  assert.equal(response.statusCode, 202, response.body);
}

function views(query: string) {
  return app.inject({
    method: 'GET',
    url: `/v1/analytics/${project.id}/views?${query}`,
    headers: bearer(key),
  });
}

describe('GET /v1/analytics/:projectId/views?detail=categories', async () => {
  const signed = await agent.sign({
    method: 'GET',
    url: 'https://docs.example.com/a',
    signatureAgent: '"https://chatgpt.com"',
  });
  // 10:40 falls in a partial hour of the range (raw events), the rest in whole hours and days (rollups).
  const at = (time: string) => `2026-06-${time}Z`;
  await ingest([
    { path: '/a', timestamp: at('02T10:40:00'), userAgent: chrome, referrer: 'https://chatgpt.com/' },
    { path: '/a?utm_source=perplexity', timestamp: at('02T12:00:00'), userAgent: chrome },
    { path: '/a', timestamp: at('03T12:00:00'), userAgent: chrome, referrer: 'https://www.google.com/' },
    { path: '/b', timestamp: at('03T13:00:00'), userAgent: chrome },
    { path: '/a', timestamp: at('02T10:50:00'), userAgent: searchBot },
    { path: '/b', timestamp: at('04T09:00:00'), userAgent: claudeBot },
    { path: '/b', timestamp: at('04T09:30:00'), userAgent: 'curl/8.5.0' },
    {
      path: 'https://docs.example.com/a',
      timestamp: at('04T10:00:00'),
      host: 'docs.example.com',
      headers: { 'user-agent': chrome, ...signed },
    },
    {
      path: '/a',
      timestamp: at('04T11:00:00'),
      userAgent: 'Mozilla/5.0 (compatible; ChatGPT-User/1.0; +https://openai.com/bot)',
    },
    // Outside the range.
    { path: '/a', timestamp: at('02T10:10:00'), userAgent: chrome, referrer: 'https://claude.ai/' },
  ]);
  const range = 'dateFrom=2026-06-02T10:30:00Z&dateTo=2026-06-05';

  it('keeps the specified shape, byte for byte, without detail', async () => {
    const response = await views(range);
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(
      response.body,
      JSON.stringify({
        totals: { human: 4, ai: 2, total: 6 },
        views: [
          { path: '/a', human: 3, ai: 2, total: 5 },
          { path: '/b', human: 1, ai: 0, total: 1 },
        ],
        hasMore: false,
      }),
    );
  });

  it('adds aiReferred, aiSearch, aiTraining, otherBots and verifiedAi to totals and every row', async () => {
    const response = await views(`${range}&detail=categories`);
    assert.equal(response.statusCode, 200, response.body);
    assert.deepEqual(response.json(), {
      totals: {
        human: 4,
        ai: 2,
        total: 6,
        aiReferred: 2,
        aiSearch: 1,
        aiTraining: 1,
        otherBots: 1,
        verifiedAi: 1,
      },
      views: [
        {
          path: '/a',
          human: 3,
          ai: 2,
          total: 5,
          aiReferred: 2,
          aiSearch: 1,
          aiTraining: 0,
          otherBots: 0,
          verifiedAi: 1,
        },
        {
          path: '/b',
          human: 1,
          ai: 0,
          total: 1,
          aiReferred: 0,
          aiSearch: 0,
          aiTraining: 1,
          otherBots: 1,
          verifiedAi: 0,
        },
      ],
      hasMore: false,
    });
    // The same numbers whichever way the range is cut: one page at a time, and an open range.
    const second = await views(`${range}&detail=categories&limit=1&offset=1`);
    assert.deepEqual(second.json().views, [
      {
        path: '/b',
        human: 1,
        ai: 0,
        total: 1,
        aiReferred: 0,
        aiSearch: 0,
        aiTraining: 1,
        otherBots: 1,
        verifiedAi: 0,
      },
    ]);
    assert.equal(second.json().totals.aiReferred, 2);
    const open = await views('detail=categories');
    assert.equal(open.json().totals.aiReferred, 3, 'the view before the range counts in an open range');
  });

  it('refuses other detail values', async () => {
    const response = await views(`${range}&detail=everything`);
    assert.equal(response.statusCode, 400);
    assert.ok(response.json().error);
  });
});
