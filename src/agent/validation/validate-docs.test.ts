import assert from 'node:assert/strict';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { temporaryDirectory, writeFiles } from '../../../test/temporary-repository.ts';
import { detectDocsSite } from '../docs/detect-docs-site.ts';
import { parsePage } from './parse-page.ts';
import { formatProblems, validateDocs } from './validate-docs.ts';

describe('parsePage', () => {
  it('reports MDX syntax errors with file and line', () => {
    const parsed = parsePage('docs/a.mdx', '# Title\n\nSome text\n\n<Card title="x">\n\nunclosed\n');
    assert.equal(parsed.problems.length, 1);
    assert.equal(parsed.problems[0]?.file, 'docs/a.mdx');
    assert.equal(parsed.problems[0]?.line, 5);
    assert.match(parsed.problems[0]?.message ?? '', /^MDX syntax error: .*Card/);
  });
  it('reports front matter errors and keeps body line numbers', () => {
    const parsed = parsePage('a.md', '---\ntitle: [unclosed\n---\n\n[link](./b.md)\n');
    assert.equal(parsed.problems[0]?.line, 2);
    assert.match(parsed.problems[0]?.message ?? '', /^Front matter/);
    assert.deepEqual(parsed.links, [{ url: './b.md', line: 5 }]);
  });
  it('collects local MDX imports as links', () => {
    const parsed = parsePage(
      'a.mdx',
      "import Setup from '/snippets/setup.mdx';\nimport { Tabs } from 'some-package';\n\n# A\n",
    );
    assert.deepEqual(parsed.links, [{ url: '/snippets/setup.mdx', line: 1 }]);
  });

  it('collects Markdown links, definitions and JSX hrefs', () => {
    const parsed = parsePage('a.mdx', '[a](/one)\n\n<Card href="/two" />\n\n[ref]: ./three.md\n');
    assert.deepEqual(parsed.links.map((link) => link.url).sort(), ['./three.md', '/one', '/two']);
  });
});

describe('validateDocs on a Mintlify site', () => {
  let directory: ReturnType<typeof temporaryDirectory>;
  beforeEach(() => {
    directory = temporaryDirectory();
    writeFiles(directory.path, {
      'docs.json': JSON.stringify({
        name: 'Acme',
        navigation: {
          tabs: [{ tab: 'Guides', groups: [{ group: 'Start', pages: ['index', 'quickstart', 'gone'] }] }],
        },
      }),
      'index.mdx': '# Home\n\nSee [quickstart](/quickstart) and [setup](./setup#install).\n',
      'quickstart.mdx': '# Quickstart\n\nBack [home](/).\n[Old](/old-page)\n',
      'new.mdx': '# New\n',
      'snippets/part.mdx': 'partial\n',
      'old-page.mdx': '# Old\n',
    });
  });
  afterEach(() => directory.cleanup());

  it('reports broken links, missing navigation targets and new pages missing from navigation', async () => {
    const site = await detectDocsSite(directory.path);
    assert.equal(site.framework, 'mintlify');
    assert.deepEqual(
      site.navigation?.map((entry) => entry.reference),
      ['index', 'quickstart', 'gone'],
    );
    const result = await validateDocs({
      root: directory.path,
      site,
      changedPaths: new Set(['index.mdx', 'new.mdx', 'snippets/part.mdx']),
      createdPaths: new Set(['new.mdx', 'snippets/part.mdx']),
      removedPaths: new Set(),
      maximumFileBytes: 100_000,
    });
    assert.equal(
      formatProblems(result.problems),
      [
        '3 problems:',
        '- index.mdx:3: Broken internal link "./setup#install": no such page or file',
        '- docs.json:1: Navigation entry "gone" points to a missing page',
        '- new.mdx:1: New page is missing from navigation; add it to docs.json',
      ].join('\n'),
    );
  });

  it('does not report problems a changed page already had before the run', async () => {
    const site = await detectDocsSite(directory.path);
    const before = '# Quickstart\n\nBack [home](/).\n[Old](/missing-before)\n';
    writeFiles(directory.path, {
      'quickstart.mdx': '# Quick start\n\nBack [home](/).\n[Old](/missing-before)\n[New](/missing-now)\n',
    });
    const result = await validateDocs({
      root: directory.path,
      site: { ...site, navigation: null },
      changedPaths: new Set(['quickstart.mdx']),
      createdPaths: new Set(),
      removedPaths: new Set(),
      originals: new Map([['quickstart.mdx', before]]),
      maximumFileBytes: 100_000,
    });
    assert.deepEqual(
      result.problems.map((problem) => problem.message),
      ['Broken internal link "/missing-now": no such page or file'],
    );
  });

  it('finds links elsewhere that point to a removed page', async () => {
    const { rmSync } = await import('node:fs');
    rmSync(join(directory.path, 'old-page.mdx'));
    const site = await detectDocsSite(directory.path);
    const result = await validateDocs({
      root: directory.path,
      site: { ...site, navigation: null },
      changedPaths: new Set(),
      createdPaths: new Set(),
      removedPaths: new Set(['old-page.mdx']),
      maximumFileBytes: 100_000,
    });
    assert.deepEqual(result.problems, [
      { file: 'quickstart.mdx', line: 4, message: 'Broken internal link "/old-page": no such page or file' },
    ]);
  });
});

describe('detectDocsSite', () => {
  let directory: ReturnType<typeof temporaryDirectory>;
  beforeEach(() => {
    directory = temporaryDirectory();
  });
  afterEach(() => directory.cleanup());

  it('reads MkDocs navigation, Python tags included', async () => {
    writeFiles(directory.path, {
      'mkdocs.yml':
        'site_name: X\ndocs_dir: content\nmarkdown_extensions:\n  - pymdownx.emoji:\n      emoji_index: !!python/name:material.extensions.emoji.twemoji\nnav:\n  - index.md\n  - Guide:\n    - Setup: guide/setup.md\n    - https://example.com\n',
    });
    const site = await detectDocsSite(directory.path);
    assert.equal(site.framework, 'mkdocs');
    assert.equal(site.contentRoot, 'content');
    assert.deepEqual(site.navigation, [
      { reference: 'index.md', groups: [] },
      { reference: 'guide/setup.md', groups: ['Guide', 'Setup'] },
    ]);
  });

  it('reads Docusaurus sidebars.json, and treats autogenerated sidebars as no navigation to check', async () => {
    writeFiles(directory.path, {
      'docusaurus.config.js': 'export default {};\n',
      'sidebars.json': JSON.stringify({
        docs: ['intro', { type: 'category', label: 'Guides', items: [{ type: 'doc', id: 'guides/a' }] }],
      }),
    });
    let site = await detectDocsSite(directory.path);
    assert.equal(site.framework, 'docusaurus');
    assert.deepEqual(
      site.navigation?.map((entry) => entry.reference),
      ['intro', 'guides/a'],
    );
    writeFiles(directory.path, {
      'sidebars.json': JSON.stringify({ docs: [{ type: 'autogenerated', dirName: '.' }] }),
    });
    site = await detectDocsSite(directory.path);
    assert.equal(site.navigation, null);
  });

  it('falls back to plain Markdown and reports a broken configuration', async () => {
    assert.equal((await detectDocsSite(directory.path)).framework, 'markdown');
    writeFiles(directory.path, { 'docs/mint.json': '{ "navigation": [ ' });
    const site = await detectDocsSite(directory.path);
    assert.equal(site.contentRoot, 'docs');
    assert.match(site.configurationProblems[0] ?? '', /^docs\/mint\.json: /);
  });
});
