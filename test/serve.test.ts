// The service as a user runs it: `quire serve` on the embedded database, over a real socket,
// with CLI commands beside it, restarts, and a server killed with SIGKILL.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';
import { runQuire, startQuireServer, temporaryDirectory } from './processes.ts';

const dataDirectory = path.join(await temporaryDirectory(), 'data');
const environment = { QUIRE_DATA_DIR: dataDirectory };

async function getProject(url: string, projectId: string, key: string): Promise<Response> {
  return fetch(`${url}/v1/projects/${projectId}`, { headers: { authorization: `Bearer ${key}` } });
}

async function postgresRunning(): Promise<boolean> {
  return fs
    .access(path.join(dataDirectory, 'postgres', 'postmaster.pid'))
    .then(() => true)
    .catch(() => false);
}

test('first start, CLI beside a running server, restart, SIGKILL', { timeout: 180_000 }, async (t) => {
  let adminKey = '';
  let defaultProjectId = '';
  let cliKey = '';
  let cliProjectId = '';

  await t.test('the first start creates a default project and prints a working key once', async () => {
    const server = await startQuireServer(environment);
    const output = server.output();
    adminKey = /\b(quire_[A-Za-z0-9_-]{43})\b/.exec(output)?.[1] ?? '';
    defaultProjectId = /with id (prj_[a-z0-9]+)/.exec(output)?.[1] ?? '';
    assert.ok(adminKey && defaultProjectId, output);
    assert.match(output, /sign in at http:\/\/127\.0\.0\.1:\d+\/dashboard as admin@localhost/);
    const response = await getProject(server.url, defaultProjectId, adminKey);
    assert.equal(response.status, 200);
    assert.equal((await response.json()).name, 'Default project');

    const created = await runQuire(
      ['project', 'create', '--name', 'Handbook', '--repository', '/srv/handbook', '--json'],
      environment,
    );
    assert.equal(created.code, 0, created.stderr);
    const project = JSON.parse(created.stdout);
    assert.equal(project.name, 'Handbook');
    assert.equal(project.repository, '/srv/handbook');
    cliProjectId = project.id;

    const key = await runQuire(
      ['key', 'create', '--project', cliProjectId, '--scopes', 'read,write', '--json'],
      environment,
    );
    assert.equal(key.code, 0, key.stderr);
    const keyObject = JSON.parse(key.stdout);
    assert.deepEqual(keyObject.scopes, ['read', 'write']);
    cliKey = keyObject.key;
    assert.equal((await getProject(server.url, cliProjectId, cliKey)).status, 200);
    assert.ok(await postgresRunning(), 'the CLI leaves the server its database');

    server.child.kill('SIGTERM');
    assert.equal(await server.exited, 0);
    assert.equal(await postgresRunning(), false, 'a graceful stop stops the embedded PostgreSQL');
    assert.equal(
      (server.output().match(/quire_[A-Za-z0-9_-]{43}/g) ?? []).length,
      2,
      'printed once, plus the curl hint',
    );
  });

  await t.test('CLI commands work with no server running, and leave nothing running', async () => {
    const listed = await runQuire(['project', 'list', '--json'], environment);
    assert.equal(listed.code, 0, listed.stderr);
    const names = JSON.parse(listed.stdout).projects.map((project: { name: string }) => project.name);
    assert.deepEqual(names, ['Default project', 'Handbook']);
    assert.equal(await postgresRunning(), false);
  });

  await t.test('a restart keeps the data and creates nothing new', async () => {
    const server = await startQuireServer(environment);
    assert.doesNotMatch(server.output(), /first start|sign in at/);
    assert.equal((await getProject(server.url, defaultProjectId, adminKey)).status, 200);
    assert.equal((await getProject(server.url, cliProjectId, cliKey)).status, 200);
    server.child.kill('SIGKILL');
    await server.exited;
  });

  await t.test('after SIGKILL the server starts again on the same data directory', async () => {
    const server = await startQuireServer(environment);
    assert.equal((await getProject(server.url, cliProjectId, cliKey)).status, 200);
    // Now kill PostgreSQL too, leaving a stale postmaster.pid behind.
    const pid = Number(
      (await fs.readFile(path.join(dataDirectory, 'postgres', 'postmaster.pid'), 'utf8')).split('\n')[0],
    );
    server.child.kill('SIGKILL');
    await server.exited;
    process.kill(pid, 'SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.ok(await postgresRunning(), 'the pid file is stale');

    const restarted = await startQuireServer(environment);
    assert.equal((await getProject(restarted.url, cliProjectId, cliKey)).status, 200);
    const revoked = await runQuire(['key', 'list', '--project', cliProjectId, '--json'], environment);
    const keyId = JSON.parse(revoked.stdout).keys[0].id;
    assert.equal((await runQuire(['key', 'revoke', keyId], environment)).code, 0);
    assert.equal(
      (await getProject(restarted.url, cliProjectId, cliKey)).status,
      401,
      'revocation is immediate',
    );
    restarted.child.kill('SIGINT');
    assert.equal(await restarted.exited, 0);
  });
});
