import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { buildTestApp } from '../../../test/app.ts';
import { createTestDatabase } from '../../../test/database.ts';
import { buildProject } from '../../../test/factories.ts';
import { createRepository, git, temporaryDirectory } from '../../../test/temporary-repository.ts';
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

  it('shows title, summary and diff, escaped', async () => {
    const { review } = await reviewWithBranch({ 'index.md': '# Home\n\nHi <script>alert(1)</script>.\n' });
    const response = await app.inject({ method: 'GET', url: `/review/${review.id}` });
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
    assert.equal((await app.inject({ method: 'GET', url: '/review/rev_doesnotexist' })).statusCode, 404);
    assert.equal((await app.inject({ method: 'GET', url: '/review/..%2F..%2Fetc' })).statusCode, 400);
  });

  it('merges into the base (moving a checked-out working tree along) once', async () => {
    const { repository, review } = await reviewWithBranch({ 'new.md': '# New\n' });
    const merged = await app.inject({ method: 'POST', url: `/review/${review.id}/merge` });
    assert.equal(merged.statusCode, 303);
    assert.equal(git(repository, 'show', 'main:new.md'), '# New\n');
    assert.equal(
      git(repository, 'status', '--porcelain'),
      '',
      'the checked-out main moved with its working tree',
    );
    assert.equal(git(repository, 'log', '-1', '--format=%P', 'main').trim().split(' ').length, 2);
    const page = await app.inject({ method: 'GET', url: `/review/${review.id}` });
    assert.match(page.body, /Merged into main as <code>[0-9a-f]{40}<\/code>/);
    assert.match(page.body, /\+# New/);
    assert.equal((await app.inject({ method: 'POST', url: `/review/${review.id}/merge` })).statusCode, 409);
  });

  it('refuses a conflicting merge and changes nothing', async () => {
    const { repository, review } = await reviewWithBranch({ 'index.md': '# Home\n\nBranch.\n' });
    writeFileSync(join(repository, 'index.md'), '# Home\n\nMain.\n');
    git(repository, 'commit', '--quiet', '-am', 'Main moves');
    const before = git(repository, 'rev-parse', 'main');
    const response = await app.inject({ method: 'POST', url: `/review/${review.id}/merge` });
    assert.equal(response.statusCode, 409);
    assert.match(response.json().error, /conflicts with main/);
    assert.equal(git(repository, 'rev-parse', 'main'), before);
    assert.equal((await store.get(review.id))?.status, 'open');
  });
});
