// The job runner end to end in one process: the API, the queue and a worker with a fake agent.
import assert from 'node:assert/strict';
import http from 'node:http';
import { describe, test } from 'node:test';
import { buildTestServices } from '../../test/app.ts';
import { createTestDatabase } from '../../test/database.ts';
import { bearer, buildProjectWithKey } from '../../test/factories.ts';
import { createFakeAgentRunner } from '../../test/fake-agent-runner.ts';
import { eventually } from '../../test/poll.ts';
import { updateProjectSettings } from '../projects/project-store.ts';
import { verifyWebhookSignature } from '../webhooks/webhook-signature.ts';
import { upsertWebhook } from '../webhooks/webhook-store.ts';

const database = await createTestDatabase();
const services = await buildTestServices(database, { environment: { QUIRE_MODEL: 'openai:gpt-test' } });
const { app } = services;
const runner = createFakeAgentRunner();
await services.startWorker(runner, { timeoutSeconds: 3 });
const { project, key } = await buildProjectWithKey(database.pool, { project: { repository: '/srv/docs' } });
const json = { ...bearer(key), 'content-type': 'application/json' };
const base = `/v2/agent/${project.id}`;

async function create(prompt: string, projectId = project.id, headers = json) {
  const response = await app.inject({
    method: 'POST',
    url: `/v2/agent/${projectId}/job`,
    headers,
    payload: { prompt },
  });
  assert.equal(response.statusCode, 201, response.body);
  return response.json();
}

async function message(jobId: string, prompt: string) {
  const response = await app.inject({
    method: 'POST',
    url: `${base}/job/${jobId}/message`,
    headers: json,
    payload: { prompt },
  });
  assert.equal(response.statusCode, 200, response.body);
  return response.json();
}

async function read(jobId: string, projectId = project.id, headers: Record<string, string> = bearer(key)) {
  return (await app.inject({ method: 'GET', url: `/v2/agent/${projectId}/job/${jobId}`, headers })).json();
}

function settled(jobId: string, projectId = project.id, headers: Record<string, string> = bearer(key)) {
  return eventually(async () => {
    const job = await read(jobId, projectId, headers);
    return job.status !== 'active' && job;
  });
}

async function events(jobId: string) {
  const response = await app.inject({
    method: 'GET',
    url: `${base}/job/${jobId}/events?limit=1000`,
    headers: bearer(key),
  });
  return response.json().events as { id: number; type: string; data: Record<string, unknown> }[];
}

describe('runs', () => {
  test('a job completes with a pull request link and its steps logged', async () => {
    const job = await create('Document the flag');
    const done = await settled(job.id);
    assert.equal(done.status, 'completed');
    assert.equal(done.prLink, `https://git.example/pulls/${job.id}`);
    assert.match(done.branch, /^quire\//);
    const types = (await events(job.id)).map((event) => event.type);
    assert.deepEqual(types, [
      'job-create',
      'message-create',
      'run-start',
      'agent-step',
      'agent-finish',
      'run-end',
      'status-change',
    ]);
  });

  test('a follow-up continues the conversation on the same branch and pull request', async () => {
    const job = await create('First');
    const first = await settled(job.id);
    const during = await message(job.id, 'Second');
    assert.equal(during.status, 'active');
    assert.equal(during.prLink, null, 'prLink is null while active');
    const second = await settled(job.id);
    assert.equal(second.status, 'completed');
    assert.equal(second.prLink, first.prLink);
    assert.equal(second.branch, first.branch);
    const row = (await database.pool.query('SELECT history FROM agent_jobs WHERE id = $1', [job.id])).rows[0];
    assert.deepEqual(
      row.history
        .filter((entry: { role: string }) => entry.role === 'user')
        .map((entry: { content: string }) => entry.content),
      ['First', 'Second'],
    );
  });

  test('follow-ups sent during a run are processed after it, in order', async () => {
    const job = await create('wait 300');
    await eventually(async () => runner.runs.some((run) => run.jobId === job.id));
    for (const prompt of ['one', 'two', 'three']) await message(job.id, prompt);
    const done = await settled(job.id);
    assert.equal(done.status, 'completed');
    const prompts = runner.runs.filter((run) => run.jobId === job.id).flatMap((run) => run.prompts);
    assert.deepEqual(prompts, ['wait 300', 'one', 'two', 'three']);
  });

  test('a job that changes nothing completes with prLink null', async () => {
    const done = await settled((await create('no change needed')).id);
    assert.equal(done.status, 'completed');
    assert.equal(done.prLink, null);
  });

  test('a transient failure is retried', async () => {
    const job = await create('fail transient once');
    const done = await settled(job.id);
    assert.equal(done.status, 'completed');
    assert.ok((await events(job.id)).some((event) => event.type === 'run-error'));
  });

  test('an agent that keeps failing ends failed with the last error', async () => {
    const done = await settled((await create('fail transient')).id);
    assert.equal(done.status, 'failed');
    assert.match(done.error, /failed 3 times in a row; last error: provider answered 503/);
  });

  test('a permanent failure fails at once', async () => {
    const done = await settled((await create('fail permanent')).id);
    assert.equal(done.status, 'failed');
    assert.equal(done.error, 'The model provider rejected the credentials');
  });

  test('a failed job runs again on a follow-up', async () => {
    const job = await create('fail permanent');
    await settled(job.id);
    await message(job.id, 'now do it properly');
    const done = await settled(job.id);
    assert.equal(done.status, 'completed');
    assert.equal(done.error, null);
  });

  test('a run over the time limit fails with a clear error', async () => {
    const done = await settled((await create('wait 10000')).id);
    assert.equal(done.status, 'failed');
    assert.match(done.error, /time limit of 3 seconds/);
  });

  test('archiving stops the running work', async () => {
    // A run of 30 s, stopped within 15 s even on a loaded machine: the archive ended it.
    const job = await create('wait 30000');
    await eventually(async () => runner.runs.some((run) => run.jobId === job.id));
    const started = Date.now();
    const archived = await app.inject({
      method: 'POST',
      url: `${base}/job/${job.id}/archive`,
      headers: bearer(key),
    });
    assert.equal(archived.json().status, 'archived');
    await eventually(
      async () =>
        (
          await database.pool.query(
            "SELECT count(*)::int AS n FROM pgboss.job WHERE singleton_key = $1 AND state = 'active'",
            [job.id],
          )
        ).rows[0].n === 0,
    );
    assert.ok(Date.now() - started < 15_000, 'the run stopped long before its 30 s');
    assert.equal((await read(job.id)).status, 'archived');
    assert.ok(!(await events(job.id)).some((event) => event.type === 'run-end'));
  });

  test('without a model, a job fails fast saying what to configure', async () => {
    const bare = await buildTestServices(database);
    const unconfigured = await buildProjectWithKey(database.pool, { project: { repository: '/srv/z' } });
    const response = await bare.app.inject({
      method: 'POST',
      url: `/v2/agent/${unconfigured.project.id}/job`,
      headers: { ...bearer(unconfigured.key), 'content-type': 'application/json' },
      payload: { prompt: 'x' },
    });
    assert.equal(response.json().model, '');
    const done = await settled(response.json().id, unconfigured.project.id, bearer(unconfigured.key));
    assert.equal(done.status, 'failed');
    assert.match(done.error, /QUIRE_MODEL/);
  });

  test('a project setting overrides the default model', async () => {
    const custom = await buildProjectWithKey(database.pool, { project: { repository: '/srv/m' } });
    await updateProjectSettings(database.pool, custom.project.id, { model: 'anthropic:claude-haiku' });
    const job = await create('x', custom.project.id, {
      ...bearer(custom.key),
      'content-type': 'application/json',
    });
    assert.equal(job.model, 'anthropic:claude-haiku');
  });

  test('a project without a repository fails with an error saying so', async () => {
    const analyticsOnly = await buildProjectWithKey(database.pool);
    const job = await create('x', analyticsOnly.project.id, {
      ...bearer(analyticsOnly.key),
      'content-type': 'application/json',
    });
    const done = await settled(job.id, analyticsOnly.project.id, bearer(analyticsOnly.key));
    assert.equal(done.status, 'failed');
    assert.match(done.error, /no repository/);
  });

  test('50 concurrent follow-ups keep their order and the state consistent', async () => {
    const job = await create('wait 100');
    const prompts = Array.from({ length: 50 }, (_, index) => `concurrent ${index}`);
    const responses = await Promise.all(
      prompts.map((prompt) =>
        app.inject({
          method: 'POST',
          url: `${base}/job/${job.id}/message`,
          headers: json,
          payload: { prompt },
        }),
      ),
    );
    assert.deepEqual(new Set(responses.map((response) => response.statusCode)), new Set([200]));
    const done = await settled(job.id);
    assert.equal(done.status, 'completed');
    const stored = (
      await database.pool.query(
        'SELECT prompt, status FROM agent_job_messages WHERE job_id = $1 ORDER BY sequence',
        [job.id],
      )
    ).rows;
    assert.equal(stored.length, 51);
    assert.ok(stored.every((row) => row.status === 'processed'));
    const processed = runner.runs.filter((run) => run.jobId === job.id).flatMap((run) => run.prompts);
    assert.deepEqual(
      processed,
      stored.map((row) => row.prompt),
      'each message processed once, in arrival order',
    );
  });
});

describe('webhooks', () => {
  test('final states are delivered, signed, and retried until the receiver accepts', async () => {
    const received: { headers: http.IncomingHttpHeaders; body: string }[] = [];
    let failuresLeft = 1;
    const receiver = http.createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        if (failuresLeft > 0) {
          failuresLeft -= 1;
          response.writeHead(500).end();
          return;
        }
        received.push({ headers: request.headers, body });
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const port = (receiver.address() as { port: number }).port;
    try {
      const hooked = await buildProjectWithKey(database.pool, { project: { repository: '/srv/h' } });
      await upsertWebhook(database.pool, hooked.project.id, `http://127.0.0.1:${port}/hooks`, 'whsec_test');
      const headers = { ...bearer(hooked.key), 'content-type': 'application/json' };
      const job = await create('hooked', hooked.project.id, headers);
      await eventually(async () => received.length >= 1, { timeoutMilliseconds: 20_000 });
      const delivery = received[0]!;
      assert.equal(delivery.headers['quire-event'], 'agent_job.completed');
      assert.ok(
        verifyWebhookSignature('whsec_test', delivery.body, String(delivery.headers['quire-signature'])),
      );
      assert.equal(
        verifyWebhookSignature('whsec_other', delivery.body, String(delivery.headers['quire-signature'])),
        false,
      );
      const payload = JSON.parse(delivery.body);
      assert.equal(payload.type, 'agent_job.completed');
      assert.equal(payload.data.id, job.id);
      assert.equal(payload.data.status, 'completed');

      await app.inject({
        method: 'POST',
        url: `/v2/agent/${hooked.project.id}/job/${job.id}/archive`,
        headers: bearer(hooked.key),
      });
      await eventually(async () => received.length >= 2);
      assert.equal(received[1]!.headers['quire-event'], 'agent_job.archived');
    } finally {
      receiver.close();
    }
  });
});

describe('events', () => {
  test('the JSON log pages with after and limit', async () => {
    const job = await create('paged');
    await settled(job.id);
    const all = await events(job.id);
    const first = (
      await app.inject({ method: 'GET', url: `${base}/job/${job.id}/events?limit=2`, headers: bearer(key) })
    ).json();
    assert.equal(first.events.length, 2);
    assert.equal(first.hasMore, true);
    const rest = (
      await app.inject({
        method: 'GET',
        url: `${base}/job/${job.id}/events?after=${first.events[1].id}&limit=1000`,
        headers: bearer(key),
      })
    ).json();
    assert.deepEqual(
      [...first.events, ...rest.events].map((event) => event.id),
      all.map((event) => event.id),
    );
    assert.equal(rest.hasMore, false);
  });

  test('the live stream sends new events and resumes after Last-Event-ID', async () => {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = (app.server.address() as { port: number }).port;
    const job = await create('streamed');
    const done = await settled(job.id);
    assert.equal(done.status, 'completed');
    const all = await events(job.id);
    const resumeAfter = all[2]!.id;

    const controller = new AbortController();
    const response = await fetch(`http://127.0.0.1:${port}${base}/job/${job.id}/events`, {
      headers: { ...bearer(key), accept: 'text/event-stream', 'last-event-id': String(resumeAfter) },
      signal: controller.signal,
    });
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /text\/event-stream/);
    const reader = response.body!.getReader();
    let text = '';
    const readUntil = async (needle: string) => {
      while (!text.includes(needle)) {
        const { value, done: ended } = await reader.read();
        if (ended) break;
        text += new TextDecoder().decode(value);
      }
    };
    await readUntil(`id: ${all.at(-1)!.id}\n`);
    const ids = [...text.matchAll(/^id: (\d+)$/gm)].map((match) => Number(match[1]));
    assert.deepEqual(
      ids,
      all.filter((event) => event.id > resumeAfter).map((event) => event.id),
    );

    // Live: a follow-up's events arrive on the open stream.
    await message(job.id, 'live follow-up');
    await readUntil('event: message-create');
    await readUntil('live follow-up');
    await settled(job.id);
    await app.inject({ method: 'POST', url: `${base}/job/${job.id}/archive`, headers: bearer(key) });
    await readUntil('"to":"archived"');
    controller.abort();
    assert.match(text, /event: run-end/);
  });
});
