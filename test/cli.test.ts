// CLI commands as subprocesses against an external PostgreSQL (DATABASE_URL).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createTestDatabaseUrl } from './database.ts';
import { runQuire } from './processes.ts';

const environment = { DATABASE_URL: await createTestDatabaseUrl(), QUIRE_DATA_DIR: '/nonexistent' };

test('project and key commands print exactly one JSON object with --json', async () => {
  const project = await runQuire(
    [
      'project',
      'create',
      '--name',
      'API docs',
      '--ref',
      'trunk',
      '--code-host',
      'github',
      '--repository',
      'https://github.com/acme/docs',
      '--json',
    ],
    environment,
  );
  assert.equal(project.code, 0, project.stderr);
  const created = JSON.parse(project.stdout);
  assert.match(created.id, /^prj_/);
  assert.equal(created.ref, 'trunk');
  assert.equal(created.codeHost, 'github');

  const key = await runQuire(
    ['key', 'create', '--project', created.id, '--scopes', 'ingest', '--name', 'site', '--json'],
    environment,
  );
  assert.equal(key.code, 0, key.stderr);
  const keyObject = JSON.parse(key.stdout);
  assert.match(keyObject.key, /^quire_/);
  assert.equal(keyObject.lastFour, keyObject.key.slice(-4));

  const list = await runQuire(['key', 'list', '--project', created.id, '--json'], environment);
  assert.equal(list.code, 0, list.stderr);
  const { keys } = JSON.parse(list.stdout);
  assert.equal(keys.length, 1);
  assert.equal(JSON.stringify(keys).includes(keyObject.key), false, 'the secret is never listed');

  const table = await runQuire(['key', 'list', '--project', created.id], environment);
  assert.match(table.stdout, new RegExp(`quire_…${keyObject.lastFour}`));
});

test('bad arguments and missing things are clear errors with a non-zero exit', async () => {
  const cases: [string[], RegExp][] = [
    [['key', 'create', '--project', 'prj_missing', '--json'], /No project with id prj_missing/],
    [['key', 'create', '--project', 'x', '--scopes', 'admin'], /read, write, ingest/],
    [['key', 'revoke', 'key_missing'], /No API key with id key_missing/],
    [['analytics', 'reclassify', '--project', 'prj_missing'], /No project with id prj_missing/],
    [['analytics', 'rebuild', '--project', 'prj_missing'], /No project with id prj_missing/],
    [['analytics', 'verify', '--project', 'prj_missing'], /No project with id prj_missing/],
    [['analytics', 'pack', '--project', 'prj_missing'], /No project with id prj_missing/],
    [['project', 'create', '--name', ''], /1 to 200 characters/],
    [['project', 'create', '--name', 'x', '--code-host', 'bitbucket'], /local, github, gitlab/],
    [['project', 'create', '--name', 'x', '--ref', '../etc'], /branch name/],
    [['frobnicate'], /unknown command/],
  ];
  for (const [args, message] of cases) {
    const result = await runQuire(args, environment);
    assert.notEqual(result.code, 0, args.join(' '));
    assert.match(result.stderr, message, args.join(' '));
  }
});

test('every command has --help', async () => {
  for (const args of [
    ['--help'],
    ['serve', '--help'],
    ['migrate', '--help'],
    ['project', 'create', '--help'],
    ['project', 'list', '--help'],
    ['key', 'create', '--help'],
    ['key', 'list', '--help'],
    ['key', 'revoke', '--help'],
  ]) {
    const result = await runQuire(args, environment);
    assert.equal(result.code, 0, args.join(' '));
    assert.match(result.stdout, /Usage: quire/);
  }
});

test('a bad configuration value stops the process with one line naming the variable', async () => {
  for (const [variable, value] of [
    ['PORT', 'abc'],
    ['QUIRE_ROLE', 'boss'],
    ['QUIRE_MODEL', 'gpt4'],
  ] as const) {
    const result = await runQuire(['serve'], { ...environment, [variable]: value });
    assert.equal(result.code, 1, variable);
    assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr);
    assert.match(result.stderr, new RegExp(`^quire: invalid configuration: ${variable}: `));
  }
});

test('migrate is idempotent', async () => {
  for (let run = 0; run < 2; run += 1) {
    const result = await runQuire(['migrate'], environment);
    assert.equal(result.code, 0, result.stderr);
  }
});
