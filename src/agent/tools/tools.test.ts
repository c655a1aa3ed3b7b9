import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { createRepository, temporaryDirectory } from '../../../test/temporary-repository.ts';
import { createRunChanges, type ToolContext } from './tool-context.ts';
import { executeRepositoryTool, repositoryTools } from './tool-set.ts';

describe('repository tools', () => {
  let directory: ReturnType<typeof temporaryDirectory>;
  let context: ToolContext;
  let outside: string;

  beforeEach(() => {
    directory = temporaryDirectory();
    outside = join(directory.path, 'outside');
    mkdirSync(outside);
    writeFileSync(join(outside, 'secret.txt'), 'top secret\n');
    const root = createRepository(join(directory.path, 'repo'), {
      'docs/index.md': '# Home\n\nWelcome to Acme.\nAcme is great.\n',
      'docs/guide.mdx': '# Guide\n',
      'README.md': 'Read me\n',
    });
    symlinkSync(join(outside, 'secret.txt'), join(root, 'docs/escape.md'));
    symlinkSync(outside, join(root, 'linked-folder'));
    symlinkSync(join(root, '.git/config'), join(root, 'git-config.md'));
    symlinkSync(join(root, 'missing-target.md'), join(root, 'dangling.md'));
    symlinkSync('index.md', join(root, 'docs/alias.md'));
    writeFileSync(join(root, 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]));
    writeFileSync(join(root, 'big.md'), 'x'.repeat(2048));
    symlinkSync('big.md', join(root, 'big-alias.md'));
    context = {
      root,
      maximumFileBytes: 1024,
      readPaths: new Set(),
      changes: createRunChanges(),
      validate: async () => ({ problems: [], alreadyPresent: [], unsupported: [] }),
      site: null,
    };
  });
  afterEach(() => directory.cleanup());

  const run = (name: keyof typeof repositoryTools, input: unknown) =>
    executeRepositoryTool(repositoryTools[name] as never, input as never, context);

  describe('refuse every path escape with a clear error', () => {
    const escapes: Array<[string, RegExp]> = [
      ['../outside/secret.txt', /contains "\.\."/],
      ['docs/../../outside/secret.txt', /contains "\.\."/],
      ['/etc/passwd', /absolute path/],
      ['C:/Windows/win.ini', /absolute path/],
      ['~/secret', /absolute path/],
      ['docs\\..\\..\\secret', /backslash/],
      ['.git/config', /inside \.git/],
      ['docs/.GIT/HEAD', /inside \.git/],
      ['docs/escape.md', /outside the repository/],
      ['linked-folder/secret.txt', /outside the repository/],
      ['git-config.md', /resolves into \.git/],
      ['dangling.md', /symbolic link whose target does not exist/],
      ['bad\0name.md', /NUL/],
    ];
    for (const [path, message] of escapes) {
      it(`refuses ${JSON.stringify(path)} in read_file, write_file, edit_file, delete_file and move_file`, async () => {
        await assert.rejects(run('read_file', { path }), message);
        await assert.rejects(run('write_file', { path, content: 'pwned' }), message);
        await assert.rejects(run('edit_file', { path, old_string: 'a', new_string: 'b' }), message);
        await assert.rejects(run('delete_file', { path }), message);
        await assert.rejects(run('move_file', { from: 'README.md', to: path }), message);
        await assert.rejects(run('move_file', { from: path, to: 'moved.md' }), message);
      });
    }
    it('refuses escapes in list_files and search', async () => {
      await assert.rejects(run('list_files', { path: '..' }), /contains "\.\."/);
      await assert.rejects(run('list_files', { path: 'linked-folder' }), /outside the repository/);
      await assert.rejects(run('search', { query: 'secret', path: '/' }), /absolute path/);
      await assert.rejects(
        run('search', { query: 'secret', path: 'docs/escape.md' }),
        /outside the repository/,
      );
    });
    it('leaves the outside untouched and never shows outside content', async () => {
      await assert.rejects(run('write_file', { path: 'linked-folder/new.md', content: 'x' }), /outside/);
      assert.equal(existsSync(join(outside, 'new.md')), false);
      assert.equal(readFileSync(join(outside, 'secret.txt'), 'utf8'), 'top secret\n');
      const everything = await run('search', { query: 'top secret' });
      assert.equal(everything, 'No matches for "top secret".');
      const listing = await run('list_files', {});
      assert.doesNotMatch(listing, /secret\.txt|\.git\//);
    });
    it('refuses binary files and files over the size limit', async () => {
      await assert.rejects(run('read_file', { path: 'logo.png' }), /binary file/);
      await assert.rejects(run('read_file', { path: 'big.md' }), /over the 1024-byte limit/);
      await assert.rejects(run('read_file', { path: 'big-alias.md' }), /over the 1024-byte limit/);
      await assert.rejects(
        run('write_file', { path: 'huge.md', content: 'y'.repeat(2000) }),
        /over the 1024-byte limit/,
      );
      await assert.rejects(run('write_file', { path: 'nul.md', content: 'a\0b' }), /NUL/);
    });
  });

  it('reads numbered lines with offset and limit', async () => {
    assert.equal(
      await run('read_file', { path: 'docs/index.md' }),
      '1\t# Home\n2\t\n3\tWelcome to Acme.\n4\tAcme is great.',
    );
    assert.equal(
      await run('read_file', { path: './docs//index.md', offset: 3, limit: 1 }),
      '3\tWelcome to Acme.\n(1 more lines; read on with offset 4)',
    );
    await assert.rejects(run('read_file', { path: 'docs/nope.md' }), /does not exist/);
    assert.equal(
      await run('read_file', { path: 'docs/alias.md' }),
      '1\t# Home\n2\t\n3\tWelcome to Acme.\n4\tAcme is great.',
    );
  });

  it('edits only files read in this run, matching exactly and uniquely', async () => {
    await assert.rejects(
      run('edit_file', { path: 'docs/index.md', old_string: 'Home', new_string: 'Start' }),
      /Read docs\/index\.md with read_file before editing it/,
    );
    await run('read_file', { path: 'docs/index.md' });
    await assert.rejects(
      run('edit_file', { path: 'docs/index.md', old_string: 'Acme', new_string: 'Apex' }),
      /occurs 2 times/,
    );
    await assert.rejects(
      run('edit_file', { path: 'docs/index.md', old_string: '3\tWelcome', new_string: 'x' }),
      /was not found/,
    );
    await assert.rejects(
      run('edit_file', { path: 'docs/alias.md', old_string: 'Home', new_string: 'x' }),
      /symbolic link/,
    );
    assert.equal(
      await run('edit_file', {
        path: 'docs/index.md',
        old_string: 'Acme',
        new_string: 'Apex',
        replace_all: true,
      }),
      'Edited docs/index.md: 2 replacements. The first edited region now reads:\n1\t# Home\n2\t\n3\tWelcome to Apex.\n4\tApex is great.\n5\t',
    );
    assert.equal(
      readFileSync(join(context.root, 'docs/index.md'), 'utf8'),
      '# Home\n\nWelcome to Apex.\nApex is great.\n',
    );
    assert.equal(
      await run('edit_file', { path: 'docs/index.md', old_string: '$& Home', new_string: '$& Start' }).catch(
        (error: Error) => error.message,
      ),
      'old_string was not found in docs/index.md. It must match the file exactly, including whitespace and line breaks, and without line numbers; read the file again and copy the text.',
    );
    await run('edit_file', { path: 'docs/index.md', old_string: '# Home', new_string: '# $& Start' });
    assert.match(readFileSync(join(context.root, 'docs/index.md'), 'utf8'), /^# \$& Start\n/);
  });

  it('keeps a byte order mark when it edits a file that has one', async () => {
    // .NET repositories' files (DocFX's toc.yml) often start with one; an edit changes only what it names.
    writeFileSync(join(context.root, 'docs/toc.yml'), '\uFEFF- href: index.md\n');
    await run('read_file', { path: 'docs/toc.yml' });
    await run('edit_file', {
      path: 'docs/toc.yml',
      old_string: '- href: index.md\n',
      new_string: '- href: index.md\n- href: faq.md\n',
    });
    assert.deepEqual(
      [...readFileSync(join(context.root, 'docs/toc.yml')).subarray(0, 3)],
      [0xef, 0xbb, 0xbf],
    );
    assert.equal(
      readFileSync(join(context.root, 'docs/toc.yml'), 'utf8'),
      '\uFEFF- href: index.md\n- href: faq.md\n',
    );
  });

  it('writes new files, refuses to overwrite unread ones, moves and deletes', async () => {
    assert.equal(
      await run('write_file', { path: 'docs/new/page.mdx', content: '# New\n' }),
      'Created docs/new/page.mdx (2 lines).',
    );
    await assert.rejects(
      run('write_file', { path: 'README.md', content: 'gone' }),
      /read it with read_file before replacing it/,
    );
    await assert.rejects(run('move_file', { from: 'docs/new/page.mdx', to: 'README.md' }), /already exists/);
    assert.equal(
      await run('move_file', { from: 'docs/new/page.mdx', to: 'docs/page.mdx' }),
      'Moved docs/new/page.mdx to docs/page.mdx.',
    );
    assert.equal(await run('delete_file', { path: 'docs/page.mdx' }), 'Deleted docs/page.mdx.');
    await assert.rejects(run('delete_file', { path: 'docs' }), /not a regular file/);
    assert.deepEqual([...context.changes.created], []);
    assert.deepEqual([...context.changes.changed], []);
    await run('move_file', { from: 'docs/guide.mdx', to: 'docs/guides/start.mdx' });
    assert.deepEqual([...context.changes.removed], ['docs/guide.mdx']);
    assert.deepEqual([...context.changes.created], ['docs/guides/start.mdx']);
  });

  it('lists and searches', async () => {
    assert.equal(await run('list_files', { path: 'docs', pattern: '*.mdx' }), 'docs/guide.mdx');
    assert.equal(await run('list_files', { pattern: 'docs/**/*.md' }), 'docs/index.md');
    assert.equal(
      await run('search', { query: 'acme' }),
      'docs/index.md:3\n      1\t# Home\n      2\t\n>     3\tWelcome to Acme.\n>     4\tAcme is great.\n      5\t',
    );
    assert.equal(await run('validate', {}), 'No problems found.');
  });
});
