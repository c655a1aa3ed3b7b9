import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readHeadingAnchors } from './heading-anchors.ts';

describe('heading anchors as Docusaurus gives them', () => {
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
      const { anchors, complete } = readHeadingAnchors(text, mdx);
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
      readHeadingAnchors('import Shared from "./_shared.mdx";\n\n# Title\n\n<Shared />\n', true).complete,
      false,
    );
    assert.equal(
      readHeadingAnchors(
        '# Title\n\n<Tabs>\n<TabItem value="a">\n\n## In a tab\n\n</TabItem>\n</Tabs>\n',
        true,
      ).complete,
      false,
    );
    assert.equal(readHeadingAnchors('# Title\n\n<div id={computed}>x</div>\n', true).complete, false);
    assert.equal(readHeadingAnchors(`# Title\n\n${'x'.repeat(600_000)}\n`, false).complete, false);
    // An HTML element with an id is an anchor; a lower-case element adds none of its own.
    const known = readHeadingAnchors('# Title\n\n<div id="box" className="note">text</div>\n', true);
    assert.deepEqual([...known.anchors].sort(), ['box', 'title']);
    assert.equal(known.complete, true);
    // An import shown in a code sample imports nothing (jest's docs show many).
    assert.equal(
      readHeadingAnchors("# Title\n\n```js\nimport {jest} from '@jest/globals';\n```\n", true).complete,
      true,
    );
  });
});
