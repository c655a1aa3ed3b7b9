import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createTestDatabase } from '../../test/database.ts';
import { buildProject } from '../../test/factories.ts';
import { findJob, insertQueuedJobs } from './job-store.ts';

const database = await createTestDatabase();

test('the named job statements keep working on a connection after a migration adds a column', async () => {
  const project = await buildProject(database.pool);
  const client = await database.pool.connect();
  try {
    const [first] = await insertQueuedJobs(
      client,
      [{ projectId: project.id, prompt: 'Fix the intro' }],
      'model-a',
    );
    assert.ok(first);
    assert.equal((await findJob(client, project.id, first.id))?.status, 'active');
    // A newer version's migration, run while this process keeps its prepared statements.
    await client.query('ALTER TABLE agent_jobs ADD COLUMN added_later text');
    const [second] = await insertQueuedJobs(
      client,
      [{ projectId: project.id, prompt: 'Then the outro' }],
      'model-a',
    );
    assert.ok(second);
    assert.equal((await findJob(client, project.id, first.id))?.id, first.id);
    assert.equal((await findJob(client, project.id, second.id))?.model, 'model-a');
  } finally {
    client.release();
  }
});
