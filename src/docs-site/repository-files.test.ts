import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CommitFiles, DirectoryFiles } from './repository-files.ts';

// Real sites keep files behind symbolic links (NVIDIA's Fern sites: `versions/latest.yml ->
// v26.07.yml`; MkDocs sites: `docs/index.md -> ../README.md`), and their builds read through them.
describe('Repository files behind symbolic links', () => {
  let root = '';
  let outside = '';

  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'quire-links-'));
    outside = await mkdtemp(join(tmpdir(), 'quire-outside-'));
    await writeFile(join(outside, 'secret.md'), 'not the repository\n');
    await mkdir(join(root, 'fern/versions'), { recursive: true });
    await mkdir(join(root, 'docs'), { recursive: true });
    await writeFile(join(root, 'fern/versions/v2.yml'), 'navigation: []\n');
    await writeFile(join(root, 'README.md'), '# Project\n');
    // A page over the size limit (inline images): only its start can be read, for its front matter.
    await writeFile(join(root, 'docs/large.mdx'), `---\nslug: big\n---\n${'é'.repeat(700_000)}\n`);
    await symlink('large.mdx', join(root, 'docs/large-link.mdx'));
    await symlink('v2.yml', join(root, 'fern/versions/latest.yml'));
    await symlink('latest.yml', join(root, 'fern/versions/stable.yml'));
    await symlink('../README.md', join(root, 'docs/index.md'));
    await symlink(join(outside, 'secret.md'), join(root, 'docs/absolute.md'));
    await symlink('../../outside/secret.md', join(root, 'docs/climbs.md'));
    await symlink('loop-b.md', join(root, 'docs/loop-a.md'));
    await symlink('loop-a.md', join(root, 'docs/loop-b.md'));
    await symlink('../fern', join(root, 'docs/folder-link'));
    const git = (...args: string[]) => execFileSync('git', args, { cwd: root, stdio: 'pipe' });
    git('init', '-q');
    git('add', '-A');
    git('-c', 'user.name=t', '-c', 'user.email=t@example.org', 'commit', '-q', '-m', 'files');
  });

  after(async () => {
    await rm(root, { recursive: true, force: true });
    await rm(outside, { recursive: true, force: true });
  });

  for (const [name, list] of [
    ['on disk', () => DirectoryFiles.list(root, 1024 * 1024)],
    ['in a commit', () => CommitFiles.list(root, 'HEAD', 1024 * 1024)],
  ] as const) {
    it(`reads a link as the repository file it names, ${name}, and nothing outside the repository`, async () => {
      const files = await list();
      assert.equal(await files.read('fern/versions/latest.yml'), 'navigation: []\n');
      assert.equal(await files.read('fern/versions/stable.yml'), 'navigation: []\n');
      assert.equal(await files.read('docs/index.md'), '# Project\n');
      assert.equal(await files.read('docs/absolute.md'), null);
      assert.equal(await files.read('docs/climbs.md'), null);
      assert.equal(await files.read('docs/loop-a.md'), null);
      assert.equal(await files.read('docs/folder-link'), null);
      assert.ok(files.has('docs/index.md'));
      assert.equal(await files.read('docs/large.mdx'), null);
      const head = await files.readHead?.('docs/large-link.mdx', 21);
      // The cut splits an `é`: the half character is dropped.
      assert.equal(head, '---\nslug: big\n---\né');
      assert.equal(await files.readHead?.('docs/climbs.md', 100), null);
    });
  }
});
