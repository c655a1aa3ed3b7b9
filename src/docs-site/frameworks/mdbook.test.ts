import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyzeSite, checkSite, memoryFiles, PageFactsCache, pagesMissingFromNavigation } from '../index.ts';

async function check(files: Record<string, string>) {
  const site = await analyzeSite(memoryFiles(files), new PageFactsCache());
  const problems = await checkSite(site.model, site.source);
  return { model: site.model, problems };
}

// The shape of rust-lang/mdBook's guide: guide/book.toml, a prefix chapter, part titles, numbered
// chapters nested by indentation, a draft chapter, a separator and a suffix chapter, README.md
// chapters, and an absolute redirect in [output.html.redirect].
const guideShape = {
  'guide/book.toml': [
    '[book]',
    'title = "Guide"',
    'authors = ["Someone",',
    '  "Someone else"]',
    '',
    '[output.html.redirect]',
    '"/format/config.html" = "configuration/index.html"',
    '',
    '[preprocessor.helper]',
    'command = "cargo run"',
    '',
  ].join('\n'),
  'guide/src/SUMMARY.md': [
    '# Summary',
    '',
    '[Introduction](README.md)',
    '',
    '# User guide',
    '',
    '- [Installing](guide/installing.md)',
    '- [Format](format/README.md)',
    '    - [`SUMMARY.md`](format/summary.md)',
    '        - [Draft chapter]()',
    '    - [Configuration](format/configuration/README.md)',
    '',
    '---',
    '',
    '[Contributors](misc/contributors.md)',
    '',
  ].join('\n'),
  'guide/src/README.md':
    '# Intro\n\nSee [installing](guide/installing.md) and [format](format/index.html).\n',
  'guide/src/guide/installing.md':
    '# Installing\n\n[Summary](../format/summary.html#drafts), [old](../format/config.html), [print](../print.html).\n',
  'guide/src/format/README.md': '# Format\n\n![diagram](images/diagram.svg)\n',
  'guide/src/format/images/diagram.svg': '<svg/>',
  'guide/src/format/summary.md': '# Summary format\n\n```rust\n{{#include example.rs}}\n```\n',
  'guide/src/format/example.rs': 'fn main() {}\n',
  'guide/src/format/configuration/README.md': '# Configuration\n\n[Up](../)\n',
  'guide/src/misc/contributors.md': '# Contributors\n\n[Absolute](/mdBook/index.html)\n',
  'guide/src/misc/notes.md': '# Notes, not in the summary\n',
};

describe('mdBook site model', () => {
  it('detects book.toml in a subfolder and renders only the chapters SUMMARY.md lists', async () => {
    const { model } = await check(guideShape);
    assert.equal(model.framework, 'mdbook');
    assert.equal(model.siteRoot, 'guide');
    assert.deepEqual(model.pages.get('guide/src/README.md'), ['/']);
    assert.deepEqual(model.pages.get('guide/src/format/README.md'), ['/format']);
    assert.deepEqual(model.pages.get('guide/src/format/summary.md'), ['/format/summary.html']);
    // Not listed: a page mdBook does not build until it is.
    assert.deepEqual(model.pages.get('guide/src/misc/notes.md'), []);
    assert.deepEqual(model.configFiles, ['guide/book.toml', 'guide/src/SUMMARY.md']);
  });

  it('reads prefix, numbered, nested and suffix chapters with their line and titles, skipping drafts', async () => {
    const { model } = await check(guideShape);
    assert.deepEqual(
      model.navigation.map((entry) => [entry.reference, entry.line, entry.groups.join(' > ')]),
      [
        ['README.md', 3, ''],
        ['guide/installing.md', 7, 'User guide'],
        ['format/README.md', 8, 'User guide'],
        ['format/summary.md', 9, 'User guide > Format'],
        ['format/configuration/README.md', 11, 'User guide > Format'],
        ['misc/contributors.md', 15, 'User guide'],
      ],
    );
  });

  it('reports nothing on a working book: .md and .html links, redirects, generated pages, includes', async () => {
    const { problems, model } = await check(guideShape);
    assert.deepEqual(problems, []);
    assert.match(model.unsupported.join('\n'), /`helper` preprocessor is not run/);
  });

  it('reports a chapter that names no file at its SUMMARY.md line', async () => {
    const { problems } = await check({
      ...guideShape,
      'guide/src/SUMMARY.md': guideShape['guide/src/SUMMARY.md'].replace('installing.md', 'install.md'),
    });
    assert.deepEqual(
      problems.map((problem) => [problem.file, problem.line, problem.key]),
      [
        ['guide/src/SUMMARY.md', 7, 'navigation\0guide/install.md'],
        ['guide/src/README.md', 3, 'link\0guide/installing.md'],
      ],
    );
  });

  it('reports links to missing files, to files not in SUMMARY.md, and missing includes', async () => {
    const { problems } = await check({
      ...guideShape,
      'guide/src/format/summary.md':
        '# Summary format\n\n[Notes](../misc/notes.md)\n[Gone](gone.html)\n\n```rust\n{{#rustdoc_include missing.rs:here}}\n```\n',
    });
    assert.deepEqual(
      problems.map((problem) => [problem.file, problem.line, problem.key]),
      [
        ['guide/src/format/summary.md', 7, 'include\0missing.rs:here'],
        ['guide/src/format/summary.md', 3, 'link\0../misc/notes.md'],
        ['guide/src/format/summary.md', 4, 'link\0gone.html'],
      ],
    );
  });

  it('leaves absolute links, links out of src and folders without a chapter unchecked', async () => {
    const { model } = await check(guideShape);
    assert.equal(model.resolveLink('guide/src/README.md', '/anything.html').kind, 'unchecked');
    assert.equal(model.resolveLink('guide/src/README.md', '../book.toml').kind, 'unchecked');
    assert.equal(model.resolveLink('guide/src/README.md', 'misc/').kind, 'unchecked');
  });

  it('needs a SUMMARY.md entry for any new chapter in src', async () => {
    const { model } = await check({ ...guideShape, 'guide/src/guide/new.md': '# New\n' });
    assert.deepEqual(
      pagesMissingFromNavigation(model, ['guide/src/guide/new.md']).map((problem) => problem.file),
      ['guide/src/guide/new.md'],
    );
    assert.equal(model.needsNavigationEntry('guide/src/SUMMARY.md'), false);
    assert.equal(model.needsNavigationEntry('guide/other/new.md'), false);
  });

  it('reports a book.toml line that is not TOML', async () => {
    const { problems } = await check({
      ...guideShape,
      'guide/book.toml': '[book]\ntitle "Missing equals"\n',
    });
    assert.deepEqual(
      problems.filter((problem) => problem.file.endsWith('.toml')).map((problem) => problem.line),
      [2],
    );
  });

  // The shape of rust-lang/book: book.toml at the root with the default src, relative redirects.
  it('detects book.toml at the root, with relative redirects', async () => {
    const { model, problems } = await check({
      'book.toml': '[book]\ntitle = "Book"\n\n[output.html.redirect]\n"ch01-old.html" = "ch01-new.html"\n',
      'src/SUMMARY.md': '# The Book\n\n[Foreword](foreword.md)\n\n- [Getting started](ch01-new.md)\n',
      'src/foreword.md': '# Foreword\n\n[Old chapter](ch01-old.html) and [new](ch01-new.md#setup).\n',
      'src/ch01-new.md': '# Getting started\n',
    });
    assert.equal(model.siteRoot, '');
    assert.deepEqual(problems, []);
    assert.match(model.conventions[0] ?? '', /`src\/foreword\.md` links to `ch01-new\.md#setup`/);
    assert.match(model.conventions[1] ?? '', /`src\/SUMMARY\.md`/);
  });
});
