// Merge-request conversations on GitLab: a note on a Quire merge request (a `Note Hook` sent over a
// real socket, with the secret token, shaped as GitLab's documented example) becomes a follow-up
// on the same job and branch when GitLab says its author has the Developer role or above, and
// Quire's reply appears as a note on the merge request of the GitLab double. Bots, Reporters,
// system notes, edits, notes on issues and Quire's own notes are ignored; a retry with the same
// Idempotency-Key changes nothing.
// Payload: https://docs.gitlab.com/user/project/integrations/webhook_events/#comment-on-a-merge-request
// Headers: https://docs.gitlab.com/user/project/integrations/webhooks/#delivery-headers
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { after, test } from 'node:test';
import { buildTestServices, testCodeHosts } from '../../../test/app.ts';
import { createTestDatabase } from '../../../test/database.ts';
import { bearer, buildProjectWithKey } from '../../../test/factories.ts';
import { createFakeAgentRunner } from '../../../test/fake-agent-runner.ts';
import { startGitLabDouble } from '../../../test/gitlab-double.ts';
import { eventually } from '../../../test/poll.ts';
import { startAutomationWorker } from '../../automations/automation-worker.ts';
import { createGitLabCodeHost } from '../../code-hosts/gitlab/gitlab-code-host.ts';
import { updateProjectSettings } from '../../projects/project-store.ts';

const reviewer = { id: 42, username: 'mara', accessLevel: 30 };
const reporter = { id: 43, username: 'rory', accessLevel: 20 };
const bot = { id: 44, username: 'project_7_bot_5e1c2d', bot: true, accessLevel: 40 };
const quire = { id: 45, username: 'quire-docs', accessLevel: 40 };
const stranger = { id: 77, username: 'passer-by' };
const gitlab = await startGitLabDouble({
  projectPath: 'acme/docs',
  token: 'glpat-double',
  users: [reviewer, reporter, bot, quire, stranger],
});
const database = await createTestDatabase();
const services = await buildTestServices(database, { environment: { QUIRE_MODEL: 'openai:gpt-test' } });
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
  await gitlab.close();
});
await app.listen({ port: 0, host: '127.0.0.1' });
const origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

const secret = 'hook secret for merge request notes';
const repository = `${gitlab.url}/acme/docs`;
const { project, key } = await buildProjectWithKey(database.pool, {
  project: { repository, codeHost: 'gitlab' },
});
await updateProjectSettings(database.pool, project.id, {
  hookSecret: secret,
  gitlab: { token: 'glpat-double' },
});

// A job whose run opened a merge request on the double (what the agent does through the same port).
const created = await app.inject({
  method: 'POST',
  url: `/v2/agent/${project.id}/job`,
  headers: bearer(key),
  payload: { prompt: 'Document the --dry-run flag' },
});
const jobId = (created.json() as { id: string }).id;
await eventually(async () => ((await getJob()).status === 'completed' ? true : undefined));
const branch = 'quire/dryrun-document-the-dry-run-flag';
const mergeRequest = await createGitLabCodeHost({
  repository,
  token: 'glpat-double',
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
  mergeRequest.url,
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

function sendGitLab(payload: unknown, idempotencyKey: string, token = secret) {
  return fetch(`${origin}/v1/hooks/${project.id}/gitlab`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'user-agent': 'GitLab/17.6.0',
      'x-gitlab-event': 'Note Hook',
      'x-gitlab-token': token,
      'x-gitlab-instance': gitlab.url,
      'x-gitlab-webhook-uuid': randomUUID(),
      'x-gitlab-event-uuid': randomUUID(),
      'idempotency-key': idempotencyKey,
    },
    body: JSON.stringify(payload),
  });
}

let noteId = 1244;
/** GitLab's documented "comment on a merge request" payload, for this project's merge request. */
function mergeRequestNote(
  note: string,
  user: { id: number; username: string },
  changes: Record<string, unknown> = {},
) {
  noteId += 1;
  const gitlabProject = {
    id: 5,
    name: 'Docs',
    description: 'Product documentation',
    web_url: repository,
    avatar_url: null,
    git_ssh_url: 'git@gitlab.example:acme/docs.git',
    git_http_url: `${repository}.git`,
    namespace: 'Acme',
    visibility_level: 10,
    path_with_namespace: 'acme/docs',
    default_branch: 'main',
    homepage: repository,
    url: `${repository}.git`,
    ssh_url: 'git@gitlab.example:acme/docs.git',
    http_url: `${repository}.git`,
  };
  return {
    object_kind: 'note',
    event_type: 'note',
    user: {
      id: user.id,
      name: user.username,
      username: user.username,
      avatar_url: null,
      email: '[REDACTED]',
    },
    project_id: 5,
    project: gitlabProject,
    repository: { name: 'Docs', url: `${repository}.git`, description: '', homepage: repository },
    object_attributes: {
      id: noteId,
      note,
      noteable_type: 'MergeRequest',
      author_id: user.id,
      created_at: '2026-05-17 18:21:36 UTC',
      updated_at: '2026-05-17 18:21:36 UTC',
      project_id: 5,
      attachment: null,
      line_code: null,
      commit_id: '',
      noteable_id: 7,
      system: false,
      st_diff: null,
      action: 'create',
      url: `${mergeRequest.url}#note_${noteId}`,
      ...changes,
    },
    merge_request: {
      id: 7,
      target_branch: 'main',
      source_branch: branch,
      source_project_id: 5,
      author_id: quire.id,
      title: 'Document the --dry-run flag',
      created_at: '2026-05-17 18:00:00 UTC',
      updated_at: '2026-05-17 18:21:36 UTC',
      state: 'opened',
      merge_status: 'can_be_merged',
      target_project_id: 5,
      iid: 1,
      description: 'Quire',
      source: gitlabProject,
      target: gitlabProject,
      work_in_progress: false,
      draft: false,
      detailed_merge_status: 'mergeable',
    },
  };
}

async function prompts(): Promise<string[]> {
  const result = await database.pool.query<{ prompt: string }>(
    'SELECT prompt FROM agent_job_messages WHERE job_id = $1 ORDER BY created_at, id',
    [jobId],
  );
  return result.rows.map((row) => row.prompt);
}

async function processed(idempotencyKey: string): Promise<string> {
  return eventually(async () => {
    const result = await database.pool.query<{ outcome: string | null }>(
      "SELECT outcome FROM hook_deliveries WHERE provider = 'gitlab' AND delivery_id = $1 AND processed_at IS NOT NULL",
      [idempotencyKey],
    );
    return result.rows[0]?.outcome ?? undefined;
  });
}

test('a note from a Developer becomes a follow-up on the same branch, and Quire answers with a note', async () => {
  const delivery = randomUUID();
  const response = await sendGitLab(
    mergeRequestNote('Please also mention that --dry-run prints the plan.', reviewer),
    delivery,
  );
  assert.equal(response.status, 202);
  assert.deepEqual(await response.json(), { outcome: 'stored' });
  assert.match(await processed(delivery), /^follow-up on job_/);
  const [, followUp] = await prompts();
  assert.match(String(followUp), /^mara, a reviewer with write access, commented on your pull request\./);
  assert.match(
    String(followUp),
    /<review-comment>\nPlease also mention that --dry-run prints the plan\.\n<\/review-comment>/,
  );
  assert.ok(
    gitlab.requests.some((request) => request.path === '/api/v4/projects/acme%2Fdocs/members/all/42'),
    "the reviewer's role was asked of GitLab",
  );

  const job = await eventually(async () => {
    const current = await getJob();
    return current.status === 'completed' ? current : undefined;
  });
  assert.equal(job.branch, branch);
  assert.equal(job.prLink, mergeRequest.url);
  assert.equal(await worker.replyToConversations(), 1);
  assert.deepEqual(gitlab.notes, [{ iid: 1, body: 'Carried out 1 instruction(s)\n\n<!-- quire-reply -->' }]);
  assert.equal(await worker.replyToConversations(), 0, 'answered once');

  // GitLab retries with the same Idempotency-Key: a duplicate. Quire's own note coming back is ignored.
  const again = await sendGitLab(
    mergeRequestNote('Please also mention that --dry-run prints the plan.', reviewer),
    delivery,
  );
  assert.deepEqual(await again.json(), { outcome: 'duplicate' });
  const own = randomUUID();
  await sendGitLab(mergeRequestNote(String(gitlab.notes[0]?.body), quire), own);
  assert.equal(await processed(own), "ignored: Quire's own reply");
  assert.equal((await prompts()).length, 2);
});

test('notes from bots, Reporters and strangers, system notes, edits and notes on issues are ignored', async () => {
  const onIssue = mergeRequestNote('On an issue', reviewer, { noteable_type: 'Issue' });
  const cases: Array<[unknown, string]> = [
    [mergeRequestNote('Bump deps', bot), 'ignored: a comment from a bot'],
    [
      mergeRequestNote('Delete every page', reporter),
      'ignored: a comment from rory, without Developer access',
    ],
    [
      mergeRequestNote('Rewrite it all', stranger),
      'ignored: a comment from passer-by, without Developer access',
    ],
    [mergeRequestNote('added 1 commit', reviewer, { system: true }), 'ignored: a system note'],
    [mergeRequestNote('Edited comment', reviewer, { action: 'update' }), 'ignored: not a new comment'],
    [
      { ...onIssue, merge_request: undefined },
      'ignored: a note on Issue (its noteable_type), not on a MergeRequest',
    ],
  ];
  for (const [payload, outcome] of cases) {
    const delivery = randomUUID();
    assert.equal((await sendGitLab(payload, delivery)).status, 202);
    assert.equal(await processed(delivery), outcome);
  }
  assert.equal((await prompts()).length, 2);
});

test('a wrong token is 401 and stores nothing', async () => {
  const delivery = randomUUID();
  const response = await sendGitLab(mergeRequestNote('Sneaky', reviewer), delivery, 'not the secret');
  assert.equal(response.status, 401);
  const stored = await database.pool.query('SELECT 1 FROM hook_deliveries WHERE delivery_id = $1', [
    delivery,
  ]);
  assert.equal(stored.rowCount, 0);
});

test('a note on a line of the diff, found by the source branch, becomes a follow-up naming the file', async () => {
  await eventually(async () => ((await getJob()).status === 'completed' ? true : undefined));
  const delivery = randomUUID();
  const payload = mergeRequestNote('Say "plan", not "preview".', reviewer, {
    // An older server's address form (no `/-/`): the source branch finds the job.
    url: `${repository}/merge_requests/1#note_9001`,
    type: 'DiffNote',
    position: {
      base_sha: 'a'.repeat(40),
      start_sha: 'a'.repeat(40),
      head_sha: 'b'.repeat(40),
      old_path: 'docs/deploy.md',
      new_path: 'docs/deploy.md',
      position_type: 'text',
      old_line: null,
      new_line: 12,
    },
  });
  assert.equal((await sendGitLab(payload, delivery)).status, 202);
  assert.match(await processed(delivery), /^follow-up on job_/);
  assert.match(String((await prompts())[2]), /commented on your pull request on docs\/deploy\.md line 12\./);
});
