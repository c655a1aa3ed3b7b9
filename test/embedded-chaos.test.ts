// Chaos: the embedded PostgreSQL's postmaster is killed with SIGKILL under ingestion load. Quire
// must notice, answer 503 with Retry-After meanwhile (never 500), restart it, and serve again
// without a process restart, with /healthz alive throughout; every batch acknowledged with 202
// (before or after the kill) must be stored whole, and the queue runs an agent job enqueued after
// the restart (on a scripted model).
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { after, test } from 'node:test';
import pg from 'pg';
import { startOpenAICompatibleServer } from './openai-compatible-server.ts';
import { eventually } from './poll.ts';
import { runQuire, startQuireServer, temporaryDirectory } from './processes.ts';
import { createRepository } from './temporary-repository.ts';

const directory = await temporaryDirectory();
const dataDirectory = path.join(directory, 'data');
const pidFile = path.join(dataDirectory, 'postgres', 'postmaster.pid');
const postmasterPid = async () =>
  Number((await fs.readFile(pidFile, 'utf8').catch(() => '')).split('\n')[0]) || null;

function batch(label: string) {
  return {
    events: Array.from({ length: 50 }, (_, index) => ({
      path: `/docs/${label}/${index}`,
      userAgent: 'curl/8.5.0',
    })),
  };
}

test('a killed embedded postmaster is restarted; 503 with Retry-After meanwhile; nothing acknowledged is lost', {
  timeout: 240_000,
}, async () => {
  // The model answers at once that there is nothing to change.
  const model = await startOpenAICompatibleServer({
    apiKey: 'sk-chaos',
    script: [{ text: 'Nothing to change.' }],
  });
  after(() => model.close());
  const environment = {
    QUIRE_DATA_DIR: dataDirectory,
    QUIRE_MODEL: 'openai-compatible:scripted',
    OPENAI_COMPATIBLE_BASE_URL: model.baseUrl,
    OPENAI_COMPATIBLE_API_KEY: 'sk-chaos',
  };
  const server = await startQuireServer(environment);
  const key = /\b(quire_[A-Za-z0-9_-]{43})\b/.exec(server.output())?.[1] ?? '';
  const projectId = /with id (prj_[a-z0-9]+)/.exec(server.output())?.[1] ?? '';
  assert.ok(key && projectId, server.output());
  const repository = createRepository(path.join(directory, 'docs'), {
    'mkdocs.yml': 'site_name: Acme\nnav:\n  - Home: index.md\n',
    'docs/index.md': '# Acme\n',
  });
  const updated = await runQuire(['project', 'update', projectId, '--repository', repository], environment);
  assert.equal(updated.code, 0, updated.stderr);

  const acknowledged: string[] = [];
  const statuses = new Map<number, number>();
  let missingRetryAfter = 0;
  let stop = false;
  // When a new postmaster was seen: acknowledgements of requests sent after it count as served again
  // (a request in flight at the kill may still have been acknowledged by the dying one).
  let restartedAt = 0;
  let acknowledgedAfterRestart = 0;
  const clients = [0, 1, 2].map(async (client) => {
    for (let round = 0; !stop; round += 1) {
      const label = `chaos-${client}-${round}`;
      const sentAt = Date.now();
      const response = await fetch(`${server.url}/v1/analytics/${projectId}/events`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(batch(label)),
      }).catch(() => null);
      if (response === null) continue;
      await response.arrayBuffer();
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      if (response.status === 202) {
        acknowledged.push(label);
        if (restartedAt > 0 && sentAt > restartedAt) acknowledgedAfterRestart += 1;
      } else if (response.status === 503) {
        if (!response.headers.get('retry-after')) missingRetryAfter += 1;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  });
  const liveness: number[] = [];
  const probing = (async () => {
    while (!stop) {
      const response = await fetch(`${server.url}/healthz`).catch(() => null);
      liveness.push(response?.status ?? 0);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  })();

  await new Promise((resolve) => setTimeout(resolve, 1500));
  const pid = (await postmasterPid())!;
  process.kill(pid, 'SIGKILL');
  const deadline = Date.now() + 90_000;
  while (acknowledgedAfterRestart < 5 && Date.now() < deadline) {
    if (restartedAt === 0 && ![null, pid].includes(await postmasterPid())) restartedAt = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  stop = true;
  await Promise.all([...clients, probing]);

  assert.ok(restartedAt > 0, `a new postmaster runs:\n${server.output()}`);
  assert.ok(
    acknowledgedAfterRestart >= 5,
    `served again after the restart: ${JSON.stringify([...statuses])}\n${server.output()}`,
  );
  assert.equal(statuses.get(500) ?? 0, 0, `no 500: ${JSON.stringify([...statuses])}`);
  assert.equal(missingRetryAfter, 0);
  assert.ok(
    liveness.every((status) => status === 200),
    `liveness: ${liveness.join(',')}`,
  );

  // The queue runs a job enqueued after the restart.
  const job = await fetch(`${server.url}/v2/agent/${projectId}/job`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ prompt: 'Check the index page' }),
  });
  assert.equal(job.status, 201, await job.clone().text());
  const jobId = ((await job.json()) as { id: string }).id;
  const settled = await eventually(
    async () => {
      const response = await fetch(`${server.url}/v2/agent/${projectId}/job/${jobId}`, {
        headers: { authorization: `Bearer ${key}` },
      });
      const body = (await response.json()) as { status: string };
      return body.status !== 'active' && body;
    },
    { timeoutMilliseconds: 30_000, message: 'the job enqueued after the restart did not run' },
  );
  assert.equal(settled.status, 'completed', JSON.stringify(settled));

  const cluster = JSON.parse(await fs.readFile(path.join(dataDirectory, 'postgres.json'), 'utf8')) as {
    port: number;
    password: string;
  };
  const client = new pg.Client({
    host: '127.0.0.1',
    port: cluster.port,
    user: 'quire',
    password: cluster.password,
    database: 'quire',
  });
  await client.connect();
  try {
    for (const label of acknowledged) {
      const { rows } = await client.query<{ count: number }>(
        'SELECT count(*)::int AS count FROM analytics_page_views WHERE project_id = $1 AND path LIKE $2',
        [projectId, `/docs/${label}/%`],
      );
      assert.equal(rows[0]?.count, 50, `batch ${label}`);
    }
  } finally {
    await client.end();
  }
  server.child.kill('SIGTERM');
  await server.exited;
});
