// The client commands (`quire job ...`) against a real server process, and the commands that
// configure agent jobs (`quire project update`, `quire webhook ...`).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createSecretBox, parseSecretKey } from '../src/secrets/index.ts';
import { testSecretKey } from './app.ts';
import { createTestDatabase } from './database.ts';
import { buildProjectWithKey } from './factories.ts';
import { runQuire, startFakeAgentService } from './processes.ts';

const database = await createTestDatabase();
const { project, key } = await buildProjectWithKey(database.pool, { project: { repository: '/srv/docs' } });
// Secrets are sealed under the test key (not a key file in the working directory).
const secrets = createSecretBox([parseSecretKey(testSecretKey)!]);
const server = await startFakeAgentService({
  DATABASE_URL: database.connectionString,
  QUIRE_SECRET_KEY: testSecretKey,
});
const environment = {
  DATABASE_URL: database.connectionString,
  QUIRE_SECRET_KEY: testSecretKey,
  QUIRE_URL: server.url!,
  QUIRE_API_KEY: key,
};

test('job create --wait shows progress and prints the pull request link', async () => {
  const result = await runQuire(
    ['job', 'create', '--project', project.id, '--wait', 'Document the --dry-run flag'],
    environment,
  );
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /message-create: Document the --dry-run flag/);
  assert.match(result.stdout, /run-end: Carried out 1 instruction/);
  assert.match(result.stdout, /Job job_\w+ is completed\./);
  assert.match(result.stdout, /Pull request: https:\/\/git\.example\/pulls\/job_\w+/);
});

test('job message, get, list and archive', async () => {
  const created = JSON.parse(
    (await runQuire(['job', 'create', '--project', project.id, '--json', 'First'], environment)).stdout,
  );
  const followed = await runQuire(
    ['job', 'message', created.id, 'Second', '--project', project.id, '--wait', '--json'],
    environment,
  );
  assert.equal(followed.code, 0, followed.stderr);
  assert.equal(JSON.parse(followed.stdout).status, 'completed');
  const listed = JSON.parse(
    (await runQuire(['job', 'list', '--project', project.id, '--json'], environment)).stdout,
  );
  assert.ok(listed.jobs.some((job: { id: string }) => job.id === created.id));
  const archived = await runQuire(['job', 'archive', created.id, '--project', project.id], environment);
  assert.match(archived.stdout, new RegExp(`${created.id}  archived`));
  const refused = await runQuire(
    ['job', 'message', created.id, 'Third', '--project', project.id],
    environment,
  );
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /archived/);
});

test('a failed job exits non-zero with its error', async () => {
  const result = await runQuire(
    ['job', 'create', '--project', project.id, '--wait', 'fail permanent'],
    environment,
  );
  assert.equal(result.code, 1);
  assert.match(result.stdout, /Error: The model provider rejected the credentials/);
});

test('client commands explain a missing key or an unreachable server', async () => {
  const noKey = await runQuire(['job', 'list', '--project', project.id], { QUIRE_URL: server.url! });
  assert.equal(noKey.code, 1);
  assert.match(noKey.stderr, /No API key/);
  const wrongKey = await runQuire(
    ['job', 'list', '--project', project.id, '--key', `quire_${'x'.repeat(43)}`],
    { QUIRE_URL: server.url! },
  );
  assert.match(wrongKey.stderr, /Unknown API key/);
});

test('project update sets the repository, model and rate limit', async () => {
  const result = await runQuire(
    [
      'project',
      'update',
      project.id,
      '--ref',
      'trunk',
      '--model',
      'anthropic:claude-sonnet-4-5',
      '--agent-rate-limit',
      '500',
      '--json',
    ],
    environment,
  );
  assert.equal(result.code, 0, result.stderr);
  assert.equal(JSON.parse(result.stdout).ref, 'trunk');
  const row = (await database.pool.query('SELECT settings FROM projects WHERE id = $1', [project.id]))
    .rows[0];
  assert.deepEqual(row.settings, { model: 'anthropic:claude-sonnet-4-5', agentRateLimitPerHour: 500 });
  const bad = await runQuire(['project', 'update', project.id, '--model', 'gpt-4'], environment);
  assert.equal(bad.code, 1);
  const missing = await runQuire(['project', 'update', 'prj_missing', '--name', 'x'], environment);
  assert.match(missing.stderr, /No project with id prj_missing/);
  await runQuire(['project', 'update', project.id, '--ref', 'main', '--model', ''], environment);
  const token = await runQuire(
    [
      'project',
      'update',
      project.id,
      '--github-token',
      '-',
      '--github-api-url',
      'https://ghe.example.com/api/v3',
    ],
    environment,
    'ghp_secret\n',
  );
  assert.equal(token.code, 0, token.stderr);
  assert.equal(token.stdout.includes('ghp_secret'), false, 'a secret is never printed');
  const withToken = (await database.pool.query('SELECT settings FROM projects WHERE id = $1', [project.id]))
    .rows[0];
  assert.equal(withToken.settings.github.apiBaseUrl, 'https://ghe.example.com/api/v3');
  assert.doesNotMatch(withToken.settings.github.token, /ghp_secret/, 'stored encrypted');
  assert.equal(secrets.open(withToken.settings.github.token), 'ghp_secret');
});

test('webhook set prints its secret once; show never does', async () => {
  const set = await runQuire(
    ['webhook', 'set', '--project', project.id, '--url', 'https://hooks.example.com/quire', '--json'],
    environment,
  );
  assert.equal(set.code, 0, set.stderr);
  const { secret } = JSON.parse(set.stdout);
  assert.match(secret, /^whsec_/);
  const shown = await runQuire(['webhook', 'show', '--project', project.id], environment);
  assert.match(shown.stdout, /https:\/\/hooks\.example\.com\/quire/);
  assert.equal(shown.stdout.includes(secret), false);
  const bad = await runQuire(['webhook', 'set', '--project', project.id, '--url', 'ftp://x'], environment);
  assert.equal(bad.code, 1);
  assert.match(
    (await runQuire(['webhook', 'remove', '--project', project.id], environment)).stdout,
    /removed/,
  );
});
