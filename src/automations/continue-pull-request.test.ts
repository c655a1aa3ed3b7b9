// Automations in continue-pull-request mode ask the code host whether the open job's pull request
// is still open before following up on it: on GitHub and GitLab (their API doubles) and on the
// local code host (a review merged with git). A merged or closed pull request makes the next
// firing start a new job; a code host that cannot answer leaves the change with the open job.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { buildTestServices } from '../../test/app.ts';
import { createTestDatabase } from '../../test/database.ts';
import { bearer, buildProjectWithKey } from '../../test/factories.ts';
import { createFakeAgentRunner } from '../../test/fake-agent-runner.ts';
import { startGitHubDouble } from '../../test/github-double.ts';
import { startGitLabDouble } from '../../test/gitlab-double.ts';
import { eventually } from '../../test/poll.ts';
import { createRepository, git, temporaryDirectory, writeFiles } from '../../test/temporary-repository.ts';
import { createGitHubCodeHost } from '../code-hosts/github/github-code-host.ts';
import { createGitLabCodeHost } from '../code-hosts/gitlab/gitlab-code-host.ts';
import { createReviewService } from '../code-hosts/local/review-service.ts';
import { createPostgresReviewStore } from '../code-hosts/local/review-store-postgres.ts';
import type { NewProject } from '../projects/project-store.ts';
import { updateProjectSettings } from '../projects/project-store.ts';

const github = await startGitHubDouble({ owner: 'acme', repo: 'docs', token: 'ghp_double' });
const gitlab = await startGitLabDouble({ projectPath: 'acme/docs', token: 'glpat-double' });
const directory = temporaryDirectory();
const database = await createTestDatabase();
const services = await buildTestServices(database, { environment: { QUIRE_MODEL: 'openai:gpt-test' } });
const { app } = services;
await services.startWorker(createFakeAgentRunner());
after(async () => {
  await github.close();
  await gitlab.close();
  directory.cleanup();
});

interface Case {
  projectId: string;
  key: string;
  automationId: string;
}

/** A project on the code host, with a manual automation in continue-pull-request mode. */
async function caseOn(project: Partial<NewProject>, settings: Record<string, unknown>): Promise<Case> {
  const built = await buildProjectWithKey(database.pool, { project });
  await updateProjectSettings(database.pool, built.project.id, settings);
  const created = await app.inject({
    method: 'POST',
    url: `/v2/agent/${built.project.id}/automations`,
    headers: bearer(built.key),
    payload: {
      name: 'Keep the reference current',
      trigger: { type: 'manual' },
      prompt: 'Update the reference.',
      mode: 'continue-pull-request',
    },
  });
  assert.equal(created.statusCode, 201, created.body);
  return { projectId: built.project.id, key: built.key, automationId: created.json().id };
}

/** Fires the automation; returns the job it started or continued, once its run has ended. */
async function fire(target: Case): Promise<string> {
  const response = await app.inject({
    method: 'POST',
    url: `/v2/agent/${target.projectId}/automations/${target.automationId}/trigger`,
    headers: bearer(target.key),
  });
  assert.equal(response.statusCode, 201, response.body);
  const jobId: string = response.json().id;
  await eventually(async () => {
    const job = await app.inject({
      method: 'GET',
      url: `/v2/agent/${target.projectId}/job/${jobId}`,
      headers: bearer(target.key),
    });
    return job.json().status === 'completed';
  });
  return jobId;
}

/** Gives the job the pull request its run would have opened on the code host (the fake agent opens none). */
async function setPullRequest(jobId: string, url: string, branch: string): Promise<void> {
  await database.pool.query('UPDATE agent_jobs SET pull_request_url = $2, branch = $3 WHERE id = $1', [
    jobId,
    url,
    branch,
  ]);
}

async function triggerEvents(jobId: string): Promise<Array<Record<string, unknown>>> {
  const result = await database.pool.query<{ data: Record<string, unknown> }>(
    "SELECT data FROM agent_job_events WHERE job_id = $1 AND type = 'trigger' ORDER BY id",
    [jobId],
  );
  return result.rows.map((row) => row.data);
}

/** The state of the previous pull request the job's first trigger event names; null when none. */
async function previousState(jobId: string): Promise<string | null> {
  const [first] = await triggerEvents(jobId);
  const previous = first?.previousPullRequest as { state?: string } | undefined;
  return previous?.state ?? null;
}

async function messageCount(jobId: string): Promise<number> {
  const result = await database.pool.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM agent_job_messages WHERE job_id = $1',
    [jobId],
  );
  return result.rows[0]?.n ?? 0;
}

const pullRequestRequest = (jobId: string, branch: string) => ({
  projectId: 'unused',
  jobId,
  branch,
  baseRef: 'main',
  title: 'Update the reference',
  body: 'Quire',
});

describe('continue-pull-request asks the code host whether the pull request is still open', () => {
  it('GitHub: follows up while the pull request is open, starts anew once it is merged or closed', async () => {
    const target = await caseOn(
      { repository: 'https://github.com/acme/docs', codeHost: 'github' },
      { github: { token: 'ghp_double', apiBaseUrl: github.apiBaseUrl } },
    );
    const host = createGitHubCodeHost({
      repository: 'https://github.com/acme/docs',
      credentials: { token: 'ghp_double' },
      apiBaseUrl: github.apiBaseUrl,
    });
    const first = await fire(target);
    const opened = await host.openOrUpdatePullRequest(pullRequestRequest(first, 'quire/first'));
    await setPullRequest(first, opened.url, 'quire/first');

    assert.equal(await fire(target), first, 'the pull request is open: a follow-up');
    assert.equal(await messageCount(first), 2);

    const pull = github.pulls.find((item) => item.head === 'quire/first')!;
    pull.state = 'closed';
    pull.merged = true;
    const second = await fire(target);
    assert.notEqual(second, first, 'merged: a new job');
    assert.equal(await messageCount(first), 2, 'nothing more for the merged one');
    assert.deepEqual((await triggerEvents(second))[0]?.previousPullRequest, {
      jobId: first,
      url: opened.url,
      state: 'merged',
    });

    const reopened = await host.openOrUpdatePullRequest(pullRequestRequest(second, 'quire/second'));
    await setPullRequest(second, reopened.url, 'quire/second');
    github.pulls.find((item) => item.head === 'quire/second')!.state = 'closed';
    const third = await fire(target);
    assert.notEqual(third, second, 'closed without merging: a new job');
    assert.equal(await previousState(third), 'closed');
    assert.ok(github.requests.some((request) => request.path === '/repos/acme/docs/pulls/2'));
  });

  it('GitLab: follows up while the merge request is open, starts anew once it is merged', async () => {
    const target = await caseOn(
      { repository: `${gitlab.url}/acme/docs`, codeHost: 'gitlab' },
      { gitlab: { token: 'glpat-double' } },
    );
    const host = createGitLabCodeHost({ repository: `${gitlab.url}/acme/docs`, token: 'glpat-double' });
    const first = await fire(target);
    const opened = await host.openOrUpdatePullRequest(pullRequestRequest(first, 'quire/gitlab-first'));
    await setPullRequest(first, opened.url, 'quire/gitlab-first');
    assert.equal(await fire(target), first, 'opened: a follow-up');
    gitlab.mergeRequests.find((item) => item.source_branch === 'quire/gitlab-first')!.state = 'merged';
    const second = await fire(target);
    assert.notEqual(second, first);
    assert.equal(await messageCount(first), 2);
    assert.equal(await previousState(second), 'merged');
  });

  it('local: follows up while the review is open, starts anew once it is merged into the repository', async () => {
    const repository = createRepository(join(directory.path, 'docs'), { 'index.md': '# Docs\n' });
    const target = await caseOn({ repository, codeHost: 'local' }, {});
    const first = await fire(target);
    git(repository, 'checkout', '-q', '-b', 'quire/local-first');
    writeFiles(repository, { 'index.md': '# Docs\n\nUpdated.\n' });
    git(repository, 'commit', '-q', '-am', 'Update');
    git(repository, 'checkout', '-q', 'main');
    const { review } = await createPostgresReviewStore(database.pool).upsert({
      projectId: target.projectId,
      jobId: first,
      repository,
      branch: 'quire/local-first',
      baseRef: 'main',
      title: 'Update',
      body: 'Updated.',
    });
    await setPullRequest(first, `http://quire.test/review/${review.id}`, 'quire/local-first');
    assert.equal(await fire(target), first, 'open review: a follow-up');

    await createReviewService(database.pool).merge(review);
    assert.equal(git(repository, 'show', 'main:index.md'), '# Docs\n\nUpdated.\n');
    const second = await fire(target);
    assert.notEqual(second, first, 'merged review: a new job');
    assert.equal(await previousState(second), 'merged');
  });

  it('keeps following up when the code host cannot answer, and records why', async () => {
    const target = await caseOn(
      { repository: 'https://github.com/acme/docs', codeHost: 'github' },
      { github: { token: 'ghp_revoked', apiBaseUrl: github.apiBaseUrl } },
    );
    const first = await fire(target);
    const opened = await createGitHubCodeHost({
      repository: 'https://github.com/acme/docs',
      credentials: { token: 'ghp_double' },
      apiBaseUrl: github.apiBaseUrl,
    }).openOrUpdatePullRequest(pullRequestRequest(first, 'quire/unknown-state'));
    await setPullRequest(first, opened.url, 'quire/unknown-state');
    assert.equal(await fire(target), first);
    const [, followUp] = await triggerEvents(first);
    assert.match(String(followUp?.pullRequestCheck), /^the pull request's state is unknown: Bad credentials/);
  });
});
