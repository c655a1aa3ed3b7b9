import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyzeSite, checkSite, memoryFiles, PageFactsCache } from '../index.ts';

async function analyze(files: ReturnType<typeof memoryFiles>) {
  const { model, source } = await analyzeSite(files, new PageFactsCache());
  return { model, problems: await checkSite(model, source) };
}

const problemLines = (problems: ReadonlyArray<{ file: string; line: number; message: string }>) =>
  problems.map((problem) => `${problem.file}:${problem.line} ${problem.message}`);

// Shapes mirrored: v8/v8.dev (`dir.input: 'src'`, markdown-it-anchor with its own slugify and
// markdown-it-attrs, firebase.json redirects, `_img` copied), eslint/eslint (a `pathPrefix`, a
// directory data file setting `.html` permalinks), a11yproject (a layout's `id`), angularfire
// (`x/x.md` pages, eleventyNavigation), sass-site (a `.gitignore`d folder a build step writes).
describe('Eleventy sites', () => {
  it('serves templates at their permalinks and resolves links from the page’s URL', async () => {
    const { model, problems } = await analyze(
      memoryFiles({
        'package.json': '{"devDependencies": {"@11ty/eleventy": "^3.1.2", "markdown-it-anchor": "^8.6.7"}}',
        '.eleventy.js': [
          "const markdownItAnchor = require('markdown-it-anchor');",
          'module.exports = (eleventyConfig) => {',
          "  eleventyConfig.addPassthroughCopy('src/_img');",
          "  eleventyConfig.amendLibrary('md', (md) => md.use(require('markdown-it-attrs')).use(markdownItAnchor, { permalink: true }));",
          "  return { dir: { input: 'src', output: 'dist' } };",
          '};',
          '',
        ].join('\n'),
        '.gitignore': '/src/api\n',
        'firebase.json':
          '{"hosting": {"redirects": [{"source": "/bug", "destination": "https://crbug.com", "type": 302}]}}',
        'src/_includes/layout.njk': '<footer><div id="theme"></div></footer>{{ content | safe }}',
        'src/index.md': '# V8\n\n[Docs](/docs/)\n[Build](docs/build/)\n[Build as a file](docs/build.md)\n',
        'src/docs/docs.md': [
          '---',
          'eleventyNavigation:',
          '  key: Docs',
          '---',
          '# Docs',
          '',
          '[Build](../docs/build/#compiling)',
          '[Missing anchor](build/#compile)',
          '[Theme](#theme)',
          '[Image](/_img/logo.svg)',
          '[Gone](/docs/gone/)',
          '[Bug](/bug)',
          '[API](/api/classes/x/)',
          '[Perm](/perm.html)',
          '',
        ].join('\n'),
        'src/docs/build.md':
          '---\neleventyNavigation:\n  key: Build\n  parent: Documentation\n---\n# Build\n\n## Compiling for Arm { #compiling }\n\n## Start here\n',
        'src/perm.md': '---\npermalink: /perm.html\n---\n# Perm\n',
        'src/hidden.md': '---\npermalink: false\n---\n# Hidden\n',
        'src/_img/logo.svg': '',
      }),
    );
    assert.equal(model.framework, 'eleventy');
    assert.deepEqual(
      [...model.pages.entries()],
      [
        ['src/docs/build.md', ['/docs/build/']],
        ['src/docs/docs.md', ['/docs/']],
        ['src/index.md', ['/']],
        ['src/perm.md', ['/perm.html']],
      ],
    );
    assert.deepEqual(problemLines(problems), [
      'src/docs/build.md:4 Navigation entry "Documentation" names no page',
      'src/docs/docs.md:8 Broken anchor "build/#compile": src/docs/build.md has no heading or element with the id "compile"',
      'src/docs/docs.md:11 Broken link "/docs/gone/": no page or file is served at /docs/gone/',
      'src/index.md:5 Broken link "docs/build.md": no page or file is served at /docs/build.md (resolved from the page\'s URL, /)',
    ]);
  });

  it('reads a directory data file’s permalink, the path prefix and the InputPathToUrl transform', async () => {
    const { model, problems } = await analyze(
      memoryFiles({
        'docs/package.json': '{"devDependencies": {"@11ty/eleventy": "^3.0.0"}}',
        'docs/eleventy.config.js': [
          "import { InputPathToUrlTransformPlugin } from '@11ty/eleventy';",
          'export default function (eleventyConfig) {',
          '  eleventyConfig.addPlugin(InputPathToUrlTransformPlugin);',
          "  return { pathPrefix: '/docs/head/', dir: { input: 'src' } };",
          '}',
          '',
        ].join('\n'),
        'docs/src/src.json': '{ "permalink": "{{ page.filePathStem }}.html" }',
        'docs/src/use/index.md':
          '# Use\n\n[Rules](../rules/no-shadow.md)\n[Team](/team/)\n[Prefixed](/docs/head/rules/no-shadow.html)\n[Missing](./missing.md)\n',
        'docs/src/rules/no-shadow.md': '# no-shadow\n',
      }),
    );
    assert.deepEqual(
      [...model.pages.entries()],
      [
        ['docs/src/rules/no-shadow.md', ['/docs/head/rules/no-shadow.html']],
        ['docs/src/use/index.md', ['/docs/head/use/']],
      ],
    );
    // `/team/` is the host's (eslint.org's), outside the path prefix: unchecked.
    assert.deepEqual(problemLines(problems), [
      'docs/src/use/index.md:6 Broken link "./missing.md": no page or file is served at /use/missing.md (resolved from the page\'s URL, /use/)',
    ]);
  });

  // Cases where building the corpus with Eleventy itself disagreed with a first reading:
  // phpstan's layout permalinks and typographer, pouchdb's global permalink and Liquid includes,
  // a11yproject's `eleventyComputed` navigation, v8.dev's inline SVG styles.
  it('agrees with Eleventy on layouts, global data, template tags and heading ids', async () => {
    const { model, problems } = await analyze(
      memoryFiles({
        'package.json': '{"devDependencies": {"@11ty/eleventy": "^3.1.2", "markdown-it-anchor": "^9.0.0"}}',
        'eleventy.config.js': [
          "const anchor = require('markdown-it-anchor');",
          'module.exports = (eleventyConfig) => {',
          "  eleventyConfig.addGlobalData('permalink', '/{{ page.filePathStem }}.html');",
          "  eleventyConfig.setLibrary('md', require('markdown-it')({ html: true, typographer: true }).use(anchor).use(require('markdown-it-attrs')));",
          "  return { dir: { input: 'src', layouts: '_layouts' } };",
          '};',
          '',
        ].join('\n'),
        'src/_layouts/guide.njk': '---\npermalink: /user-guide/{{ page.fileSlug }}/\n---\n{{ content }}',
        'src/user-guide/rules.md': '---\nlayout: guide.njk\n---\n# Rules\n\n## What’s new\n',
        'src/posts/other.md': '# Other\n\n{% include img.html src="missing.png" %}\n',
        'src/posts/posts.11tydata.js':
          'module.exports = { eleventyComputed: { eleventyNavigation: (data) => ({ key: data.title }) } };\n',
        'src/posts/hello.md': [
          '# Hello',
          '',
          '',
          "[Contact]({{ '/contact/' | url }})",
          '[Rules](/user-guide/rules/#what’s-new)',
          '[Rules as a file](/user-guide/rules.html)',
          '[Style](#fff)',
          '[Reserved](#tl;dr)',
          '',
          '<svg><style>.a{fill:#fff}</style></svg>',
          '',
          '## TL;DR',
          '',
        ].join('\n'),
      }),
    );
    assert.deepEqual(
      [...model.pages.entries()],
      [
        ['src/posts/hello.md', ['/posts/hello.html']],
        ['src/posts/other.md', ['/posts/other.html']],
        ['src/user-guide/rules.md', ['/user-guide/rules/']],
      ],
    );
    // The `url` filter on a written path is that path; an include's `src` is no link; `#tl;dr`
    // stays as written (markdown-it encodes no `;`) and names no id (`tl%3Bdr`).
    assert.deepEqual(problemLines(problems), [
      'src/posts/hello.md:4 Broken link "/contact/": no page or file is served at /contact/',
      'src/posts/hello.md:6 Broken link "/user-guide/rules.html": no page or file is served at /user-guide/rules.html',
      'src/posts/hello.md:7 Broken anchor "#fff": src/posts/hello.md has no heading or element with the id "fff"',
      'src/posts/hello.md:8 Broken anchor "#tl;dr": src/posts/hello.md has no heading or element with the id "tl;dr"',
    ]);
  });

  // a11yproject's `permalink: false` in a JavaScript data file, moj-frontend's local plugin that
  // transforms URLs, x-govuk's navigation entries whose keys a plugin computes.
  it('reads literal values of JavaScript data files and leaves what local plugins change unchecked', async () => {
    const site = (config: string) =>
      analyze(
        memoryFiles({
          '.eleventy.js': config,
          'plugins/urls.js':
            'module.exports = (eleventyConfig) => { eleventyConfig.addUrlTransform(({ url }) => url); };\n',
          'src/collections/collections.11tydata.js': 'module.exports = { permalink: false };\n',
          'src/collections/aria.md': '# ARIA\n',
          'src/guide.md':
            '---\neleventyNavigation:\n  parent: Get started\n---\n# Guide\n\n[ARIA](/collections/aria/)\n',
        }),
      );
    const plain = await site("module.exports = () => ({ dir: { input: 'src' } });\n");
    assert.deepEqual(problemLines(plain.problems), [
      'src/guide.md:7 Broken link "/collections/aria/": no page or file is served at /collections/aria/',
    ]);
    const transformed = await site(
      "const urls = require('./plugins/urls');\nmodule.exports = (eleventyConfig) => { eleventyConfig.addPlugin(urls); return { dir: { input: 'src' } }; };\n",
    );
    assert.deepEqual(problemLines(transformed.problems), []);
  });

  // lit.dev: an article data file's permalink function, and a collection of templates a build step
  // writes into a folder `.gitignore` names.
  it('reads a permalink function of the page’s file slug, and leaves templates a build step writes unchecked', async () => {
    const files = (config: string) =>
      memoryFiles({
        '.gitignore': 'site/docs/unversioned\n',
        '.eleventy.js': config,
        'site/articles/article/article.11tydata.js':
          // biome-ignore lint/suspicious/noTemplateCurlyInString: the data file's own template literal, as text
          'module.exports = { permalink: (data) => `/articles/${data.page.fileSlug}/` };\n',
        'site/articles/article/cheat-sheet.md': '# Cheat sheet\n\n[Defining](/docs/components/defining/)\n',
        'site/docs/v3/components/defining.md': '# Defining\n\n[Cheat sheet](/articles/cheat-sheet/)\n',
      });
    const plain = await analyze(files("module.exports = () => ({ dir: { input: 'site' } });\n"));
    assert.deepEqual(plain.model.pages.get('site/articles/article/cheat-sheet.md'), [
      '/articles/cheat-sheet/',
    ]);
    assert.deepEqual(problemLines(plain.problems), [
      'site/articles/article/cheat-sheet.md:3 Broken link "/docs/components/defining/": no page or file is served at /docs/components/defining/',
    ]);
    const generated = await analyze(
      files(
        "module.exports = (eleventyConfig) => {\n  eleventyConfig.addCollection('docs', (api) => api.getFilteredByGlob(['site/docs/unversioned/**']));\n  return { dir: { input: 'site' } };\n};\n",
      ),
    );
    assert.deepEqual(problemLines(generated.problems), []);
  });
});
