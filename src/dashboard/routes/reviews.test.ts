import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { buildTestApp } from '../../../test/app.ts';
import { buildDashboardUser, formPost, signInSession } from '../../../test/dashboard.ts';
import { createTestDatabase } from '../../../test/database.ts';
import { buildProject } from '../../../test/factories.ts';
import { createRepository, git, temporaryDirectory } from '../../../test/temporary-repository.ts';
import { insertApiKey } from '../../auth/api-key-store.ts';
import { createPostgresReviewStore } from '../../code-hosts/local/review-store-postgres.ts';

describe('review pages of the local code host', async () => {
  const database = await createTestDatabase();
  const app = await buildTestApp(database);
  const directory = temporaryDirectory();
  after(async () => {
    await app.close();
    directory.cleanup();
  });
  const store = createPostgresReviewStore(database.pool);
  const session = await signInSession(app, await buildDashboardUser(database.pool));

  async function keyOf(projectId: string, scopes: ('read' | 'write')[] = ['read']) {
    const { secret } = await insertApiKey(database.pool, { projectId, name: 'reviewer', scopes });
    return { authorization: `Bearer ${secret}` };
  }

  function merge(reviewId: string) {
    return formPost(app, `/review/${reviewId}/merge`, session, { _csrf: session.csrfToken });
  }

  async function reviewWithBranch(files: Record<string, string>) {
    const repository = createRepository(join(directory.path, `repo-${Math.random().toString(36).slice(2)}`), {
      'index.md': '# Home\n\nHello.\n',
    });
    const project = await buildProject(database.pool, { repository });
    git(repository, 'checkout', '--quiet', '-b', 'quire/abc-change');
    for (const [path, content] of Object.entries(files)) writeFileSync(join(repository, path), content);
    git(repository, 'add', '--all');
    git(repository, 'commit', '--quiet', '-m', 'Change');
    git(repository, 'checkout', '--quiet', 'main');
    const { review } = await store.upsert({
      projectId: project.id,
      jobId: 'job_1',
      repository,
      branch: 'quire/abc-change',
      baseRef: 'main',
      title: 'Say <hello>',
      body: 'Changed the greeting.',
    });
    return { repository, project, review };
  }

  it('stores one open review per branch: a second upsert updates it', async () => {
    const { project, review } = await reviewWithBranch({ 'index.md': '# Home\n\nHi.\n' });
    const again = await store.upsert({
      projectId: project.id,
      jobId: 'job_1',
      repository: review.repository,
      branch: review.branch,
      baseRef: 'main',
      title: 'New title',
      body: 'New body',
    });
    assert.equal(again.created, false);
    assert.equal(again.review.id, review.id);
    assert.equal((await store.get(review.id))?.title, 'New title');
    assert.match(review.id, /^rev_[0-9a-z]{20}$/);
  });

  it('shows title, summary and diff, escaped, to a signed-in user, with a working Merge form', async () => {
    const { review } = await reviewWithBranch({ 'index.md': '# Home\n\nHi <script>alert(1)</script>.\n' });
    const response = await app.inject({
      method: 'GET',
      url: `/review/${review.id}`,
      headers: session.headers,
    });
    assert.equal(response.statusCode, 200);
    assert.match(response.headers['content-type'] ?? '', /text\/html/);
    assert.match(response.body, /<h1>Say &#60;hello&#62;<\/h1>/);
    assert.match(response.body, /Changed the greeting\./);
    assert.match(response.body, /<span class="removed">-Hello\.<\/span>/);
    assert.match(
      response.body,
      /<span class="added">\+Hi &#60;script&#62;alert\(1\)&#60;\/script&#62;\.<\/span>/,
    );
    assert.match(response.body, /Merge into main/);
    assert.match(response.headers['content-security-policy'] as string, /frame-ancestors 'none'/);
    assert.match(response.headers['content-security-policy'] as string, /script-src 'self'/);
    assert.equal(response.headers['x-frame-options'], 'DENY');
    assert.doesNotMatch(response.body, /<style>|style=/, 'no inline style: the CSP forbids it');
    const missing = await app.inject({
      method: 'GET',
      url: '/review/rev_doesnotexist',
      headers: session.headers,
    });
    assert.equal(missing.statusCode, 404);
    const bad = await app.inject({ method: 'GET', url: '/review/..%2F..%2Fetc', headers: session.headers });
    assert.equal(bad.statusCode, 400);
    // The form the page renders is what a browser posts: an urlencoded body with the CSRF field.
    const form =
      /<form method="post" action="([^"]+)"><input type="hidden" name="_csrf" value="([^"]+)">/.exec(
        response.body,
      );
    assert.ok(form, response.body);
    const posted = await app.inject({
      method: 'POST',
      url: form[1]!,
      headers: { cookie: session.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: `_csrf=${encodeURIComponent(form[2]!)}`,
    });
    assert.equal(posted.statusCode, 303, posted.body);
  });

  it('is not readable from the link alone: a session or an API key of its project', async () => {
    const { review, project } = await reviewWithBranch({ 'index.md': '# Home\n\nHi.\n' });
    const url = `/review/${review.id}`;
    const anonymous = await app.inject({ method: 'GET', url });
    assert.equal(anonymous.statusCode, 401);
    assert.deepEqual(Object.keys(anonymous.json()), ['error']);
    const browser = await app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
    assert.equal(browser.statusCode, 303);
    assert.equal(browser.headers.location, `/dashboard/sign-in?next=${encodeURIComponent(url)}`);
    const withKey = await app.inject({ method: 'GET', url, headers: await keyOf(project.id) });
    assert.equal(withKey.statusCode, 200);
    assert.match(withKey.body, /Sign in to the dashboard<\/a> to comment or merge/);
    assert.doesNotMatch(withKey.body, /<form/);
    const other = await buildProject(database.pool);
    const foreign = await app.inject({ method: 'GET', url, headers: await keyOf(other.id) });
    assert.equal(foreign.statusCode, 403);
    const bogus = await app.inject({ method: 'GET', url, headers: { authorization: 'Bearer quire_nope' } });
    assert.equal(bogus.statusCode, 401);
  });

  it('merges only for a signed-in user with the CSRF token', async () => {
    const { repository, review, project } = await reviewWithBranch({ 'other.md': '# Other\n' });
    const before = git(repository, 'rev-parse', 'main');
    const url = `/review/${review.id}/merge`;
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const anonymous = await app.inject({ method: 'POST', url, headers: form, payload: '' });
    assert.equal(anonymous.statusCode, 401);
    const withKey = await app.inject({
      method: 'POST',
      url,
      headers: { ...form, ...(await keyOf(project.id, ['read', 'write'])) },
      payload: '',
    });
    assert.equal(withKey.statusCode, 401, 'an API key cannot merge');
    const noToken = await formPost(app, url, session, {});
    assert.equal(noToken.statusCode, 403);
    const wrongToken = await formPost(app, url, session, { _csrf: 'x'.repeat(43) });
    assert.equal(wrongToken.statusCode, 403);
    assert.equal(git(repository, 'rev-parse', 'main'), before);
    assert.equal((await merge(review.id)).statusCode, 303);
    assert.notEqual(git(repository, 'rev-parse', 'main'), before);
  });

  it('merges into the base (moving a checked-out working tree along) once', async () => {
    const { repository, review } = await reviewWithBranch({ 'new.md': '# New\n' });
    const merged = await merge(review.id);
    assert.equal(merged.statusCode, 303);
    assert.equal(git(repository, 'show', 'main:new.md'), '# New\n');
    assert.equal(
      git(repository, 'status', '--porcelain'),
      '',
      'the checked-out main moved with its working tree',
    );
    assert.equal(git(repository, 'log', '-1', '--format=%P', 'main').trim().split(' ').length, 2);
    const page = await app.inject({ method: 'GET', url: `/review/${review.id}`, headers: session.headers });
    assert.match(page.body, /Merged into main as <code>[0-9a-f]{40}<\/code>/);
    assert.match(page.body, /\+# New/);
    assert.equal((await merge(review.id)).statusCode, 409);
  });

  it('refuses a conflicting merge and changes nothing', async () => {
    const { repository, review } = await reviewWithBranch({ 'index.md': '# Home\n\nBranch.\n' });
    writeFileSync(join(repository, 'index.md'), '# Home\n\nMain.\n');
    git(repository, 'commit', '--quiet', '-am', 'Main moves');
    const before = git(repository, 'rev-parse', 'main');
    const response = await app.inject({
      method: 'POST',
      url: `/review/${review.id}/merge`,
      headers: { cookie: session.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: `_csrf=${encodeURIComponent(session.csrfToken)}`,
    });
    assert.equal(response.statusCode, 409);
    assert.match(response.json().error, /conflicts with main/);
    assert.equal(git(repository, 'rev-parse', 'main'), before);
    assert.equal((await store.get(review.id))?.status, 'open');
  });
});
