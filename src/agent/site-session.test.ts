import assert from 'node:assert/strict';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { createRepository, git, temporaryDirectory, writeFiles } from '../../test/temporary-repository.ts';
import { checkSite, introducedProblems } from '../docs-site/index.ts';
import { createSiteCaches, formatValidation, SiteSession } from './site-session.ts';
import {
  createRunChanges,
  recordMove,
  recordRemoval,
  recordWrite,
  rememberOriginal,
} from './tools/tool-context.ts';

describe('site session', () => {
  let directory: ReturnType<typeof temporaryDirectory>;
  let root: string;
  let baseCommit: string;
  beforeEach(() => {
    directory = temporaryDirectory();
    root = createRepository(join(directory.path, 'repository'), {
      'README.md': '# Docs\n\nSee [the guide](guides/setup.md) and [an old page](gone.md).\n',
      'guides/setup.md': '# Setup\n\nBack to [the start](../README.md). Also [missing](nowhere.md).\n',
      'guides/deploy.md': '# Deploy\n\nFirst [set up](setup.md).\n',
    });
    baseCommit = git(root, 'rev-parse', 'HEAD').trim();
  });
  afterEach(() => directory.cleanup());

  /** Commits `files` over the repository as the run's base. */
  const commitFiles = (files: Record<string, string>, message: string) => {
    writeFiles(root, files);
    git(root, 'add', '--all');
    git(root, 'commit', '--quiet', '-m', message);
    baseCommit = git(root, 'rev-parse', 'HEAD').trim();
  };

  const open = (caches = createSiteCaches()) =>
    SiteSession.open({
      root,
      baseCommit,
      startCommit: git(root, 'rev-parse', 'HEAD').trim(),
      maximumFileBytes: 1024 * 1024,
      caches,
    });

  it('reports only what the change introduced, at its file and line; old problems are counted apart', async () => {
    const site = await open();
    const changes = createRunChanges(site);
    writeFileSync(
      join(root, 'guides/deploy.md'),
      '# Deploy\n\nFirst [set up](setup.md).\n\nThen [ship](ship.md).\n',
    );
    recordWrite(changes, 'guides/deploy.md', false);
    const validation = await site.validate(changes);
    assert.deepEqual(
      validation.problems.map((problem) => `${problem.file}:${problem.line}: ${problem.message}`),
      ['guides/deploy.md:5: Broken link "ship.md": no file guides/ship.md'],
    );
    assert.equal(validation.alreadyPresent.length, 2);
    assert.match(
      formatValidation(validation),
      /2 problems were already present on the base branch; they are not yours to fix unless asked:\n- README.md:3: Broken link "gone.md"/,
    );
  });

  it('finds links to a deleted page by where they lead, and does not blame a moved page for its old problems', async () => {
    const site = await open();
    const changes = createRunChanges(site);
    assert.deepEqual(await site.inbound('guides/setup.md'), [
      { file: 'README.md', line: 3, text: 'link "guides/setup.md"' },
      { file: 'guides/deploy.md', line: 3, text: 'link "setup.md"' },
    ]);
    renameSync(join(root, 'guides/setup.md'), join(root, 'guides/start.md'));
    recordMove(changes, 'guides/setup.md', 'guides/start.md');
    const problems = (await site.validate(changes)).problems.map(
      (problem) => `${problem.file}:${problem.line}`,
    );
    // The two inbound links break; guides/start.md's own broken link ("nowhere.md") was already there.
    assert.deepEqual(problems.sort(), ['README.md:3', 'guides/deploy.md:3']);
  });

  it('after edits to page text only, answers what a full check of the site answers', async () => {
    commitFiles(
      {
        'docs.json': '{"navigation": {"groups": [{"group": "Start", "pages": ["index", "guide"]}]}}\n',
        'index.mdx': '# Home\n\nRead [the guide](/guide).\n',
        'guide.mdx': '---\ntitle: Guide\n---\n\n# Guide\n\nBack [home](/).\n',
      },
      'A Mintlify site',
    );
    for (const edit of [
      'Read [the guide](/guide) and [a missing page](/missing).\n',
      'No links any more.\n',
      'Read [the guide](/guide).\n',
    ]) {
      const site = await open();
      const changes = createRunChanges(site);
      writeFileSync(join(root, 'index.mdx'), `# Home\n\n${edit}`);
      recordWrite(changes, 'index.mdx', false);
      const quick = (await site.validate(changes)).problems;
      // The same change checked the long way: the whole site rebuilt and checked.
      const { model, source } = await site.current();
      const full = introducedProblems(await checkSite(model, source), [
        ...(await site.validate(changes)).alreadyPresent,
      ]);
      assert.deepEqual(quick, full);
      git(root, 'checkout', '--quiet', '--', 'index.mdx');
    }
    const site = await open();
    const changes = createRunChanges(site);
    writeFileSync(
      join(root, 'index.mdx'),
      '# Home\n\nRead [the guide](/guide) and [a missing page](/missing).\n',
    );
    recordWrite(changes, 'index.mdx', false);
    assert.deepEqual(
      (await site.validate(changes)).problems.map((problem) => `${problem.file}:${problem.line}`),
      ['index.mdx:3'],
    );
  });

  it('rebuilds a Sphinx site when an edit changes labels or toctrees that other pages use', async () => {
    commitFiles(
      {
        'docs/conf.py': 'extensions = []\n',
        'docs/index.rst': 'Home\n====\n\n.. toctree::\n\n   guide\n\nSee :ref:`setup`.\n',
        'docs/guide.rst': '.. _setup:\n\nGuide\n=====\n\nText.\n',
      },
      'A Sphinx site',
    );
    const site = await open();
    const changes = createRunChanges(site);
    // Only the guide's text changes, but its label was what index.rst refers to.
    writeFileSync(join(root, 'docs/guide.rst'), 'Guide\n=====\n\nText.\n');
    recordWrite(changes, 'docs/guide.rst', false);
    assert.deepEqual(
      (await site.validate(changes)).problems.map(
        (problem) => `${problem.file}:${problem.line}: ${problem.message}`,
      ),
      ['docs/index.rst:8: Broken link ":ref:`setup`": undefined label setup'],
    );
  });

  it('reports what docutils would warn about in a changed reStructuredText page, not what was there', async () => {
    commitFiles(
      {
        'docs/conf.py': 'extensions = []\n',
        'docs/index.rst': 'Home\n====\n\n.. toctree::\n\n   guide\n\nAn old :ref:`unclosed role.\n',
        'docs/guide.rst': 'Guide\n=====\n\nText.\n',
      },
      'A Sphinx site',
    );
    const site = await open();
    const changes = createRunChanges(site);
    writeFileSync(
      join(root, 'docs/guide.rst'),
      'The guide, renamed longer\n=====\n\n.. note:: Careful.\nText.\n',
    );
    recordWrite(changes, 'docs/guide.rst', false);
    rememberOriginal(changes, 'docs/index.rst', readFileSync(join(root, 'docs/index.rst'), 'utf8'));
    writeFileSync(
      join(root, 'docs/index.rst'),
      'Home\n====\n\n.. toctree::\n\n   guide\n\nAn old :ref:`unclosed role, reworded.\n',
    );
    recordWrite(changes, 'docs/index.rst', false);
    assert.deepEqual(
      (await site.validate(changes)).problems.map(
        (problem) => `${problem.file}:${problem.line}: ${problem.message}`,
      ),
      [
        'docs/guide.rst:2: reStructuredText: Title underline too short.',
        'docs/guide.rst:5: reStructuredText: Explicit markup ends without a blank line; unexpected unindent.',
      ],
    );
  });

  it('reports a changed notebook that Jupyter could no longer open, and links in its Markdown cells', async () => {
    const notebook = (source: string) =>
      `${JSON.stringify({ cells: [{ cell_type: 'markdown', metadata: {}, source: [source] }] }, null, 1)}\n`;
    commitFiles(
      {
        'docs/conf.py': 'extensions = ["myst_nb"]\n',
        'docs/index.md': '# Home\n\n```{toctree}\ntour\nlast\n```\n',
        'docs/tour.ipynb': notebook('# Tour\n'),
        'docs/last.ipynb': notebook('# Last\n'),
      },
      'A Sphinx site with notebooks',
    );
    const site = await open();
    const changes = createRunChanges(site);
    // An edit as text that leaves a trailing comma: JSON no more.
    writeFileSync(
      join(root, 'docs/tour.ipynb'),
      notebook('# Tour\n').replace('"metadata": {}', '"metadata": {},,'),
    );
    recordWrite(changes, 'docs/tour.ipynb', false);
    writeFileSync(join(root, 'docs/last.ipynb'), notebook('# Last\n\nSee [the guide](guide.ipynb).\n'));
    recordWrite(changes, 'docs/last.ipynb', false);
    assert.deepEqual(
      (await site.validate(changes)).problems.map(
        (problem) => `${problem.file}:${problem.line}: ${problem.message.replace(/ at position.*/, '')}`,
      ),
      [
        'docs/last.ipynb:9: Broken link "guide.ipynb": no document docs/guide.ipynb',
        'docs/tour.ipynb:5: Notebook: not valid JSON: Expected double-quoted property name in JSON',
      ],
    );
  });

  it("reports another page's link to a heading an edit renamed (Docusaurus checks anchors)", async () => {
    commitFiles(
      {
        'website/docusaurus.config.js':
          "module.exports = { presets: [['classic', { docs: { path: '../docs' } }]] };\n",
        'docs/setup.md': '# Setup\n\n## Install the CLI\n\nRun it.\n',
        'docs/intro.md': '# Intro\n\nFirst [install the CLI](./setup.md#install-the-cli).\n',
      },
      'A Docusaurus site',
    );
    const site = await open();
    const changes = createRunChanges(site);
    rememberOriginal(changes, 'docs/setup.md', readFileSync(join(root, 'docs/setup.md'), 'utf8'));
    writeFileSync(join(root, 'docs/setup.md'), '# Setup\n\n## Install the command line\n\nRun it.\n');
    recordWrite(changes, 'docs/setup.md', false);
    assert.deepEqual(
      (await site.validate(changes)).problems.map(
        (problem) => `${problem.file}:${problem.line}: ${problem.message}`,
      ),
      [
        'docs/intro.md:3: Broken anchor "./setup.md#install-the-cli": docs/setup.md has no heading or element with the id "install-the-cli"',
      ],
    );
  });

  it('checks syntax of changed pages against their own earlier text', async () => {
    const site = await open();
    const changes = createRunChanges(site);
    writeFileSync(join(root, 'page.mdx'), '# Page\n\n<Note>\n');
    recordWrite(changes, 'page.mdx', true);
    const problems = (await site.validate(changes)).problems;
    assert.equal(problems.length, 1);
    assert.match(problems[0]?.message ?? '', /MDX syntax error: Expected a closing tag for `<Note>`/);
    assert.equal(problems[0]?.line, 3);
  });

  it('measures a follow-up against the base commit, read from git, not against the branch it continues', async () => {
    writeFileSync(
      join(root, 'guides/deploy.md'),
      '# Deploy\n\nSee [a page from the first turn](first.md).\n',
    );
    git(root, 'commit', '--quiet', '-am', 'First turn');
    const site = await open();
    const problems = (await site.validate(createRunChanges(site))).problems;
    assert.deepEqual(
      problems.map((problem) => `${problem.file}:${problem.line}`),
      ['guides/deploy.md:3'],
    );
  });

  it('reads and checks a base commit once per process, whatever the number of runs on it', async () => {
    const caches = createSiteCaches();
    await (await open(caches)).validate(createRunChanges());
    const cached = caches.commits.get(`${baseCommit}\0${1024 * 1024}`);
    assert.notEqual(cached, undefined);
    const problems = (await cached)?.problems;
    await (await open(caches)).validate(createRunChanges());
    assert.equal(caches.commits.get(`${baseCommit}\0${1024 * 1024}`), cached);
    assert.equal((await cached)?.problems, problems);
  });

  it('follows the files the tools change, without walking or reading the tree again', async () => {
    const site = await open();
    const changes = createRunChanges(site);
    rmSync(join(root, 'guides/deploy.md'));
    recordRemoval(changes, 'guides/deploy.md');
    const { model } = await site.current();
    assert.equal(model.pages.has('guides/deploy.md'), false);
    assert.equal(model.pages.has('guides/setup.md'), true);
    assert.deepEqual((await site.validate(changes)).problems, []);
  });
});
