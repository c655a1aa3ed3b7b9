import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkFiles as check, problemLines as messages } from '../../../test/site-check.ts';
import { detectSite, memoryFiles, pagesMissingFromNavigation } from '../index.ts';
import { createSlug } from './myst.ts';

// The shapes of Project Pythia's cookbooks and mystmd's own guide: a `project.toc` of files, titled
// children, patterns and URLs, numbered file names, links with and without `.md`, labels.
const site = {
  'book/myst.yml': [
    'version: 1',
    'project:',
    '  title: A cookbook',
    '  toc:',
    '    - file: index.md',
    '    - title: Foundations',
    '      children:',
    '        - file: foundations/01_why-python.md',
    '        - file: foundations/quickstart',
    '        - pattern: foundations/github/*.md',
    '        - file: foundations/gone.md',
    '    - url: https://projectpythia.org',
    '      title: Pythia',
    'site:',
    '  template: book-theme',
    '',
  ].join('\n'),
  'book/index.md': [
    '# Home',
    '',
    '[Why Python](foundations/01_why-python.md), [quickstart](foundations/quickstart.ipynb), [repos](foundations/github/repos)',
    '[By slug](why-python), [a label](reuse-label), [a section](#roadmap), [robots](/robots.txt)',
    '[missing](foundations/missing.md), [no such page](nowhere), ![figure](images/missing.png)',
    '',
  ].join('\n'),
  'book/foundations/01_why-python.md': '(reuse-label)=\n# Why Python\n\n[Back home](../index.md)\n',
  'book/foundations/quickstart.ipynb': JSON.stringify({
    cells: [{ cell_type: 'markdown', metadata: {}, source: ['# Quickstart\n', '[Why](01_why-python.md)'] }],
  }),
  'book/foundations/github/repos.md': '# Repositories\n',
  'book/foundations/github/forks.md': '# Forks\n',
  'book/notes.md': '# Notes no toc lists\n',
  'book/images/logo.png': '',
};

describe('MyST site model', () => {
  it('is found by myst.yml with a project', async () => {
    assert.deepEqual(await detectSite(memoryFiles(site)), {
      framework: 'myst',
      siteRoot: 'book',
      configFile: 'book/myst.yml',
    });
    // A Jupyter Book 2 keeps a Jupyter Book 1 table of contents: still MyST's.
    assert.equal(
      (await detectSite(memoryFiles({ ...site, 'book/_toc.yml': 'root: index\n' }))).framework,
      'myst',
    );
  });

  it('serves the pages the table of contents lists at their slugs', async () => {
    const { model } = await check(site);
    assert.deepEqual(Object.fromEntries(model.pages), {
      'book/index.md': ['/'],
      'book/foundations/01_why-python.md': ['/why-python'],
      'book/foundations/quickstart.ipynb': ['/quickstart'],
      'book/foundations/github/forks.md': ['/forks'],
      'book/foundations/github/repos.md': ['/repos'],
    });
    assert.deepEqual(
      model.navigation.map((entry) => `${entry.line} ${entry.reference} ${entry.target}`),
      [
        '5 index.md book/index.md',
        '8 foundations/01_why-python.md book/foundations/01_why-python.md',
        '9 foundations/quickstart book/foundations/quickstart.ipynb',
        '10 foundations/github/*.md book/foundations/github/forks.md',
        '10 foundations/github/*.md book/foundations/github/repos.md',
        '11 foundations/gone.md null',
      ],
    );
  });

  it('reports links to no file, page or label, and what the table of contents names that is not there', async () => {
    const { problems } = await check(site);
    assert.deepEqual(messages(problems), [
      'book/myst.yml:11: Navigation entry "foundations/gone.md" names no page',
      'book/index.md:5: Broken link "foundations/missing.md": no file book/foundations/missing.md',
      'book/index.md:5: Broken link "nowhere": no file, page or label nowhere',
      'book/index.md:5: Broken image "images/missing.png": no file book/images/missing.png',
    ]);
  });

  it('asks for a table of contents entry for a new page, and none without a table of contents', async () => {
    const added = await check({ ...site, 'book/foundations/new.md': '# New\n' });
    assert.deepEqual(
      pagesMissingFromNavigation(added.model, ['book/foundations/new.md']).map((problem) => problem.message),
      ['New page is missing from navigation; add it to book/myst.yml'],
    );
    const implicit = await check({
      ...site,
      'book/myst.yml': 'version: 1\nproject:\n  title: A cookbook\nsite:\n  options:\n    folders: true\n',
      'book/foundations/new.md': '# New\n',
    });
    assert.deepEqual(pagesMissingFromNavigation(implicit.model, ['book/foundations/new.md']), []);
    // Without a table of contents every Markdown and notebook file is a page; with `folders`, under its folders.
    assert.deepEqual(implicit.model.pages.get('book/foundations/01_why-python.md'), [
      '/foundations/why-python',
    ]);
    assert.deepEqual(implicit.model.pages.get('book/notes.md'), ['/notes']);
  });

  it('reads the table of contents from an extended file, or from a Jupyter Book 1 _toc.yml', async () => {
    const extended = await check({
      ...site,
      'book/myst.yml': 'version: 1\nextends:\n  - config/toc.yml\nproject:\n  title: A cookbook\n',
      'book/config/toc.yml':
        'version: 1\nproject:\n  toc:\n    - file: ../index.md\n    - file: ../gone.md\n',
    });
    assert.deepEqual(
      messages(extended.problems).filter((line) => line.includes('Navigation')),
      ['book/config/toc.yml:5: Navigation entry "../gone.md" names no page'],
    );
    const legacy = await check({
      ...site,
      'book/myst.yml': 'version: 1\nproject:\n  title: A cookbook\n',
      'book/_toc.yml':
        'format: jb-book\nroot: index\nchapters:\n- file: foundations/01_why-python\n- file: gone\n',
    });
    assert.deepEqual(
      messages(legacy.problems).filter((line) => line.includes('Navigation')),
      ['book/_toc.yml:5: Navigation entry "gone" names no page'],
    );
  });

  it('reads configuration that extends itself in a cycle once, and one it does not hold as unknown', async () => {
    const { model } = await check({
      'myst.yml':
        'version: 1\nextends: [myst.yml, other.yml, https://example.com/shared.yml]\nproject:\n  title: x\n',
      'other.yml': 'version: 1\nextends: [myst.yml, other.yml]\nproject:\n  toc:\n    - file: index.md\n',
      'index.md': '# Home\n\n[Elsewhere](why-python)\n',
    });
    assert.deepEqual(model.configFiles, ['myst.yml', 'other.yml']);
    assert.deepEqual([...model.pages.keys()], ['index.md']);
    assert.ok(model.unsupported.some((note) => note.includes('https://example.com/shared.yml')));
    // The remote configuration may set `site.options.folders`: a link to no file is not judged.
    assert.equal(model.resolveLink('index.md', 'why-python').kind, 'unchecked');
  });

  it('lets the local table of contents win over an extended one, and reads `extend` too', async () => {
    const { model, problems } = await check({
      'myst.yml':
        'version: 1\nextend: [base.yml]\nproject:\n  toc:\n    - file: index.md\n    - file: guide.md\n',
      'base.yml': 'version: 1\nproject:\n  toc:\n    - file: index.md\n    - file: old.md\n',
      'index.md': '# Home\n',
      'guide.md': '# Guide\n',
    });
    assert.deepEqual([...model.pages.keys()], ['index.md', 'guide.md']);
    assert.deepEqual(messages(problems), []);
  });

  it('numbers repeated slugs as mystmd does, a folder index and a page of that name included', async () => {
    const withFolders = await check({
      'myst.yml': 'version: 1\nproject:\n  title: x\nsite:\n  options:\n    folders: true\n',
      'index.md': '# Home\n',
      'a.md': '# A\n',
      'a/index.md': '# A index\n',
    });
    assert.deepEqual(Object.fromEntries(withFolders.model.pages), {
      'a.md': ['/a'],
      'a/index.md': ['/a-1'],
      'index.md': ['/'],
    });
    const flat = await check({
      'myst.yml': 'version: 1\nproject:\n  title: x\n',
      'index.md': '# Home\n',
      'guide/index.md': '# Guide\n',
    });
    // Without folders, a folder's index is the page `index`, at `/index`, not the site's root.
    assert.deepEqual(flat.model.pages.get('guide/index.md'), ['/index']);
  });

  it('makes slugs as mystmd does', () => {
    assert.equal(createSlug('01_my_article'), 'my-article');
    assert.equal(createSlug('2022-annual-report'), '2022-annual-report');
    assert.equal(createSlug('R&D Notes'), 'r-and-d-notes');
    assert.equal(createSlug('12345-long'), '12345-long');
    assert.equal(createSlug('007'), '007');
    assert.equal(createSlug('x'.repeat(80)).length, 50);
  });
});
