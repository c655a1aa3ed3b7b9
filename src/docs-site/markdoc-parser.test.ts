import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Markdoc from '@markdoc/markdoc';
import fc from 'fast-check';
import type { MarkdownIt, Token } from 'markdown-it';
import { createMarkdocParser } from './markdoc-parser.ts';

const markdoc = () =>
  (
    new Markdoc.Tokenizer({ html: true, allowIndentation: true, allowComments: true }) as unknown as {
      parser: MarkdownIt;
    }
  ).parser;
const original = markdoc();
original.block.ruler.getRules('reference').length = 0;
const linear = createMarkdocParser();

/**
 * The tokens as plain values: type, lines, content, tag and attributes, and children's. A tag in a
 * fence after an opener never closed and a line break is put a line later than Markdoc puts it (its
 * `parseTags` skips the opener and the next character, line breaks too): its lines are left out.
 */
const shape = (tokens: readonly Token[], fence = false): unknown =>
  tokens.map((token) => ({
    type: token.type,
    map: fence ? null : token.map,
    content: token.content,
    info: token.info,
    meta: JSON.stringify(token.meta ?? null, (key, value) => (fence && key === 'location' ? null : value)),
    children: Array.isArray(token.children) ? shape(token.children, token.type === 'fence') : null,
  }));

describe('Markdoc parser', () => {
  it("gives Markdoc's own tokens for pages of tags, quotes, escapes and fences", () => {
    const pieces = fc.constantFrom(
      '{%',
      '%}',
      '/%}',
      '{% card to="/a" %}',
      '{% partial file="b.md" /%}',
      '{% /card %}',
      '"',
      '\\',
      '\\"',
      ' ',
      'x',
      '\n',
      '\n\n',
      '```\n',
      '```js {% process=false %}\n',
      '# ',
      '  ',
      '[a](b)',
      '<div>',
      '{% $v %}',
      '{%}',
    );
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 40 }), (parts) => {
        const page = parts.join('');
        assert.deepEqual(
          shape(linear.parse(page, {})),
          shape(original.parse(page, {})),
          JSON.stringify(page),
        );
      }),
      { numRuns: 3000 },
    );
  });

  it('reads a page of tag openers never closed in time linear in its length', { timeout: 60_000 }, () => {
    // Markdoc's own scan takes about 10 s for 80 KB of these, hours for 1 MB (bench/hostile-pages.ts).
    const page = `See ${'{% card to="x" '.repeat(70_000)}\n\n\`\`\`\n${'{% a "'.repeat(100_000)}\n\`\`\`\n${'{% b\n'.repeat(50_000)}`;
    const tokens = linear.parse(page, {});
    assert.ok(tokens.length > 0);
    const closed = linear.parse('A {% card to="/x" %}b{% /card %} and {% card to="/y" /%}\n', {});
    const tags = closed[1]?.children?.filter((token) => token.type.startsWith('tag')) ?? [];
    assert.deepEqual(
      tags.map((token) => token.type),
      ['tag_open', 'tag_close', 'tag'],
    );
  });
});
