import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyzeSite, checkSite, memoryFiles, PageFactsCache, pagesMissingFromNavigation } from '../index.ts';

async function check(files: Record<string, string>) {
  const site = await analyzeSite(memoryFiles(files), new PageFactsCache());
  const problems = await checkSite(site.model, site.source);
  return { model: site.model, problems };
}

// The shape of opengeos/leafmap's `zensical.toml`: a `[project]` table, a nav of inline tables with
// external links and sections, notebooks a build step converts to the `.md` pages the nav names,
// dotted Markdown extension tables, and a `mkdocs.yml` left beside it.
const leafmapShape = {
  'zensical.toml': [
    '[project]',
    'site_name = "leafmap"',
    'site_url = "https://leafmap.org"',
    '',
    'nav = [',
    '  { "Home" = "index.md" },',
    '  { "Book" = "https://book.leafmap.org" },',
    '  { "Usage" = "notebooks/00_key_features.md" },',
    '  { "API Reference" = [',
    '    { "common module" = "common.md" },',
    '    { "gone module" = "gone.md" },',
    '  ] },',
    ']',
    '',
    '[project.theme]',
    'language = "en"',
    '',
    '[project.plugins.mkdocstrings.handlers.python.options]',
    'docstring_style = "google"',
    '',
    '[project.markdown_extensions.pymdownx.snippets]',
    '[project.markdown_extensions.toc]',
    'permalink = true',
    '',
  ].join('\n'),
  'mkdocs.yml': 'site_name: leafmap\nnav:\n  - Old: old.md\n',
  'docs/index.md':
    '# leafmap\n\n[Common](common.md), [usage](notebooks/00_key_features.md), [missing](nothing.md).\n',
  'docs/common.md': '# common\n\n::: leafmap.common\n\n[Home](/index.md) and [up](../README.md)\n',
  'docs/unlisted.md': '# Unlisted\n',
  'docs/notebooks/00_key_features.ipynb': '{"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}',
  'docs/notes.markdown': '# Not a page for Zensical\n\n[broken](nowhere.md)\n',
};

describe('Zensical site model', () => {
  it('is detected by zensical.toml, taken before the mkdocs.yml beside it', async () => {
    const { model } = await check(leafmapShape);
    assert.equal(model.framework, 'zensical');
    assert.deepEqual(model.configFiles, ['zensical.toml']);
    assert.deepEqual(model.pages.get('docs/common.md'), ['/common']);
    // Zensical renders `.md` files only.
    assert.equal(model.pages.has('docs/notes.markdown'), false);
  });

  it('reads the nav of inline tables with lines and sections, skipping external links', async () => {
    const { model } = await check(leafmapShape);
    assert.deepEqual(
      model.navigation.map((entry) => [entry.reference, entry.line, entry.groups.join('/'), entry.target]),
      [
        ['index.md', 6, 'Home', 'docs/index.md'],
        [
          'notebooks/00_key_features.md',
          8,
          'Usage',
          {
            unchecked: 'a build step may make it from docs/notebooks/00_key_features.ipynb',
            onlyFiles: ['docs/notebooks/00_key_features.md'],
          },
        ],
        ['common.md', 10, 'API Reference/common module', 'docs/common.md'],
        ['gone.md', 11, 'API Reference/gone module', null],
      ],
    );
  });

  it('reports what its build reports: missing .md pages, absolute .md links, nav entries to nothing', async () => {
    const { problems } = await check(leafmapShape);
    assert.deepEqual(problems.map((problem) => [problem.file, problem.line, problem.message]).sort(), [
      [
        'docs/common.md',
        5,
        'Broken link "/index.md": Zensical does not rewrite absolute links: /index.md is not served',
      ],
      ['docs/index.md', 3, 'Broken link "nothing.md": no file docs/nothing.md'],
      ['zensical.toml', 11, 'Navigation entry "gone.md" names no page'],
    ]);
  });

  it('lists a new page missing from the nav, and reports TOML syntax errors at their line', async () => {
    // The nav's entries to converted notebooks name their own pages only: a new page is still missing.
    const { model } = await check(leafmapShape);
    assert.deepEqual(
      pagesMissingFromNavigation(model, ['docs/unlisted.md']).map((problem) => problem.message),
      ['New page is missing from navigation; add it to zensical.toml'],
    );
    const { problems } = await check({
      ...leafmapShape,
      'zensical.toml': '[project]\nsite_name = "x"\nnav = [ { "Home" = "index.md" } ]\nbroken = \n',
    });
    const syntax = problems.find((problem) => problem.file === 'zensical.toml');
    assert.equal(syntax?.line, 4);
    assert.match(syntax?.message ?? '', /not valid TOML/);
  });

  it('reads a configuration without a [project] table, and without a nav every page is listed', async () => {
    const { model, problems } = await check({
      'zensical.toml': 'site_name = "Plain"\ndocs_dir = "content"\n',
      'content/index.md': '# Plain\n\n[Guide](guide.md)\n',
      'content/guide.md': '# Guide\n',
    });
    assert.equal(model.framework, 'zensical');
    assert.deepEqual(model.pages.get('content/guide.md'), ['/guide']);
    assert.equal(model.needsNavigationEntry('content/guide.md'), false);
    assert.deepEqual(problems, []);
  });

  // The shapes of Scrapling (a link to a section its target page lost), owid/etl (a nav URL that
  // reaches a page, HTML exports of notebooks) and takopi (a changelog copied into docs/ and ignored).
  const anchorShape = {
    'zensical.toml': [
      '[project]',
      'site_name = "x"',
      'nav = [',
      '  { "Home" = "index.md" },',
      '  { "Dynamic" = "dynamic.md" },',
      '  { "COVID" = "covid/" },',
      '  { "Food" = "food/food.html" },',
      '  { "Changelog" = "changelog.md" },',
      ']',
      '',
    ].join('\n'),
    '.gitignore': 'docs/changelog.md\n',
    'docs/index.md': [
      '# Home',
      '',
      '[intro](dynamic.md#introduction), [usage](dynamic.md#basic-usage), [top](#home), [gone](#gone)',
      '[setup](dynamic.md#set-up) [food](food/food.html)',
    ].join('\n'),
    'docs/dynamic.md': '# Fetching\n\n!!! note\n\n    ## Basic Usage\n\n## Setup {#set-up}\n',
    'docs/covid.md': '# COVID\n',
    'docs/food/food.ipynb': '{"cells": []}',
  };

  it('checks link fragments against the ids of the target page, as its build does by default', async () => {
    const { model, problems } = await check(anchorShape);
    assert.deepEqual(
      problems.map((problem) => `${problem.file}:${problem.line}: ${problem.message}`),
      [
        'docs/index.md:3: Broken anchor "dynamic.md#introduction": docs/dynamic.md has no heading or element with the id "introduction"',
        'docs/index.md:3: Broken anchor "#gone": docs/index.md has no heading or element with the id "gone"',
      ],
    );
    assert.deepEqual(
      model.navigation.map((entry) => entry.target),
      [
        'docs/index.md',
        'docs/dynamic.md',
        'docs/covid.md',
        {
          unchecked: 'a build step may make it from docs/food/food.ipynb',
          onlyFiles: ['docs/food/food.html'],
        },
        {
          unchecked: 'the repository ignores this file: a build step may write it',
          onlyFiles: ['docs/changelog.md'],
        },
      ],
    );
    assert.match(model.conventions.join('\n'), /The build checks link fragments/);
  });

  it('leaves fragments alone when validation is off or a custom slugify makes the ids', async () => {
    for (const setting of [
      'validation = false',
      '[project.validation]\ninvalid_link_anchors = false',
      '[project.markdown_extensions.toc]\nslugify = { object = "my_package.slugify" }',
    ]) {
      const { problems } = await check({
        ...anchorShape,
        'zensical.toml': `${anchorShape['zensical.toml']}\n${setting}\n`,
      });
      assert.deepEqual(problems, [], setting);
    }
  });

  it('reads a mkdocs.yml as Zensical when the project builds it with Zensical (zensical/docs)', async () => {
    const site = {
      'mkdocs.yml': 'site_name: Zensical\nnav:\n  - Home: index.md\n',
      'docs/index.md': '# Home\n\n[Setup](#setup)\n',
      '.github/workflows/deploy.yml':
        'jobs:\n  deploy:\n    steps:\n      - run: pip install zensical\n      - run: zensical build --clean\n',
    };
    const built = await check(site);
    assert.equal(built.model.framework, 'zensical');
    assert.deepEqual(built.model.configFiles, ['mkdocs.yml']);
    assert.deepEqual(
      built.problems.map((problem) => problem.message),
      ['Broken anchor "#setup": docs/index.md has no heading or element with the id "setup"'],
    );
    // Without Zensical in its build files, the same site is MkDocs, which logs anchors at info only.
    const { '.github/workflows/deploy.yml': _workflow, ...withoutWorkflow } = site;
    const mkdocs = await check(withoutWorkflow);
    assert.equal(mkdocs.model.framework, 'mkdocs');
    assert.deepEqual(mkdocs.problems, []);
  });

  // mesh-iit/documentation's shape: raw HTML images written relative to the page's URL, as MkDocs
  // leaves them; Zensical rewrites them from the file (zensical/extensions/links.py, since 2026-04).
  it('resolves raw HTML paths from the file, where MkDocs resolves them from the page URL', async () => {
    const page = '# Battery\n\n<figure>\n  <img src="../assets/battery.png"/>\n</figure>\n';
    const site = {
      'docs/index.md': '# Home\n',
      'docs/battery/pack.md': page,
      'docs/battery/assets/battery.png': '',
      'docs/assets/logo.png': '',
    };
    const mkdocs = await check({ ...site, 'mkdocs.yml': 'site_name: x\n' });
    assert.equal(mkdocs.model.framework, 'mkdocs');
    assert.deepEqual(mkdocs.problems, []);
    const zensical = await check({ ...site, 'zensical.toml': '[project]\nsite_name = "x"\n' });
    assert.deepEqual(
      zensical.problems.map((problem) => problem.message),
      ['Broken image "../assets/battery.png": no file docs/assets/battery.png'],
    );
  });

  it('takes a mkdocs.yml for Zensical only when a build file runs, installs or requires it', async () => {
    const site = { 'mkdocs.yml': 'site_name: x\n', 'docs/index.md': '# Home\n' };
    const frameworkWith = async (extra: Record<string, string>) =>
      (await analyzeSite(memoryFiles({ ...site, ...extra }), new PageFactsCache())).model.framework;
    assert.equal(await frameworkWith({ 'docs/requirements.txt': 'zensical==0.0.23\n' }), 'zensical');
    assert.equal(
      await frameworkWith({ 'pyproject.toml': '[dependency-groups]\ndocs = ["zensical>=0.0.23"]\n' }),
      'zensical',
    );
    // A comment mentioning it, or a workflow that still runs `mkdocs build`, leaves the site MkDocs'.
    assert.equal(
      await frameworkWith({ 'pyproject.toml': '[project]\nname = "lib"\n# evaluate zensical later\n' }),
      'mkdocs',
    );
    assert.equal(
      await frameworkWith({
        '.github/workflows/docs.yml':
          'jobs:\n  a:\n    steps:\n      - run: mkdocs build --strict\n      - run: zensical build\n',
      }),
      'mkdocs',
    );
  });

  it('reads validation in the order Zensical does, and leaves text fragments alone', async () => {
    const page = { 'docs/index.md': '# Home\n\n[a](#nope) [b](#:~:text=hello) [c](#home:~:text=x)\n' };
    const anchorProblems = async (config: string) =>
      (await check({ ...page, 'zensical.toml': `[project]\nsite_name = "x"\n${config}` })).problems.map(
        (problem) => problem.message,
      );
    assert.deepEqual(await anchorProblems(''), [
      'Broken anchor "#nope": docs/index.md has no heading or element with the id "nope"',
    ]);
    for (const off of [
      '[project.validation.links]\ninvalid_link_anchors = false\n',
      '[project.validation]\nanchors = "warn"\n[project.validation.links]\nanchors = "ignore"\n',
      '[project.validation]\ninvalid_link_anchors = 0\n',
      '[project.markdown_extensions.toc]\nseparator = "_"\n',
    ])
      assert.deepEqual(await anchorProblems(off), [], off);
  });

  it('takes an empty nav for no nav, and resolves nav URLs with fragments, ./ and the offline plugin', async () => {
    const pages = { 'docs/index.md': '# Home\n', 'docs/guide/setup.md': '# Setup\n\n## Install\n' };
    const empty = await check({ ...pages, 'zensical.toml': '[project]\nsite_name = "x"\nnav = []\n' });
    assert.equal(empty.model.needsNavigationEntry('docs/guide/setup.md'), false);
    const urls = await check({
      ...pages,
      'zensical.toml':
        '[project]\nsite_name = "x"\nnav = [\n  { "Install" = "guide/setup/#install" },\n  { "Home" = "./" },\n]\n',
    });
    assert.deepEqual(
      urls.model.navigation.map((entry) => entry.target),
      ['docs/guide/setup.md', 'docs/index.md'],
    );
    // Zensical reads only the first key of a nav table.
    const twoKeys = await check({
      ...pages,
      'zensical.toml': '[project]\nsite_name = "x"\nnav = [ { "Home" = "index.md", "Gone" = "gone.md" } ]\n',
    });
    assert.deepEqual(
      twoKeys.model.navigation.map((entry) => entry.reference),
      ['index.md'],
    );
    const offline = await check({
      ...pages,
      'zensical.toml':
        '[project]\nsite_name = "x"\nnav = [ { "Setup" = "guide/setup.html" } ]\n\n[project.plugins.offline]\n',
    });
    assert.deepEqual(
      offline.model.navigation.map((entry) => entry.target),
      ['docs/guide/setup.md'],
    );
  });
});
