import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createTestDatabase } from '../../test/database.ts';
import { buildProject } from '../../test/factories.ts';
import { RateLimitedError } from '../errors.ts';
import { updateProjectSettings } from '../projects/project-store.ts';
import { createRateLimiter, type RateLimit } from './rate-limit.ts';

const database = await createTestDatabase();
const agentLimit: RateLimit = { bucket: 'agent', limit: 1000, windowSeconds: 3600, projectSetting: 'limit' };

async function admitted(
  attempts: Array<() => Promise<void>>,
): Promise<{ admitted: number; refused: RateLimitedError[] }> {
  const outcomes = await Promise.allSettled(attempts.map((attempt) => attempt()));
  const refused = outcomes.flatMap((outcome) =>
    outcome.status === 'rejected' ? [outcome.reason as RateLimitedError] : [],
  );
  for (const error of refused) assert.ok(error instanceof RateLimitedError, String(error));
  return { admitted: outcomes.length - refused.length, refused };
}

async function counted(projectId: string): Promise<number> {
  const result = await database.pool.query(
    'SELECT sum(count)::int AS count FROM rate_limit_counters WHERE project_id = $1',
    [projectId],
  );
  return result.rows[0].count ?? 0;
}

test('processes sharing a project admit no more than its limit together, however the requests interleave', async () => {
  const project = await buildProject(database.pool);
  await updateProjectSettings(database.pool, project.id, { limit: 120 });
  // Two limiters are two API processes: each leases requests from the same counter.
  const first = createRateLimiter(database.pool, agentLimit);
  const second = createRateLimiter(database.pool, agentLimit);
  const attempts = Array.from(
    { length: 300 },
    (_, index) => () => (index % 3 === 0 ? second : first).consume(project.id),
  );
  const { admitted: count, refused } = await admitted(attempts);
  // Leases held unspent by one process are not available to the other: at most one lease each.
  assert.ok(count <= 120 && count >= 120 - 2 * 2, `admitted ${count}`);
  assert.equal(await counted(project.id), 120);
  assert.ok(refused[0]!.retryAfterSeconds >= 1 && refused[0]!.retryAfterSeconds <= 3600);
  assert.match(refused[0]!.message, /at most 120 agent requests per 3600 seconds/);
});

test('a small limit is counted one request at a time, so it is exact across processes', async () => {
  const project = await buildProject(database.pool);
  await updateProjectSettings(database.pool, project.id, { limit: 3 });
  const limiters = [
    createRateLimiter(database.pool, agentLimit),
    createRateLimiter(database.pool, agentLimit),
  ];
  const attempts = Array.from({ length: 10 }, (_, index) => () => limiters[index % 2]!.consume(project.id));
  assert.equal((await admitted(attempts)).admitted, 3);
  assert.equal(await counted(project.id), 3);
});

test('a large limit takes one round trip per lease, not per request', async () => {
  const project = await buildProject(database.pool);
  let queries = 0;
  const counting = {
    query: ((...args: Parameters<typeof database.pool.query>) => {
      queries += 1;
      return database.pool.query(...args);
    }) as typeof database.pool.query,
  };
  const limiter = createRateLimiter(counting, agentLimit);
  for (let request = 0; request < 201; request += 1) await limiter.consume(project.id);
  // The first lease is one request (the limit is not known yet), then 1000 / 50 = 20 per lease.
  assert.equal(queries, 1 + 10);
  assert.equal(await counted(project.id), 1 + 10 * 20);
});

test("lowering a project's limit takes effect at its next lease", async () => {
  const project = await buildProject(database.pool);
  const limiter = createRateLimiter(database.pool, agentLimit);
  await limiter.consume(project.id);
  await updateProjectSettings(database.pool, project.id, { limit: 1 });
  await assert.rejects(limiter.consume(project.id), RateLimitedError);
});
