/**
 * Log import and classification on a real access log: 10,000 lines of a real site's Apache
 * combined log (test/fixtures/access-logs/README.md gives its source and license), not lines
 * written here to agree with the parser.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { createTestDatabase } from '../../../test/database.ts';
import { buildProject } from '../../../test/factories.ts';
import { createClassifier } from '../classification/index.ts';
import { createPageViewWriter } from '../ingestion/index.ts';
import { verifyRollups } from '../rollups/index.ts';
import { importLog } from './log-import.ts';

const database = await createTestDatabase();
const classifier = createClassifier();
const writer = createPageViewWriter({ pool: database.pool });
const now = Date.parse('2026-06-01T00:00:00Z');

const gzipped = readFileSync(
  new URL('../../../test/fixtures/access-logs/elastic-examples-apache_logs.gz', import.meta.url),
);
const text = gunzipSync(gzipped).toString('latin1');
const lines = text.split('\n').filter((line) => line !== '');

const run = (projectId: string, source: string | Buffer) =>
  importLog({ projectId, format: 'combined', source: Readable.from([source]), classifier, writer, now });

async function storedViews(projectId: string): Promise<Map<string, number>> {
  const rows = await database.pool.query<{ path: string; views: number }>(
    'SELECT path, count(*)::int AS views FROM analytics_page_views WHERE project_id = $1 GROUP BY 1',
    [projectId],
  );
  return new Map(rows.rows.map((row) => [row.path, row.views]));
}

async function agentsOf(projectId: string) {
  const rows = await database.pool.query<{
    category: string;
    agent: string | null;
    user_agent: string | null;
  }>(
    `SELECT DISTINCT view.category, view.agent, agent.user_agent
     FROM analytics_page_views view LEFT JOIN analytics_user_agents agent ON agent.id = view.user_agent_id
     WHERE view.project_id = $1`,
    [projectId],
  );
  return rows.rows;
}

const total = (views: Map<string, number>) => [...views.values()].reduce((sum, count) => sum + count, 0);

describe('a real Apache access log', async () => {
  const project = await buildProject(database.pool);
  const summary = await run(project.id, gzipped);

  it('accounts for every line and stores each counted one', async () => {
    assert.equal(summary.linesRead, 10_000);
    const skipped = Object.values(summary.skipped).reduce((sum, count) => sum + count, 0);
    assert.equal(summary.imported + summary.alreadyImported + skipped, summary.linesRead);
    // Counted apart from the parser: requests other than GET (HEAD, POST, OPTIONS).
    const notGet = lines.filter((line) => !/^\S+ \S+ \S+ \[[^\]]+\] "GET /.test(line)).length;
    assert.equal(summary.skipped['not a GET request'], notGet);
    const stored = await storedViews(project.id);
    assert.equal(total(stored), summary.imported);
    assert.ok(summary.imported > 3_900, `${summary.imported} views of 10,000 lines`);
    assert.deepEqual((await verifyRollups(database.pool, project.id)).mismatches, []);
  });

  it('imports nothing more from the same log read again, gzipped or not', async () => {
    const again = await run(project.id, text);
    assert.equal(again.imported, 0);
    assert.equal(total(await storedViews(project.id)), summary.imported);
  });

  it('stores the same views from two overlapping parts of the log as from the whole', async () => {
    const parts = await buildProject(database.pool);
    const first = await run(parts.id, `${lines.slice(0, 6_000).join('\n')}\n`);
    const second = await run(parts.id, `${lines.slice(4_000).join('\n')}\n`);
    assert.equal(first.imported + second.imported, summary.imported);
    assert.deepEqual(await storedViews(parts.id), await storedViews(project.id));
  });

  it('classifies its people and bots, and names each bot by its product, not by its contact URL', async () => {
    const agents = await agentsOf(project.id);
    const category = (userAgent: string) =>
      agents.find((row) => row.user_agent === userAgent) ?? assert.fail(`no view of ${userAgent}`);
    // Browsers that do not start with Mozilla/: a text browser, early Midori, feature phones.
    for (const userAgent of [
      'Midori/0.2 (X11; Linux; U; fr-fr) WebKit/531.2+',
      'QS304 Profile/MIDP-2.0 Configuration/CLDC-1.1',
      'SAMSUNG-GT-E2232/1.0 Openwave/6.2.3 Profile/MIDP-2.0 Configuration/CLDC-1.1 UP.Browser/6.2.3.3.c.1.101 (GUI) MMP/2.0',
      'MAXX_MAUI WAP Browser',
      'Lynx/2.8.7rel.2 libwww-FM/2.14 SSL-MM/1.4.1 OpenSSL/1.0.1f',
      'Opera/9.80 (X11; Linux x86_64) Presto/2.12.388 Version/12.16',
    ]) {
      const { category: counted, agent } = category(userAgent);
      assert.deepEqual({ category: counted, agent }, { category: 'human', agent: null }, userAgent);
    }
    for (const [userAgent, agent] of [
      ['Mozilla/5.0 (compatible; Yahoo! Slurp; http://help.yahoo.com/help/us/ysearch/slurp)', 'Yahoo! Slurp'],
      ['Mozilla/5.0 (compatible; SiteExplorer/1.0b; +http://siteexplorer.info/)', 'SiteExplorer'],
      ['Mozilla/5.0 (compatible; YandexDirect/3.0; +http://yandex.com/bots)', 'YandexDirect'],
      ['Liferea/1.8.3 (Linux; en_GB.UTF-8; http://liferea.sf.net/)', 'Liferea'],
      ['Mozilla/5.0 (Windows; U; Windows NT 5.1; zh-CN; )  Firefox/1.5.0.11; 360Spider', '360Spider'],
      ['Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', 'Googlebot'],
    ] as const) {
      assert.equal(category(userAgent).agent, agent, userAgent);
      assert.equal(category(userAgent).category, 'bot', userAgent);
    }
    // No user agent that calls itself a bot, crawler or spider, or gives a contact URL, counted as a person.
    const selfDeclared = agents.filter(
      (row) => row.category === 'human' && /bot\b|crawl|spider|slurp|https?:\/\//i.test(row.user_agent ?? ''),
    );
    assert.deepEqual(selfDeclared, []);
    // No bot named by a generic word or a URL's parts.
    const generic = agents.filter((row) => /^(?:https?|\.com|bots?|www)$/i.test(row.agent ?? ''));
    assert.deepEqual(generic, []);
  });
});
