// The comment box of the local code host's review page: a signed-in user's comment, posted with the
// form the page renders (and its CSRF token), becomes a follow-up of the review's job on the same
// branch; when the run ends, the worker's reply (the run's summary) appears in the page's
// conversation. API keys, forms without the token, empty comments, merged reviews and archived
// jobs are refused.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { buildTestServices, testCodeHosts } from '../../../test/app.ts';
import { buildDashboardUser, formPost, signInSession } from '../../../test/dashboard.ts';
import { createTestDatabase } from '../../../test/database.ts';
import { bearer, buildProjectWithKey } from '../../../test/factories.ts';
import { createFakeAgentRunner } from '../../../test/fake-agent-runner.ts';
import { eventually } from '../../../test/poll.ts';
import { createRepository, git, temporaryDirectory, writeFiles } from '../../../test/temporary-repository.ts';
import { startAutomationWorker } from '../../automations/automation-worker.ts';
import { createPostgresReviewStore } from '../../code-hosts/local/review-store-postgres.ts';

const directory = temporaryDirectory();
const database = await createTestDatabase();
const services = await buildTestServices(database, {
  environment: { QUIRE_MODEL: 'openai:gpt-test', QUIRE_PUBLIC_URL: 'http://quire.test' },
});
const { app, boss } = services;
await services.startWorker(createFakeAgentRunner());
const worker = await startAutomationWorker({
  pool: database.pool,
  boss,
  defaultModel: 'openai:gpt-test',
  codeHostFor: testCodeHosts(database),
  log: () => {},
  replyIntervalMilliseconds: 3_600_000,
});
after(async () => {
  await worker.stop();
  directory.cleanup();
});
const user = await buildDashboardUser(database.pool, { email: 'dana@example.com' });
const session = await signInSession(app, user);
const store = createPostgresReviewStore(database.pool);

/** A finished job on a local repository whose run opened a review of its branch. */
async function reviewedJob(name: string) {
  const repository = createRepository(join(directory.path, name), { 'index.md': '# Docs\n\nInstal it.\n' });
  const { project, key } = await buildProjectWithKey(database.pool, {
    project: { repository, codeHost: 'local' },
  });
  const created = await app.inject({
    method: 'POST',
    url: `/v2/agent/${project.id}/job`,
    headers: bearer(key),
    payload: { prompt: 'Fix the typo' },
  });
  const jobId: string = created.json().id;
  const job = () =>
    app
      .inject({ method: 'GET', url: `/v2/agent/${project.id}/job/${jobId}`, headers: bearer(key) })
      .then((response) => response.json() as { status: string; prLink: string | null });
  await eventually(async () => (await job()).status === 'completed');
  const branch = `quire/${name}-fix`;
  git(repository, 'checkout', '-q', '-b', branch);
  writeFiles(repository, { 'index.md': '# Docs\n\nInstall it.\n' });
  git(repository, 'commit', '-q', '-am', 'Fix the typo');
  git(repository, 'checkout', '-q', 'main');
  const { review } = await store.upsert({
    projectId: project.id,
    jobId,
    repository,
    branch,
    baseRef: 'main',
    title: 'Fix the typo',
    body: 'Fixed "Instal".',
  });
  const url = `http://quire.test/review/${review.id}`;
  await database.pool.query('UPDATE agent_jobs SET pull_request_url = $2, branch = $3 WHERE id = $1', [
    jobId,
    url,
    branch,
  ]);
  return { project, key, jobId, review, job, page: () => pageOf(review.id) };
}

function pageOf(reviewId: string) {
  return app.inject({ method: 'GET', url: `/review/${reviewId}`, headers: session.headers });
}

async function prompts(jobId: string): Promise<string[]> {
  const result = await database.pool.query<{ prompt: string }>(
    'SELECT prompt FROM agent_job_messages WHERE job_id = $1 ORDER BY created_at, id',
    [jobId],
  );
  return result.rows.map((row) => row.prompt);
}

describe('comments on review pages', () => {
  it('become a follow-up of the job on its branch, and Quire answers in the conversation when the run ends', async () => {
    const { jobId, review, job, page } = await reviewedJob('answered');
    const before = await page();
    assert.match(before.body, /No comments yet\./);
    // The form the page renders is what a browser posts: an urlencoded body with the CSRF field.
    const form =
      /<form method="post" action="([^"]+)" class="comment-form"><input type="hidden" name="_csrf" value="([^"]+)"><label for="comment-body">Comment for Quire<\/label><textarea id="comment-body" name="body"/.exec(
        before.body,
      );
    assert.ok(form, before.body);
    const posted = await app.inject({
      method: 'POST',
      url: form[1]!,
      headers: { cookie: session.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        _csrf: form[2]!,
        body: 'Also say which <version> to install.\r\nThanks!',
      }).toString(),
    });
    assert.equal(posted.statusCode, 303, posted.body);
    assert.equal(posted.headers.location, `/review/${review.id}?commented=1#conversation`);

    const [, followUp] = await prompts(jobId);
    assert.match(
      String(followUp),
      /^dana@example\.com, a reviewer with write access, commented on your pull request\./,
    );
    assert.match(
      String(followUp),
      /<review-comment>\nAlso say which <version> to install\.\nThanks!\n<\/review-comment>/,
    );
    const waiting = await app.inject({
      method: 'GET',
      url: posted.headers.location!,
      headers: session.headers,
    });
    assert.match(waiting.body, /Comment sent to Quire\./);
    assert.match(
      waiting.body,
      /<li class="user"><p class="meta"><strong>dana@example\.com<\/strong> · <time[^>]*>[^<]+<\/time><\/p><div class="body">Also say which &#60;version&#62; to install\.\nThanks!<\/div><\/li>/,
    );
    assert.match(waiting.body, /Quire is working on the last comment/);

    await eventually(async () => (await job()).status === 'completed');
    assert.equal((await job()).prLink, `http://quire.test/review/${review.id}`, 'the same review');
    assert.equal(await worker.replyToConversations(), 1);
    const answered = await page();
    assert.match(
      answered.body,
      /<li class="quire"><p class="meta"><strong>Quire<\/strong> · <time[^>]*>[^<]+<\/time><\/p><div class="body">Carried out 1 instruction\(s\)<\/div><\/li>/,
    );
    assert.doesNotMatch(answered.body, /Quire is working on the last comment/);
    assert.doesNotMatch(answered.body, /quire-reply/, 'no marker on the local page');
    assert.equal(await worker.replyToConversations(), 0, 'answered once');
  });

  it('need a signed-in user and the CSRF token; an API key cannot comment', async () => {
    const { key, jobId, review } = await reviewedJob('refused');
    const url = `/review/${review.id}/comments`;
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const anonymous = await app.inject({ method: 'POST', url, headers: form, payload: 'body=hello' });
    assert.equal(anonymous.statusCode, 401);
    // A read-write key of the review's own project.
    const withKey = await app.inject({
      method: 'POST',
      url,
      headers: { ...form, ...bearer(key) },
      payload: 'body=hello',
    });
    assert.equal(withKey.statusCode, 401);
    assert.equal((await formPost(app, url, session, { body: 'hello' })).statusCode, 403, 'no token');
    assert.equal(
      (await formPost(app, url, session, { _csrf: 'x'.repeat(43), body: 'hello' })).statusCode,
      403,
      'a wrong token',
    );
    const empty = await formPost(app, url, session, { _csrf: session.csrfToken, body: '  \r\n ' });
    assert.equal(empty.statusCode, 400);
    assert.match(empty.body, /Write a comment first/, 'a browser gets the error page');
    const tooLong = await formPost(app, url, session, { _csrf: session.csrfToken, body: 'x'.repeat(10_001) });
    assert.equal(tooLong.statusCode, 400);
    assert.match(tooLong.body, /A comment is 1 to 10,000 characters/);
    const unknown = await formPost(app, '/review/rev_doesnotexist/comments', session, {
      _csrf: session.csrfToken,
      body: 'hello',
    });
    assert.equal(unknown.statusCode, 404);
    assert.equal((await prompts(jobId)).length, 1, 'nothing reached the job');
    assert.equal((await store.listComments(review.id)).length, 0);
  });

  it('are refused on a merged review and on an archived job, and the merged page has no comment box', async () => {
    const merged = await reviewedJob('merged');
    const mergedPost = await formPost(app, `/review/${merged.review.id}/merge`, session, {
      _csrf: session.csrfToken,
    });
    assert.equal(mergedPost.statusCode, 303);
    const onMerged = await formPost(app, `/review/${merged.review.id}/comments`, session, {
      _csrf: session.csrfToken,
      body: 'One more thing',
    });
    assert.equal(onMerged.statusCode, 409);
    assert.match(onMerged.body, /This review is merged; start a new agent job/);
    assert.doesNotMatch((await merged.page()).body, /comment-form/);

    const archived = await reviewedJob('archived');
    const archive = await app.inject({
      method: 'POST',
      url: `/v2/agent/${archived.project.id}/job/${archived.jobId}/archive`,
      headers: bearer(archived.key),
    });
    assert.equal(archive.statusCode, 200, archive.body);
    const onArchived = await formPost(app, `/review/${archived.review.id}/comments`, session, {
      _csrf: session.csrfToken,
      body: 'One more thing',
    });
    assert.equal(onArchived.statusCode, 409);
    assert.equal((await prompts(archived.jobId)).length, 1);
    assert.equal((await store.listComments(archived.review.id)).length, 0, 'rolled back');
  });
});
