import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { createTestDatabase } from '../../test/database.ts';
import { buildProject } from '../../test/factories.ts';
import { insertQueuedJobs } from '../agent-jobs/job-store.ts';
import { enqueueAgentRun, startQueue } from './queue.ts';

const database = await createTestDatabase();
const boss = await startQueue({
  connectionString: database.connectionString,
  supervise: false,
  runExpirySeconds: 600,
});
after(() => boss.stop({ graceful: false }));

async function queueEntry(jobId: string): Promise<Record<string, unknown>> {
  const result = await database.pool.query(
    `SELECT *, keep_until - start_after AS retention, tableoid::regclass::text AS stored_in
     FROM pgboss.job WHERE singleton_key = $1`,
    [jobId],
  );
  assert.equal(result.rows.length, 1, `one queue entry for ${jobId}`);
  return result.rows[0];
}

test("a job's run queued in the job's own statement is the entry pg-boss's send writes", async () => {
  const project = await buildProject(database.pool);
  const [created] = await insertQueuedJobs(
    database.pool,
    [{ projectId: project.id, prompt: 'Fix typos' }],
    '',
  );
  assert.ok(created);
  const sentJobId = 'job_sent_by_pg_boss';
  await enqueueAgentRun(boss, database.pool, sentJobId);

  const { id: _a, created_on: _b, start_after: _c, keep_until: _d, ...ours } = await queueEntry(created.id);
  const { id: _e, created_on: _f, start_after: _g, keep_until: _h, ...theirs } = await queueEntry(sentJobId);
  assert.equal(ours.state, 'created');
  assert.deepEqual(ours, {
    ...theirs,
    data: { jobId: created.id },
    singleton_key: created.id,
  });
});

test('a job of no project queues no run', async () => {
  const runs = async () =>
    (await database.pool.query("SELECT count(*)::int AS runs FROM pgboss.job WHERE name = 'agent-job-run'"))
      .rows[0].runs;
  const before = await runs();
  assert.deepEqual(await insertQueuedJobs(database.pool, [{ projectId: 'prj_missing', prompt: 'x' }], ''), [
    null,
  ]);
  assert.equal(await runs(), before);
});

test('jobs created together each get their message, their events in order and their run', async () => {
  const project = await buildProject(database.pool);
  const prompts = Array.from({ length: 20 }, (_, index) => `Prompt ${index}`);
  const jobs = await insertQueuedJobs(
    database.pool,
    prompts.map((prompt, index) => ({ projectId: index === 7 ? 'prj_missing' : project.id, prompt })),
    'openai:default',
  );
  assert.equal(jobs[7], null);
  for (const [index, job] of jobs.entries()) {
    if (index === 7) continue;
    assert.ok(job);
    assert.equal(job.model, 'openai:default');
    const events = await database.pool.query(
      'SELECT type, data FROM agent_job_events WHERE job_id = $1 ORDER BY id',
      [job.id],
    );
    assert.deepEqual(
      events.rows.map((event) => event.type),
      ['job-create', 'message-create'],
    );
    assert.equal(events.rows[1].data.prompt, prompts[index]);
    const messages = await database.pool.query(
      'SELECT id, prompt FROM agent_job_messages WHERE job_id = $1',
      [job.id],
    );
    assert.deepEqual(
      messages.rows.map((message) => message.prompt),
      [prompts[index]],
    );
    assert.equal(events.rows[1].data.messageId, messages.rows[0].id);
    assert.equal((await queueEntry(job.id)).state, 'created');
  }
});
