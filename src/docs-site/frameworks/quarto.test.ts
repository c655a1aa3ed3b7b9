import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkFiles as check, problemLines as messages } from '../../../test/site-check.ts';
import { detectSite, memoryFiles, pagesMissingFromNavigation } from '../index.ts';

// The shape of quartodoc's and quarto-web's sites: `.qmd` pages rendered beside their path, `_`
// partials included with a shortcode, a navbar and a sidebar, a reference folder a build step writes
// (ignored by Git), page aliases, a Netlify `_redirects` file, notebook previews.
const site = {
  'docs/.gitignore': 'reference\n_site\n',
  'docs/_quarto.yml': [
    'project:',
    '  type: website',
    '  output-dir: _site',
    'metadata-files: [_sidebar.yml]',
    'website:',
    '  navbar:',
    '    left:',
    '      - file: get-started/overview.qmd',
    '        text: Get started',
    '      - href: reference/',
    '        text: Reference',
    '      - guide/',
    '',
  ].join('\n'),
  'docs/_sidebar.yml':
    'website:\n  sidebar:\n    contents:\n      - get-started/overview.qmd\n      - section: Guide\n        contents:\n          - guide/index.qmd\n          - guide/gone.qmd\n',
  'docs/index.qmd':
    '---\ntitle: Home\naliases:\n  - old-home.html\n---\n\n{{< include _intro.md >}}\n\n[Start](get-started/overview.qmd) [API](reference/Client.qmd) [Old](/old-home.html)\n',
  'docs/_intro.md':
    'Read [the guide](guide/index.qmd) and [a link only the including page can tell](missing-here.qmd).\n',
  'docs/get-started/overview.qmd':
    '# Overview\n\n[Guide](../guide/index.qmd), [preview](penguins-preview.html), [redirected](/moved/page.html), [gone](renderers.qmd), ![logo](logo.png)\n\n`{{< include /shown/in/code.qmd >}}` and {{< include _missing.qmd >}}\n',
  'docs/get-started/penguins.ipynb': '{"cells": []}',
  // A README is not rendered, but a link to it publishes it as a file.
  'docs/guide/index.qmd': '# Guide\n\n[Home](/index.qmd), [a README](README.md)\n',
  'docs/guide/README.md': 'Not rendered.\n',
  'docs/_redirects': '/moved/*  /guide/  301\n',
};

describe('Quarto site model', () => {
  it('is found by _quarto.yml', async () => {
    assert.deepEqual(await detectSite(memoryFiles(site)), {
      framework: 'quarto',
      siteRoot: 'docs',
      configFile: 'docs/_quarto.yml',
    });
  });

  it('renders every input but `_` files, READMEs and the output folder, each beside its path as .html', async () => {
    const { model } = await check(site);
    assert.deepEqual([...model.pages.keys()].sort(), [
      'docs/get-started/overview.qmd',
      'docs/get-started/penguins.ipynb',
      'docs/guide/index.qmd',
      'docs/index.qmd',
    ]);
    assert.deepEqual(model.pages.get('docs/get-started/overview.qmd'), ['/get-started/overview.html']);
    assert.deepEqual(model.pages.get('docs/guide/index.qmd'), ['/guide']);
    assert.deepEqual(model.configFiles, ['docs/_quarto.yml', 'docs/_sidebar.yml']);
  });

  it('reports what Quarto cannot resolve, and leaves what a build writes or an include context decides', async () => {
    const { model, problems } = await check(site);
    assert.deepEqual(messages(problems), [
      'docs/_sidebar.yml:8: Navigation entry "guide/gone.qmd" names no page',
      'docs/get-started/overview.qmd:3: Broken link "renderers.qmd": unable to resolve link target: no page docs/get-started/renderers.qmd',
      'docs/get-started/overview.qmd:5: Broken link "_missing.qmd": no file docs/get-started/_missing.qmd to include',
    ]);
    // Navigation from the navbar and the merged sidebar; `reference/` is written by a build step.
    assert.deepEqual(
      model.navigation.map((entry) => entry.reference),
      ['get-started/overview.qmd', 'guide/', 'get-started/overview.qmd', 'guide/index.qmd', 'guide/gone.qmd'],
    );
  });

  it("reads notebooks' Markdown cells, and renders a page to its `output-file`", async () => {
    const cells = (...source: string[]) =>
      JSON.stringify({ cells: [{ cell_type: 'markdown', metadata: {}, source }] }, null, 1);
    const { model, problems } = await check({
      'nbs/_quarto.yml': 'project:\n  type: website\n',
      'nbs/index.qmd': '---\noutput-file: home.html\n---\n\n[Tour](tour.ipynb)\n',
      'nbs/tour.ipynb': cells('# Tour\n', '\n', '[Home](/home.html), [gone](gone.ipynb)\n'),
    });
    assert.deepEqual(model.pages.get('nbs/index.qmd'), ['/home.html']);
    assert.deepEqual(messages(problems), [
      'nbs/tour.ipynb:9: Broken link "gone.ipynb": unable to resolve link target: no page nbs/gone.ipynb',
    ]);
  });

  it('renders an nbdev notebook to its name in lower case, without its number', async () => {
    const { model, problems } = await check({
      'nbs/_quarto.yml': 'project:\n  type: website\nmetadata-files: [nbdev.yml]\n',
      'nbs/nbdev.yml': 'website:\n  title: lib\n',
      'nbs/api/09_Migrate.ipynb': '{"cells": []}',
      'nbs/index.qmd':
        '[Migrate](/api/migrate.html), [source](api/09_Migrate.ipynb), [unresolved](api/migrate.ipynb)\n',
    });
    assert.deepEqual(model.pages.get('nbs/api/09_Migrate.ipynb'), ['/api/migrate.html']);
    assert.deepEqual(messages(problems), [
      'nbs/index.qmd:1: Broken link "api/migrate.ipynb": unable to resolve link target: no page nbs/api/migrate.ipynb',
    ]);
  });

  it('asks for a sidebar entry for a new page when the sidebar is written by hand', async () => {
    const { model } = await check({ ...site, 'docs/guide/new.qmd': '# New\n' });
    assert.deepEqual(
      pagesMissingFromNavigation(model, ['docs/guide/new.qmd']).map((problem) => problem.message),
      ['New page is missing from navigation; add it to docs/_sidebar.yml'],
    );
  });
});
