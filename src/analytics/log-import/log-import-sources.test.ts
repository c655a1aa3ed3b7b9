/**
 * Imports that never double count (issue 15, part 4): identity from the request, not the line;
 * gzip, JSON arrays, vhost_combined, nginx escapes, refusing files in another format.
 */
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { createTestDatabase } from '../../../test/database.ts';
import { buildProject } from '../../../test/factories.ts';
import { isQuireError } from '../../errors.ts';
import { createClassifier } from '../classification/index.ts';
import { createPageViewWriter } from '../ingestion/index.ts';
import { verifyRollups } from '../rollups/index.ts';
import { importLog, type LogFormat } from './log-import.ts';

const database = await createTestDatabase();
const classifier = createClassifier();
const writer = createPageViewWriter({ pool: database.pool });
const now = Date.parse('2026-06-01T00:00:00Z');
const chrome =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36';

/** A combined log line at 2026-05-01 10:MM:SS. */
const line = (minute: number, second: number, target: string, ip = '203.0.113.7') =>
  `${ip} - - [01/May/2026:10:${String(minute).padStart(2, '0')}:${String(second).padStart(2, '0')} +0000] "GET ${target} HTTP/1.1" 200 512 "-" "${chrome}"`;

function run(
  projectId: string,
  source: string | Buffer | Array<string | Buffer>,
  format: LogFormat = 'combined',
) {
  const chunks = Array.isArray(source) ? source : [source];
  return importLog({ projectId, format, source: Readable.from(chunks), classifier, writer, now });
}

async function storedViews(projectId: string): Promise<Record<string, number>> {
  const rows = await database.pool.query<{ path: string; views: number }>(
    'SELECT path, count(*)::int AS views FROM analytics_page_views WHERE project_id = $1 GROUP BY 1 ORDER BY 1',
    [projectId],
  );
  return Object.fromEntries(rows.rows.map((row) => [row.path, row.views]));
}

describe('importLog identity', () => {
  it('imports each request once from overlapping, rotated, concatenated and re-read files', async () => {
    const project = await buildProject(database.pool);
    const all = Array.from({ length: 9 }, (_, index) => line(index, 0, `/p${index}`));
    // Two identical requests in the same second: two views, in every file that holds both.
    all.splice(4, 0, line(3, 0, '/p3'));
    const older = all.slice(0, 6).join('\n');
    const newer = all.slice(3).join('\n'); // overlaps `older` by three lines, including one of the pair
    const first = await run(project.id, older);
    assert.equal(first.imported, 6);
    const second = await run(project.id, newer);
    assert.equal(second.imported, 4);
    assert.equal(second.alreadyImported, 3);
    // Concatenated in either order, re-read, compressed: nothing new.
    for (const again of [
      `${older}\n${newer}`,
      `${newer}\n${older}`,
      all.join('\n'),
      gzipSync(all.join('\n')),
    ]) {
      const summary = await run(project.id, again);
      assert.equal(summary.imported, 0);
    }
    assert.deepEqual(await storedViews(project.id), {
      '/p0': 1,
      '/p1': 1,
      '/p2': 1,
      '/p3': 2,
      '/p4': 1,
      '/p5': 1,
      '/p6': 1,
      '/p7': 1,
      '/p8': 1,
    });
    assert.deepEqual((await verifyRollups(database.pool, project.id)).mismatches, []);
  });

  it('keeps requests apart that differ in any logged field', async () => {
    const project = await buildProject(database.pool);
    const summary = await run(
      project.id,
      [line(0, 0, '/a'), line(0, 0, '/a', '198.51.100.1'), line(0, 1, '/a')].join('\n'),
    );
    assert.equal(summary.imported, 3);
  });
});

describe('importLog sources and formats', () => {
  it('reads gzip (several members too) and refuses corrupt gzip', async () => {
    const project = await buildProject(database.pool);
    const gzipped = Buffer.concat([gzipSync(`${line(0, 0, '/a')}\n`), gzipSync(`${line(0, 1, '/b')}\n`)]);
    // Split inside the first member's header: detection must not need a whole chunk.
    const summary = await run(project.id, [gzipped.subarray(0, 1), gzipped.subarray(1)]);
    assert.equal(summary.imported, 2);
    assert.equal(summary.linesRead, 2);
    const corrupt = gzipSync(line(0, 2, '/c')).subarray(0, 30);
    await assert.rejects(
      run(project.id, corrupt),
      (error: unknown) => isQuireError(error) && /gzip/.test(error.message),
    );
  });

  it('reads a JSON array (Vercel json delivery): one view per request, runtime lines ignored', async () => {
    const project = await buildProject(database.pool);
    const at = Date.parse('2026-05-01T12:00:00Z');
    const proxy = {
      timestamp: at,
      method: 'GET',
      host: 'docs.example.com',
      path: '/docs?x=1',
      userAgent: [chrome],
      statusCode: 200,
      clientIp: '203.0.113.1',
    };
    const entries = [
      { id: '1', source: 'build', timestamp: at, deploymentId: 'dpl_1', message: 'Build completed' },
      { id: '2', source: 'edge', timestamp: at, requestId: 'req-1', deploymentId: 'dpl_1', proxy },
      {
        id: '3',
        source: 'lambda',
        timestamp: at + 5,
        requestId: 'req-1',
        deploymentId: 'dpl_1',
        message: 'rendered',
        proxy,
      },
      {
        id: '4',
        source: 'lambda',
        timestamp: at + 6,
        requestId: 'req-1',
        deploymentId: 'dpl_1',
        message: 'no proxy here',
      },
    ];
    const text = `\n  ${JSON.stringify(entries, null, 2)}\n`;
    const summary = await run(project.id, [text.slice(0, 50), text.slice(50)], 'jsonl');
    assert.equal(summary.imported, 1);
    assert.equal(summary.alreadyImported, 1);
    assert.deepEqual(summary.skipped, { 'not a request entry (Vercel build or runtime log)': 2 });
    assert.equal((await run(project.id, text, 'jsonl')).imported, 0);
    await assert.rejects(run(project.id, '[{"a":1}, nonsense]', 'jsonl'), /JSON array/);
    await assert.rejects(run(project.id, '[{"a":1}', 'jsonl'), /ends early/);
  });

  it('reads vhost_combined and decodes nginx byte escapes to UTF-8', async () => {
    const project = await buildProject(database.pool);
    const vhost = `docs.example.com:443 ${line(0, 0, '/caf\\xC3\\xA9')}`;
    const summary = await run(project.id, vhost, 'vhost_combined');
    assert.equal(summary.imported, 1);
    assert.deepEqual(await storedViews(project.id), { '/caf%C3%A9': 1 });
    // The same request logged raw is the same request.
    assert.equal(
      (await run(project.id, `docs.example.com:443 ${line(0, 0, '/café')}`, 'vhost_combined')).imported,
      0,
    );
    const bad = await run(project.id, `docs.example.com:443 ${line(0, 0, '/x\\xC3')}`, 'vhost_combined');
    assert.deepEqual(bad.skipped, { 'escaped bytes that are not UTF-8': 1 });
  });

  it('skips a field with a control character, and counts views without a user agent', async () => {
    const project = await buildProject(database.pool);
    const log = [
      '203.0.113.9 - - [01/May/2026:10:00:00 +0000] "GET /a HTTP/1.1" 200 5 "-" "evil\\x07agent"',
      '203.0.113.9 - - [01/May/2026:10:00:00 +0000] "GET /a HTTP/1.1" 200 5 "-" "line\\nbreak"',
      '203.0.113.9 - - [01/May/2026:10:00:00 +0000] "GET /common HTTP/1.1" 200 5',
    ].join('\n');
    const summary = await run(project.id, log);
    assert.equal(summary.imported, 1);
    assert.equal(summary.withoutUserAgent, 1);
    assert.deepEqual(summary.skipped, { 'control characters in a field': 2 });
  });

  it('fails, storing nothing, on a file that is not in the declared format', async () => {
    const project = await buildProject(database.pool);
    const binary = Buffer.from(
      Array.from({ length: 4000 }, (_, index) => (index * 7919) % 256).filter((byte) => byte !== 0x1f),
    );
    for (const [source, format] of [
      [binary, 'combined'],
      [[line(0, 0, '/a'), line(0, 1, '/b')].join('\n'), 'jsonl'],
      ['{"path":"/a","timestamp":"2026-05-01T00:00:00Z"}', 'combined'],
    ] as const) {
      await assert.rejects(run(project.id, source, format), (error: unknown) => {
        assert.ok(isQuireError(error));
        assert.match(error.message, new RegExp(`Not in ${format} format`));
        return true;
      });
    }
    assert.deepEqual(await storedViews(project.id), {});
  });
});
