import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { createTestDatabase } from '../../test/database.ts';
import { buildProjectWithKey } from '../../test/factories.ts';
import { eventually } from '../../test/poll.ts';
import { createJobCache, createJobService } from '../agent-jobs/job-service.ts';
import { startQueue } from '../queue/queue.ts';
import { createNotifiedCache } from './notified-cache.ts';
import { createNotifier } from './notifier.ts';

const database = await createTestDatabase();
const notifier = createNotifier(database.connectionString);
after(() => notifier.close());

test('a value read before an eviction is not stored', async () => {
  const cache = createNotifiedCache<string>(notifier, { ttlMilliseconds: 60_000, maximumEntries: 10 });
  await notifier.subscribe('quire_test_channel', (key) => cache.evict(key));
  const before = cache.generation();
  cache.evict('job_1'); // a change lands while the database read is in flight
  cache.set('job_1', 'stale', before);
  assert.equal(cache.get('job_1'), undefined);
  cache.set('job_1', 'fresh', cache.generation());
  assert.equal(cache.get('job_1'), 'fresh');
});

test('nothing is served while the notification connection is down', async () => {
  const lonely = createNotifier('postgres://nobody@127.0.0.1:1/none');
  const cache = createNotifiedCache<string>(lonely, { ttlMilliseconds: 60_000, maximumEntries: 10 });
  cache.set('a', 'value', cache.generation());
  assert.equal(cache.get('a'), undefined);
  await lonely.close();
});

test('a job changed by another process is read fresh once its change is committed', async () => {
  const boss = await startQueue({
    connectionString: database.connectionString,
    supervise: false,
    runExpirySeconds: 60,
  });
  after(() => boss.stop({ graceful: false, close: true }));
  const jobs = createJobService({
    pool: database.pool,
    boss,
    defaultModel: 'openai:x',
    cache: await createJobCache(notifier),
  });
  const { project } = await buildProjectWithKey(database.pool, { project: { repository: '/srv/x' } });
  const { body } = await jobs.create(project.id, 'cached');
  assert.equal((await jobs.get(project.id, body.id)).status, 'active');
  assert.equal((await jobs.get(project.id, body.id)).status, 'active'); // now from the cache
  // As a worker in another process would: a plain UPDATE on its own connection.
  await database.pool.query("UPDATE agent_jobs SET status = 'completed' WHERE id = $1", [body.id]);
  await eventually(async () => (await jobs.get(project.id, body.id)).status === 'completed', {
    timeoutMilliseconds: 1000,
  });
  // Another project's key never sees it, cached or not.
  await assert.rejects(jobs.get('prj_other', body.id), /not found/);
});
