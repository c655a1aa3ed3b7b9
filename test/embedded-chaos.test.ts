// Chaos: the embedded PostgreSQL's postmaster is killed with SIGKILL under ingestion load. Quire
// must notice, answer 503 with Retry-After meanwhile (never 500), restart it, and serve again
// without a process restart, with /healthz alive throughout; every batch acknowledged with 202
// (before or after the kill) must be stored whole.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';
import pg from 'pg';
import { startQuireServer, temporaryDirectory } from './processes.ts';

const dataDirectory = path.join(await temporaryDirectory(), 'data');

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
  const server = await startQuireServer({ QUIRE_DATA_DIR: dataDirectory });
  const key = /\b(quire_[A-Za-z0-9_-]{43})\b/.exec(server.output())?.[1] ?? '';
  const projectId = /with id (prj_[a-z0-9]+)/.exec(server.output())?.[1] ?? '';
  assert.ok(key && projectId, server.output());

  const acknowledged: string[] = [];
  const statuses = new Map<number, number>();
  let missingRetryAfter = 0;
  let stop = false;
  let killedAt = 0;
  let acknowledgedAfterKill = 0;
  const clients = [0, 1, 2].map(async (client) => {
    for (let round = 0; !stop; round += 1) {
      const label = `chaos-${client}-${round}`;
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
        if (killedAt > 0) acknowledgedAfterKill += 1;
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
  const pid = Number(
    (await fs.readFile(path.join(dataDirectory, 'postgres', 'postmaster.pid'), 'utf8')).split('\n')[0],
  );
  process.kill(pid, 'SIGKILL');
  killedAt = Date.now();
  const deadline = Date.now() + 90_000;
  while (acknowledgedAfterKill < 5 && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 200));
  stop = true;
  await Promise.all([...clients, probing]);

  assert.ok(
    acknowledgedAfterKill >= 5,
    `served again after the kill: ${JSON.stringify([...statuses])}\n${server.output()}`,
  );
  assert.equal(statuses.get(500) ?? 0, 0, `no 500: ${JSON.stringify([...statuses])}`);
  assert.equal(missingRetryAfter, 0);
  assert.ok(
    liveness.every((status) => status === 200),
    `liveness: ${liveness.join(',')}`,
  );
  const newPid = Number(
    (await fs.readFile(path.join(dataDirectory, 'postgres', 'postmaster.pid'), 'utf8')).split('\n')[0],
  );
  assert.notEqual(newPid, pid, 'a new postmaster runs');

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
