// The automations pages: create from the form, enable and disable, run now, history with usage.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildTestServices } from '../../../test/app.ts';
import { buildDashboardUser, formPost, signInSession } from '../../../test/dashboard.ts';
import { createTestDatabase } from '../../../test/database.ts';
import { buildProject } from '../../../test/factories.ts';
import { createFakeAgentRunner } from '../../../test/fake-agent-runner.ts';
import { eventually } from '../../../test/poll.ts';

const database = await createTestDatabase();
const services = await buildTestServices(database, { environment: { QUIRE_MODEL: 'openai:gpt-test' } });
const { app } = services;
await services.startWorker(createFakeAgentRunner());
const project = await buildProject(database.pool, { repository: '/srv/docs' });
const session = await signInSession(app, await buildDashboardUser(database.pool));
const automationsUrl = `/dashboard/projects/${project.id}/automations`;
const post = (path: string, fields: Record<string, string>) =>
  formPost(app, path, session, { _csrf: session.csrfToken, ...fields });
const page = async (url: string) => (await app.inject({ method: 'GET', url, headers: session.headers })).body;
const count = async () =>
  (
    await database.pool.query('SELECT count(*)::int AS n FROM automations WHERE project_id = $1', [
      project.id,
    ])
  ).rows[0].n as number;

test('an automation created from the form is listed; a bad schedule is explained and stores nothing', async () => {
  const bad = await post(automationsUrl, {
    name: 'Weekly review',
    triggerType: 'schedule',
    cron: 'every monday',
    timeZone: 'UTC',
    prompt: 'Review the changelog.',
    mode: 'pull-request-per-change',
  });
  assert.equal(bad.statusCode, 400);
  assert.match(bad.body, /cron/i);
  assert.match(bad.body, /value="every monday"/, 'the form comes back as typed');
  assert.equal(await count(), 0);

  const created = await post(automationsUrl, {
    name: 'Docs follow <b>the CLI</b>',
    triggerType: 'merge',
    repository: '/srv/docs',
    branch: 'main',
    paths: 'src/**\n\ncli/*.ts',
    prompt: 'Update the CLI reference for this change.',
    mode: 'continue-pull-request',
    maxTokensPerJob: '150000',
  });
  assert.equal(created.statusCode, 303);
  const body = await page(automationsUrl);
  assert.match(body, /Docs follow &#60;b&#62;the CLI&#60;\/b&#62;/);
  assert.match(body, /merge into main of \/srv\/docs \(paths src\/\*\*, cli\/\*\.ts\)/);
  assert.match(body, /continue-pull-request/);
  const row = (
    await database.pool.query('SELECT limits FROM automations WHERE project_id = $1', [project.id])
  ).rows[0];
  assert.deepEqual(row.limits, { maxTokensPerJob: 150_000 });
});

test('disable and enable; run now starts a job, and the history shows it with its usage', async () => {
  const manual = await post(automationsUrl, {
    name: 'By hand',
    triggerType: 'manual',
    prompt: 'Check every page for broken links.',
    mode: 'pull-request-per-change',
  });
  assert.equal(manual.statusCode, 303);
  const id = (
    await database.pool.query("SELECT id FROM automations WHERE project_id = $1 AND name = 'By hand'", [
      project.id,
    ])
  ).rows[0].id as string;
  const automationUrl = `${automationsUrl}/${id}`;
  await post(`${automationUrl}/disable`, {});
  assert.match(await page(automationUrl), /<span class="badge ">disabled<\/span>/);
  assert.doesNotMatch(await page(automationUrl), /Run now/);
  await post(`${automationUrl}/enable`, {});

  const noToken = await formPost(app, `${automationUrl}/trigger`, session, {});
  assert.equal(noToken.statusCode, 403, 'CSRF token required');
  const started = await post(`${automationUrl}/trigger`, {});
  assert.equal(started.statusCode, 303);
  assert.match(
    String(started.headers.location),
    new RegExp(`/dashboard/projects/${project.id}/jobs/job_\\w+$`),
  );
  const history = await eventually(async () => {
    const body = await page(automationUrl);
    return body.includes('class="badge completed">completed') ? body : undefined;
  });
  assert.match(history, /Usage: 100 input tokens, 10 output tokens · estimated cost \$0\.00/);
});
