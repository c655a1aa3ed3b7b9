import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { notebookMarkdown } from './notebook-text.ts';
import { readPageFacts } from './page-facts.ts';

// As Jupyter writes a notebook: one space per level, one source line per list item.
const notebook = (cells: unknown[]) =>
  `${JSON.stringify({ cells, metadata: {}, nbformat: 4, nbformat_minor: 5 }, null, 1)}\n`;
const lineOf = (text: string, needle: string) =>
  text.split('\n').findIndex((line) => line.includes(needle)) + 1;

describe('notebook Markdown', () => {
  const text = notebook([
    {
      cell_type: 'raw',
      metadata: {},
      source: ['---\n', 'title: Raw front matter\n', 'output-file: tour.html\n', '---'],
    },
    {
      cell_type: 'markdown',
      metadata: {},
      source: ['# Tour\n', '\n', 'See [the guide](guide.ipynb) and\n', '[setup](setup.qmd).'],
    },
    {
      cell_type: 'code',
      metadata: {},
      source: ['print("[not a link](code.ipynb)")'],
      outputs: [],
      execution_count: null,
    },
    {
      cell_type: 'markdown',
      metadata: {},
      source: 'One string: [api](api.ipynb)\nsecond line [faq](faq.ipynb)',
    },
  ]);

  it('places each Markdown line at its line of the JSON, and reads no code cell', () => {
    const facts = readPageFacts(text, 'quarto-notebook');
    assert.equal(facts.title, 'Tour');
    assert.deepEqual(
      facts.links.map((link) => `${link.line} ${link.url}`),
      [
        `${lineOf(text, '[the guide]')} guide.ipynb`,
        `${lineOf(text, '[setup]')} setup.qmd`,
        `${lineOf(text, 'One string')} api.ipynb`,
        // A cell written as one string: its later lines follow the line it starts on.
        `${lineOf(text, 'One string') + 1} faq.ipynb`,
      ],
    );
  });

  it('reads a first raw cell of `---` as front matter for Quarto only', () => {
    assert.deepEqual(readPageFacts(text, 'quarto-notebook').frontMatter, {
      title: 'Raw front matter',
      'output-file': 'tour.html',
    });
    assert.equal(readPageFacts(text, 'myst-notebook').frontMatter, null);
  });

  it('joins source items that split a line, and reads a notebook saved on one line', () => {
    const split = notebook([
      { cell_type: 'markdown', metadata: {}, source: ['See [a', ' page](a.md)\n', 'end'] },
    ]);
    assert.deepEqual(
      readPageFacts(split, 'myst-notebook').links.map((link) => `${link.line} ${link.url}`),
      [`${lineOf(split, 'See [a')} a.md`],
    );
    const flat = JSON.stringify({
      cells: [
        { cell_type: 'markdown', source: ['# One\n', '[a](a.md)'] },
        { cell_type: 'markdown', source: ['[b](b.md)'] },
      ],
    });
    assert.deepEqual(
      readPageFacts(flat, 'myst-notebook').links.map((link) => link.url),
      ['a.md', 'b.md'],
    );
  });

  it('reads each cell on its own: a fence one cell leaves open does not swallow the next', () => {
    const text = notebook([
      { cell_type: 'markdown', metadata: {}, source: ['```python\n', 'x = 1'] },
      { cell_type: 'markdown', metadata: {}, source: ['[broken](nowhere.md)'] },
    ]);
    assert.deepEqual(
      readPageFacts(text, 'myst-notebook').links.map((link) => link.url),
      ['nowhere.md'],
    );
  });

  it('is nothing for a text that is no notebook, damaged or nested past the parser', () => {
    assert.equal(notebookMarkdown('{"metadata": {}}', { frontMatter: false }), null);
    assert.equal(notebookMarkdown('# Markdown, not JSON\n', { frontMatter: false }), null);
    assert.equal(notebookMarkdown(`{"cells": ${'['.repeat(100_000)}`, { frontMatter: false }), null);
    assert.deepEqual(readPageFacts('not json [a](a.md)', 'quarto-notebook').links, []);
    // Cut short: what was read before the damage is kept.
    const cut = notebook([{ cell_type: 'markdown', metadata: {}, source: ['[a](a.md)\n'] }]).slice(0, -20);
    assert.deepEqual(
      readPageFacts(cut, 'myst-notebook').links.map((link) => link.url),
      ['a.md'],
    );
  });
});
