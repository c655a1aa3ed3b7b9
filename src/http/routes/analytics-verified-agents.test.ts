import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildTestApp } from '../../../test/app.ts';
import { createTestDatabase } from '../../../test/database.ts';
import { bearer, buildProjectWithKey } from '../../../test/factories.ts';
import { startWebBotAuthDouble } from '../../../test/web-bot-auth-double.ts';
import { createHttpKeyDirectory } from '../../analytics/verification/index.ts';

const database = await createTestDatabase();
// Every signer's key directory is the local double; reverse DNS is a fake with Google's records.
const agent = await startWebBotAuthDouble();
const app = await buildTestApp(database, {
  environment: { QUIRE_ANALYTICS_RETENTION_MONTHS: '1200' },
  verification: {
    keyDirectory: createHttpKeyDirectory({ urlOf: () => agent.url, allowPrivateAddresses: true }),
    resolver: {
      reverse: async (address) => (address === '66.249.66.1' ? ['crawl-66-249-66-1.googlebot.com'] : []),
      lookup: async (hostname) => (hostname === 'crawl-66-249-66-1.googlebot.com' ? ['66.249.66.1'] : []),
    },
  },
});
const { project, key } = await buildProjectWithKey(database.pool);
const chrome =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Safari/537.36';
const googlebot = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

describe('verified agents through the batch endpoint and the agents report', () => {
  it('stores claimed and verified views, and reports both per agent', async () => {
    const signed = await agent.sign({
      method: 'GET',
      url: 'https://docs.example.com/guide',
      signatureAgent: '"https://chatgpt.com"',
    });
    // A scraper that claims GPTBot and signs with keys of its own: its signature is valid, and proves
    // only that scraper.example sent it.
    const selfSigned = await agent.sign({
      method: 'GET',
      url: 'https://docs.example.com/guide',
      signatureAgent: '"https://scraper.example"',
    });
    const events = [
      // Googlebot from an address whose reverse DNS Google's records confirm, in a partial hour (raw
      // events) and in a whole one (rollups); and a spoofed Googlebot.
      { path: '/guide', timestamp: '2026-04-10T10:45:00Z', userAgent: googlebot, ip: '66.249.66.1' },
      { path: '/guide', timestamp: '2026-04-11T05:00:00Z', userAgent: googlebot, ip: '66.249.66.1' },
      { path: '/guide', timestamp: '2026-04-11T06:00:00Z', userAgent: googlebot, ip: '198.51.100.7' },
      // ChatGPT agent, signed; and a request that copies its headers but not its signature.
      {
        path: 'https://docs.example.com/guide',
        timestamp: '2026-04-11T07:00:00Z',
        host: 'docs.example.com',
        method: 'GET',
        headers: { 'user-agent': chrome, ...signed },
      },
      {
        path: 'https://docs.example.com/guide',
        timestamp: '2026-04-11T08:00:00Z',
        host: 'docs.example.com',
        headers: { 'user-agent': chrome, ...signed, signature: `sig1=:${'A'.repeat(86)}==:` },
      },
      { path: '/guide', timestamp: '2026-04-11T09:00:00Z', userAgent: chrome, ip: '66.249.66.1' },
      {
        path: 'https://docs.example.com/guide',
        timestamp: '2026-04-11T10:00:00Z',
        host: 'docs.example.com',
        method: 'GET',
        ip: '198.51.100.8',
        headers: {
          'user-agent': 'Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)',
          ...selfSigned,
        },
      },
    ];
    const ingest = await app.inject({
      method: 'POST',
      url: `/v1/analytics/${project.id}/events`,
      headers: bearer(key),
      payload: { events },
    });
    assert.equal(ingest.statusCode, 202, ingest.body);
    assert.deepEqual(ingest.json(), { accepted: 7, skipped: 0 });

    const stored = await database.pool.query(
      `SELECT agent, category, verified FROM analytics_page_views WHERE project_id = $1 ORDER BY occurred_at`,
      [project.id],
    );
    assert.deepEqual(
      stored.rows.map((row) => [row.agent, row.category, row.verified]),
      [
        ['Googlebot', 'bot', true],
        ['Googlebot', 'bot', true],
        ['Googlebot', 'bot', false],
        ['ChatGPT-Agent', 'ai_assistant', true],
        ['ChatGPT-Agent', 'ai_assistant', false],
        [null, 'human', false],
        ['GPTBot', 'ai_training', false],
      ],
    );

    const report = await app.inject({
      method: 'GET',
      url: `/v1/analytics/${project.id}/agents?dateFrom=2026-04-10T10:30:00Z&dateTo=2026-04-12`,
      headers: bearer(key),
    });
    assert.equal(report.statusCode, 200, report.body);
    assert.deepEqual(report.json().agents, [
      { agent: 'Googlebot', category: 'bot', views: 3, verifiedViews: 2 },
      { agent: 'ChatGPT-Agent', category: 'ai_assistant', views: 2, verifiedViews: 1 },
      { agent: 'GPTBot', category: 'ai_training', views: 1, verifiedViews: 0 },
    ]);
  });
});
