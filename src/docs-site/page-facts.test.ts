import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readPageFacts } from './page-facts.ts';

const page = `---
title: Setup
slug: /start
---
# Setting up

Read [the guide](./guide.md) and [a reference][ref].
A second line with ![a diagram](/img/a.png)
and a [soft break](../x.md#y).

\`\`\`md
[in a fence](not-a-link.md)
\`\`\`

<!-- [commented out](c.md) <a href="/also-commented"> -->
{/* <Card href="/mdx-comment" /> */}

<Card
  title="Multi-line JSX"
  href="/cards/target"
>
  [Inside JSX](in-jsx.md)
</Card>

Inline \`<a href="/in-code">\` code, then <a href="/real">real HTML</a>.

| a | b |
|---|---|
| [in a table](cell.md) | x |

[ref]: https://example.com/reference
import Snippet from '../snippets/part.mdx';
`;

describe('page facts', () => {
  it("counts a code span's line breaks, which markdown-it turns into spaces, in a link's line", () => {
    const text =
      'a\n<Warning>\nUse `uv\nsync` from the [NeMo\ncontainer](#x). And `a` ``c\nd`` \\`e [y](#y)\n</Warning>\n';
    assert.deepEqual(
      readPageFacts(text, 'mdx').links.map((link) => `${link.line} ${link.url}`),
      ['4 #x', '6 #y'],
    );
  });

  it('reads front matter, the title, and every link at its line, as the page is rendered', () => {
    const facts = readPageFacts(page, 'mdx');
    assert.deepEqual(facts.frontMatter, { title: 'Setup', slug: '/start' });
    assert.equal(facts.title, 'Setting up');
    assert.deepEqual(
      facts.links.map((link) => `${link.line} ${link.kind} ${link.url}`),
      [
        '7 link ./guide.md',
        '7 link https://example.com/reference',
        '8 image /img/a.png',
        '9 link ../x.md#y',
        '20 html /cards/target',
        '22 link in-jsx.md',
        '25 html /real',
        '29 link cell.md',
        '32 import ../snippets/part.mdx',
      ],
    );
  });

  it('treats indented text as code in CommonMark and as content in MDX and Python-Markdown', () => {
    const text = '!!! note\n\n    See [the admonition link](inside.md).\n';
    assert.deepEqual(readPageFacts(text, 'commonmark').links, []);
    assert.deepEqual(
      readPageFacts(text, 'python-markdown').links.map((link) => link.url),
      ['inside.md'],
    );
  });

  it('keeps a link as written: no percent-encoding, no scheme filtering', () => {
    const facts = readPageFacts(
      '[space](my page.md) [unicode](/été) [script](javascript:alert(1))\n',
      'commonmark',
    );
    assert.deepEqual(
      facts.links.map((link) => link.url),
      ['/été', 'javascript:alert(1)'],
    );
  });

  it('reads MDX ESM as JavaScript to the end of its statement, so a fence inside a string is not one', () => {
    // The shape of shuding/nextra's docs: a page ending in an exported component whose template literal
    // opens a code fence; a link written after it is the page's.
    const text = [
      "import { MDXRemote } from 'nextra/mdx-remote'",
      '',
      '# npm2yarn',
      '',
      'export async function Example() {',
      '  const rawMdx = `~~~md filename="Markdown"',
      '[not a link of the page](nowhere.md)',
      '',
      '~~~`',
      '  return <MDXRemote compiledSource={rawMdx} />',
      '}',
      '',
      'See [a missing page](./missing.md).',
      '',
      '```js',
      'export const inCode = "[not a link either](code.md)"',
      '```',
      '',
    ].join('\n');
    assert.deepEqual(
      readPageFacts(text, 'mdx').links.map((link) => `${link.line} ${link.url}`),
      ['13 ./missing.md'],
    );
    // An export that never parses is left to the Markdown reader, as before.
    assert.deepEqual(
      readPageFacts('export const broken = {\n\n[kept](kept.md)\n', 'mdx').links.map((link) => link.url),
      ['kept.md'],
    );
  });

  it('survives hostile input: unterminated front matter, huge nesting, no links', () => {
    assert.equal(readPageFacts('---\ntitle: [unclosed\n', 'commonmark').frontMatter, null);
    assert.equal(readPageFacts('---\n- a list\n---\n', 'commonmark').frontMatter, null);
    const nested = `${'> '.repeat(5000)}[deep](deep.md)\n`;
    assert.equal(readPageFacts(nested, 'commonmark').links.length <= 1, true);
    assert.deepEqual(readPageFacts('', 'mdx'), { frontMatter: null, title: null, links: [] });
    // Thousands of statements that never end: their parsing stops at a budget, and the page is read.
    const exports = `${Array.from({ length: 5000 }, (_, index) => `export const a${index} = {\n`).join('\n')}\n[after](after.md)\n`;
    assert.deepEqual(
      readPageFacts(exports, 'mdx').links.map((link) => link.url),
      ['after.md'],
    );
  });
});

describe('links written by a template language', () => {
  it('reads Liquid links as written, and keeps line numbers when a tag spans lines', () => {
    const text =
      '[a]({{ site.baseurl }}{% link x.md %}#f) [b]({% post_url 2020-01-01-a %})\n[c]({{ site.baseurl\n}}/y) [d](z.md)\n{% raw %}[e]({% link raw.md %}){% endraw %}\n[f]({{ "/w" | relative_url }})\n';
    assert.deepEqual(
      readPageFacts(text, 'jekyll').links.map(({ url, line }) => `${line} ${url}`),
      [
        '1 {{ site.baseurl }}{% link x.md %}#f',
        '1 {% post_url 2020-01-01-a %}',
        '2 {{ site.baseurl }}/y',
        '2 z.md',
        '5 {{ site.baseurl }}/w',
      ],
    );
  });

  // Timed in bench/hostile-pages.ts; the timeout only stops a stalled run.
  it('reads a hostile page of unclosed tags and shortcodes', { timeout: 60_000 }, () => {
    assert.deepEqual(readPageFacts('{{< ref a'.repeat(100_000), 'hugo').links, []);
    assert.deepEqual(readPageFacts(`{% raw %}${'{{ site.baseurl'.repeat(50_000)}`, 'jekyll').links, []);
  });

  it("reads Hugo's ref and relref shortcodes, whatever their delimiters and quotes", () => {
    const text =
      '[a]({{< ref "docs/a.md" >}}) [b]({{% relref \'b\' %}})\n[c]({{<relref path="/c#part" lang="en">}}) [d]({{< ref d >}})\n';
    assert.deepEqual(
      readPageFacts(text, 'hugo').links.map(({ url, line }) => `${line} ${url}`),
      [
        '1 {{< ref "docs/a.md" >}}',
        '1 {{< relref "b" >}}',
        '2 {{< relref "/c#part" >}}',
        '2 {{< ref "d" >}}',
      ],
    );
  });

  it('reads no link in an MDX comment, a markdown-it-video embed or a Vue binding', () => {
    // Shapes from ipfs/ipfs-docs (`@[youtube](id)`), xugaoyi/vuepress-theme-vdoing (`:href`) and
    // web-infra-dev/rspress's own pages (links left in `{/* */}` comments).
    const mdx = readPageFacts('{/*\n[old](/removed)\n*/}\n[kept](/kept)\n', 'mdx');
    assert.deepEqual(
      mdx.links.map((link) => `${link.line} ${link.url}`),
      ['4 /kept'],
    );
    const markdown = readPageFacts(
      '@[youtube](Z5zNPwMDYGg)\n\n<a :href="qqUrl">QQ</a> <a href="/real">x</a>\n',
      'commonmark',
    );
    assert.deepEqual(
      markdown.links.map((link) => `${link.line} ${link.url}`),
      ['3 /real'],
    );
  });
});
