import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkFiles as check, problemLines as messages } from '../../../test/site-check.ts';
import { pagesMissingFromNavigation } from '../index.ts';

// The shape of fluent/fluentd-docs-gitbook: `.gitbook.yaml` with a root, the structure and
// redirects (some naming pages that moved), SUMMARY.md with nested pages and folder READMEs,
// uploaded images in `.gitbook/assets/`, and `{% hint %}` blocks.
const spaceShape = {
  '.gitbook.yaml': [
    'root: ./docs/',
    '',
    'structure:',
    '  readme: README.md',
    '  summary: SUMMARY.md',
    '',
    'redirects:',
    '  v1.0/articles/quickstart: README.md',
    '  v1.0/articles/faq: overview/faq.md',
    '  old/install: installation/install-by-gem.md',
    '',
  ].join('\n'),
  'docs/SUMMARY.md': [
    '# Table of contents',
    '',
    '* [Introduction](README.md)',
    '',
    '## Get Started <a href="#get-started" id="get-started"></a>',
    '',
    '* [Overview](quickstart/README.md)',
    '  * [FAQ](quickstart/faq.md)',
    '* [Installation](installation/README.md)',
    '  * [Install by Ruby Gem](installation/install-by-gem.md)',
    '  * [Install from Source](installation/install-from-source.md)',
    '',
  ].join('\n'),
  'docs/README.md': [
    '# Fluentd',
    '',
    '{% hint style="info" %}',
    'Start with the [overview](quickstart/) and the [FAQ](quickstart/faq.md).',
    '{% endhint %}',
    '',
    '![logo](.gitbook/assets/logo.png)',
    '',
  ].join('\n'),
  'docs/quickstart/README.md': '# Overview\n\nSee [installing](../installation/install-by-gem.md#gem).\n',
  'docs/quickstart/faq.md': [
    '# FAQ',
    '',
    '[Old notes](notes.md), [gone](../installation/install-by-dmg.md), [site](/quickstart/faq).',
    '',
    '[Removed page](broken-reference)',
    '',
    '![missing](../.gitbook/assets/missing.png)',
    '',
  ].join('\n'),
  'docs/quickstart/notes.md': '# Notes, not in the table of contents\n',
  'docs/installation/README.md': '# Installation\n\n[Back](../)\n',
  'docs/installation/install-by-gem.md': [
    '# Install by Ruby Gem',
    '',
    '{% content-ref url="../quickstart/faq.md" %}',
    '[faq.md](../quickstart/faq.md)',
    '{% endcontent-ref %}',
    '',
    '{% page-ref page="install-by-rpm.md" %}',
    '',
    '{% file src="../.gitbook/assets/fluentd.zip" %}',
    '',
    '```markdown',
    '{% content-ref url="not-a-reference.md" %}',
    '```',
    '',
    'Written as an example: `{% include "nothing.md" %}`.',
    '',
  ].join('\n'),
  'docs/.gitbook/assets/logo.png': '',
  'docs/.gitbook/assets/fluentd.zip': '',
  'docs/.github/ISSUE_TEMPLATE/bug.md': '[template](missing.md)\n',
};

describe('GitBook site model', () => {
  it('reads the root, structure and table of contents named by .gitbook.yaml', async () => {
    const { model } = await check(spaceShape);
    assert.equal(model.framework, 'gitbook');
    assert.equal(model.siteRoot, '');
    assert.deepEqual(model.configFiles, ['docs/SUMMARY.md', '.gitbook.yaml']);
    assert.deepEqual(model.pages.get('docs/README.md'), ['/']);
    assert.deepEqual(model.pages.get('docs/quickstart/README.md'), ['/quickstart']);
    assert.deepEqual(model.pages.get('docs/installation/install-by-gem.md'), [
      '/installation/install-by-gem',
    ]);
    // Not in the table of contents: no page until it is listed.
    assert.deepEqual(model.pages.get('docs/quickstart/notes.md'), []);
    assert.equal(model.pages.has('docs/SUMMARY.md'), false);
    assert.equal(model.pages.has('docs/.github/ISSUE_TEMPLATE/bug.md'), false);
    assert.equal(model.needsNavigationEntry('docs/quickstart/notes.md'), true);
    assert.equal(model.needsNavigationEntry('docs/README.md'), false);
    const faq = model.navigation.find((entry) => entry.reference === 'quickstart/faq.md');
    assert.deepEqual(faq, {
      reference: 'quickstart/faq.md',
      file: 'docs/SUMMARY.md',
      line: 8,
      groups: ['Get Started', 'Overview'],
      target: 'docs/quickstart/faq.md',
    });
    const missing = model.navigation.find(
      (entry) => entry.reference === 'installation/install-from-source.md',
    );
    assert.equal(missing?.target, null);
  });

  it('reports broken links, block tags naming no file, and redirects to no page, at their lines', async () => {
    const { problems } = await check(spaceShape);
    assert.deepEqual(messages(problems).sort(), [
      '.gitbook.yaml:9: Redirect target "overview/faq.md" names no page of the space',
      'docs/SUMMARY.md:11: Navigation entry "installation/install-from-source.md" names no page',
      'docs/installation/install-by-gem.md:7: Broken link "install-by-rpm.md": no page docs/installation/install-by-rpm.md',
      'docs/quickstart/faq.md:3: Broken link "../installation/install-by-dmg.md": no page docs/installation/install-by-dmg.md',
      'docs/quickstart/faq.md:5: Broken link "broken-reference": GitBook found no page for this link when it last synced',
      'docs/quickstart/faq.md:7: Broken image "../.gitbook/assets/missing.png": no file docs/.gitbook/assets/missing.png',
    ]);
    assert.equal(problems[0]?.key, 'redirect\0overview/faq.md');
  });

  it('resolves folders to their README, unlisted files to the repository, site paths unchecked', async () => {
    const { model } = await check(spaceShape);
    assert.deepEqual(model.resolveLink('docs/README.md', 'quickstart/'), {
      kind: 'file',
      file: 'docs/quickstart/README.md',
    });
    assert.deepEqual(model.resolveLink('docs/installation/README.md', '../'), {
      kind: 'file',
      file: 'docs/README.md',
    });
    assert.equal(model.resolveLink('docs/quickstart/faq.md', 'notes.md').kind, 'served');
    assert.equal(model.resolveLink('docs/README.md', 'v1.0/articles/quickstart').kind, 'served');
    assert.equal(model.resolveLink('docs/quickstart/faq.md', '/quickstart/faq').kind, 'unchecked');
    assert.equal(model.resolveLink('docs/README.md', '../LICENSE').kind, 'unchecked');
    assert.deepEqual(model.resolveLink('docs/README.md', 'installation/install-by-gem'), {
      kind: 'file',
      file: 'docs/installation/install-by-gem.md',
    });
  });

  it('takes SUMMARY.md beside GitBook’s own folder for a space synced without .gitbook.yaml', async () => {
    // The shape of elsa-workflows/elsa-gitbook: no `.gitbook.yaml`, a table of contents at the top.
    const files = {
      'SUMMARY.md':
        '# Table of contents\n\n* [Elsa](README.md)\n\n## Guides\n\n* [Tutorial](guides/tutorial.md)\n',
      'README.md': '# Elsa\n\n[Guides](guides/)\n',
      'guides/tutorial.md': '# Tutorial\n\n[Home](../)\n\n{% include "../.gitbook/includes/note.md" %}\n',
      '.gitbook/includes/note.md': 'A reusable note, see [the tutorial](../../guides/tutorial.md).\n',
      '.gitbook/assets/diagram.png': '',
      'CONTRIBUTING.md': '# Contributing\n',
    };
    const { model, problems } = await check(files);
    assert.equal(model.framework, 'gitbook');
    assert.deepEqual(model.configFiles, ['SUMMARY.md']);
    assert.deepEqual([...model.partials], ['.gitbook/includes/note.md']);
    assert.deepEqual(messages(problems), [
      'README.md:3: Broken link "guides/": no page guides/README.md for the folder',
    ]);
    const withBrokenInclude = await check({
      ...files,
      'guides/tutorial.md': '# Tutorial\n\n{% include "../.gitbook/includes/gone.md" %}\n',
    });
    assert.deepEqual(messages(withBrokenInclude.problems).slice(-1), [
      'guides/tutorial.md:3: Broken link "../.gitbook/includes/gone.md": no page .gitbook/includes/gone.md',
    ]);
    // A new page outside the table of contents is not imported: it must be listed.
    const created = await check({ ...files, 'guides/new.md': '# New\n' });
    assert.deepEqual(messages(pagesMissingFromNavigation(created.model, ['guides/new.md'])), [
      'guides/new.md:1: New page is missing from navigation; add it to SUMMARY.md',
    ]);
  });

  it('reads every space a docs.yaml site syncs, each with its own table of contents', async () => {
    // The shape of GitbookIO/public-docs: `docs.yaml` maps sections' spaces to folders; one space
    // is not synced here (`directory: null`); a page links across spaces by a relative path.
    const files = {
      'docs.yaml': [
        '$schema: https://api.gitbook.com/openapi.yaml#/components/schemas/GitSyncSiteConfig',
        'site:',
        '  structure:',
        '    - type: section',
        '      key: section-1',
        '      children:',
        '        - type: space',
        '          key: space-1',
        '          content:',
        '            directory: ./documentation',
        '        - type: space',
        '          key: space-5',
        '          content:',
        '            directory: null',
        '    - type: space',
        '      key: space-2',
        '      content:',
        '        directory: developers',
        '',
      ].join('\n'),
      'documentation/SUMMARY.md': '# Table of contents\n\n* [Docs](README.md)\n* [Guide](guide.md)\n',
      'documentation/README.md': '# Docs\n\n[The API](../developers/api.md), [gone](../developers/gone.md)\n',
      'documentation/guide.md': '# Guide\n',
      'documentation/.gitbook/assets/logo.png': '',
      'developers/SUMMARY.md': '# Table of contents\n\n* [Developers](README.md)\n* [API](api.md)\n',
      'developers/README.md': '# Developers\n\n[The guide](../documentation/guide.md)\n',
      'developers/api.md': '# API\n',
    };
    const { model, problems } = await check(files);
    assert.equal(model.framework, 'gitbook');
    assert.deepEqual(model.configFiles, ['docs.yaml', 'documentation/SUMMARY.md', 'developers/SUMMARY.md']);
    assert.deepEqual(model.pages.get('developers/api.md'), ['/api']);
    assert.deepEqual(
      model.navigation.map((entry) => `${entry.file}:${entry.line} ${String(entry.target)}`).sort(),
      [
        'developers/SUMMARY.md:3 developers/README.md',
        'developers/SUMMARY.md:4 developers/api.md',
        'documentation/SUMMARY.md:3 documentation/README.md',
        'documentation/SUMMARY.md:4 documentation/guide.md',
      ],
    );
    assert.deepEqual(messages(problems), [
      'documentation/README.md:3: Broken link "../developers/gone.md": no page developers/gone.md',
    ]);
    const created = await check({ ...files, 'developers/new.md': '# New\n' });
    assert.deepEqual(messages(pagesMissingFromNavigation(created.model, ['developers/new.md'])), [
      'developers/new.md:1: New page is missing from navigation; add it to developers/SUMMARY.md',
    ]);
  });

  it('takes every Markdown file as a page when the space has no table of contents', async () => {
    const { model } = await check({
      '.gitbook.yaml': 'root: ./\n',
      'README.md': '# Home\n\n[Setup](guides/setup.md)\n',
      'guides/setup.md': '# Setup\n',
    });
    assert.deepEqual(model.pages.get('guides/setup.md'), ['/guides/setup']);
    assert.equal(model.needsNavigationEntry('guides/setup.md'), false);
  });

  it('is not taken for an mdBook or a plain SUMMARY.md, and refuses a root outside the repository', async () => {
    const mdBook = await check({
      'book.toml': '[book]\n',
      'src/SUMMARY.md': '- [A](a.md)\n',
      'src/a.md': '# A\n',
    });
    assert.equal(mdBook.model.framework, 'mdbook');
    const plain = await check({ 'SUMMARY.md': '* [A](a.md)\n', 'a.md': '# A\n' });
    assert.equal(plain.model.framework, 'markdown');
    const twice = await check({
      '.gitbook.yaml': 'root: ./\n',
      'SUMMARY.md':
        '# Table of contents\n\n* [A](a.md)\n* [B](b.md)\n  * [A again](./a.md)\n  * [A, its setup](a.md#setup)\n',
      'a.md': '# A\n',
      'b.md': '# B\n',
    });
    assert.deepEqual(messages(twice.problems), [
      'SUMMARY.md:5: "./a.md" is listed again (first at line 3); GitBook imports a page once',
    ]);
    const outside = await check({ '.gitbook.yaml': 'root: ../../elsewhere\n', 'README.md': '# Home\n' });
    assert.deepEqual(messages(outside.problems), [
      '.gitbook.yaml:1: .gitbook.yaml: root "../../elsewhere" leaves the repository',
    ]);
    const invalid = await check({
      '.gitbook.yaml': 'structure:\n  readme: [README.md\n',
      'README.md': '# Home\n',
    });
    assert.equal(invalid.model.framework, 'gitbook');
    assert.match(
      messages(invalid.problems)[0] ?? '',
      /^\.gitbook\.yaml:\d+: \.gitbook\.yaml is not valid YAML: /,
    );
  });
});
