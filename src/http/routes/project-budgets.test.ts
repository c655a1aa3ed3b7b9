// GET|PATCH /v1/projects/{projectId}/budgets, and the job's usage field in the OpenAPI document.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildTestServices } from '../../../test/app.ts';
import { createTestDatabase } from '../../../test/database.ts';
import { bearer, buildProjectWithKey } from '../../../test/factories.ts';
import { insertApiKey } from '../../auth/api-key-store.ts';
import { findProject } from '../../projects/project-store.ts';

const database = await createTestDatabase();
const { app } = await buildTestServices(database);
const { project, key } = await buildProjectWithKey(database.pool);
const url = `/v1/projects/${project.id}/budgets`;
const patch = (payload: unknown, headers = bearer(key)) =>
  app.inject({ method: 'PATCH', url, headers, payload: payload as Record<string, unknown> });

test('budgets are read, set, and removed with null', async () => {
  const empty = await app.inject({ method: 'GET', url, headers: bearer(key) });
  assert.equal(empty.statusCode, 200, empty.body);
  assert.deepEqual(empty.json(), { monthlyBudgetUsd: null, maxTokensPerJob: null, spentThisMonthUsd: 0 });
  const set = await patch({ monthlyBudgetUsd: 40.5, maxTokensPerJob: 250_000 });
  assert.equal(set.statusCode, 200, set.body);
  assert.deepEqual(set.json(), { monthlyBudgetUsd: 40.5, maxTokensPerJob: 250_000, spentThisMonthUsd: 0 });
  const kept = await patch({ maxTokensPerJob: null });
  assert.deepEqual(kept.json(), { monthlyBudgetUsd: 40.5, maxTokensPerJob: null, spentThisMonthUsd: 0 });
  assert.equal((await findProject(database.pool, project.id))?.settings.maxTokensPerJob, undefined);
});

test('bad budgets are 400 with details and change nothing; a read-only key is 403', async () => {
  const before = (await findProject(database.pool, project.id))?.settings;
  for (const body of [
    { monthlyBudgetUsd: -1 },
    { maxTokensPerJob: 1.5 },
    { monthlyBudgetUsd: '10' },
    { other: 1 },
  ]) {
    const response = await patch(body);
    assert.equal(response.statusCode, 400, JSON.stringify(body));
    assert.ok((response.json() as { error: string }).error.length > 0);
  }
  const readOnly = await insertApiKey(database.pool, { projectId: project.id, name: 'ro', scopes: ['read'] });
  assert.equal((await patch({ monthlyBudgetUsd: 1 }, bearer(readOnly.secret))).statusCode, 403);
  assert.deepEqual((await findProject(database.pool, project.id))?.settings, before);
  const other = await buildProjectWithKey(database.pool);
  const foreign = await app.inject({ method: 'GET', url, headers: bearer(other.key) });
  assert.equal(foreign.statusCode, 403);
});

test('the OpenAPI document lists the budgets and the job usage field', async () => {
  const document = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
  const paths = document.paths as Record<string, Record<string, unknown>>;
  assert.ok(paths['/v1/projects/{projectId}/budgets']?.get);
  assert.ok(paths['/v1/projects/{projectId}/budgets']?.patch);
  const job = JSON.stringify(paths['/v2/agent/{projectId}/job/{id}']);
  assert.match(job, /"estimatedCost"/);
  assert.match(job, /"cachedInputTokens"/);
});
