import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildTestServices } from '../../../test/app.ts';
import { createTestDatabase } from '../../../test/database.ts';
import { bearer, buildProjectWithKey } from '../../../test/factories.ts';
import { insertApiKey } from '../../auth/api-key-store.ts';

const database = await createTestDatabase();
const { app } = await buildTestServices(database, {
  environment: { QUIRE_MODEL: 'anthropic:claude-sonnet-4-5' },
});
const { project, key } = await buildProjectWithKey(database.pool, {
  project: { repository: '/srv/docs', ref: 'main' },
});
const other = await buildProjectWithKey(database.pool);
const json = { ...bearer(key), 'content-type': 'application/json' };
const base = `/v2/agent/${project.id}/automations`;

const mergeAutomation = {
  name: 'Docs follow the CLI',
  trigger: { type: 'merge', repository: 'acme/cli', branch: 'main', paths: ['src/commands/**'] },
  prompt: 'Update the CLI reference for this change.',
};

function create(body: unknown, headers: Record<string, string> = json) {
  return app.inject({ method: 'POST', url: base, headers, payload: body as Record<string, unknown> });
}

async function count(table: string): Promise<number> {
  return (await database.pool.query(`SELECT count(*)::int AS n FROM ${table}`)).rows[0].n;
}

describe('automations resource', () => {
  test('creates (201) with defaults, reads, lists, changes and deletes', async () => {
    const created = await create(mergeAutomation);
    assert.equal(created.statusCode, 201);
    const automation = created.json();
    assert.match(automation.id, /^aut_/);
    assert.equal(automation.enabled, true);
    assert.equal(automation.mode, 'pull-request-per-change');
    assert.deepEqual(automation.limits, { maxTokensPerJob: null });
    assert.deepEqual(automation.trigger, mergeAutomation.trigger);

    const read = await app.inject({ method: 'GET', url: `${base}/${automation.id}`, headers: bearer(key) });
    assert.deepEqual(read.json(), automation);
    const list = await app.inject({ method: 'GET', url: base, headers: bearer(key) });
    assert.deepEqual(
      list.json().automations.map((item: { id: string }) => item.id),
      [automation.id],
    );

    const changed = await app.inject({
      method: 'PATCH',
      url: `${base}/${automation.id}`,
      headers: json,
      payload: { enabled: false, mode: 'continue-pull-request', limits: { maxTokensPerJob: 50_000 } },
    });
    assert.equal(changed.statusCode, 200);
    assert.equal(changed.json().enabled, false);
    assert.equal(changed.json().mode, 'continue-pull-request');
    assert.deepEqual(changed.json().limits, { maxTokensPerJob: 50_000 });
    assert.equal(changed.json().prompt, mergeAutomation.prompt);

    const removed = await app.inject({
      method: 'DELETE',
      url: `${base}/${automation.id}`,
      headers: bearer(key),
    });
    assert.equal(removed.statusCode, 204);
    const gone = await app.inject({ method: 'GET', url: `${base}/${automation.id}`, headers: bearer(key) });
    assert.equal(gone.statusCode, 404);
    assert.equal(gone.json().error, 'Automation not found');
  });

  test('a schedule keeps its cron and time zone; a bad cron, time zone or too frequent schedule is 400', async () => {
    const good = await create({
      name: 'Weekly review',
      trigger: { type: 'schedule', cron: '0 9 * * MON', timeZone: 'Europe/Berlin' },
      prompt: 'Look for stale pages.',
    });
    assert.equal(good.statusCode, 201);
    assert.deepEqual(good.json().trigger, {
      type: 'schedule',
      cron: '0 9 * * MON',
      timeZone: 'Europe/Berlin',
    });
    const before = await count('automations');
    for (const trigger of [
      { type: 'schedule', cron: 'every tuesday', timeZone: 'UTC' },
      { type: 'schedule', cron: '0 9 * * *', timeZone: 'Mars/Olympus' },
      { type: 'schedule', cron: '* * * * * *', timeZone: 'UTC' },
    ]) {
      const response = await create({ name: 'x', trigger, prompt: 'y' });
      assert.equal(response.statusCode, 400, JSON.stringify(trigger));
      assert.equal(typeof response.json().error, 'string');
    }
    assert.equal(await count('automations'), before);
  });

  const invalid: [string, unknown][] = [
    ['an unknown trigger type', { ...mergeAutomation, trigger: { type: 'tag' } }],
    [
      'a merge trigger without a branch',
      { ...mergeAutomation, trigger: { type: 'merge', repository: 'a/b' } },
    ],
    [
      'a branch with ..',
      { ...mergeAutomation, trigger: { type: 'merge', repository: 'a/b', branch: 'a..b' } },
    ],
    ['an empty prompt', { ...mergeAutomation, prompt: '' }],
    ['an unknown mode', { ...mergeAutomation, mode: 'sometimes' }],
    ['an unknown field', { ...mergeAutomation, owner: 'me' }],
    ['a token limit below 1,000', { ...mergeAutomation, limits: { maxTokensPerJob: 5 } }],
  ];
  for (const [name, body] of invalid) {
    test(`rejects ${name} with 400 and stores nothing`, async () => {
      const before = await count('automations');
      const response = await create(body);
      assert.equal(response.statusCode, 400);
      assert.equal(typeof response.json().error, 'string');
      assert.equal(await count('automations'), before);
    });
  }

  test('same keys and scopes as the job API: 401 without a key, 403 read-only or another project', async () => {
    const anonymous = await create(mergeAutomation, { 'content-type': 'application/json' });
    assert.equal(anonymous.statusCode, 401);
    const { secret } = await insertApiKey(database.pool, {
      projectId: project.id,
      name: 'r',
      scopes: ['read'],
    });
    assert.equal(
      (await create(mergeAutomation, { ...bearer(secret), 'content-type': 'application/json' })).statusCode,
      403,
    );
    assert.equal((await app.inject({ method: 'GET', url: base, headers: bearer(secret) })).statusCode, 200);
    const foreign = await app.inject({ method: 'GET', url: base, headers: bearer(other.key) });
    assert.equal(foreign.statusCode, 403);
  });

  test("another project's automation is 404 through that project's own key", async () => {
    const mine = (await create(mergeAutomation)).json();
    const response = await app.inject({
      method: 'GET',
      url: `/v2/agent/${other.project.id}/automations/${mine.id}`,
      headers: bearer(other.key),
    });
    assert.equal(response.statusCode, 404);
  });
});

describe('POST /v2/agent/{projectId}/automations/{id}/trigger', () => {
  test('starts an ordinary job with the trigger field, a trigger event and the prompt as first message', async () => {
    const automation = (await create({ ...mergeAutomation, name: 'manual one' })).json();
    const response = await app.inject({
      method: 'POST',
      url: `${base}/${automation.id}/trigger`,
      headers: bearer(key),
    });
    assert.equal(response.statusCode, 201);
    const job = response.json();
    assert.equal(job.status, 'active');
    assert.deepEqual(job.trigger, {
      type: 'manual',
      automationId: automation.id,
      source: { url: null, commit: null, title: null },
    });
    const read = await app.inject({
      method: 'GET',
      url: `/v2/agent/${project.id}/job/${job.id}`,
      headers: bearer(key),
    });
    assert.deepEqual(read.json(), job);
    const events = (
      await app.inject({
        method: 'GET',
        url: `/v2/agent/${project.id}/job/${job.id}/events`,
        headers: bearer(key),
      })
    ).json().events;
    const types = events.map((event: { type: string }) => event.type);
    assert.deepEqual(types, ['job-create', 'message-create', 'trigger']);
    assert.ok(events[1].data.prompt.startsWith(mergeAutomation.prompt));
    const history = await app.inject({
      method: 'GET',
      url: `${base}/${automation.id}/jobs`,
      headers: bearer(key),
    });
    assert.deepEqual(
      history.json().jobs.map((item: { id: string }) => item.id),
      [job.id],
    );
  });

  test('honours Idempotency-Key: a repeat returns the same job and starts nothing', async () => {
    const automation = (await create({ ...mergeAutomation, name: 'idempotent' })).json();
    const headers = { ...bearer(key), 'idempotency-key': 'trigger-1' };
    const url = `${base}/${automation.id}/trigger`;
    const before = await count('agent_jobs');
    const first = await app.inject({ method: 'POST', url, headers });
    const second = await app.inject({ method: 'POST', url, headers });
    assert.equal(first.statusCode, 201);
    assert.equal(second.statusCode, 201);
    assert.deepEqual(second.json(), first.json());
    assert.equal(await count('agent_jobs'), before + 1);
  });

  test('a disabled automation is 409; an unknown one 404; ordinary jobs have trigger null', async () => {
    const automation = (await create({ ...mergeAutomation, enabled: false })).json();
    const disabled = await app.inject({
      method: 'POST',
      url: `${base}/${automation.id}/trigger`,
      headers: bearer(key),
    });
    assert.equal(disabled.statusCode, 409);
    const unknown = await app.inject({
      method: 'POST',
      url: `${base}/aut_nothing/trigger`,
      headers: bearer(key),
    });
    assert.equal(unknown.statusCode, 404);
    const ordinary = await app.inject({
      method: 'POST',
      url: `/v2/agent/${project.id}/job`,
      headers: json,
      payload: { prompt: 'Fix a typo' },
    });
    assert.equal(ordinary.json().trigger, null);
  });
});

test('the OpenAPI document lists the automation routes and the hook receivers', async () => {
  const document = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
  const paths = Object.keys(document.paths);
  for (const expected of [
    '/v2/agent/{projectId}/automations',
    '/v2/agent/{projectId}/automations/{id}',
    '/v2/agent/{projectId}/automations/{id}/trigger',
    '/v2/agent/{projectId}/automations/{id}/jobs',
    '/v1/hooks/{projectId}/github',
    '/v1/hooks/{projectId}/gitlab',
  ]) {
    assert.ok(paths.includes(expected), expected);
  }
  assert.ok(document.paths['/v2/agent/{projectId}/automations/{id}'].patch);
  const job =
    document.paths['/v2/agent/{projectId}/job/{id}'].get.responses['200'].content['application/json'].schema;
  assert.ok(job.properties.trigger);
});
