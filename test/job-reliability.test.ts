// The job runner under failure, with real processes on one database: a worker killed with SIGKILL
// in the middle of a run, two workers competing for the same jobs, a server restart.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createTestDatabase } from './database.ts';
import { buildProjectWithKey } from './factories.ts';
import { eventually } from './poll.ts';
import { startFakeAgentService } from './processes.ts';

const database = await createTestDatabase();
const { project, key } = await buildProjectWithKey(database.pool, { project: { repository: '/srv/docs' } });

function startProcess(role: 'all' | 'worker') {
  return startFakeAgentService({
    DATABASE_URL: database.connectionString,
    QUIRE_ROLE: role,
    QUIRE_WORKER_CONCURRENCY: '4',
  });
}

async function api(url: string, method: string, route: string, body?: unknown) {
  const response = await fetch(`${url}/v2/agent/${project.id}${route}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: response.status, body: await response.json() };
}

async function jobEvents(jobId: string) {
  const result = await database.pool.query<{ type: string; data: Record<string, unknown>; created_at: Date }>(
    'SELECT type, data, created_at FROM agent_job_events WHERE job_id = $1 ORDER BY id',
    [jobId],
  );
  return result.rows;
}

async function userPrompts(jobId: string): Promise<string[]> {
  const row = (await database.pool.query('SELECT history FROM agent_jobs WHERE id = $1', [jobId])).rows[0];
  return row.history
    .filter((entry: { role: string }) => entry.role === 'user')
    .map((entry: { content: string }) => entry.content);
}

function settled(url: string, jobId: string, timeoutMilliseconds = 60_000) {
  return eventually(
    async () => {
      const { body } = await api(url, 'GET', `/job/${jobId}`);
      return body.status !== 'active' && body;
    },
    { timeoutMilliseconds, message: `job ${jobId} did not settle` },
  );
}

test('reliability with real processes', { timeout: 240_000 }, async (t) => {
  const server = await startProcess('all');
  const url = server.url!;

  await t.test(
    'a worker killed with SIGKILL mid-run: another takes over, nothing lost or done twice',
    async () => {
      // Stop the server's own worker from competing: its jobs must land on the victim first.
      const victim = await startProcess('worker');
      const job = (await api(url, 'POST', '/job', { prompt: 'wait 4000' })).body;
      const runner = await eventually(async () => {
        const step = (await jobEvents(job.id)).find((event) => event.type === 'agent-step');
        return step?.data.pid as number | undefined;
      });
      const follow = await api(url, 'POST', `/job/${job.id}/message`, {
        prompt: 'follow-up after the crash',
      });
      assert.equal(follow.status, 200);
      const victimPid = victim.child.pid!;
      if (runner === victimPid) victim.child.kill('SIGKILL');
      else server.child.kill('SIGKILL');
      const done = await settled(
        runner === victimPid ? url : (await startProcess('all')).url!,
        job.id,
        90_000,
      );
      assert.equal(done.status, 'completed');
      const prompts = await userPrompts(job.id);
      assert.deepEqual(prompts, ['wait 4000', 'follow-up after the crash']);
      const messages = (
        await database.pool.query('SELECT status FROM agent_job_messages WHERE job_id = $1', [job.id])
      ).rows;
      assert.ok(messages.every((row) => row.status === 'processed'));
    },
  );

  await t.test('two workers never run the same job at the same time', async () => {
    const current = await startProcess('all');
    await startProcess('worker');
    const jobs = await Promise.all(
      Array.from(
        { length: 8 },
        async (_, index) => (await api(current.url!, 'POST', '/job', { prompt: `wait 200 #${index}` })).body,
      ),
    );
    for (const job of jobs) {
      for (let round = 0; round < 3; round += 1)
        await api(current.url!, 'POST', `/job/${job.id}/message`, { prompt: `more ${round}` });
    }
    for (const job of jobs) {
      assert.equal((await settled(current.url!, job.id)).status, 'completed');
      const events = await jobEvents(job.id);
      let running = 0;
      for (const event of events) {
        if (event.type === 'agent-step') running += 1;
        if (event.type === 'agent-finish') running -= 1;
        assert.ok(running <= 1, `job ${job.id} had overlapping runs`);
      }
      assert.deepEqual((await userPrompts(job.id)).slice(1), ['more 0', 'more 1', 'more 2']);
    }
    current.child.kill('SIGTERM');
    await current.exited;
  });

  await t.test('a server restart loses no job, message or event', async () => {
    const first = await startProcess('all');
    const job = (await api(first.url!, 'POST', '/job', { prompt: 'wait 1500' })).body;
    await api(first.url!, 'POST', `/job/${job.id}/message`, { prompt: 'second' });
    const before = (await jobEvents(job.id)).length;
    first.child.kill('SIGTERM');
    await first.exited;
    const second = await startProcess('all');
    const done = await settled(second.url!, job.id, 90_000);
    assert.equal(done.status, 'completed');
    assert.ok((await jobEvents(job.id)).length > before);
    assert.deepEqual(await userPrompts(job.id), ['wait 1500', 'second']);
  });
});
