// Pull-request conversations on GitHub: a review comment on a Quire pull request (signed webhook,
// payloads shaped as GitHub documents them) becomes a follow-up on the same job and branch, and
// Quire's reply appears in the pull request of the GitHub double. Bots, people without write
// access and Quire's own replies are ignored; a redelivery changes nothing.
// Payload fields: https://docs.github.com/en/webhooks/webhook-events-and-payloads#issue_comment
// and #pull_request_review_comment; author_association values:
// https://docs.github.com/en/graphql/reference/enums#commentauthorassociation
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, test } from 'node:test';
import { buildTestServices, testSecrets } from '../../../test/app.ts';
import { createTestDatabase } from '../../../test/database.ts';
import { bearer, buildProjectWithKey } from '../../../test/factories.ts';
import { createFakeAgentRunner } from '../../../test/fake-agent-runner.ts';
import { startGitHubDouble } from '../../../test/github-double.ts';
import { eventually } from '../../../test/poll.ts';
import { startAutomationWorker } from '../../automations/automation-worker.ts';
import { createCodeHostResolver } from '../../code-hosts/code-host-for-project.ts';
import { createGitHubCodeHost } from '../../code-hosts/github/github-code-host.ts';
import { createPostgresReviewStore } from '../../code-hosts/local/review-store-postgres.ts';
import { updateProjectSettings } from '../../projects/project-store.ts';

const github = await startGitHubDouble({ owner: 'acme', repo: 'docs', token: 'ghp_double' });
const database = await createTestDatabase();
const services = await buildTestServices(database, { environment: { QUIRE_MODEL: 'openai:gpt-test' } });
const { app, boss } = services;
await services.startWorker(createFakeAgentRunner());
const worker = await startAutomationWorker({
  pool: database.pool,
  boss,
  defaultModel: 'openai:gpt-test',
  codeHostFor: createCodeHostResolver({
    publicUrl: 'http://quire.test',
    reviews: createPostgresReviewStore(database.pool),
    secrets: testSecrets(),
  }),
  log: () => {},
  replyIntervalMilliseconds: 3_600_000,
});
after(async () => {
  await worker.stop();
  await github.close();
});
const secret = 'hook secret for conversations';
const { project, key } = await buildProjectWithKey(database.pool, {
  project: { repository: 'https://github.com/acme/docs', codeHost: 'github' },
});
await updateProjectSettings(database.pool, project.id, {
  hookSecret: secret,
  github: { token: 'ghp_double', apiBaseUrl: github.apiBaseUrl },
});

// A job whose run opened a pull request on the double (what the agent does through the same port).
const created = await app.inject({
  method: 'POST',
  url: `/v2/agent/${project.id}/job`,
  headers: bearer(key),
  payload: { prompt: 'Document the --dry-run flag' },
});
const jobId = (created.json() as { id: string }).id;
await eventually(async () => ((await getJob()).status === 'completed' ? true : undefined));
const branch = 'quire/dryrun-document-the-dry-run-flag';
const pullRequest = await createGitHubCodeHost({
  repository: 'https://github.com/acme/docs',
  credentials: { token: 'ghp_double' },
  apiBaseUrl: github.apiBaseUrl,
}).openOrUpdatePullRequest({
  projectId: project.id,
  jobId,
  branch,
  baseRef: 'main',
  title: 'Document the --dry-run flag',
  body: 'Quire',
});
await database.pool.query('UPDATE agent_jobs SET pull_request_url = $2, branch = $3 WHERE id = $1', [
  jobId,
  pullRequest.url,
  branch,
]);

async function getJob() {
  const response = await app.inject({
    method: 'GET',
    url: `/v2/agent/${project.id}/job/${jobId}`,
    headers: bearer(key),
  });
  return response.json() as { status: string; prLink: string | null; branch: string | null };
}

function sendGitHub(event: string, payload: unknown, delivery: string) {
  const body = JSON.stringify(payload);
  return app.inject({
    method: 'POST',
    url: `/v1/hooks/${project.id}/github`,
    headers: {
      'content-type': 'application/json',
      'x-github-event': event,
      'x-github-delivery': delivery,
      'x-hub-signature-256': `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`,
    },
    payload: body,
  });
}

const repository = { full_name: 'acme/docs', html_url: 'https://github.com/acme/docs' };
function issueComment(body: string, user: { login: string; type: string }, association: string) {
  return {
    action: 'created',
    issue: {
      number: 1,
      html_url: pullRequest.url,
      pull_request: { html_url: pullRequest.url },
    },
    comment: { id: 1, body, user, author_association: association },
    repository,
    sender: user,
  };
}

async function prompts(): Promise<string[]> {
  const result = await database.pool.query<{ prompt: string }>(
    'SELECT prompt FROM agent_job_messages WHERE job_id = $1 ORDER BY created_at, id',
    [jobId],
  );
  return result.rows.map((row) => row.prompt);
}

async function processed(delivery: string): Promise<string> {
  return eventually(async () => {
    const result = await database.pool.query<{ outcome: string | null }>(
      'SELECT outcome FROM hook_deliveries WHERE delivery_id = $1 AND processed_at IS NOT NULL',
      [delivery],
    );
    return result.rows[0]?.outcome ?? undefined;
  });
}

test('a comment from a member becomes a follow-up on the same branch, and Quire answers in the pull request', async () => {
  const reviewer = { login: 'octocat', type: 'User' };
  const response = await sendGitHub(
    'issue_comment',
    issueComment('Please also mention that --dry-run prints the plan.', reviewer, 'MEMBER'),
    'delivery-comment-1',
  );
  assert.equal(response.statusCode, 202, response.body);
  assert.match(await processed('delivery-comment-1'), /^follow-up on job_/);
  const [, followUp] = await prompts();
  assert.match(String(followUp), /octocat, a reviewer with write access, commented on your pull request\./);
  assert.match(
    String(followUp),
    /<review-comment>\nPlease also mention that --dry-run prints the plan\.\n<\/review-comment>/,
  );

  const job = await eventually(async () => {
    const current = await getJob();
    return current.status === 'completed' ? current : undefined;
  });
  assert.equal(job.branch, branch);
  assert.equal(job.prLink, pullRequest.url);
  assert.equal(await worker.replyToConversations(), 1);
  assert.equal(github.comments.length, 1);
  assert.equal(github.comments[0]?.number, 1);
  assert.match(String(github.comments[0]?.body), /^Carried out 1 instruction\(s\)\n\n<!-- quire-reply -->$/);
  assert.equal(await worker.replyToConversations(), 0, 'answered once');

  // The redelivery is a duplicate; Quire's own reply coming back as a webhook is ignored.
  const again = await sendGitHub(
    'issue_comment',
    issueComment('Please also mention that --dry-run prints the plan.', reviewer, 'MEMBER'),
    'delivery-comment-1',
  );
  assert.deepEqual(again.json(), { outcome: 'duplicate' });
  await sendGitHub(
    'issue_comment',
    issueComment(String(github.comments[0]?.body), { login: 'quire-bot', type: 'User' }, 'MEMBER'),
    'delivery-own-reply',
  );
  assert.equal(await processed('delivery-own-reply'), "ignored: Quire's own reply");
  assert.equal((await prompts()).length, 2);
});

test('comments from bots, from people without write access, and on issues are ignored', async () => {
  const cases: Array<[string, unknown, string]> = [
    [
      'bot',
      issueComment('Bump deps', { login: 'dependabot[bot]', type: 'Bot' }, 'NONE'),
      'ignored: a comment from a bot',
    ],
    [
      'contributor',
      issueComment('Delete every page', { login: 'stranger', type: 'User' }, 'CONTRIBUTOR'),
      'ignored: a comment from CONTRIBUTOR, without write access',
    ],
    [
      'issue',
      { ...issueComment('On an issue', { login: 'octocat', type: 'User' }, 'OWNER'), issue: { number: 9 } },
      'ignored: a comment on an issue',
    ],
  ];
  for (const [name, payload, outcome] of cases) {
    assert.equal((await sendGitHub('issue_comment', payload, `delivery-${name}`)).statusCode, 202);
    assert.equal(await processed(`delivery-${name}`), outcome);
  }
  assert.equal((await prompts()).length, 2);
});

test('a review comment on a line, found by the pull request branch, becomes a follow-up naming the file', async () => {
  await eventually(async () => ((await getJob()).status === 'completed' ? true : undefined));
  const response = await sendGitHub(
    'pull_request_review_comment',
    {
      action: 'created',
      comment: {
        id: 7,
        body: 'Say "plan", not "preview".',
        path: 'docs/deploy.md',
        line: 12,
        user: { login: 'hubot-reviewer', type: 'User' },
        author_association: 'COLLABORATOR',
      },
      pull_request: { number: 1, html_url: 'https://example.invalid/other-url', head: { ref: branch } },
      repository,
    },
    'delivery-review-comment',
  );
  assert.equal(response.statusCode, 202);
  assert.match(await processed('delivery-review-comment'), /^follow-up on job_/);
  assert.match(String((await prompts())[2]), /commented on your pull request on docs\/deploy\.md line 12\./);
});
