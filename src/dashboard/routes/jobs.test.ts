// The agent job pages: start a job, watch it, follow up, archive, filter; with the fake agent.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { buildTestServices } from '../../../test/app.ts';
import { buildDashboardUser, formPost, signInSession } from '../../../test/dashboard.ts';
import { createTestDatabase } from '../../../test/database.ts';
import { buildProject } from '../../../test/factories.ts';
import { createFakeAgentRunner } from '../../../test/fake-agent-runner.ts';
import { eventually } from '../../../test/poll.ts';
import { updateProjectSettings } from '../../projects/project-store.ts';

const database = await createTestDatabase();
const services = await buildTestServices(database, { environment: { QUIRE_MODEL: 'openai:gpt-test' } });
const { app } = services;
await services.startWorker(createFakeAgentRunner());
const project = await buildProject(database.pool, { repository: '/srv/docs' });
// The fake agent reports 100 input and 10 output tokens per instruction: $1.10 at this price.
await updateProjectSettings(database.pool, project.id, {
  modelPrices: { 'openai:gpt-test': { input: 10_000, output: 10_000 } },
});
const session = await signInSession(app, await buildDashboardUser(database.pool));
const jobsUrl = `/dashboard/projects/${project.id}/jobs`;

async function startJob(prompt: string, projectId = project.id) {
  const response = await formPost(app, `/dashboard/projects/${projectId}/jobs`, session, {
    _csrf: session.csrfToken,
    prompt,
  });
  return response;
}

function page(url: string) {
  return app.inject({ method: 'GET', url, headers: session.headers });
}

test('a job started from the form runs to completion, and its page shows the result', async () => {
  const created = await startJob('Document <script>alert(1)</script> the --dry-run flag');
  assert.equal(created.statusCode, 303);
  const jobUrl = created.headers.location!;
  assert.match(jobUrl, new RegExp(`^${jobsUrl}/job_\\w+$`));
  const done = await eventually(async () => {
    const response = await page(jobUrl);
    return response.body.includes('class="badge completed"') ? response : undefined;
  });
  assert.equal(done.body.includes('<script>alert(1)'), false, 'the prompt is escaped');
  assert.match(done.body, /Document &#60;script&#62;alert\(1\)&#60;\/script&#62; the --dry-run flag/);
  assert.match(done.body, /<a href="https:\/\/git\.example\/pulls\/job_\w+" rel="noreferrer">/);
  assert.match(
    done.body,
    /<li class="agent"><span class="visually-hidden">Agent: <\/span>Carried out 1 instruction/,
  );
  assert.match(done.body, /<span class="type">Status<\/span>/);
  assert.match(done.body, /Usage: 100 input tokens, 10 output tokens · estimated cost \$1\.10/);
  assert.doesNotMatch(done.body, /data-stream=/, 'a settled job opens no live stream');

  const list = await page(jobsUrl);
  assert.match(list.body, /<span class="badge completed">completed<\/span>/);
  assert.match(list.body, /git\.example\/pulls/);
});

test('follow-ups and archive; an archived job refuses follow-ups', async () => {
  const jobUrl = (await startJob('First')).headers.location!;
  await eventually(async () => (await page(jobUrl)).body.includes('badge completed'));
  const followed = await formPost(app, `${jobUrl}/messages`, session, {
    _csrf: session.csrfToken,
    prompt: 'Second',
  });
  assert.equal(followed.statusCode, 303);
  assert.equal(followed.headers.location, `${jobUrl}?done=message`);
  const second = await eventually(async () => {
    const response = await page(jobUrl);
    const answers = response.body.match(/<li class="agent">/g) ?? [];
    return answers.length === 2 && response.body.includes('badge completed') ? response : undefined;
  });
  assert.match(second.body, /<li class="user"><span class="visually-hidden">You: <\/span>Second<\/li>/);
  const archived = await formPost(app, `${jobUrl}/archive`, session, { _csrf: session.csrfToken });
  assert.equal(archived.headers.location, `${jobUrl}?done=archived`);
  const archivedPage = await page(archived.headers.location!);
  assert.match(archivedPage.body, /badge archived/);
  assert.match(archivedPage.body, /it takes no more instructions/);
  const refused = await formPost(app, `${jobUrl}/messages`, session, {
    _csrf: session.csrfToken,
    prompt: 'Third',
  });
  assert.equal(refused.statusCode, 409);
  assert.match(refused.body, /archived/);

  const onlyArchived = await page(`${jobsUrl}?status=archived`);
  assert.ok(onlyArchived.body.includes(jobUrl.split('/').at(-1)!));
  const onlyFailed = await page(`${jobsUrl}?status=failed`);
  assert.match(onlyFailed.body, /No failed jobs/);
});

test('an empty instruction is refused and creates nothing', async () => {
  const before = (await database.pool.query('SELECT count(*)::int AS n FROM agent_jobs')).rows[0].n;
  const response = await startJob('   ');
  assert.equal(response.statusCode, 400);
  assert.match(response.body, /1 to 20,000 characters/);
  assert.equal((await database.pool.query('SELECT count(*)::int AS n FROM agent_jobs')).rows[0].n, before);
});

test('starting jobs counts against the project agent rate limit', async () => {
  const limited = await buildProject(database.pool, { repository: '/srv/limited' });
  await updateProjectSettings(database.pool, limited.id, { agentRateLimitPerHour: 1 });
  assert.equal((await startJob('one', limited.id)).statusCode, 303);
  const refused = await startJob('two', limited.id);
  assert.equal(refused.statusCode, 429);
  assert.ok(Number(refused.headers['retry-after']) >= 1);
});

test('the live log streams escaped events of an active job as they commit', async () => {
  const jobUrl = (await startJob('wait 1500 then <b>finish</b>')).headers.location!;
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  after(() => app.close());
  const controller = new AbortController();
  const response = await fetch(`${address}${jobUrl}/events?after=0`, {
    headers: { cookie: session.cookie, accept: 'text/event-stream' },
    signal: controller.signal,
  });
  assert.equal(response.status, 200);
  assert.match(response.headers.get('content-type') ?? '', /text\/event-stream/);
  const reader = response.body!.getReader();
  let text = '';
  while (!text.includes('completed')) {
    const { value, done } = await reader.read();
    if (done) break;
    text += new TextDecoder().decode(value);
  }
  controller.abort();
  const messages = text.split('\n\n').filter((block) => block.startsWith('id: '));
  assert.ok(messages.length >= 4, text);
  assert.doesNotMatch(text, /\nevent: /, 'plain messages');
  const items = messages.map((block) => JSON.parse(block.split('\ndata: ')[1]!));
  assert.ok(items.some((item) => item.html.includes('then &#60;b&#62;finish&#60;/b&#62;')));
  assert.equal(items.at(-1).status, 'completed');
  const anonymous = await fetch(`${address}${jobUrl}/events`, { headers: { accept: 'text/event-stream' } });
  assert.equal(anonymous.status, 401);
});
