import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readPageFacts } from './page-facts.ts';

const links = (text: string, dialect: 'rst' | 'myst' = 'rst') =>
  readPageFacts(text, dialect).links.map((link) => `${link.line} ${link.kind} ${link.url}`);

describe('reStructuredText page facts', () => {
  it('reads roles over several lines, with titles, at the line they start', () => {
    const text = [
      'Title',
      '=====',
      '',
      'See :doc:`the long',
      '   title <guide/setup>` and :ref:`Some',
      'Label` and :std:doc:`/index` and :download:`file <files/a.zip>` and :doc:`!suppressed`.',
      '',
    ].join('\n');
    assert.deepEqual(links(text), [
      '4 link :doc:`guide/setup`',
      '5 link :ref:`Some Label`',
      '6 link :doc:`/index`',
      '6 link :download:`files/a.zip`',
    ]);
    assert.equal(readPageFacts(text, 'rst').title, 'Title');
  });

  it('reads labels, sections, toctrees and :orphan:', () => {
    const facts = readPageFacts(
      [
        ':orphan:',
        ':tocdepth: 2',
        '',
        '.. _Getting Started:',
        '',
        '=========',
        ' Install',
        '=========',
        '',
        '.. toctree::',
        '   :glob:',
        '   :caption: Guides',
        '',
        '   guides/*',
        '   Setup <setup>',
        '',
        '.. figure:: diagram.png',
        '   :name: the-diagram',
        '',
        'An _`inline target` here.',
        '',
      ].join('\n'),
      'rst',
    );
    assert.deepEqual(facts.sphinx, {
      toctrees: [
        {
          line: 10,
          glob: true,
          entries: [
            { reference: 'guides/*', line: 14 },
            { reference: 'Setup <setup>', line: 15 },
          ],
        },
      ],
      labels: ['getting started', 'the-diagram', 'inline target'],
      sections: ['Install'],
      orphan: true,
      generatedFolders: [],
    });
  });

  it('warns as docutils warns: short or mismatched adornments, explicit markup run on, unclosed inline markup', () => {
    const warnings = (text: string) =>
      readPageFacts(text, 'rst').warnings?.map((warning) => `${warning.line} ${warning.message}`);
    assert.deepEqual(
      warnings(
        [
          'A title that is long',
          '-----',
          '',
          '=====',
          ' Mismatched',
          '-----',
          '',
          '日本語のタイトル',
          '--------------',
          '',
          '.. note:: A note',
          'Text right after it.',
          '',
          '- An item',
          '',
          '  .. code-block:: python',
          '',
          '     x = 1',
          '- The next item needs no blank line.',
          '',
          'A :ref:`label that never ends.',
          '',
          'An ``inline literal that never ends.',
          '',
          'Fine: ``:ref:`x```, `a link <https://example.com>`_, ``code``.',
          '',
          '=====  =====',
          '..     A cell',
          '=====  =====',
          '',
        ].join('\n'),
      ),
      [
        '2 Title underline too short.',
        '4 Title overline & underline mismatch.',
        '9 Title underline too short.',
        '12 Explicit markup ends without a blank line; unexpected unindent.',
        '21 Inline interpreted text or phrase reference start-string without end-string.',
        '23 Inline literal start-string without end-string.',
      ],
    );
  });

  it('takes a shorter underline only from four characters, as docutils does', () => {
    const facts = readPageFacts('A title that is long\n----\n\nShort\n--\n', 'rst');
    assert.deepEqual(facts.sphinx?.sections, ['A title that is long']);
  });

  it('reads every line of a hostile page once: a paragraph of ten thousand roles, unclosed markup', () => {
    const roles = Array.from({ length: 10000 }, (_, index) => `:ref:\`label-${index}\``).join('\n');
    const facts = readPageFacts(`${roles}\n\n${'`'.repeat(20000)}\n\n${':doc:`'.repeat(5000)}\n`, 'rst');
    const references = facts.links.filter((link) => link.url.startsWith(':ref:'));
    assert.equal(references.length, 10000);
    assert.equal(references.at(-1)?.line, 10000);
    // A target's name followed by a hundred thousand spaces and no colon is no target.
    const target = readPageFacts(
      `.. _name${' '.repeat(100000)}x\n\n.. _real: https://example.com\n\nSee real_.\n`,
      'rst',
    );
    assert.deepEqual(
      target.links.map((link) => link.url),
      ['https://example.com'],
    );
  });

  it('reads MyST directives nested thousands deep without running out of stack', () => {
    const facts = readPageFacts(`${'```{note}\n'.repeat(20000)}[a link](page.md)\n`, 'myst');
    assert.ok(Array.isArray(facts.links));
    assert.equal(readPageFacts(`# Title ${'# '.repeat(50000)}\n`, 'myst').sphinx?.sections.length, 1);
  });
});

describe('MyST page facts', () => {
  it('reads roles outside code, directive arguments, and Markdown inside non-code directives', () => {
    const text = [
      '---',
      'orphan: true',
      '---',
      '(top)=',
      '# Top',
      '',
      '{doc}`guide` and `{ref}` in code, and {ref}`Title <top>`.',
      '',
      '```{figure} img/a.png',
      ':name: fig-a',
      '',
      'A caption with a [link](other.md).',
      '```',
      '',
      '```python',
      '{doc}`not-a-role`',
      '```',
      '',
      '% A comment: [not a link](gone.md), {doc}`not-a-role-either`.',
      '',
      // Jupyter Book's cheatsheet: code fences in the items of a list table show roles as code.
      '* - ```md',
      '    {doc}`path/to/document`',
      '    ```',
      '  - {doc}`shown`',
      '',
    ].join('\n');
    assert.deepEqual(links(text, 'myst'), [
      '7 link {doc}`guide`',
      '7 link {ref}`top`',
      '9 image img/a.png',
      '12 link other.md',
      '24 link {doc}`shown`',
    ]);
    const facts = readPageFacts(text, 'myst');
    assert.deepEqual(facts.sphinx?.labels, ['top', 'fig-a']);
    assert.equal(facts.sphinx?.orphan, true);
  });
});
