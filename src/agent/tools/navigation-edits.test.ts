import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { temporaryDirectory, writeFiles } from '../../../test/temporary-repository.ts';
import type { NavigationEntry } from '../../docs-site/index.ts';
import { keepSiteWhole, movedReference } from './navigation-edits.ts';
import { createRunChanges, type ToolContext } from './tool-context.ts';

const entry = (file: string, line: number, reference: string, target: string): NavigationEntry => ({
  file,
  line,
  reference,
  groups: [],
  target,
});

describe('navigation kept whole', () => {
  it('writes the moved page the way the old reference was written', () => {
    assert.equal(
      movedReference('guides/setup', 'guides/setup.mdx', 'guides/start/setup.mdx'),
      'guides/start/setup',
    );
    assert.equal(movedReference('setup.md', 'docs/setup.md', 'docs/install/setup.md'), 'install/setup.md');
    assert.equal(
      movedReference('/guides/setup', 'guides/setup.mdx', 'tutorials/setup.mdx'),
      '/tutorials/setup',
    );
    assert.equal(movedReference('./ch01.md', 'src/ch01.md', 'src/part1/ch01.md'), './part1/ch01.md');
    // Sphinx toctree entries: document names without the suffix, with or without a title.
    assert.equal(
      movedReference('user/install', 'docs/user/install.rst', 'docs/user/setup.rst'),
      'user/setup',
    );
    assert.equal(
      movedReference('Installing <user/install>', 'docs/user/install.rst', 'docs/guide/install.rst'),
      'Installing <guide/install>',
    );
    // A notebook (nbsphinx's toctree names it without `.ipynb`; nbdev's sidebar with it).
    assert.equal(
      movedReference('prolog-and-epilog', 'doc/prolog-and-epilog.ipynb', 'doc/prolog-epilog.ipynb'),
      'prolog-epilog',
    );
    assert.equal(
      movedReference('tutorials/tutorial.ipynb', 'nbs/tutorials/tutorial.ipynb', 'nbs/start/tutorial.ipynb'),
      'start/tutorial.ipynb',
    );
    // A doc id or slug that is not the path: left to the model.
    assert.equal(movedReference('intro', 'docs/01-intro.md', 'docs/start.md'), null);
    // Out of the folder the navigation leaves out: no plain reference exists.
    assert.equal(movedReference('setup.md', 'docs/setup.md', 'other/setup.md'), null);
  });

  let directory: ReturnType<typeof temporaryDirectory>;
  let context: ToolContext;
  beforeEach(() => {
    directory = temporaryDirectory();
    writeFiles(directory.path, {
      'docs.json':
        '{\n  "navigation": [\n    {\n      "group": "Start",\n      "pages": [\n        "index",\n        "guides/setup"\n      ]\n    }\n  ]\n}\n',
      'mkdocs.yml': 'nav:\n  - Home: index.md\n  - Setup: guides/setup.md\n  - Deploy: deploy.md\n',
      'zensical.toml':
        '[project]\nnav = [\n  { "Home" = "index.md" },\n  { "Deploy" = "deploy.md" },\n  { "Guides" = [\n    { "Setup" = "guides/setup.md" },\n  ] },\n]\n',
      'src/SUMMARY.md':
        '# Summary\n\n- [Intro](intro.md)\n- [Setup](guides/setup.md)\n    - [Nested](guides/nested.md)\n',
    });
    context = {
      root: directory.path,
      maximumFileBytes: 1024 * 1024,
      readPaths: new Set(),
      changes: createRunChanges(),
      validate: async () => ({ problems: [], alreadyPresent: [], unsupported: [] }),
      site: null,
    };
  });
  afterEach(() => directory.cleanup());

  const read = (path: string) => readFileSync(`${directory.path}/${path}`, 'utf8');

  it('updates every entry that names a moved page, and reports inbound links with file and line', async () => {
    const report = await keepSiteWhole(
      context,
      { kind: 'move', from: 'guides/setup.mdx', to: 'guides/install/setup.mdx' },
      {
        entries: [entry('docs.json', 7, 'guides/setup', 'guides/setup.mdx')],
        links: [{ file: 'index.mdx', line: 4, text: 'link "/guides/setup"' }],
      },
    );
    assert.match(read('docs.json'), /"guides\/install\/setup"\n/);
    assert.deepEqual(report, [
      '- docs.json:7: navigation entry "guides/setup" updated to "guides/install/setup"',
      '- index.mdx:4: link "/guides/setup" points to the old path; update it',
    ]);
    assert.deepEqual([...context.changes.changed], ['docs.json']);
    assert.equal(context.changes.originals.get('docs.json')?.includes('"guides/setup"'), true);
  });

  it('keeps a Writerside tree entry a file name: unchanged by a move to another folder, renamed by a rename', async () => {
    writeFiles(directory.path, {
      'hi.tree': '<instance-profile id="hi">\n  <toc-element topic="setup.md"/>\n</instance-profile>\n',
    });
    const moved = await keepSiteWhole(
      context,
      { kind: 'move', from: 'topics/setup.md', to: 'topics/guides/setup.md' },
      { entries: [entry('hi.tree', 2, 'setup.md', 'topics/setup.md')], links: [], byFileName: true },
    );
    assert.deepEqual(moved, [
      '- hi.tree:2: navigation entry "setup.md" names the page by its file name: unchanged',
    ]);
    assert.match(read('hi.tree'), /topic="setup\.md"/);
    const renamed = await keepSiteWhole(
      context,
      { kind: 'move', from: 'topics/setup.md', to: 'topics/guides/install.md' },
      { entries: [entry('hi.tree', 2, 'setup.md', 'topics/setup.md')], links: [], byFileName: true },
    );
    assert.deepEqual(renamed, ['- hi.tree:2: navigation entry "setup.md" updated to "install.md"']);
    assert.match(read('hi.tree'), /topic="install\.md"/);
  });

  it('rewrites an Antora navigation xref, whose target ends at its text', async () => {
    writeFiles(directory.path, {
      'docs/modules/ROOT/nav.adoc': '* xref:index.adoc[Home]\n** xref:usage/caching.adoc[Caching]\n',
    });
    const report = await keepSiteWhole(
      context,
      {
        kind: 'move',
        from: 'docs/modules/ROOT/pages/usage/caching.adoc',
        to: 'docs/modules/ROOT/pages/configuration/caching.adoc',
      },
      {
        entries: [
          entry(
            'docs/modules/ROOT/nav.adoc',
            2,
            'usage/caching.adoc',
            'docs/modules/ROOT/pages/usage/caching.adoc',
          ),
        ],
        links: [],
      },
    );
    assert.equal(
      read('docs/modules/ROOT/nav.adoc'),
      '* xref:index.adoc[Home]\n** xref:configuration/caching.adoc[Caching]\n',
    );
    assert.deepEqual(report, [
      '- docs/modules/ROOT/nav.adoc:2: navigation entry "usage/caching.adoc" updated to "configuration/caching.adoc"',
    ]);
  });

  it('removes a deleted page from a JSON list and keeps the JSON valid', async () => {
    await keepSiteWhole(
      context,
      { kind: 'delete', path: 'guides/setup.mdx' },
      { entries: [entry('docs.json', 7, 'guides/setup', 'guides/setup.mdx')], links: [] },
    );
    const configuration = JSON.parse(read('docs.json')) as { navigation: Array<{ pages: string[] }> };
    assert.deepEqual(configuration.navigation[0]?.pages, ['index']);
  });

  it("removes a Fern page item whole, its path with its title and slug, but not a section's", async () => {
    writeFiles(context.root, {
      'fern/docs.yml':
        'navigation:\n  - section: Guides\n    contents:\n      - page: Deploy\n        path: ./pages/deploy.mdx\n        slug: ship\n      - page: Setup\n        path: ./pages/setup.mdx\n  - section: Overview\n    path: ./pages/overview.mdx\n    contents:\n      - page: Setup\n        path: ./pages/setup.mdx\n',
    });
    const report = await keepSiteWhole(
      context,
      { kind: 'delete', path: 'fern/pages/deploy.mdx' },
      {
        entries: [
          entry('fern/docs.yml', 5, './pages/deploy.mdx', 'fern/pages/deploy.mdx'),
          entry('fern/docs.yml', 10, './pages/overview.mdx', 'fern/pages/overview.mdx'),
        ],
        links: [],
      },
    );
    assert.equal(
      read('fern/docs.yml'),
      'navigation:\n  - section: Guides\n    contents:\n      - page: Setup\n        path: ./pages/setup.mdx\n  - section: Overview\n    path: ./pages/overview.mdx\n    contents:\n      - page: Setup\n        path: ./pages/setup.mdx\n',
    );
    assert.deepEqual(report, [
      '- fern/docs.yml:10: navigation entry "./pages/overview.mdx" still names the deleted page; remove it',
      '- fern/docs.yml:5: navigation entry "./pages/deploy.mdx" removed',
    ]);
  });

  it('removes YAML, TOML and summary lines, but not an entry with children', async () => {
    const report = await keepSiteWhole(
      context,
      { kind: 'delete', path: 'docs/deploy.md' },
      {
        entries: [
          entry('mkdocs.yml', 4, 'deploy.md', 'docs/deploy.md'),
          entry('zensical.toml', 4, 'deploy.md', 'docs/deploy.md'),
          entry('src/SUMMARY.md', 4, 'guides/setup.md', 'src/guides/setup.md'),
        ],
        links: [],
      },
    );
    assert.equal(read('mkdocs.yml'), 'nav:\n  - Home: index.md\n  - Setup: guides/setup.md\n');
    assert.equal(
      read('zensical.toml'),
      '[project]\nnav = [\n  { "Home" = "index.md" },\n  { "Guides" = [\n    { "Setup" = "guides/setup.md" },\n  ] },\n]\n',
    );
    assert.match(read('src/SUMMARY.md'), /\[Setup\]\(guides\/setup\.md\)/);
    assert.deepEqual(report, [
      '- mkdocs.yml:4: navigation entry "deploy.md" removed',
      '- zensical.toml:4: navigation entry "deploy.md" removed',
      '- src/SUMMARY.md:4: navigation entry "guides/setup.md" still names the deleted page; remove it',
    ]);
  });
});
