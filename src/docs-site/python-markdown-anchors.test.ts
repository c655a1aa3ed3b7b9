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
});
