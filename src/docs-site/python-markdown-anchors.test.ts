import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readPythonMarkdownAnchors } from './python-markdown-anchors.ts';

const anchorsOf = (text: string) => readPythonMarkdownAnchors(text).anchors;

describe('Python-Markdown anchors', () => {
  it("gives headings toc's default slug, pymdownx.slugs' Unicode ones, and attr_list ids", () => {
    const anchors = anchorsOf(
      [
        '---',
        'title: Setup',
        '---',
        '# Getting started',
        '',
        '## Install `uv` **first** {#install}',
        '',
        '### Café & crème',
        '',
        '#No space needed',
        '',
        'Setext heading',
        '--------------',
        '',
        '## Getting started',
        '## Getting started',
      ].join('\n'),
    );
    for (const expected of [
      'getting-started',
      'getting-started_1',
      'getting-started_2',
      'install',
      'cafe-creme',
      'café--crème',
      'no-space-needed',
      'setext-heading',
    ])
      assert.ok(anchors.has(expected), expected);
    // The attr_list id replaces the slug of the heading it follows, but the slug stays harmless.
    assert.ok(anchors.has('install-uv-first'));
    assert.equal(anchors.has('title-setup'), false);
  });

  it('reads headings inside admonitions and tabs, not inside fenced code', () => {
    const anchors = anchorsOf(
      [
        '!!! note',
        '',
        '    ## Inside a note',
        '',
        '=== "pip"',
        '',
        '    ```sh',
        '    # not a heading',
        '    ```',
        '',
        '```python',
        '# also not a heading',
        '```',
        '',
        '~~~~',
        '## nor this',
        '~~~~',
      ].join('\n'),
    );
    assert.ok(anchors.has('inside-a-note'));
    assert.ok(anchors.has('pip'));
    assert.ok(anchors.has('inside-a-note-pip'));
    assert.equal(anchors.has('not-a-heading'), false);
    assert.equal(anchors.has('also-not-a-heading'), false);
    assert.equal(anchors.has('nor-this'), false);
  });

  it('takes a fence never closed for text, as pymdownx.superfences does', () => {
    assert.ok(anchorsOf('```\n\n## Still a heading\n').has('still-a-heading'));
  });

  it('knows element ids, attr_list ids, footnotes, and the ids a build numbers for itself', () => {
    const read = readPythonMarkdownAnchors(
      '<div id="map"></div>\n\n<a name="top"></a>\n\nText[^1] and more.\n{: #para }\n\n[^1]: A note.\n',
    );
    for (const expected of ['map', 'top', 'para', 'fn:1', 'fnref:1'])
      assert.ok(read.anchors.has(expected), expected);
    assert.deepEqual(read.knownPrefixes, ['__']);
  });

  it('reads headings with links, images and emoji shortcodes every way the build may render them', () => {
    const anchors = anchorsOf('## :rocket: Deploy to [Vercel](https://vercel.com) ![logo](logo.png)\n');
    assert.ok(anchors.has('deploy-to-vercel'));
    assert.ok(anchors.has('rocket-deploy-to-vercel'));
  });

  it('is incomplete where content is included or generated: snippets, mkdocstrings, macros', () => {
    for (const text of ['# A\n\n--8<-- "b.md"\n', '# A\n\n::: package.module\n', '# A\n\n{{ macro() }}\n'])
      assert.equal(readPythonMarkdownAnchors(text).complete, false, text);
    assert.equal(readPythonMarkdownAnchors('# A\n\n:::note\n').complete, true);
  });

  // Cases from a review against toc.py, attr_list.py and pymdownx (each a heading the build gives an id).
  it('reads heading text as toc does: tags stripped before entities, footnotes dropped, smart symbols', () => {
    const anchors = anchorsOf(
      [
        '## The `<div>` tag',
        '## Tom &mdash; Jerry &#38; co',
        '## Title[^1]',
        '## Set my_var to _value_',
        '## `#!python print()` usage',
        '## Copyright (c) 2024',
        '',
        '[^1]: A note.',
      ].join('\n'),
    );
    for (const expected of [
      'the-div-tag',
      'tom-jerry-co',
      'title',
      'set-my_var-to-value',
      'print-usage',
      'copyright-2024',
    ])
      assert.ok(anchors.has(expected), expected);
  });

  it('finds headings in blockquotes, list items, setext forms and HTML, and every kind of id', () => {
    const anchors = anchorsOf(
      [
        '> ## Quoted',
        '',
        '- ## Listed',
        '',
        '1. Introduction',
        '===',
        '',
        '<h2 markdown>Raw Title</h2>',
        '',
        'Para',
        '{: id=para-id }',
        '',
        '/// note | T',
        '    attrs: {id: my-note}',
        '///',
        '',
        '/// html | div#my-div',
        '///',
      ].join('\n'),
    );
    for (const expected of [
      'quoted',
      'listed',
      '1-introduction',
      'raw-title',
      'para-id',
      'my-note',
      'my-div',
    ])
      assert.ok(anchors.has(expected), expected);
  });

  it("replays toc's unique against every id of the page", () => {
    assert.ok(anchorsOf('## Foo\n\n## Bar {#foo}\n').has('foo_1'));
    assert.ok(anchorsOf('## a_1\n\n## a\n\n## a\n').has('a_2'));
  });

  it('is incomplete with snippets of any dash count, and past the headings it reads', () => {
    for (const text of ['---8<--- "part.md"\n', '-8<- "part.md"\n'])
      assert.equal(readPythonMarkdownAnchors(text).complete, false, text);
    assert.equal(readPythonMarkdownAnchors('## Release\n'.repeat(5_001)).complete, false);
  });
});
