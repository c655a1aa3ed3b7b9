// An external database (DATABASE_URL) stopped and started again under a running `quire serve`: a
// PostgreSQL server of the test's own (never the machine's shared one). While it is down every API
// request answers 503 with Retry-After and {error} (never 500) and /healthz stays 200 (there is
// nothing for a restart of Quire to fix); once it is back the same process serves again: the pool
// reconnects, the queue runs jobs enqueued after the restart (agent jobs on a scripted model), and
// the LISTEN/NOTIFY listeners are back: a live event stream opened before the outage carries the
// events of a run after it, job reads cached after it see the worker's changes, a key revoked
// after it is refused at once.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, test } from 'node:test';
import pg from 'pg';
import { revokeApiKey } from '../src/auth/api-key-store.ts';
import { type ChatRequest, type ChatTurn, startOpenAICompatibleServer } from './openai-compatible-server.ts';
import { eventually } from './poll.ts';
import { startPostgresServer } from './postgres-server.ts';
import { runQuire, startQuireServer, temporaryDirectory } from './processes.ts';
import { createRepository } from './temporary-repository.ts';

/** The scripted model: looks for the word the instruction names, then says there is nothing to change. */
function scriptedTurn(request: ChatRequest): ChatTurn {
  const last = request.messages.at(-1);
  if (last?.role === 'tool') return { text: 'Nothing needs changing.' };
  return { toolCalls: [{ name: 'search', arguments: { query: 'Kubernetes' } }] };
}

interface StreamedEvent {
  id: number;
  type: string;
  data: Record<string, unknown>;
}

/** Follows a job's live event stream (Server-Sent Events) in the background. */
function followEvents(url: string, headers: Record<string, string>) {
  const controller = new AbortController();
  const received: StreamedEvent[] = [];
  const reading = (async () => {
    const response = await fetch(url, {
      headers: { ...headers, accept: 'text/event-stream' },
      signal: controller.signal,
    });
    assert.equal(response.status, 200);
    let buffer = '';
    for await (const chunk of response.body!.pipeThrough(new TextDecoderStream())) {
      buffer += chunk;
      for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const id = /^id: (\d+)$/m.exec(block)?.[1];
        const type = /^event: (.+)$/m.exec(block)?.[1];
        const data = /^data: (.+)$/m.exec(block)?.[1];
        if (id && type && data) received.push({ id: Number(id), type, data: JSON.parse(data) });
      }
    }
  })().catch((error: unknown) => {
    if (!controller.signal.aborted) throw error;
  });
  return { received, close: () => controller.abort(), reading };
}

test('the external database stops and starts again; the running service recovers by itself', {
  timeout: 120_000,
}, async () => {
  const [postgres, model, directory] = await Promise.all([
    startPostgresServer(),
    startOpenAICompatibleServer({ apiKey: 'sk-restart', script: [scriptedTurn] }),
    temporaryDirectory(),
  ]);
  after(() => model.close());
  const repository = createRepository(path.join(directory, 'docs'), {
    'mkdocs.yml': 'site_name: Acme\nnav:\n  - Home: index.md\n',
    'docs/index.md': '# Acme\n\nInstall the CLI.\n',
  });
  const environment = {
    DATABASE_URL: postgres.url,
    QUIRE_DATA_DIR: path.join(directory, 'data'),
    QUIRE_MODEL: 'openai-compatible:scripted',
    OPENAI_COMPATIBLE_BASE_URL: model.baseUrl,
    OPENAI_COMPATIBLE_API_KEY: 'sk-restart',
  };
  const server = await startQuireServer(environment);
  const key = /\b(quire_[A-Za-z0-9_-]{43})\b/.exec(server.output())?.[1] ?? '';
  const projectId = /with id (prj_[a-z0-9]+)/.exec(server.output())?.[1] ?? '';
  assert.ok(key && projectId, server.output());
  const updated = await runQuire(['project', 'update', projectId, '--repository', repository], environment);
  assert.equal(updated.code, 0, updated.stderr);

  const headers = { authorization: `Bearer ${key}` };
  const call = async (method: string, route: string, body?: unknown) => {
    const response = await fetch(`${server.url}${route}`, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, retryAfter: response.headers.get('retry-after'), text };
  };
  const jobs = `/v2/agent/${projectId}/job`;
  const createJob = async (prompt: string) => {
    const created = await call('POST', jobs, { prompt });
    assert.equal(created.status, 201, created.text);
    return JSON.parse(created.text).id as string;
  };
  const settled = (jobId: string) =>
    eventually(
      async () => {
        const job = JSON.parse((await call('GET', `${jobs}/${jobId}`)).text);
        return job.status !== 'active' && job;
      },
      { timeoutMilliseconds: 30_000, message: `job ${jobId} did not settle:\n${server.output()}` },
    );

  // Before: a job runs, and a live stream follows it (it stays open through the outage).
  const first = await createJob('Rename Kubernetes to K8s');
  assert.equal((await settled(first)).status, 'completed');
  const stream = followEvents(`${server.url}${jobs}/${first}/events`, headers);
  after(() => stream.close());
  await eventually(async () => stream.received.some((event) => event.type === 'status-change'));

  // The database stops, as its operator would stop it (every session is disconnected).
  await postgres.stop('fast');
  const requests: [string, string, unknown?][] = [
    ['GET', `/v1/projects/${projectId}`],
    ['GET', `${jobs}/${first}`],
    ['GET', `${jobs}/${first}/events`],
    ['POST', jobs, { prompt: 'During the outage' }],
    ['POST', `${jobs}/${first}/message`, { prompt: 'During the outage' }],
    ['POST', `/v1/analytics/${projectId}/events`, { events: [{ path: '/docs/a', userAgent: 'curl/8.5.0' }] }],
    ['GET', `/v1/analytics/${projectId}/views`],
  ];
  for (const [method, route, body] of requests) {
    const response = await call(method, route, body);
    assert.equal(response.status, 503, `${method} ${route}: ${response.status} ${response.text}`);
    assert.equal(response.retryAfter, '5', `${method} ${route}`);
    assert.equal(typeof JSON.parse(response.text).error, 'string', response.text);
  }
  assert.equal((await call('GET', '/healthz')).status, 200, 'nothing a restart of Quire would fix');
  assert.equal((await call('GET', '/readyz')).status, 503);

  await postgres.start();
  // The same process serves again: no restart.
  await eventually(async () => (await call('GET', `/v1/projects/${projectId}`)).status === 200, {
    message: `the API did not recover:\n${server.output()}`,
  });
  assert.equal((await call('GET', '/readyz')).status, 200);
  assert.equal(server.child.exitCode, null);

  // The queue runs a job enqueued after the restart, and job reads (cached by this process once
  // its listener is back) see the worker's changes.
  const second = await createJob('Rename Kubernetes to K8s, after the restart');
  const done = await settled(second);
  assert.equal(done.status, 'completed', JSON.stringify(done));
  assert.equal((await call('GET', `${jobs}/${second}`)).status, 200);

  // The stream opened before the outage carries a follow-up's run, to its end.
  const before = stream.received.length;
  const followUp = await call('POST', `${jobs}/${first}/message`, { prompt: 'Look again for Kubernetes' });
  assert.equal(followUp.status, 200, followUp.text);
  await eventually(
    async () =>
      stream.received
        .slice(before)
        .some(
          (event) =>
            event.type === 'status-change' && (event.data.data as { to?: string }).to === 'completed',
        ),
    { timeoutMilliseconds: 30_000, message: 'the stream opened before the outage carried no run after it' },
  );
  const listed = JSON.parse((await call('GET', `${jobs}/${first}/events?limit=1000`)).text) as {
    events: { id: number }[];
  };
  const streamed = stream.received.map((event) => event.id);
  assert.deepEqual(
    streamed,
    listed.events.map((event) => event.id).filter((id) => id <= Math.max(...streamed)),
    'the stream skipped or repeated nothing',
  );
  stream.close();

  // A key revoked now (by another process) is refused at once: the revocation listener is back.
  const database = new pg.Client({ connectionString: postgres.url });
  await database.connect();
  try {
    const keyId = (await database.query('SELECT id FROM api_keys WHERE project_id = $1', [projectId])).rows[0]
      .id;
    assert.equal((await call('GET', `/v1/projects/${projectId}`)).status, 200);
    await revokeApiKey(database, keyId);
  } finally {
    await database.end();
  }
  assert.equal((await call('GET', `/v1/projects/${projectId}`)).status, 401);

  server.child.kill('SIGTERM');
  assert.equal(await server.exited, 0);
});
