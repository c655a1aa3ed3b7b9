import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyzeSite, checkSite, memoryFiles, PageFactsCache } from '../index.ts';
import { readZolaAnchors, slugifyPath } from './zola-slugs.ts';

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
  // Cases a review against Zola 0.21's source found: a site under a path of its host (tabi's
  // `base_url`), translated bundles and their folders' files, `_index.<code>.md` of a language that
  // is not configured, a draft section's folder, `render = false` pages.
  it('reads a site under a path, bundles’ files for every translation, drafts’ folders and unwritten pages', async () => {
    const { model, problems } = await analyze(
      memoryFiles({
        'config.toml': 'base_url = "https://owner.github.io/site"\ntitle = "x"\n\n[languages.es]\n',
        'content/_index.md': '+++\n+++\n[Posts](/site/posts/)\n[Host](/tags)\n[Missing](/site/nope/)\n',
        'content/_index.fi.md': '+++\n+++\n# Not a configured language\n',
        'content/posts/_index.md': '+++\n+++\n# Posts\n',
        'content/posts/shots/index.md': '+++\n+++\n![A](./img/a.png)\n',
        'content/posts/shots/index.es.md': '+++\n+++\n![A](./img/a.png)\n![B](./img/b.png)\n',
        'content/posts/shots/img/a.png': '',
        'content/old/_index.md': '+++\ndraft = true\n+++\n',
        'content/old/child.md': '+++\n+++\n# Child\n',
        'content/hidden.md': '+++\nrender = false\n+++\n[Nowhere](/site/nowhere/)\n',
      }),
    );
    assert.deepEqual(
      [...model.pages.keys()],
      [
        'content/_index.md',
        'content/hidden.md',
        'content/posts/_index.md',
        'content/posts/shots/index.es.md',
        'content/posts/shots/index.md',
      ],
    );
    assert.equal(model.resolveLink('content/_index.md', '/tags').kind, 'unchecked');
    assert.deepEqual(problemLines(problems), [
      'content/_index.md:5 Broken link "/site/nope/": no page or file is served at /site/nope/; Zola leaves this link as written and does not check it',
      'content/posts/shots/index.es.md:4 Broken image "./img/b.png": no page or file is served at /es/posts/shots/img/b.png (resolved from the page\'s URL, /es/posts/shots/); Zola leaves this link as written and does not check it',
    ]);
  });
});
