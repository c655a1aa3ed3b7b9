import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  analyzeSite,
  checkSite,
  detectSite,
  memoryFiles,
  PageFactsCache,
  pagesMissingFromNavigation,
} from '../index.ts';

// A project as ReadMe Refactored's Git sync writes it (https://docs.readme.com/main/docs/documentation-structure):
// category folders under `docs/` and `reference/`, a page with children a folder with `index.md`,
// an `_order.yaml` in every folder.
const project = {
  'docs/_order.yaml': '- Getting Started\n- Guides\n',
  'docs/Getting Started/_order.yaml': '- welcome\n- setup\n',
  'docs/Getting Started/welcome.md': [
    '---',
    'title: Welcome',
    'next:',
    '  pages:',
    '    - type: basic',
    '      slug: setup',
    '      title: Setup',
    '    - type: basic',
    '      slug: gone',
    '      title: Gone',
    '---',
    '# Welcome',
    '',
    '[Setup](doc:setup) [Install](doc:install#before-you-start) [API](ref:list-pets) [Terms](page:terms)',
    '[Same](/docs/setup) [Relative](setup) [Up](../reference/list-pets) [Old version](/v1.0/docs/setup)',
    '[Missing](doc:missing) [Bad](doc:setup.md) [File](./setup/install.md) [No file](./nothing.md)',
    '[Guide as reference](ref:setup) [Wrong anchor](doc:install#nope) [Here](#api--sdk)',
    '',
    '## API & SDK',
  ].join('\n'),
  'docs/Getting Started/setup/index.md': '---\ntitle: Setup\n---\n# Setup\n',
  'docs/Getting Started/setup/_order.yaml': '- install\n',
  'docs/Getting Started/setup/install.md': '---\ntitle: Install\n---\n## Before you start\n',
  'docs/Guides/_order.yaml': '- unlisted-elsewhere\n',
  'reference/_order.yaml': '- Pets\n',
  'reference/Pets/_order.yaml': '- list-pets\n',
  'reference/Pets/list-pets.md':
    '---\ntitle: List pets\napi:\n  file: pets.json\n  operationId: listPets\n---\n',
  'custom_pages/terms.md': '---\ntitle: Terms\n---\nTerms.\n',
};

async function analyze(files: Record<string, string>) {
  const { model, source } = await analyzeSite(memoryFiles(files), new PageFactsCache());
  return { model, problems: await checkSite(model, source) };
}

describe('ReadMe (Git sync)', () => {
  it('is found by the sync’s `_order.yaml` files, not by a docs folder of plain pages', async () => {
    assert.equal((await detectSite(memoryFiles(project))).framework, 'readme');
    assert.equal(
      (await detectSite(memoryFiles({ 'docs/_order.yaml': '- a\n', 'docs/intro.md': '# Intro\n' })))
        .framework,
      'markdown',
    );
  });

  it('serves each page at its section and slug: its file name, a parent its folder’s', async () => {
    const { model } = await analyze(project);
    assert.deepEqual(model.pages.get('docs/Getting Started/welcome.md'), ['/docs/welcome']);
    assert.deepEqual(model.pages.get('docs/Getting Started/setup/index.md'), ['/docs/setup']);
    assert.deepEqual(model.pages.get('docs/Getting Started/setup/install.md'), ['/docs/install']);
    assert.deepEqual(model.pages.get('reference/Pets/list-pets.md'), ['/reference/list-pets']);
    assert.deepEqual(model.pages.get('custom_pages/terms.md'), ['/page/terms']);
  });

  it('resolves `doc:`, `ref:`, `page:` links and hub URLs as the renderer and the browser do', async () => {
    const { model, problems } = await analyze(project);
    const from = 'docs/Getting Started/welcome.md';
    const kind = (url: string) => model.resolveLink(from, url, { kind: 'link' }).kind;
    assert.equal(kind('doc:setup'), 'file');
    assert.equal(kind('ref:list-pets'), 'file');
    assert.equal(kind('page:terms'), 'file');
    assert.equal(kind('/docs/install'), 'file');
    assert.equal(kind('setup'), 'file');
    assert.equal(kind('../reference/list-pets'), 'file');
    assert.equal(kind('/v1.0/docs/setup'), 'unchecked');
    assert.equal(kind('./setup/install.md'), 'unchecked');
    assert.equal(kind('ref:setup'), 'unchecked');
    assert.equal(kind('/docs/Setup'), 'unchecked');
    assert.equal(kind('https://example.com'), 'external');
    assert.deepEqual(
      problems.map((problem) => `${problem.line} ${problem.message.replace(/": .*/s, '"')}`),
      [
        // A page's `_order.yaml` names pages: the sync writes an entry for each.
        '1 Navigation entry "unlisted-elsewhere" names no page',
        '9 Navigation entry "gone" names no page',
        '16 Broken link "doc:missing"',
        '16 Broken link "doc:setup.md"',
        '16 Broken link "./nothing.md"',
        '17 Broken anchor "doc:install#nope"',
      ],
    );
  });
});

describe('ReadMe navigation', () => {
  it('asks for a new page in its folder’s `_order.yaml`', async () => {
    const { model } = await analyze({
      ...project,
      'docs/Guides/new-page.md': '# New\n',
      'docs/Guides/parent/index.md': '# Parent\n',
      'docs/Guides/parent/_order.yaml': '- child\n',
      'docs/Guides/parent/child.md': '# Child\n',
    });
    assert.deepEqual(
      pagesMissingFromNavigation(model, [
        'docs/Guides/new-page.md',
        'docs/Guides/parent/index.md',
        'docs/Guides/parent/child.md',
        'docs/Getting Started/welcome.md',
        'docs/Getting Started/setup/index.md',
      ]).map((problem) => problem.message),
      // A parent page is listed by its folder's name, beside the folder.
      [
        'New page is missing from navigation; add it to docs/Guides/_order.yaml',
        'New page is missing from navigation; add it to docs/Guides/_order.yaml',
      ],
    );
  });
});
