import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkFiles as check, problemLines as messages } from '../../../test/site-check.ts';
import { detectSite, memoryFiles } from '../index.ts';

// The shape of just-the-docs/just-the-docs and google/oss-fuzz: Just the Docs navigation by `parent`
// front matter, `{% link %}` tags, a site served under a base URL, pretty permalinks, a collection.
const justTheDocs = {
  'docs/Gemfile': 'source "https://rubygems.org"\ngem "jekyll", "~> 4.3"\ngem "just-the-docs"\n',
  'docs/_config.yml': [
    'title: Demo',
    'theme: just-the-docs',
    'baseurl: "/demo"',
    'permalink: pretty',
    'plugins: [jekyll-redirect-from]',
    'exclude: ["drafts/", "*.sh"',
    ', "README.md"',
    ']',
    'collections:',
    '  recipes:',
    '    output: true',
    '    permalink: /:collection/:path/',
    '',
  ].join('\n'),
  'docs/README.md': '# Not built\n\n[Gone](gone.md)\n',
  'docs/build.sh': '',
  'docs/drafts/idea.md': '---\ntitle: Idea\n---\n[Gone](gone.md)\n',
  'docs/index.md':
    '---\ntitle: Home\npermalink: /\n---\n# Home\n\n[Setup]({% link setup/index.md %}) · [Install]({{ site.baseurl }}/setup/install/) · [Old]({{ "/old-setup/" | relative_url }})\n',
  'docs/setup/index.md':
    '---\ntitle: Setup\nhas_children: true\n---\n# Setup\n\n[Install](install/) · [Recipe]({% link _recipes/bread.md %}#steps) · [Missing]({% link setup/missing.md %})\n',
  'docs/setup/install.md': [
    '---',
    'title: Install',
    'parent: Setup',
    'redirect_from: /old-setup/',
    '---',
    '# Install',
    '',
    // From `/setup/install/`, `usage/` is `/setup/install/usage/`: a pretty URL is a folder.
    '[Usage](usage/) · [Usage](../usage/) · [Root](/setup/usage/) · [Logo]({{ site.baseurl',
    '}}/assets/logo.png) · [Page file](usage.md)',
    '',
  ].join('\n'),
  'docs/setup/usage.md': '---\ntitle: Usage\nparent: Setup\n---\n# Usage\n',
  'docs/setup/extra.md': '---\ntitle: Extra\nparent: Set up\n---\n# Extra\n',
  'docs/_recipes/bread.md': '---\ntitle: Bread\n---\n# Bread\n',
  'docs/assets/logo.png': '',
  'docs/api/index.md': '---\ntitle: API\n---\n[Reference](/demo/reference/core.html)\n',
  'docs/.gitignore': 'reference/\n',
};

describe('Jekyll site model', () => {
  it('is found by _config.yml, only when no other framework configures the repository', async () => {
    assert.deepEqual(await detectSite(memoryFiles(justTheDocs)), {
      framework: 'jekyll',
      siteRoot: 'docs',
      configFile: 'docs/_config.yml',
    });
    // A `_config.yml` for the repository's GitHub Pages theme beside a Docusaurus site.
    const both = {
      '_config.yml': 'theme: jekyll-theme-cayman\n',
      'website/docusaurus.config.js': 'module.exports = { presets: [] }\n',
    };
    assert.equal((await detectSite(memoryFiles(both))).framework, 'docusaurus');
    // Hexo's configuration has the same name: its settings, or Hexo in `package.json`, tell it apart.
    const hexo = { '_config.yml': 'title: Blog\nsource_dir: source\nnew_post_name: :title.md\n' };
    assert.equal((await detectSite(memoryFiles(hexo))).framework, 'hexo');
    const installed = {
      '_config.yml': 'title: Docs\ntheme: navy\n',
      'package.json': '{"dependencies": {"hexo": "^7.0.0"}}',
    };
    assert.equal((await detectSite(memoryFiles(installed))).framework, 'hexo');
  });

  it('renders pages at their permalinks, collections at their template, and leaves excluded files out', async () => {
    const { model } = await check(justTheDocs);
    assert.equal(model.framework, 'jekyll');
    assert.deepEqual(
      [...model.pages].sort(([left], [right]) => left.localeCompare(right)),
      [
        ['docs/_recipes/bread.md', ['/recipes/bread/']],
        ['docs/api/index.md', ['/api/']],
        ['docs/index.md', ['/']],
        ['docs/setup/extra.md', ['/setup/extra/']],
        ['docs/setup/index.md', ['/setup/']],
        ['docs/setup/install.md', ['/setup/install/']],
        ['docs/setup/usage.md', ['/setup/usage/']],
      ],
    );
  });

  it('resolves links as the built site answers them, after Liquid', async () => {
    const { problems } = await check(justTheDocs);
    assert.deepEqual(messages(problems), [
      'docs/setup/extra.md:3: Navigation entry "Set up" names no page',
      "docs/setup/index.md:7: Broken link \"{% link setup/missing.md %}\": Jekyll's build stops: Could not find document 'setup/missing.md' in tag 'link' (it names a file of the site, from docs/)",
      'docs/setup/install.md:8: Broken link "usage/": the built site has no page or file at /setup/install/usage/',
      'docs/setup/install.md:8: Broken link "/setup/usage/": the site is served under its baseurl /demo; write {{ site.baseurl }}/setup/usage/ or a relative link',
      // After a tag written over two lines, the rest of its last line counts from its first line.
      'docs/setup/install.md:8: Broken link "usage.md": docs/setup/usage.md is rendered at /setup/usage/, not at /setup/install/usage.md: link that URL, or use {% link setup/usage.md %} (jekyll-relative-links is not on)',
    ]);
  });

  it('follows GitHub Pages: Markdown without front matter, README indexes and relative links to files', async () => {
    const files = {
      // No Gemfile: GitHub Pages builds it, with jekyll-optional-front-matter, jekyll-readme-index
      // and jekyll-relative-links (0.6, which reads a leading slash from the page's folder too).
      '_config.yml': 'title: Tool\n',
      'README.md':
        '# Tool\n\n[Guide](guide/README.md) · [FAQ](FAQ.md) · [Logo](img/logo.png) · [Gone](gone.md)\n',
      'FAQ.md': '# FAQ\n\n[Home](README.md) · [Guide](guide/)\n',
      'guide/README.md': '# Guide\n\n[FAQ](../FAQ.md) · [Setup](setup.html) · [Broken](nowhere.html)\n',
      'guide/setup.md': '# Setup\n',
      'img/logo.png': '',
    };
    const { model, problems } = await check(files);
    assert.deepEqual(model.pages.get('README.md'), ['/']);
    assert.deepEqual(model.pages.get('guide/README.md'), ['/guide/']);
    assert.deepEqual(model.pages.get('FAQ.md'), ['/FAQ.html']);
    assert.deepEqual(messages(problems), [
      'README.md:3: Broken link "gone.md": the built site has no page or file at /gone.md',
      'guide/README.md:3: Broken link "nowhere.html": the built site has no page or file at /guide/nowhere.html',
    ]);
  });

  it('renders posts by the date in their file name, and no file of _posts without one', async () => {
    const files = {
      Gemfile: 'gem "jekyll"\n',
      '_config.yml': 'title: Blog\n',
      '_posts/2024-01-02-hello-world.md':
        '---\ntitle: Hello\ncategories: news\n---\n[Next]({% post_url 2024-02-03-next %})\n',
      '_posts/2024-02-03-next.md':
        '---\ntitle: Next\n---\n[Back](/news/2024/01/02/hello-world.html) · [Gone]({% post_url 2024-09-09-gone %})\n',
      '_posts/draft-notes.md': '---\ntitle: Not a post\n---\n[Nowhere](nowhere.html)\n',
    };
    const { model, problems } = await check(files);
    assert.deepEqual(Object.fromEntries(model.pages), {
      '_posts/2024-01-02-hello-world.md': ['/news/2024/01/02/hello-world.html'],
      '_posts/2024-02-03-next.md': ['/2024/02/03/next.html'],
    });
    assert.deepEqual(messages(problems), [
      `_posts/2024-02-03-next.md:4: Broken link "{% post_url 2024-09-09-gone %}": Jekyll's build stops: Could not find post "2024-09-09-gone" in tag 'post_url'`,
    ]);
  });

  // Timed in bench/hostile-pages.ts; the timeout only stops a stalled run.
  it('reads a configuration that is not valid YAML as a problem at its line, and a hostile page', {
    timeout: 60_000,
  }, async () => {
    const files = {
      '_config.yml': 'title: [Broken\nexclude: x\n',
      'index.md': `---\ntitle: Home\n---\n${'{% raw %}'.repeat(50_000)}${'{{ site.baseurl'.repeat(50_000)}\n`,
    };
    const { problems } = await check(files);
    assert.ok(problems.length > 0 && problems.every((problem) => problem.file === '_config.yml'));
  });
});
