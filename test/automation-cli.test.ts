// `quire automation ...` against a real server process.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createTestDatabase } from './database.ts';
import { buildProjectWithKey } from './factories.ts';
import { runQuire, startFakeAgentService } from './processes.ts';

const database = await createTestDatabase();
const { project, key } = await buildProjectWithKey(database.pool, { project: { repository: '/srv/docs' } });
const server = await startFakeAgentService({ DATABASE_URL: database.connectionString });
const environment = { DATABASE_URL: database.connectionString, QUIRE_URL: server.url!, QUIRE_API_KEY: key };

test('automation create, list, update, trigger, history and delete', async () => {
  const created = await runQuire(
    [
      'automation',
      'create',
      '--project',
      project.id,
      '--name',
      'CLI docs',
      '--on',
      'merge',
      '--repository',
      'acme/cli',
      '--branch',
      'main',
      '--paths',
      'src/cli/**,docs/**',
      '--prompt',
      'Update the CLI reference',
      '--json',
    ],
    environment,
  );
  assert.equal(created.code, 0, created.stderr);
  const automation = JSON.parse(created.stdout);
  assert.deepEqual(automation.trigger, {
    type: 'merge',
    repository: 'acme/cli',
    branch: 'main',
    paths: ['src/cli/**', 'docs/**'],
  });
  const listed = await runQuire(['automation', 'list', '--project', project.id], environment);
  assert.match(
    listed.stdout,
    new RegExp(`${automation.id}\\s+CLI docs\\s+enabled\\s+merge into acme/cli@main`),
  );
  const updated = await runQuire(
    [
      'automation',
      'update',
      automation.id,
      '--project',
      project.id,
      '--on',
      'schedule',
      '--cron',
      '0 9 * * MON',
      '--time-zone',
      'Europe/Berlin',
      '--json',
    ],
    environment,
  );
  assert.equal(updated.code, 0, updated.stderr);
  assert.deepEqual(JSON.parse(updated.stdout).trigger, {
    type: 'schedule',
    cron: '0 9 * * MON',
    timeZone: 'Europe/Berlin',
  });
  const badCron = await runQuire(
    ['automation', 'update', automation.id, '--project', project.id, '--on', 'schedule', '--cron', 'soon'],
    environment,
  );
  assert.equal(badCron.code, 1);
  assert.match(badCron.stderr, /Invalid cron expression/);
  const triggered = await runQuire(
    ['automation', 'trigger', automation.id, '--project', project.id, '--json'],
    environment,
  );
  assert.equal(triggered.code, 0, triggered.stderr);
  const job = JSON.parse(triggered.stdout);
  assert.equal(job.trigger.automationId, automation.id);
  const history = await runQuire(
    ['automation', 'history', automation.id, '--project', project.id, '--json'],
    environment,
  );
  assert.deepEqual(
    JSON.parse(history.stdout).jobs.map((item: { id: string }) => item.id),
    [job.id],
  );
  const deleted = await runQuire(
    ['automation', 'delete', automation.id, '--project', project.id],
    environment,
  );
  assert.equal(deleted.code, 0, deleted.stderr);
  const gone = await runQuire(['automation', 'get', automation.id, '--project', project.id], environment);
  assert.equal(gone.code, 1);
  assert.match(gone.stderr, /Automation not found/);
});
