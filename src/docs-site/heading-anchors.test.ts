import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readHeadingAnchors } from './heading-anchors.ts';

const docusaurus = (mdx: boolean) => ({ mdx, customIds: true, maintainCase: false, always: [] });

describe('heading anchors as Docusaurus gives them', () => {
  it('keeps a heading text untrimmed, allows any custom id, keeps case when asked, and adds what every page has', () => {
    // Docusaurus slugs `My heading <span/>` with its trailing space (facebook/docusaurus#8901).
    assert.deepEqual(
      [...readHeadingAnchors('## My heading <span/>\n', docusaurus(false)).anchors],
      ['my-heading-'],
    );
    assert.deepEqual([...readHeadingAnchors('## Title {#my id}\n', docusaurus(false)).anchors], ['my id']);
    const rules = { mdx: false, customIds: false, maintainCase: true, always: ['_top'] };
    // Astro has no `{#id}`: the braces' text is slugged with the rest.
    assert.deepEqual(
      [...readHeadingAnchors('## Getting Started {#start}\n', rules).anchors],
      ['_top', 'Getting-Started-start'],
    );
    // A hostile heading of `{#` a hundred thousand times is read in linear time.
    assert.equal(readHeadingAnchors(`## ${'{#'.repeat(100_000)}\n`, docusaurus(false)).anchors.size, 1);
  });

  it('slugs heading text as GitHub does, repeats numbered, custom ids as written', () => {
    const text = [
      '---',
      'title: Page',
      '---',
      '# Getting `started` with _Jest_',
      '## Setup',
      '## Setup',
      '## Install the CLI {#cli}',
      '### What’s new in 2.0?',
      '<a id="legacy-anchor"></a>',
      '',
      '```md',
      '## Not a heading',
      '```',
      '',
    ].join('\n');
    for (const mdx of [false, true]) {
      const { anchors, complete } = readHeadingAnchors(text, docusaurus(mdx));
      assert.deepEqual([...anchors].sort(), [
        'cli',
        'getting-started-with-jest',
        'legacy-anchor',
        'setup',
        'setup-1',
        'whats-new-in-20',
      ]);
      assert.equal(complete, true);
    }
  });

  it('is incomplete where a component or an import may add anchors, or the page is too long to read', () => {
    assert.equal(
      readHeadingAnchors('import Shared from "./_shared.mdx";\n\n# Title\n\n<Shared />\n', docusaurus(true))
        .complete,
      false,
    );
    assert.equal(
      readHeadingAnchors(
        '# Title\n\n<Tabs>\n<TabItem value="a">\n\n## In a tab\n\n</TabItem>\n</Tabs>\n',
        docusaurus(true),
      ).complete,
      false,
    );
    assert.equal(
      readHeadingAnchors('# Title\n\n<div id={computed}>x</div>\n', docusaurus(true)).complete,
      false,
    );
    assert.equal(
      readHeadingAnchors(`# Title\n\n${'x'.repeat(600_000)}\n`, docusaurus(false)).complete,
      false,
    );
    // An HTML element with an id is an anchor; a lower-case element adds none of its own.
    const known = readHeadingAnchors(
      '# Title\n\n<div id="box" className="note">text</div>\n',
      docusaurus(true),
    );
    assert.deepEqual([...known.anchors].sort(), ['box', 'title']);
    assert.equal(known.complete, true);
    // A component markdown-it does not take for HTML (an attribute of JSX) still renders.
    assert.equal(
      readHeadingAnchors('# Title\n\n<ApiTable items={["a", "b"]} />\n', docusaurus(true)).complete,
      false,
    );
    // An id in a comment is no anchor.
    assert.deepEqual(
      [...readHeadingAnchors('# T\n\n<!-- <a id="old"></a> -->\n', docusaurus(true)).anchors],
      ['t'],
    );
    // An import shown in a code sample imports nothing (jest's docs show many).
    assert.equal(
      readHeadingAnchors("# Title\n\n```js\nimport {jest} from '@jest/globals';\n```\n", docusaurus(true))
        .complete,
      true,
    );
  });
});
