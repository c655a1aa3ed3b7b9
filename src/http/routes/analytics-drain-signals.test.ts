/**
 * Drained views are classified and verified like batch events: Cloudflare's `RequestHeaders`
 * (custom fields, https://developers.cloudflare.com/logs/logpush/logpush-job/custom-fields/) carry
 * Accept and the Web Bot Auth headers, its `VerifiedBotCategory`
 * (https://developers.cloudflare.com/logs/reference/log-fields/zone/http_requests/) counts when it
 * agrees, and every provider's client address is checked by reverse DNS
 * (https://vercel.com/docs/drains/reference/logs `proxy.clientIp`,
 * https://docs.netlify.com/manage/monitoring/log-drains/ `client_ip`).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { buildTestApp } from '../../../test/app.ts';
import { createTestDatabase } from '../../../test/database.ts';
import { bearer, buildProjectWithKey } from '../../../test/factories.ts';
import { startWebBotAuthDouble } from '../../../test/web-bot-auth-double.ts';
import { createHttpKeyDirectory } from '../../analytics/verification/index.ts';

const database = await createTestDatabase();
// Every signer's key directory is the local double; reverse DNS is a fake with Google's records.
const signer = await startWebBotAuthDouble();
const app = await buildTestApp(database, {
  environment: { QUIRE_ANALYTICS_RETENTION_MONTHS: '1200' },
  verification: {
    keyDirectory: createHttpKeyDirectory({ urlOf: () => signer.url, allowPrivateAddresses: true }),
    resolver: {
      reverse: async (address) => (address === '66.249.66.1' ? ['crawl-66-249-66-1.googlebot.com'] : []),
      lookup: async (hostname) => (hostname === 'crawl-66-249-66-1.googlebot.com' ? ['66.249.66.1'] : []),
    },
  },
});
const chrome =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Safari/537.36';
const googlebot = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const gptbot =
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)';
const at = Date.parse('2026-05-01T12:00:00Z');

function drain(provider: string, projectId: string, key: string, payload: string | Buffer) {
  return app.inject({
    method: 'POST',
    url: `/v1/analytics/${projectId}/drains/${provider}`,
    headers: { ...bearer(key), 'content-type': 'application/json' },
    payload,
  });
}

/** Stored views in drain order (each record one second after the last). */
async function storedViews(projectId: string) {
  const rows = await database.pool.query(
    `SELECT path, agent, category, verified, markdown FROM analytics_page_views
     WHERE project_id = $1 ORDER BY occurred_at`,
    [projectId],
  );
  return rows.rows.map((row) => [row.path, row.agent, row.category, row.verified, row.markdown]);
}

async function agentsReport(projectId: string, key: string) {
  const response = await app.inject({
    method: 'GET',
    url: `/v1/analytics/${projectId}/agents?dateFrom=2026-05-01&dateTo=2026-05-02`,
    headers: bearer(key),
  });
  assert.equal(response.statusCode, 200, response.body);
  return response.json().agents as Array<{ agent: string; views: number; verifiedViews: number }>;
}

describe('request signals in drained views', () => {
  it('Cloudflare: logged request headers classify, Web Bot Auth and VerifiedBotCategory verify', async () => {
    const { project, key } = await buildProjectWithKey(database.pool);
    let second = 0;
    const record = (rayId: string, uri: string, userAgent: string, extra: Record<string, unknown> = {}) => ({
      ClientIP: '198.51.100.20',
      ClientRequestHost: 'docs.example.com',
      ClientRequestMethod: 'GET',
      ClientRequestURI: uri,
      ClientRequestUserAgent: userAgent,
      ClientRequestReferer: '',
      EdgeResponseStatus: 200,
      EdgeStartTimestamp: new Date(at + 1000 * ++second).toISOString(),
      RayID: rayId,
      RequestHeaders: {},
      VerifiedBotCategory: '',
      ...extra,
    });
    const signed = await signer.sign({
      method: 'GET',
      url: 'https://docs.example.com/docs/guide?from=agent',
      signatureAgent: '"https://chatgpt.com"',
    });
    const records = [
      // A browser's user agent asking for Markdown first (custom fields log header names as configured).
      record('8f0000000000a001', '/docs/intro', chrome, {
        RequestHeaders: { Accept: 'text/markdown, text/html;q=0.9', cookie: 'session=secret' },
      }),
      // ChatGPT agent: a browser's user agent, signed; and the same headers on another path (the
      // signature covers the authority only, so it checks there too) and with a forged signature.
      record('8f0000000000a002', '/docs/guide?from=agent', chrome, { RequestHeaders: signed }),
      record('8f0000000000a003', '/docs/guide?from=agent', chrome, {
        RequestHeaders: { ...signed, signature: `sig1=:${'A'.repeat(86)}==:` },
      }),
      // GPTBot verified by Cloudflare, claimed only, and in a category that disagrees.
      record('8f0000000000a004', '/docs/intro', gptbot, { VerifiedBotCategory: 'AI Crawler' }),
      record('8f0000000000a005', '/docs/intro', gptbot),
      record('8f0000000000a006', '/docs/intro', gptbot, { VerifiedBotCategory: 'Search Engine Crawler' }),
      // Googlebot by its address (reverse DNS), Cloudflare silent.
      record('8f0000000000a007', '/docs/intro', googlebot, { ClientIP: '66.249.66.1' }),
      // A signal header over the batch endpoint's limit: the entry is skipped.
      record('8f0000000000a008', '/docs/intro', chrome, {
        RequestHeaders: { 'signature-input': `sig1=(${'"@authority" '.repeat(400)})` },
      }),
    ];
    const body = gzipSync(records.map((line) => JSON.stringify(line)).join('\n'));
    const response = await drain('cloudflare', project.id, key, body);
    assert.equal(response.statusCode, 200, response.body);
    assert.deepEqual(response.json(), { accepted: 7, alreadyStored: 0, skipped: 1 });
    assert.deepEqual(await storedViews(project.id), [
      ['/docs/intro', 'unknown (browser user agent)', 'ai_assistant', false, true],
      ['/docs/guide', 'ChatGPT-Agent', 'ai_assistant', true, false],
      ['/docs/guide', 'ChatGPT-Agent', 'ai_assistant', false, false],
      ['/docs/intro', 'GPTBot', 'ai_training', true, false],
      ['/docs/intro', 'GPTBot', 'ai_training', false, false],
      ['/docs/intro', 'GPTBot', 'ai_training', false, false],
      ['/docs/intro', 'Googlebot', 'bot', true, false],
    ]);
    const agents = await agentsReport(project.id, key);
    const byAgent = Object.fromEntries(agents.map((row) => [row.agent, [row.views, row.verifiedViews]]));
    assert.deepEqual(byAgent, {
      GPTBot: [3, 1],
      'ChatGPT-Agent': [2, 1],
      'unknown (browser user agent)': [1, 0],
      Googlebot: [1, 1],
    });
  });

  it('Vercel and Netlify: the client address verifies the claimed agent', async () => {
    const { project, key } = await buildProjectWithKey(database.pool);
    const vercel = (requestId: string, clientIp: string, offset: number) => ({
      id: `15738172502832546510972${requestId}`,
      deploymentId: 'dpl_233NRGRjVZX1caZrXWtz5g1TAksD',
      projectId: 'gdufoJxB6b9b1fEqr1jUtFkyavUU',
      source: 'static',
      host: 'docs-abc123.vercel.app',
      level: 'info',
      timestamp: at + offset,
      requestId,
      proxy: {
        timestamp: at + offset,
        method: 'GET',
        scheme: 'https',
        host: 'docs.example.com',
        path: '/docs/intro',
        userAgent: [googlebot],
        statusCode: 200,
        clientIp,
        region: 'sfo1',
      },
    });
    const fromVercel = await drain(
      'vercel',
      project.id,
      key,
      JSON.stringify([vercel('req-1', '66.249.66.1', 1000), vercel('req-2', '198.51.100.7', 2000)]),
    );
    assert.deepEqual(fromVercel.json(), { accepted: 2, alreadyStored: 0, skipped: 0 });
    const fromNetlify = await drain(
      'netlify',
      project.id,
      key,
      JSON.stringify({
        log_type: 'traffic',
        request_id: '01HZXKJ3Q5ZB2M8V7RSGOOGLE1',
        method: 'GET',
        url: 'https://docs.example.com/docs/guide',
        status_code: 200,
        timestamp: new Date(at + 3000).toISOString(),
        client_ip: '66.249.66.1',
        user_agent: googlebot,
      }),
    );
    assert.deepEqual(fromNetlify.json(), { accepted: 1, alreadyStored: 0, skipped: 0 });
    assert.deepEqual(await storedViews(project.id), [
      ['/docs/intro', 'Googlebot', 'bot', true, false],
      ['/docs/intro', 'Googlebot', 'bot', false, false],
      ['/docs/guide', 'Googlebot', 'bot', true, false],
    ]);
    assert.deepEqual(await agentsReport(project.id, key), [
      { agent: 'Googlebot', category: 'bot', views: 3, verifiedViews: 2 },
    ]);
  });
});
