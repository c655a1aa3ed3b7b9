import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { buildTestServices, testCodeHosts } from '../../test/app.ts';
import { createTestDatabase } from '../../test/database.ts';
import { buildProject } from '../../test/factories.ts';
import { listAutomationJobs } from '../agent-jobs/job-store.ts';
import { createAutomationService } from './automation-service.ts';
import { startAutomationWorker } from './automation-worker.ts';

const database = await createTestDatabase();
const { boss } = await buildTestServices(database);
let clock = new Date('2026-03-02T08:58:00Z');
const now = () => clock;
const codeHostFor = testCodeHosts(database);
const automations = createAutomationService({
  pool: database.pool,
  boss,
  defaultModel: 'anthropic:x',
  codeHostFor,
  now,
});
const project = await buildProject(database.pool, { repository: '/srv/docs' });
// Two workers, as two processes would run: a slot must fire once between them.
const workers = await Promise.all(
  [1, 2].map(() =>
    startAutomationWorker({
      pool: database.pool,
      boss,
      defaultModel: 'anthropic:x',
      codeHostFor,
      log: () => {},
      now,
      scheduleIntervalMilliseconds: 3_600_000,
    }),
  ),
);
after(() => Promise.all(workers.map((worker) => worker.stop())));

test('a schedule fires on time in its time zone, once per slot across workers, and missed slots collapse into one', async () => {
  // 10:00 in Europe/Berlin (UTC+1 in March before daylight saving) is 09:00Z.
  const automation = await automations.create(project.id, {
    name: 'Morning review',
    trigger: { type: 'schedule', cron: '0 10 * * *', timeZone: 'Europe/Berlin' },
    prompt: 'Check the changelog page.',
  });
  const check = async () =>
    (await Promise.all(workers.map((worker) => worker.checkSchedules()))).reduce((a, b) => a + b);
  clock = new Date('2026-03-02T08:59:59Z');
  assert.equal(await check(), 0);
  clock = new Date('2026-03-02T09:00:01Z');
  assert.equal(await check(), 1);
  assert.equal(await check(), 0);
  const [job] = await listAutomationJobs(database.pool, automation.id, 10);
  assert.equal(job?.trigger?.type, 'schedule');
  // Three days without a worker: one firing, not three.
  clock = new Date('2026-03-05T12:00:00Z');
  assert.equal(await check(), 1);
  assert.equal((await listAutomationJobs(database.pool, automation.id, 10)).length, 2);
  // Disabled, then enabled again after a slot passed: that slot does not fire.
  await automations.update(project.id, automation.id, { enabled: false });
  clock = new Date('2026-03-06T09:30:00Z');
  assert.equal(await check(), 0);
  await automations.update(project.id, automation.id, { enabled: true });
  assert.equal(await check(), 0);
  clock = new Date('2026-03-07T09:00:00Z');
  assert.equal(await check(), 1);
});
