import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyzeSite, checkSite, memoryFiles, PageFactsCache } from '../index.ts';
import { readZolaAnchors, slugifyPath } from './zola.ts';

async function analyze(files: ReturnType<typeof memoryFiles>) {
  const { model, source } = await analyzeSite(files, new PageFactsCache());
  return { model, problems: await checkSite(model, source) };
}

const problemLines = (problems: ReadonlyArray<{ file: string; line: number; message: string }>) =>
  problems.map((problem) => `${problem.file}:${problem.line} ${problem.message}`);

describe('Zola slugs and anchors', () => {
  it('slugifies as the slug crate does, and keeps names with `safe` and `off`', () => {
    assert.equal(slugifyPath('My_Post (v2)', 'on'), 'my-post-v2');
    assert.equal(slugifyPath('--a..b--', 'on'), 'a-b');
    assert.equal(slugifyPath('test (hey). ', 'safe'), 'test (hey)');
    assert.equal(slugifyPath('Keep Me', 'off'), 'Keep Me');
  });

  it('gives headings their ids, explicit ones first, repeats numbered; pages match ids without case', () => {
    const page = readZolaAnchors(
      '+++\ntitle = "x"\n+++\n# Example\n\n## Example\n\n## Custom {#example-1}\n\n## `code` and *em*\n\n<div id="Box"></div>\n\n## Pagination {% raw %}{#pagination}{% endraw %}\n',
      'on',
      true,
    );
    assert.deepEqual([...page.anchors].sort(), [
      'box',
      'code-and-em',
      'example',
      'example-1',
      'example-2',
      'pagination',
      'top',
    ]);
    assert.equal(page.caseInsensitive, true);
    const section = readZolaAnchors('+++\n+++\n## Some Title\n\n<a id="x"></a>\n', 'safe', false);
    assert.deepEqual([...section.anchors].sort(), ['Some_Title', 'top']);
    assert.equal(section.caseInsensitive, undefined);
    // A shortcode may write elements with ids.
    assert.equal(readZolaAnchors('+++\n+++\n{{ team(name="ann") }}\n', 'on', true).complete, false);
  });
});

// Shapes mirrored: getzola/zola's docs (`docs/config.toml`, `@/documentation/...md#anchor` links,
// `internal_level = "warn"`), hahwul/goyo (a second language, `_index.ko.md`), linebender's blog
// (dated bundles `blog/2024-06-17-name/index.md`), shrs (relative `../x/` links from a page's URL).
describe('Zola sites', () => {
  it('serves pages at their slugs, checks `@/` links and their anchors, and other links as the browser follows them', async () => {
    const { model, problems } = await analyze(
      memoryFiles({
        'docs/config.toml':
          'base_url = "https://example.org/"\ntitle = "Docs"\ncompile_sass = true\ntaxonomies = [{ name = "tags" }]\n\n[languages.ko]\ntitle = "문서"\n',
        'docs/content/_index.md':
          '+++\ntitle = "Home"\n+++\n[Install](@/guide/Getting_Started.md#install)\n[Missing](@/guide/nope.md)\n[Draft](@/guide/later.md)\n[Tags](/tags/rust/)\n[Feed](/atom.xml)\n[Not a term](/tags/x.md)\n',
        'docs/content/guide/_index.md':
          '+++\ntitle = "Guide"\n+++\n# Guide\n\n[Relative](./getting-started/)\n[Wrong](Getting_Started/)\n',
        'docs/content/guide/Getting_Started.md':
          '+++\ntitle = "Start"\naliases = ["/start/"]\n+++\n## Install\n\n[Up](../)\n[Gone](#nowhere)\n[Korean](@/guide/Getting_Started.ko.md)\n[Logo](/logo.png)\n[Section](/guide/#install)\n',
        'docs/content/guide/Getting_Started.ko.md': '+++\ntitle = "시작"\n+++\n## 설치\n',
        'docs/content/guide/later.md': '+++\ndraft = true\n+++\n# Later\n',
        'docs/content/blog/2024-06-17-roadmap/index.md':
          '+++\ntitle = "Roadmap"\n+++\n[Old address](/start/)\n',
        'docs/content/blog/2024-06-17-roadmap/chart.png': '',
        'docs/static/logo.png': '',
      }),
    );
    assert.equal(model.framework, 'zola');
    assert.equal(model.siteRoot, 'docs');
    assert.deepEqual(
      [...model.pages.entries()],
      [
        ['docs/content/_index.md', ['/']],
        ['docs/content/blog/2024-06-17-roadmap/index.md', ['/blog/roadmap/']],
        ['docs/content/guide/Getting_Started.ko.md', ['/ko/guide/getting-started/']],
        ['docs/content/guide/Getting_Started.md', ['/guide/getting-started/']],
        ['docs/content/guide/_index.md', ['/guide/']],
      ],
    );
    assert.equal(
      model.resolveLink('docs/content/blog/2024-06-17-roadmap/index.md', 'chart.png', { kind: 'image' }).kind,
      'served',
    );
    assert.deepEqual(problemLines(problems), [
      'docs/content/_index.md:5 Broken link "@/guide/nope.md": no file content/guide/nope.md: Zola stops the build (Broken relative link)',
      'docs/content/_index.md:6 Broken link "@/guide/later.md": content/guide/later.md is a draft, which Zola leaves out: Zola stops the build (Broken relative link)',
      // A taxonomy serves its terms' pages, no file.
      'docs/content/_index.md:9 Broken link "/tags/x.md": no page or file is served at /tags/x.md; Zola leaves this link as written and does not check it',
      'docs/content/guide/Getting_Started.md:8 Broken anchor "#nowhere": docs/content/guide/Getting_Started.md has no heading or element with the id "nowhere"',
      // A page's route is its slug (`getting-started`), not its file's name.
      'docs/content/guide/_index.md:7 Broken link "Getting_Started/": no page or file is served at /guide/Getting_Started/ (resolved from the page\'s URL, /guide/); Zola leaves this link as written and does not check it',
    ]);
  });
});
