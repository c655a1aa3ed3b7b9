import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkFiles as check, problemLines as messages } from '../../../test/site-check.ts';
import { detectSite, memoryFiles, pagesMissingFromNavigation } from '../index.ts';
import { possibleStrings, readSphinxConfig } from './sphinx-config.ts';

// The shape of psf/requests' and pallets/flask's `docs/`: reStructuredText pages, toctrees in the
// index, `:doc:` paths relative to the page or from the source folder, labels before sections,
// images and includes beside the page, intersphinx for another project's labels.
const site = {
  'docs/conf.py': [
    'import os',
    'extensions = [',
    '    "sphinx.ext.autodoc",',
    '    # "sphinx.ext.todo",',
    ']',
    'if os.environ.get("READTHEDOCS"):',
    '    extensions.append("sphinx.ext.intersphinx")',
    'intersphinx_mapping = {"python": ("https://docs.python.org/3", None)}',
    'intersphinx_disabled_reftypes = ["*"]',
    'templates_path = ["_templates"]',
    'exclude_patterns = ["_build", "drafts/*"]',
    'html_static_path = ["_static"]',
    '',
  ].join('\n'),
  'docs/index.rst': [
    'Requests',
    '========',
    '',
    '.. toctree::',
    '   :maxdepth: 2',
    '   :caption: User guide',
    '',
    '   user/install',
    '   Quick start <user/quickstart>',
    '   user/gone',
    '   https://example.com/elsewhere',
    '   genindex',
    '',
    'See :ref:`install-pip` and :doc:`user/quickstart`.',
    '',
  ].join('\n'),
  'docs/user/install.rst': [
    '.. _install-pip:',
    '',
    'Installing with pip',
    '-------------------',
    '',
    'Run it::',
    '',
    '    See :doc:`not-a-link` in this literal block.',
    '',
    'Go on with :doc:`quickstart` (relative), :doc:`/user/quickstart` (from the source folder),',
    ':doc:`the missing one <missing>` and ``:doc:`inline literal```.',
    '',
    '.. image:: shot.png',
    '.. figure:: /_static/logo.*',
    '.. include:: ../../AUTHORS.rst',
    '.. include:: snippets/gone.rst',
    '',
    '.. code-block:: rst',
    '',
    '   :ref:`example-only`',
    '',
    '.. This is a comment with :doc:`commented-out`',
    '',
    'Python has :ref:`python:tut-venv`; :ref:`unknown-label` is nowhere;',
    'the `old page <../old.html>`_ moved, and the `new page <quickstart.html>`_ is here.',
    '',
    'An unreferenced target is no link:',
    '',
    '.. _unused: gone-too.html',
    '.. _used: quickstart.html',
    '',
    'This one is used_.',
    '',
  ].join('\n'),
  'docs/user/quickstart.rst': 'Quick start\n===========\n\nBack to :doc:`install`.\n',
  'docs/user/shot.png': '',
  'docs/user/orphaned.rst': ':orphan:\n\nOrphaned\n========\n',
  'docs/user/lonely.rst': 'Lonely\n======\n',
  'docs/_static/logo.svg': '',
  'docs/_templates/page.rst': 'Not a page: templates are excluded\n',
  'docs/drafts/idea.rst': 'Excluded\n========\n',
  'AUTHORS.rst': 'Authors\n=======\n\n.. _authors-list:\n\nThe authors.\n',
};

describe('Sphinx site model', () => {
  it('is found by conf.py, and not by a conf.py of something else', async () => {
    assert.deepEqual(await detectSite(memoryFiles(site)), {
      framework: 'sphinx',
      siteRoot: 'docs',
      configFile: 'docs/conf.py',
    });
    assert.equal(
      (await detectSite(memoryFiles({ 'conf.py': 'PORT = 8080\n', 'a.md': '# A\n' }))).framework,
      'markdown',
    );
    // A configuration shared through a package (celery's `from sphinx_celery import conf`).
    const shared = {
      'docs/conf.py': 'from sphinx_celery import conf\nglobals().update(conf.build_config("x", __file__))\n',
    };
    assert.equal((await detectSite(memoryFiles(shared))).framework, 'sphinx');
    // Read the Docs' configuration names the project it builds, among several (numpy's `doc/neps`).
    const several = {
      '.readthedocs.yaml': 'version: 2\nsphinx:\n  configuration: doc/source/conf.py\n',
      'doc/neps/conf.py': 'extensions = []\n',
      'doc/source/conf.py': 'extensions = []\n',
    };
    assert.deepEqual(await detectSite(memoryFiles(several)), {
      framework: 'sphinx',
      siteRoot: 'doc/source',
      configFile: 'doc/source/conf.py',
    });
    // Its `dirhtml` builder serves each document as a folder.
    const { model } = await check({
      ...several,
      '.readthedocs.yaml': `${several['.readthedocs.yaml']}  builder: dirhtml\n`,
      'doc/source/guide.rst': 'Guide\n=====\n',
      'doc/source/index.rst': 'Home\n====\n',
    });
    assert.deepEqual(model.pages.get('doc/source/guide.rst'), ['/guide']);
    assert.deepEqual(model.pages.get('doc/source/index.rst'), ['/']);
    assert.deepEqual(model.configFiles, ['doc/source/conf.py', '.readthedocs.yaml']);
    // A configuration it names that the checkout does not hold, or that is no `conf.py`, is not taken.
    const wrong = { ...several, '.readthedocs.yaml': 'sphinx:\n  configuration: ../../etc/passwd\n' };
    assert.equal((await detectSite(memoryFiles(wrong))).siteRoot, 'doc/neps');
  });

  it('makes a document of every source file but the excluded ones, served at its name with .html', async () => {
    const { model } = await check(site);
    assert.equal(model.framework, 'sphinx');
    assert.deepEqual([...model.pages.keys()].sort(), [
      'docs/index.rst',
      'docs/user/install.rst',
      'docs/user/lonely.rst',
      'docs/user/orphaned.rst',
      'docs/user/quickstart.rst',
    ]);
    assert.deepEqual(model.pages.get('docs/index.rst'), ['/']);
    assert.deepEqual(model.pages.get('docs/user/install.rst'), ['/user/install.html']);
    assert.deepEqual(
      model.navigation.map((entry) => [entry.reference, entry.target]),
      [
        ['user/install', 'docs/user/install.rst'],
        ['Quick start <user/quickstart>', 'docs/user/quickstart.rst'],
        ['user/gone', null],
      ],
    );
    assert.deepEqual(model.unsupported, []);
  });

  it('reports what Sphinx warns about: unknown documents and labels, missing images and includes', async () => {
    const { problems } = await check(site);
    assert.deepEqual(messages(problems), [
      'docs/index.rst:10: Navigation entry "user/gone" names no page',
      'docs/user/install.rst:11: Broken link ":doc:`missing`": unknown document user/missing',
      'docs/user/install.rst:16: Broken link "snippets/gone.rst": no file docs/user/snippets/gone.rst',
      'docs/user/install.rst:24: Broken link ":ref:`unknown-label`": undefined label unknown-label',
      'docs/user/install.rst:25: Broken link "../old.html": no document renders old.html',
    ]);
  });

  it('asks for a toctree entry for a new page, in the index of its folder or above, unless it is an orphan', async () => {
    const { model } = await check({ ...site, 'docs/user/new.rst': 'New\n===\n' });
    assert.deepEqual(
      pagesMissingFromNavigation(model, ['docs/user/new.rst']).map((problem) => problem.message),
      ['New page is missing from navigation; add it to docs/index.rst'],
    );
    assert.equal(model.needsNavigationEntry('docs/user/orphaned.rst'), false);
    assert.equal(model.needsNavigationEntry('docs/index.rst'), false);
  });

  it('leaves to intersphinx what another project may define, and to generators the pages they write', async () => {
    const files = {
      'conf.py': [
        'extensions = ["sphinx.ext.intersphinx", "sphinx.ext.autosummary", "autoapi.extension"]',
        'intersphinx_disabled_reftypes = []',
        '',
      ].join('\n'),
      'index.rst': [
        'Index',
        '=====',
        '',
        '.. toctree::',
        '',
        '   autoapi/index',
        '   guide',
        '',
        '.. autosummary::',
        '   :toctree: generated',
        '',
        '   pkg.module',
        '',
        'See :doc:`generated/pkg.module`, :ref:`somewhere-else`, :doc:`other-project-page`.',
        '',
      ].join('\n'),
      'guide.rst': 'Guide\n=====\n',
    };
    const { model, problems } = await check(files);
    assert.deepEqual(messages(problems), []);
    // The generated page is no navigation entry of the repository.
    assert.deepEqual(
      model.navigation.map((entry) => entry.reference),
      ['guide'],
    );
  });

  it('reads MyST Markdown pages: roles, directives in fences, links to documents and labels', async () => {
    const files = {
      'docs/conf.py': 'extensions = ["myst_parser"]\nmyst_enable_extensions = ["colon_fence"]\n',
      'docs/index.md': [
        '# Click',
        '',
        '```{toctree}',
        ':maxdepth: 2',
        '',
        'quickstart',
        'missing-page',
        '```',
        '',
        'Start with {doc}`quickstart`, the [options](options.md), [parameters](parameters) and [a label](install-label).',
        '',
        '````md',
        '```{include} ../not-read.md',
        '```',
        '````',
        '',
        '```{note}',
        'A [broken one](gone.md) inside a note.',
        '```',
        '',
        ':::{tip}',
        'And {ref}`install-label` in a colon fence, {ref}`no-such-label` too.',
        ':::',
        '',
        '```{image} missing.png',
        '```',
        '',
        '```{include} ../CHANGES.md',
        '```',
        '',
        '`{doc}` in inline code is text.',
        '',
      ].join('\n'),
      'docs/quickstart.md': '(install-label)=\n# Quick start\n',
      'docs/options.md': '---\norphan: true\n---\n# Options\n',
      'docs/parameters.md': '# Parameters\n',
      'docs/other.png': '',
      'CHANGES.md': '# Changes\n',
    };
    const { model, problems } = await check(files);
    assert.deepEqual([...model.pages.keys()].sort(), [
      'docs/index.md',
      'docs/options.md',
      'docs/parameters.md',
      'docs/quickstart.md',
    ]);
    assert.deepEqual(messages(problems), [
      'docs/index.md:7: Navigation entry "missing-page" names no page',
      'docs/index.md:18: Broken link "gone.md": no document docs/gone.md',
      'docs/index.md:22: Broken link "{ref}`no-such-label`": undefined label no-such-label',
      'docs/index.md:25: Broken image "missing.png": no file docs/missing.png',
    ]);
    assert.equal(model.needsNavigationEntry('docs/options.md'), false);
    assert.equal(model.needsNavigationEntry('docs/parameters.md'), true);
  });

  it("reads notebooks' Markdown cells, and links to a document by any of its source files as nbsphinx does", async () => {
    const notebook = (...source: string[]) =>
      JSON.stringify({ cells: [{ cell_type: 'markdown', metadata: {}, source }] }, null, 1);
    const files = {
      'doc/conf.py': [
        'extensions = ["nbsphinx"]',
        "nbsphinx_custom_formats = {'.pct.py': ['jupytext.reads', {'fmt': 'py:percent'}]}",
        '',
      ].join('\n'),
      'doc/index.rst': [
        'Home',
        '====',
        '',
        '.. toctree::',
        '',
        '   usage',
        '   custom-formats',
        '',
        '`Usage <usage.ipynb#Setup>`__, `formats <custom-formats.ipynb>`__, `gone <gone.ipynb>`__',
        '',
      ].join('\n'),
      'doc/usage.ipynb': notebook(
        '# Usage\n',
        '\n',
        '[Home](index.ipynb), [formats](custom-formats.ipynb), [missing](missing.ipynb)\n',
      ),
      // A notebook in Jupytext's percent format: a document, not reStructuredText.
      'doc/custom-formats.pct.py': '# %% [markdown]\n# `not a role <nowhere>`_ and :doc:`nowhere`\n',
      // A bibliography named like a document is no source an extension reads.
      'doc/references.bib': '',
    };
    const { model, problems } = await check(files);
    assert.deepEqual([...model.pages.keys()].sort(), [
      'doc/custom-formats.pct.py',
      'doc/index.rst',
      'doc/usage.ipynb',
    ]);
    assert.deepEqual(messages(problems), [
      'doc/index.rst:9: Broken link "gone.ipynb": no document gone (nbsphinx links documents by their source files)',
      'doc/usage.ipynb:9: Broken link "missing.ipynb": no document missing (nbsphinx links documents by their source files)',
    ]);
    assert.ok(model.unsupported.some((note) => note.includes('.pct.py')));
    const withoutReferences = await check({
      ...files,
      'doc/index.rst': `${files['doc/index.rst']}\n:doc:\`references\`\n`,
    });
    assert.ok(
      messages(withoutReferences.problems).includes(
        'doc/index.rst:11: Broken link ":doc:`references`": unknown document references',
      ),
    );
  });

  it('reads a Jupyter Book 1: settings from _config.yml, navigation from _toc.yml, only its files built when it says so', async () => {
    // The shape of QuantEcon's lectures: a jb-book of parts and chapters, MyST pages and notebooks.
    const files = {
      'lectures/_config.yml': [
        'title: A First Course',
        'only_build_toc_files: true',
        'parse:',
        '  myst_enable_extensions: [colon_fence, dollarmath]',
        'sphinx:',
        '  extra_extensions: [sphinx_proof]',
        '  config:',
        '    intersphinx_mapping:',
        '      python: ["https://docs.python.org/3", null]',
        '',
      ].join('\n'),
      'lectures/_toc.yml': [
        'format: jb-book',
        'root: intro',
        'parts:',
        '- caption: Foundations',
        '  chapters:',
        '  - file: about.md',
        '  - file: models/supply',
        '    sections:',
        '    - file: models/gone',
        '  - glob: extras/*',
        '',
      ].join('\n'),
      'lectures/intro.md':
        '# Intro\n\nSee {doc}`about`, {doc}`python:tutorial/index` and [a draft](draft.md).\n',
      'lectures/about.md': '# About\n',
      'lectures/models/supply.ipynb': JSON.stringify({
        cells: [{ cell_type: 'markdown', metadata: {}, source: ['# Supply\n', '[About](../about.md)'] }],
      }),
      'lectures/extras/one.md': '# One\n',
      'lectures/draft.md': '# A draft no table of contents lists\n',
    };
    assert.deepEqual(await detectSite(memoryFiles(files)), {
      framework: 'sphinx',
      siteRoot: 'lectures',
      configFile: 'lectures/_toc.yml',
    });
    const { model, problems } = await check(files);
    assert.deepEqual([...model.pages.keys()].sort(), [
      'lectures/about.md',
      'lectures/extras/one.md',
      'lectures/intro.md',
      'lectures/models/supply.ipynb',
    ]);
    assert.deepEqual(model.configFiles, ['lectures/_config.yml', 'lectures/_toc.yml']);
    assert.deepEqual(messages(problems), [
      'lectures/_toc.yml:9: Navigation entry "models/gone" names no page',
    ]);
    assert.deepEqual(
      model.navigation.map((entry) => `${entry.line} ${entry.reference} ${entry.target}`),
      [
        '2 intro lectures/intro.md',
        '6 about.md lectures/about.md',
        '7 models/supply lectures/models/supply.ipynb',
        '9 models/gone null',
        '10 extras/* lectures/extras/one.md',
      ],
    );
    // A new page the table of contents does not list is not built: it belongs in _toc.yml.
    const added = await check({ ...files, 'lectures/models/demand.md': '# Demand\n' });
    assert.deepEqual(
      pagesMissingFromNavigation(added.model, ['lectures/models/demand.md']).map(
        (problem) => problem.message,
      ),
      ['New page is missing from navigation; add it to lectures/_toc.yml'],
    );
    assert.ok(model.conventions.some((convention) => convention.includes('Jupyter Book')));
    // TeachBooks' manual lists pages of its Git submodules, empty in a checkout without them.
    const withSubmodule = await check({
      ...files,
      '.gitmodules':
        '[submodule "lectures/external/shared"]\n\tpath = lectures/external/shared\n\turl = https://example.com/shared.git\n',
      'lectures/_toc.yml': `${files['lectures/_toc.yml']}  - file: external/shared/README.md\n`,
      'lectures/about.md': '# About\n\n[Shared](external/shared/README.md)\n',
    });
    assert.deepEqual(messages(withSubmodule.problems), [
      'lectures/_toc.yml:9: Navigation entry "models/gone" names no page',
    ]);
  });

  it('checks MyST links to headings where myst_heading_anchors makes anchors, as MyST warns', async () => {
    // The shape of click's and MyST-Parser's docs: `myst_heading_anchors = 2`, links between pages by
    // heading slug, and `[text](#label)` naming a label of another page.
    const files = {
      'docs/conf.py': 'extensions = ["myst_parser"]\nmyst_heading_anchors = 2\n',
      'docs/index.md':
        '# Home\n\n```{toctree}\nguide\n```\n\n[setup](guide.md#set-up-the-cli), [gone](guide.md#gone), [deep](guide.md#deep-section), [label](#elsewhere)\n',
      'docs/guide.md': '(elsewhere)=\n# Guide\n\n## Set up the `CLI`\n\n### Deep section\n',
    };
    const anchorProblems = async (extra: Record<string, string> = {}) =>
      messages((await check({ ...files, ...extra })).problems).filter((line) => line.includes('anchor'));
    // `#deep-section` is a level-3 heading: no slug, but its section id still resolves.
    assert.deepEqual(await anchorProblems(), [
      'docs/index.md:7: Broken anchor "guide.md#gone": docs/guide.md has no heading or element with the id "gone"',
    ]);
    assert.deepEqual(await anchorProblems({ 'docs/conf.py': 'extensions = ["myst_parser"]\n' }), []);
  });

  it('reads what conf.py holds for certain, and leaves alone what it or an extension makes at build time', async () => {
    // The shapes of astropy's (an imported list extended), ansible's (a list chosen by a build tag),
    // sphinx-book-theme's (conf.py writes a page) and Write the Docs' (pages rendered as Jinja) docs.
    const files = {
      '.gitignore': 'docs/collections/*.rst\n',
      'docs/conf.py': [
        'from theme.conf import exclude_patterns, extensions',
        'exclude_patterns += ["_pkgtemplate.rst"]',
        'exclude_patterns += [] if tags.has("all") else ["internal"]',
        'extensions += ["unknown_markdown_extension"]',
        'Path("content/downloaded.md").write_text(text)',
        'def setup(app):',
        '    app.connect("source-read", render_with_jinja)',
        '',
      ].join('\n'),
      'docs/index.rst': [
        'Index',
        '=====',
        '',
        '.. toctree::',
        '   :glob:',
        '',
        '   guide',
        '   content/downloaded',
        '   written-in-markdown',
        '   collections/index_*',
        '   internal/page',
        '',
        '.. toctree::',
        '   :glob:',
        '',
        '   *',
        '',
        'See :doc:`/conf/{{ year }}/schedule`.',
        '',
      ].join('\n'),
      'docs/guide.rst': 'Guide\n=====\n',
      'docs/written-in-markdown.md': '# Read by an extension\n',
      'docs/_pkgtemplate.rst': 'Template\n========\n\n.. toctree::\n\n   subdoc1\n',
      'docs/internal/page.rst': 'Internal\n========\n',
    };
    const { model, problems } = await check(files);
    // `_pkgtemplate.rst` is excluded in every build; `internal/` only without the `all` tag, so its
    // pages are read (a build has them), and nothing names a missing page.
    assert.deepEqual([...model.pages.keys()].sort(), [
      'docs/guide.rst',
      'docs/index.rst',
      'docs/internal/page.rst',
    ]);
    assert.deepEqual(messages(problems), []);
    // The second toctree's glob lists the guide again: each toctree takes what it has not listed.
    assert.deepEqual(
      model.navigation.filter((entry) => entry.target === 'docs/guide.rst').map((entry) => entry.line),
      [7, 16],
    );
    assert.match(
      model.unsupported.join('\n'),
      /`extensions`, `exclude_patterns` computed or set conditionally/,
    );
    assert.match(model.unsupported.join('\n'), /rewrites pages before Sphinx reads them/);
  });

  it('takes no file ten thousand folders deep for a document, and does not recurse through its folders', async () => {
    const { model } = await check({ ...site, [`docs/${'a/'.repeat(10000)}deep.rst`]: 'Deep\n====\n' });
    assert.equal(
      [...model.pages.keys()].some((page) => page.endsWith('deep.rst')),
      false,
    );
  });

  it('reads sphinx-multiproject projects from their own folder', async () => {
    const files = {
      'docs/conf.py': [
        'extensions = ["multiproject"]',
        'multiproject_projects = {"user": {"use_config_file": False}, "dev": {"path": "developer"}}',
        '',
      ].join('\n'),
      'docs/user/index.rst': 'User\n====\n\n.. toctree::\n\n   /guide\n',
      'docs/user/guide.rst': 'Guide\n=====\n\n:doc:`/index`\n',
      'docs/developer/index.rst': 'Dev\n===\n',
    };
    const { model, problems } = await check(files);
    assert.deepEqual([...model.pages.keys()].sort(), ['docs/user/guide.rst', 'docs/user/index.rst']);
    assert.deepEqual(messages(problems), []);
    assert.match(model.unsupported.join('\n'), /only the first project, `user`/);
  });
});

describe('conf.py, read without running it', () => {
  it('reads literals, lists extended under conditions, typed and keyed assignments', () => {
    const config = readSphinxConfig(
      [
        'from typing import Sequence',
        'extensions = ["a", "b"]  # two',
        'extensions += ["c"]',
        'if True:',
        '    extensions.extend(("d", "e"))',
        '    html_theme = "alabaster"',
        'intersphinx_disabled_reftypes: Sequence[str] = []',
        'mapping = {"x": ("https://x", None)}',
        'mapping["y"] = ("https://y", None)',
        'source_suffix = {".rst": "restructuredtext", ".md": "markdown"}',
        "root_doc = r'contents' 'x'",
        'name = f"{project} docs"',
        'path = os.path.join("a", "b")',
        '',
      ].join('\n'),
      'conf.py',
    );
    assert.deepEqual(config.values.get('extensions'), ['a', 'b', 'c']);
    assert.deepEqual(possibleStrings(config, 'extensions'), ['d', 'e']);
    assert.equal(config.values.has('html_theme'), false);
    assert.equal(config.conditional.has('html_theme'), true);
    assert.deepEqual(config.values.get('intersphinx_disabled_reftypes'), []);
    assert.deepEqual(
      [...((config.values.get('mapping') as Map<string, unknown>) ?? new Map()).keys()],
      ['x', 'y'],
    );
    assert.deepEqual(
      [...((config.values.get('source_suffix') as Map<string, unknown>) ?? new Map()).keys()],
      ['.rst', '.md'],
    );
    assert.equal(config.values.get('root_doc'), 'contentsx');
    assert.deepEqual(config.values.get('name'), { computed: 'f"{project} docs"' });
    assert.deepEqual(config.values.get('path'), { computed: 'os.path.join("a", "b")' });
    assert.equal(config.dynamic, false);
  });

  it('reads a value nested deeper than the reader goes as computed, not by recursing without end', () => {
    const config = readSphinxConfig(`x = ${'['.repeat(100)}${']'.repeat(100)}\ny = "after"\n`, 'conf.py');
    assert.equal(JSON.stringify(config.values.get('x')).includes('nested too deeply'), true);
    assert.equal(config.values.get('y'), 'after');
  });

  it('does not read a file no configuration looks like: brackets nested thousands deep, or hundreds of kilobytes', () => {
    // 450 KB of `([{` overflowed the parser's stack; a real conf.py nests a few levels.
    for (const text of [
      `${'([{'.repeat(150000)}\nextensions = []\n`,
      `extensions = []\n${'# a comment\n'.repeat(30000)}`,
    ]) {
      const config = readSphinxConfig(text, 'conf.py');
      assert.equal(config.dynamic, true);
      assert.equal(config.values.size, 0);
    }
  });

  it('extends a list in place, so thousands of appends cost one pass', () => {
    const appends = Array.from({ length: 5000 }, (_, index) => `extensions.append("e${index}")`).join('\n');
    const config = readSphinxConfig(`extensions = []\n${appends}\nd = {}\nd["k"] = 1\n`, 'conf.py');
    assert.equal((config.values.get('extensions') as string[]).length, 5000);
    assert.deepEqual([...(config.values.get('d') as Map<string, unknown>)], [['k', 1]]);
  });
});
