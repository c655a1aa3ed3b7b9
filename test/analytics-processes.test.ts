// Analytics with real processes on a real database: acknowledged views survive SIGKILL, several
// server processes ingesting into the same pages keep rollups equal to raw counts, and the
// analytics commands work as a user runs them.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { packRollups, verifyRollups } from '../src/analytics/rollups/index.ts';
import { createDatabase } from '../src/db/database.ts';
import { createTestDatabaseUrl } from './database.ts';
import { buildProjectWithKey } from './factories.ts';
import { runQuire, startQuireServer, temporaryDirectory } from './processes.ts';

const databaseUrl = await createTestDatabaseUrl();
const database = createDatabase({ connectionString: databaseUrl, applicationName: 'quire test' });
const environment = {
  DATABASE_URL: databaseUrl,
  QUIRE_DATA_DIR: await temporaryDirectory(),
  // Fixed dates in these tests must not fall out of retention as the years pass.
  QUIRE_ANALYTICS_RETENTION_MONTHS: '1200',
};
const chrome =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36';
const agents = [chrome, 'Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)', 'curl/8.5.0'];

function batch(label: string, size: number, time = Date.now()) {
  return {
    events: Array.from({ length: size }, (_, index) => ({
      path: index % 2 === 0 ? `/docs/shared-${index % 7}` : `/docs/${label}/${index}`,
      timestamp: new Date(time - (index % 90) * 60_000).toISOString(),
      userAgent: agents[index % agents.length],
      accept: index % 5 === 0 ? 'text/markdown' : undefined,
    })),
  };
}

async function post(url: string, projectId: string, key: string, body: unknown): Promise<number> {
  const response = await fetch(`${url}/v1/analytics/${projectId}/events`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  await response.arrayBuffer();
  return response.status;
}

/**
 * POSTs a large body with node:http the way a client streams an upload: headers (with its length)
 * and a first chunk, then the rest only if no answer came. The server is expected to answer early.
 */
function postEarlyAnswer(url: string, key: string, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const bytes = Buffer.from(body);
    const request = http.request(url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        'content-length': String(bytes.length),
      },
    });
    let answered = false;
    request.on('response', (response) => {
      answered = true;
      response.resume();
      resolve(response.statusCode ?? 0);
      request.destroy();
    });
    request.on('error', (error) => {
      if (!answered) reject(error);
    });
    request.write(bytes.subarray(0, 64 * 1024));
    setTimeout(() => {
      if (!answered) request.end(bytes.subarray(64 * 1024));
    }, 5000);
  });
}

async function countOf(sql: string, parameters: unknown[]): Promise<number> {
  return (await database.pool.query<{ count: number }>(sql, parameters)).rows[0]?.count ?? 0;
}

describe('analytics processes', { timeout: 240_000 }, () => {
  it('keeps every view acknowledged with 202 when the server is killed with SIGKILL', async () => {
    const { project, key } = await buildProjectWithKey(database.pool, { scopes: ['ingest'] });
    const server = await startQuireServer(environment);
    const acknowledged: string[] = [];
    const sent: Promise<void>[] = [];
    let stop = false;
    for (let client = 0; client < 4; client += 1) {
      sent.push(
        (async () => {
          for (let round = 0; !stop; round += 1) {
            const label = `kill-${client}-${round}`;
            try {
              if ((await post(server.url, project.id, key, batch(label, 200))) === 202)
                acknowledged.push(label);
            } catch {
              return; // the server is gone
            }
          }
        })(),
      );
    }
    // Killed once a few batches are acknowledged and more are in flight (however loaded the machine).
    for (const deadline = Date.now() + 60_000; acknowledged.length <= 5 && Date.now() < deadline; ) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    server.child.kill('SIGKILL');
    stop = true;
    await Promise.all(sent);
    await server.exited;
    assert.ok(acknowledged.length > 5, `only ${acknowledged.length} batches acknowledged`);

    const restarted = await startQuireServer(environment);
    for (const label of acknowledged) {
      const stored = await countOf(
        'SELECT count(*) AS count FROM analytics_page_views WHERE project_id = $1 AND path LIKE $2',
        [project.id, `/docs/${label}/%`],
      );
      assert.equal(stored, 100, `batch ${label}: ${stored} of its 100 unique-path views`);
    }
    // A batch is all or nothing, acknowledged or not: unique paths come in hundreds.
    const perBatch = await database.pool.query<{ views: number }>(
      `SELECT count(*)::int AS views FROM analytics_page_views WHERE project_id = $1 AND path NOT LIKE '/docs/shared-%'
       GROUP BY split_part(path, '/', 3)`,
      [project.id],
    );
    assert.ok(perBatch.rows.every((row) => row.views === 100));
    assert.deepEqual((await verifyRollups(database.pool, project.id)).mismatches, []);
    restarted.child.kill('SIGTERM');
    await restarted.exited;
  });

  it('keeps rollups exactly equal to raw counts with several processes ingesting into the same pages', async () => {
    const { project, key } = await buildProjectWithKey(database.pool);
    const servers = await Promise.all([0, 1, 2].map(() => startQuireServer(environment)));
    const time = Date.parse('2026-04-30T23:30:00Z'); // batches span 22:01 to 23:30, the last hours of April
    const results = await Promise.all(
      Array.from({ length: 36 }, (_, index) =>
        post(servers[index % servers.length]!.url, project.id, key, batch(`concurrent-${index}`, 500, time)),
      ),
    );
    assert.deepEqual(new Set(results), new Set([202]), servers.map((server) => server.output()).join('\n'));
    const raw = await countOf('SELECT count(*) AS count FROM analytics_page_views WHERE project_id = $1', [
      project.id,
    ]);
    const skippedNone = 36 * 500;
    assert.equal(raw, skippedNone);
    const report = await verifyRollups(database.pool, project.id);
    assert.deepEqual(report.mismatches, []);
    assert.ok(report.rollupRowsChecked > 0);
    const dayTotal = await countOf(
      `SELECT sum(human + ai_assistant + ai_search + ai_training + bot)::bigint AS count
       FROM analytics_path_rollups WHERE series = analytics_series($1, 'day')`,
      [project.id],
    );
    assert.equal(dayTotal, raw);
    // The servers pack closed buckets while views keep arriving; packed to the end, the hours,
    // days, thirds and months still equal the per-page rows.
    await packRollups(database.pool, { projectId: project.id });
    const packed = await verifyRollups(database.pool, project.id);
    assert.deepEqual(packed.mismatches, []);
    // Two hours, a day, a third (April 21 to 30) and a month.
    assert.equal(packed.packedRowsChecked, 5, JSON.stringify(packed));
    for (const server of servers) server.child.kill('SIGTERM');
    await Promise.all(servers.map((server) => server.exited));
  });

  it('answers hostile input over a real socket with a 4xx and stores nothing', async () => {
    const { project, key } = await buildProjectWithKey(database.pool);
    const server = await startQuireServer(environment);
    const send = (body: string, contentType = 'application/json') =>
      fetch(`${server.url}/v1/analytics/${project.id}/events`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': contentType },
        body,
      }).then(async (response) => ({ status: response.status, body: await response.text() }));
    const long = 'x'.repeat(100_000);
    const cases: Array<[string, number]> = [
      ['{"events": [{"path": "/a"}', 400],
      ['{"events": [{"path": "/a", "timestamp": {"$gt": 1}}]}', 400],
      ['{"events": [{"path": ["/a"]}]}', 400],
      ['{"events": {"0": {"path": "/a"}}}', 400],
      [JSON.stringify({ events: [{ path: `/${long}` }] }), 400],
      [JSON.stringify({ events: [{ path: '/a', userAgent: long }] }), 400],
      [JSON.stringify({ events: [{ path: '/a', referrer: long, accept: long }] }), 400],
      [JSON.stringify({ events: [{ path: '/\u0000' }] }), 400],
    ];
    for (const [body, status] of cases) {
      const response = await send(body);
      assert.equal(response.status, status, `${body.slice(0, 60)}: ${response.body.slice(0, 200)}`);
      assert.equal(typeof JSON.parse(response.body).error, 'string');
    }
    assert.equal((await send('<xml/>', 'application/xml')).status, 415);
    // 10 MB: the server answers 413 as soon as the body passes the limit, while the client still sends.
    const huge = await postEarlyAnswer(
      `${server.url}/v1/analytics/${project.id}/events`,
      key,
      JSON.stringify({ events: [{ path: `/${'a'.repeat(10 * 1024 * 1024)}` }] }),
    );
    assert.equal(huge, 413);
    const stored = await countOf('SELECT count(*) AS count FROM analytics_page_views WHERE project_id = $1', [
      project.id,
    ]);
    assert.equal(stored, 0);
    server.child.kill('SIGTERM');
    await server.exited;
  });

  it('imports logs from the command line, idempotently, and prints the export', async () => {
    const { project, key } = await buildProjectWithKey(database.pool);
    const directory = await temporaryDirectory();
    const file = path.join(directory, 'access.log');
    const lines = [];
    for (let index = 0; index < 300; index += 1) {
      const target = index % 10 === 0 ? '/favicon.ico' : `/docs/page-${index % 3}`;
      const agent =
        index % 4 === 0
          ? 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ChatGPT-User/1.0)'
          : chrome;
      lines.push(
        `10.0.0.${index % 250} - - [01/May/2026:12:${String(index % 60).padStart(2, '0')}:00 +0000] "GET ${target} HTTP/1.1" 200 99 "-" "${agent}"`,
      );
    }
    lines.push('this is not a log line');
    await fs.writeFile(file, `${lines.join('\n')}\n`);

    const first = await runQuire(
      ['analytics', 'import', '--project', project.id, '--format', 'combined', file],
      environment,
    );
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /301 lines read, 270 imported, 0 already imported, 31 skipped/);
    assert.match(first.stdout, /30\s+asset/);
    assert.match(first.stdout, /1\s+not in combined log format/);
    // Without verification (no DNS or key-directory lookups): the same requests, nothing new.
    const again = await runQuire(
      ['analytics', 'import', '--project', project.id, '--format', 'combined', '--json', '--no-verify', file],
      environment,
    );
    assert.equal(again.code, 0, again.stderr);
    assert.equal(JSON.parse(again.stdout).files[0].summary.imported, 0);
    // The rotated, compressed copy of the second half: the same requests, nothing new.
    const rotated = path.join(directory, 'access.log.1.gz');
    await fs.writeFile(rotated, gzipSync(`${lines.slice(150).join('\n')}\n`));
    const fromGzip = await runQuire(
      ['analytics', 'import', '--project', project.id, '--format', 'combined', '--json', rotated],
      environment,
    );
    assert.equal(fromGzip.code, 0, fromGzip.stderr);
    assert.deepEqual(
      [
        JSON.parse(fromGzip.stdout).files[0].summary.imported,
        JSON.parse(fromGzip.stdout).files[0].summary.alreadyImported,
      ],
      [0, 135],
    );
    // A file in another format entirely: a clear message and a non-zero exit.
    const wrong = path.join(directory, 'events.jsonl');
    await fs.writeFile(wrong, '{"path":"/a","timestamp":"2026-05-01T00:00:00Z"}\n');
    const refusedImport = await runQuire(
      ['analytics', 'import', '--project', project.id, '--format', 'combined', wrong],
      environment,
    );
    assert.equal(refusedImport.code, 1);
    assert.match(refusedImport.stderr, /events\.jsonl: Not in combined format/);

    const verify = await runQuire(['analytics', 'verify', '--project', project.id], environment);
    assert.equal(verify.code, 0, verify.stdout + verify.stderr);
    assert.match(verify.stdout, /OK: rollups equal raw counts/);
    // Stored by an older classifier (as this one classified them): reclassified, nothing changes.
    await database.pool.query(
      "UPDATE analytics_page_views SET classifier_version = 'old' WHERE project_id = $1",
      [project.id],
    );
    const dryRun = await runQuire(
      ['analytics', 'reclassify', '--project', project.id, '--dry-run', '--json'],
      environment,
    );
    assert.equal(dryRun.code, 0, dryRun.stderr);
    assert.deepEqual([JSON.parse(dryRun.stdout).staleViews, JSON.parse(dryRun.stdout).changes], [270, []]);
    const reclassify = await runQuire(
      ['analytics', 'reclassify', '--project', project.id, '--json'],
      environment,
    );
    assert.equal(reclassify.code, 0, reclassify.stderr);
    const reclassified = JSON.parse(reclassify.stdout);
    assert.deepEqual([reclassified.viewsUpdated, reclassified.viewsChanged], [270, 0]);
    // A rollup row gone wrong: verify says so, rebuild repairs it.
    await database.pool.query(
      "UPDATE analytics_path_rollups SET human = human + 1 WHERE series = analytics_series($1, 'day')",
      [project.id],
    );
    assert.equal((await runQuire(['analytics', 'verify', '--project', project.id], environment)).code, 1);
    const rebuild = await runQuire(['analytics', 'rebuild', '--project', project.id], environment);
    assert.equal(rebuild.code, 0, rebuild.stderr);
    assert.match(rebuild.stdout, /^Rollups rebuilt from \d{4}-/);
    assert.equal((await runQuire(['analytics', 'verify', '--project', project.id], environment)).code, 0);

    const server = await startQuireServer(environment);
    const views = await runQuire(
      [
        'analytics',
        'views',
        '--project',
        project.id,
        '--url',
        server.url,
        '--from',
        '2026-05-01',
        '--to',
        '2026-05-02',
      ],
      { ...environment, QUIRE_API_KEY: key },
    );
    assert.equal(views.code, 0, views.stderr);
    assert.match(views.stdout, /PATH\s+HUMAN\s+AI\s+TOTAL/);
    assert.match(views.stdout, /\/docs\/page-0\s+\d+\s+\d+\s+90/);
    assert.match(views.stdout, /total 270 views/);
    // A visitor is one address and user agent on one day: the log's 250 addresses, some with two agents.
    const visitorSets = { human: new Set<string>(), ai: new Set<string>(), total: new Set<string>() };
    for (let index = 0; index < 300; index += 1) {
      if (index % 10 === 0) continue;
      const visitor = `${index % 250} ${index % 4 === 0}`;
      visitorSets[index % 4 === 0 ? 'ai' : 'human'].add(visitor);
      visitorSets.total.add(visitor);
    }
    const visitors = await runQuire(
      ['analytics', 'visitors', '--project', project.id, '--url', server.url, '--from', '2026-05-01'],
      { ...environment, QUIRE_API_KEY: key },
    );
    assert.equal(visitors.code, 0, visitors.stderr);
    assert.match(visitors.stdout, /PATH\s+HUMAN\s+AI\s+TOTAL/);
    assert.match(
      visitors.stdout,
      new RegExp(
        `total ${visitorSets.total.size} visitors \\(human ${visitorSets.human.size}, ai ${visitorSets.ai.size}\\)`,
      ),
    );
    const refused = await runQuire(
      ['analytics', 'views', '--project', project.id, '--url', server.url, '--from', 'yesterday'],
      { ...environment, QUIRE_API_KEY: key },
    );
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /400.*dateFrom/);
    server.child.kill('SIGTERM');
    await server.exited;
    const unreachable = await runQuire(['analytics', 'views', '--project', project.id, '--url', server.url], {
      ...environment,
      QUIRE_API_KEY: key,
    });
    assert.equal(unreachable.code, 1);
    assert.match(unreachable.stderr, /could not reach the server/);
    await database.close();
  });
});
