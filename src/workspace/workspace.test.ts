import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { startGitHttpServer } from '../../test/git-http-server.ts';
import { createRepository, git, temporaryDirectory } from '../../test/temporary-repository.ts';
import { branchName, slugify } from './branch-name.ts';
import { credentialEnvironment, redactCredentials } from './git-credentials.ts';
import { createGitWorkspace } from './git-workspace.ts';
import { isRunning } from './worktree-pool.ts';

const author = { name: 'Quire', email: 'quire@example.com' };

describe('git workspace', () => {
  let directory: ReturnType<typeof temporaryDirectory>;
  let origin: string;

  beforeEach(() => {
    directory = temporaryDirectory();
    origin = createRepository(join(directory.path, 'origin'), { 'docs/index.md': '# Home\n' });
  });
  afterEach(() => directory.cleanup());

  it('checks out a worktree of the base, commits, pushes the branch and removes the worktree', async () => {
    const workspace = createGitWorkspace({
      dataDirectory: join(directory.path, 'data'),
      maximumIdleWorktrees: 0,
    });
    const worktree = await workspace.prepare({
      repository: origin,
      baseRef: 'main',
      branch: 'quire/abc-fix',
    });
    assert.equal(worktree.branchExisted, false);
    assert.equal(readFileSync(join(worktree.path, 'docs/index.md'), 'utf8'), '# Home\n');

    assert.equal(await workspace.commit(worktree, { message: 'Nothing', author }), null);
    writeFileSync(join(worktree.path, 'docs/index.md'), '# Welcome\n');
    const commit = await workspace.commit(worktree, { message: 'Rename the home page\n\nBody.', author });
    assert.match(commit ?? '', /^[0-9a-f]{40}$/);
    assert.deepEqual(await workspace.changedFiles(worktree), ['M\tdocs/index.md']);
    await workspace.push(worktree, {});
    await workspace.remove(worktree);
    assert.equal(existsSync(worktree.path), false);

    assert.equal(
      git(origin, 'log', '-1', '--format=%an <%ae>|%s', 'quire/abc-fix').trim(),
      'Quire <quire@example.com>|Rename the home page',
    );
    assert.equal(git(origin, 'show', 'main:docs/index.md'), '# Home\n');
    assert.equal(git(origin, 'show', 'quire/abc-fix:docs/index.md'), '# Welcome\n');
  });

  it('continues a follow-up from the tip of the pushed branch and sees new base commits', async () => {
    const workspace = createGitWorkspace({ dataDirectory: join(directory.path, 'data') });
    const first = await workspace.prepare({ repository: origin, baseRef: 'main', branch: 'quire/abc-fix' });
    writeFileSync(join(first.path, 'a.md'), 'a\n');
    await workspace.commit(first, { message: 'Add a', author });
    await workspace.push(first, {});
    await workspace.remove(first);

    writeFileSync(join(origin, 'base.md'), 'base\n');
    git(origin, 'add', '--all');
    git(origin, 'commit', '--quiet', '-m', 'More base');

    const second = await workspace.prepare({ repository: origin, baseRef: 'main', branch: 'quire/abc-fix' });
    assert.equal(second.branchExisted, true);
    assert.equal(readFileSync(join(second.path, 'a.md'), 'utf8'), 'a\n');
    assert.equal(second.baseCommit, git(origin, 'rev-parse', 'main').trim());
    writeFileSync(join(second.path, 'b.md'), 'b\n');
    await workspace.commit(second, { message: 'Add b', author });
    await workspace.push(second, {});
    await workspace.remove(second);
    assert.equal(
      git(origin, 'log', '--format=%s', 'quire/abc-fix').trim().split('\n').join(','),
      'Add b,Add a,Initial commit',
    );
  });

  it('recycles a finished worktree for the next run with nothing of the previous run left in it', async () => {
    const workspace = createGitWorkspace({ dataDirectory: join(directory.path, 'data') });
    const first = await workspace.prepare({ repository: origin, baseRef: 'main', branch: 'quire/one' });
    writeFileSync(join(first.path, 'docs/index.md'), '# Changed, not committed\n');
    writeFileSync(join(first.path, 'stray.md'), 'untracked\n');
    writeFileSync(join(first.path, '.gitignore'), 'ignored.txt\n');
    writeFileSync(join(first.path, 'ignored.txt'), 'ignored\n');
    await workspace.remove(first);
    const second = await workspace.prepare({ repository: origin, baseRef: 'main', branch: 'quire/two' });
    assert.equal(second.path, first.path, 'the worktree was reused');
    assert.equal(readFileSync(join(second.path, 'docs/index.md'), 'utf8'), '# Home\n');
    for (const leftover of ['stray.md', '.gitignore', 'ignored.txt'])
      assert.equal(existsSync(join(second.path, leftover)), false, leftover);
    assert.equal(git(second.path, 'status', '--porcelain'), '');
    await workspace.remove(second);
    await workspace.close();
    assert.equal(existsSync(second.path), false);
  });

  it('removes worktrees left behind by a process that is no longer running', async () => {
    let deadPid = 4_000_000;
    while (isRunning(deadPid)) deadPid -= 1;
    const leftover = join(directory.path, 'data', 'worktrees', `p${deadPid}-deadbeef`, 'some-run');
    mkdirSync(leftover, { recursive: true });
    writeFileSync(join(leftover, 'file.md'), 'left behind\n');
    const workspace = createGitWorkspace({ dataDirectory: join(directory.path, 'data') });
    const worktree = await workspace.prepare({ repository: origin, baseRef: 'main', branch: 'quire/a-b' });
    assert.equal(existsSync(join(directory.path, 'data', 'worktrees', `p${deadPid}-deadbeef`)), false);
    await workspace.remove(worktree);
    await workspace.close();
  });

  it('refuses a base ref that does not exist', async () => {
    const workspace = createGitWorkspace({ dataDirectory: join(directory.path, 'data') });
    await assert.rejects(
      workspace.prepare({ repository: origin, baseRef: 'nope', branch: 'quire/x-y' }),
      /base ref "nope" does not exist/,
    );
  });

  it('fetches and pushes over HTTP with credentials passed per command, stored nowhere', async () => {
    git(directory.path, 'clone', '--quiet', '--bare', origin, join(directory.path, 'served', 'docs.git'));
    const server = await startGitHttpServer({
      root: join(directory.path, 'served'),
      username: 'x-access-token',
      password: 'ghs_secretvalue',
    });
    try {
      const repository = `${server.url}/docs.git`;
      const workspace = createGitWorkspace({ dataDirectory: join(directory.path, 'data') });
      await assert.rejects(
        workspace.prepare({
          repository,
          baseRef: 'main',
          branch: 'quire/a-b',
          credentials: { username: 'x-access-token', password: 'wrong-token' },
        }),
        (error: Error) => /git fetch failed/.test(error.message) && !error.message.includes('wrong-token'),
      );
      const credentials = { username: 'x-access-token', password: 'ghs_secretvalue' };
      const worktree = await workspace.prepare({
        repository,
        baseRef: 'main',
        branch: 'quire/a-b',
        credentials,
      });
      writeFileSync(join(worktree.path, 'new.md'), '# New\n');
      await workspace.commit(worktree, { message: 'Add a page', author });
      await workspace.push(worktree, { credentials });
      assert.equal(git(join(directory.path, 'served', 'docs.git'), 'show', 'quire/a-b:new.md'), '# New\n');
      await assert.rejects(workspace.push(worktree, {}), /git push failed/);
      const secrets = ['ghs_secretvalue', Buffer.from('x-access-token:ghs_secretvalue').toString('base64')];
      assert.deepEqual(filesContaining(join(directory.path, 'data'), secrets), []);
      assert.ok(server.authorizations.includes(`Basic ${secrets[1]}`));
      await workspace.remove(worktree);
    } finally {
      await server.close();
    }
  });

  it('never writes credentials into the mirror configuration', async () => {
    const workspace = createGitWorkspace({ dataDirectory: join(directory.path, 'data') });
    const credentials = { username: 'x-access-token', password: 'ghs_secretvalue' };
    const worktree = await workspace.prepare({
      repository: origin,
      baseRef: 'main',
      branch: 'quire/a-b',
      credentials,
    });
    const config = readFileSync(join(worktree.mirrorPath, 'config'), 'utf8');
    assert.doesNotMatch(config, /secretvalue|Authorization/);
    await workspace.remove(worktree);
  });
});

describe('git credentials', () => {
  it('passes an HTTP authorization header through the environment and redacts it from messages', () => {
    const credentials = { username: 'oauth2', password: 's3cret' };
    const environment = credentialEnvironment(credentials);
    assert.equal(environment.GIT_CONFIG_KEY_0, 'http.extraHeader');
    assert.equal(
      environment.GIT_CONFIG_VALUE_0,
      `Authorization: Basic ${Buffer.from('oauth2:s3cret').toString('base64')}`,
    );
    assert.equal(redactCredentials('failed with s3cret', credentials), 'failed with [redacted]');
    assert.deepEqual(credentialEnvironment(null), {});
    assert.equal(
      credentialEnvironment({ ...credentials, url: 'https://github.com/acme/docs.git' }).GIT_CONFIG_KEY_0,
      'http.https://github.com/.extraHeader',
    );
  });
});

describe('branch names', () => {
  it('are quire/<short-id>-<slug>', () => {
    assert.equal(
      branchName('0f6c2b9e-1234-5678', 'Fix the typo in Quickstart!'),
      'quire/0f6c2b9e-fix-the-typo-in-quickstart',
    );
    assert.equal(slugify('  '), 'changes');
    assert.equal(slugify('Ünïcödé café ../../etc'), 'unicode-cafe-etc');
    assert.ok(slugify('word '.repeat(40)).length <= 40);
  });
});

function filesContaining(root: string, needles: string[]): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const content = readFileSync(join(entry.parentPath, entry.name));
    if (needles.some((needle) => content.includes(needle))) found.push(join(entry.parentPath, entry.name));
  }
  return found;
}
