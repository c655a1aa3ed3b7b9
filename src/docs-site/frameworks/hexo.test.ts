import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyzeSite, checkSite, memoryFiles, PageFactsCache } from '../index.ts';
import { readHexoAnchors } from './hexo-anchors.ts';

async function analyze(files: ReturnType<typeof memoryFiles>) {
  const { model, source } = await analyzeSite(files, new PageFactsCache());
  return { model, problems: await checkSite(model, source) };
}

const problemLines = (problems: ReadonlyArray<{ file: string; line: number; message: string }>) =>
  problems.map((problem) => `${problem.file}:${problem.line} ${problem.message}`);

const marked = {
  kind: 'marked',
  ids: 'unescaped',
  headerIds: true,
  transform: 0,
  smartypants: true,
  prependRoot: 'yes',
} as const;
const markdownItRenderer = {
  kind: 'markdown-it',
  level: 2,
  transform: 0,
  separator: '-',
  collisionSuffix: '',
  prependRoot: false,
  footnotes: false,
} as const;

// Heading ids as hexo-renderer-marked 7.0.1, 0.3.2 and hexo-renderer-markdown-it 7.1.1 write them
// (each pair run through the real renderer; hexo-util's `slugize` keeps case and curly quotes).
describe('Hexo heading anchors', () => {
  it('keeps case, smart quotes and entities as the installed renderer does', () => {
    const text = [
      '# Getting Started',
      "## What's new?",
      '## Element & Component Access',
      '## Direct `<script>` Include',
      '## Getting Started',
      '## A &copy; B',
      '<!-- more -->',
      '<a name="custom"></a>',
    ].join('\n\n');
    const modern = readHexoAnchors(text, marked);
    assert.deepEqual([...(modern?.anchors ?? [])].sort(), [
      'A-copy-B',
      'Direct-Include',
      'Element-Component-Access',
      'Getting-Started',
      'Getting-Started-1',
      'What’s-new',
      'custom',
      'more',
    ]);
    const old = readHexoAnchors(text, { ...marked, ids: 'escaped' });
    assert.ok(old?.anchors.has('Element-amp-Component-Access'));
    assert.ok(old?.anchors.has('Direct-lt-script-gt-Include'));
    const markdownIt = readHexoAnchors(text, markdownItRenderer);
    // The level-1 heading has no id (nor counts as a repeat); entities are decoded.
    assert.deepEqual([...(markdownIt?.anchors ?? [])].filter((id) => /Getting|copy|©/.test(id)).sort(), [
      'A-©-B',
      'Getting-Started',
    ]);
    const repeated = readHexoAnchors('## Setup\n\n## Setup\n', markdownItRenderer);
    assert.deepEqual([...(repeated?.anchors ?? [])], ['Setup', 'Setup-2']);
  });
});

// Shapes mirrored: hexojs/site (`source/docs/*.md` linked as `setup.html`, `_config.yml` with
// `pretty_urls`), vuejs/v2.vuejs.org (a post with front matter and no opening `---`, `alias:`),
// theme-next.org (NexT's nested `menu` with `default` paths), embark (posts at `news/:year/...`),
// khadas (`root: /linux`).
describe('Hexo sites', () => {
  it('serves pages at their .html paths and posts at their permalink, and resolves links as written', async () => {
    const { model, problems } = await analyze(
      memoryFiles({
        'package.json':
          '{"dependencies": {"hexo": "^7.2.0", "hexo-renderer-marked": "^6.3.0", "hexo-renderer-stylus": "^3.0.0"}}',
        '_config.yml': [
          'title: Docs',
          'url: https://example.org',
          'permalink: news/:year/:month/:day/:title/',
          'new_post_name: :year-:month-:day-:title.md',
          'theme: navy',
          'alias:',
          '  old/setup.html: docs/setup.html',
          '',
        ].join('\n'),
        'themes/navy/_config.yml': [
          'menu:',
          '  Home: /',
          '  Docs:',
          '    default: /docs/ || fa fa-book',
          '    Setup: /setup.html || fa fa-wrench',
          '    Gone: /gone.html || fa fa-wrench',
          '',
        ].join('\n'),
        'themes/navy/source/css/style.styl': '',
        'source/docs/index.md': [
          '---',
          'title: Docs',
          '---',
          '# Docs',
          '',
          '[Setup](setup.html)',
          '[Setup without .html](setup)',
          '[Setup as a file](setup.md)',
          '[Absolute](/docs/setup.html#Install)',
          '[Elsewhere](/other/x.html)',
          '[Old](/old/setup.html)',
          '[Missing anchor](setup.html#install)',
          '[Post](/news/2019/01/23/hello/)',
          '{% post_link hello %}',
          '{% post_link nowhere %}',
          '![Logo](images/logo.png)',
          '[Style](/css/style.css)',
          '{% raw %}[Not a link](nowhere.html){% endraw %}',
          '',
        ].join('\n'),
        'source/docs/setup.md': '# Setup\n\n## Install\n',
        'source/images/logo.png': '',
        'source/_posts/2019-01-23-hello.md':
          'title: Hello\nalias: news/2019/01/22/hello/\n---\n\n[Back](../../../../../docs/)\n',
        'source/_drafts/draft.md': '# Draft\n',
        'source/_data/menu.yml': 'docs: /docs/\n',
      }),
    );
    assert.equal(model.framework, 'hexo');
    assert.deepEqual(
      [...model.pages.entries()],
      [
        ['source/_posts/2019-01-23-hello.md', ['/news/2019/01/23/hello/index.html']],
        ['source/docs/index.md', ['/docs/index.html']],
        ['source/docs/setup.md', ['/docs/setup.html']],
      ],
    );
    assert.deepEqual(problemLines(problems), [
      'themes/navy/_config.yml:6 Navigation entry "/gone.html" names no page',
      'source/docs/index.md:8 Broken link "setup.md": no page or file is served at /docs/setup.md (Hexo leaves links as written; source/docs/setup.md is served at /docs/setup.html) (resolved from setup.md)',
      'source/docs/index.md:10 Broken link "/other/x.html": no page or file is served at /other/x.html',
      'source/docs/index.md:12 Broken anchor "setup.html#install": source/docs/setup.md has no heading or element with the id "install"',
      'source/docs/index.md:15 Broken link "{% post_link nowhere %}": no post in _posts/ is named nowhere: Hexo stops the build (Post not found)',
    ]);
  });

  it('reads images from the root with hexo-renderer-marked 5 and later, and leaves what scripts change unchecked', async () => {
    const { model, problems } = await analyze(
      memoryFiles({
        'package.json': '{"dependencies": {"hexo": "^5.4.0", "hexo-renderer-marked": "^4.0.0"}}',
        '_config.yml': 'title: Guide\nroot: /linux/\ntheme: vue\n',
        'source/guide/index.md':
          '# Guide\n\n![Page-relative](img/a.png)\n![Missing](img/b.png)\n[API](../api/#Vue-set)\n',
        'source/guide/img/a.png': '',
        'source/api/index.md': '# API\n\n### Vue.set( target )\n',
        'themes/vue/source/js/common.js': "titleNode.setAttribute('id', idWithoutArguments)\n",
        'scripts/releases.js':
          "hexo.extend.generator.register('releases', () => ({ path: 'releases.json', data: '' }));\n",
      }),
    );
    // hexo-renderer-marked 4 reads images from the page; the theme sets ids as the page runs.
    assert.deepEqual(problemLines(problems), [
      'source/guide/index.md:4 Broken image "img/b.png": no page or file is served at /linux/guide/img/b.png (resolved from img/b.png)',
    ]);
    assert.equal(model.resolveLink('source/guide/index.md', '/linux/releases.json').kind, 'served');
    assert.deepEqual(model.unsupported, [
      'themes/vue/source/js/common.js: the theme sets ids or follows a fragment to the nearest id as the page runs; anchors are unchecked',
    ]);
  });

  // Cases where building the corpus with Hexo itself disagreed with a first reading: hexojs/site's
  // tag examples in code, vuejs.org's `{% raw %}` HTML, nodejs-ko's `category:`, khadas' links
  // without the site's `root`, aframe's `_config.prod.yml`.
  it('agrees with Hexo on tags in code, raw HTML, `category`, links without the root and a generated configuration', async () => {
    const anchors = readHexoAnchors(
      '## Code Block\n\n```\n{% include_code lang:js %}\n<a id="in-code"></a>\n```\n\n`{% url_for %}`\n\n{% raw %}<h2 id="team">Team</h2>{% endraw %}\n',
      marked,
    );
    assert.equal(anchors?.complete, true);
    assert.deepEqual([...(anchors?.anchors ?? [])].sort(), ['Code-Block', 'team']);
    const { model, problems } = await analyze(
      memoryFiles({
        'package.json': '{"dependencies": {"hexo": "^6.3.0", "hexo-renderer-marked": "^6.0.0"}}',
        '_config.prod.yml':
          'title: Linux\nurl: https://khadas.github.io/linux\nsource_dir: src\nnew_post_name: :year-:month-:day-:title.md\npermalink: :category/:year/:month/:day/:title/\n',
        'src/vim1/setup.md':
          '# Setup\n\n[Without the root](/vim1/upgrade.html)\n[Home of the host](/index.html)\n[Weekly](/linux/weekly/2015/11/27/weekly/)\n',
        'src/vim1/upgrade.md': '# Upgrade\n',
        'src/_posts/2015-11-27-weekly.md': '---\ntitle: Weekly\ndate: 2015-11-27\ncategory: weekly\n---\n',
      }),
    );
    assert.equal(model.framework, 'hexo');
    assert.deepEqual(problemLines(problems), [
      'src/vim1/setup.md:3 Broken link "/vim1/upgrade.html": outside the site\'s root, /linux/ (its `root`): the site serves this at /linux/vim1/upgrade.html',
    ]);
  });

  // The navy theme (hexojs/site, learning-rust): `source/_data/sidebar.yml` lists each type's pages
  // by file name; a theme menu's external link is no page of the site.
  it('reads the navy theme’s sidebar and leaves a menu’s external links alone', async () => {
    const { problems } = await analyze(
      memoryFiles({
        'package.json': '{"dependencies": {"hexo": "^7.0.0", "hexo-renderer-marked": "^6.0.0"}}',
        '_config.yml': 'title: Docs\ntheme: navy\n',
        'themes/navy/_config.yml': 'menu:\n  GitHub: https://github.com/hexojs\n  Docs: /docs/\n',
        'scripts/helpers.js':
          "hexo.extend.helper.register('doc_sidebar', function () { return this.site.data.sidebar; });\n",
        'source/_data/sidebar.yml':
          'docs:\n  getting_started:\n    overview: index.html\n    setup: setup.html\n    gone: gone.html\n',
        'source/docs/index.md': '# Docs\n',
        'source/docs/setup.md': '# Setup\n',
      }),
    );
    assert.deepEqual(problemLines(problems), [
      'source/_data/sidebar.yml:5 Navigation entry "gone.html" names no page',
    ]);
  });
});
