import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyzeSite, checkSite, memoryFiles, PageFactsCache, pagesMissingFromNavigation } from '../index.ts';

async function analyze(files: ReturnType<typeof memoryFiles>) {
  const { model, source } = await analyzeSite(files, new PageFactsCache());
  return { model, problems: await checkSite(model, source) };
}

const problemLines = (problems: ReadonlyArray<{ file: string; line: number; message: string }>) =>
  problems.map((problem) => `${problem.file}:${problem.line} ${problem.message}`);

// Shapes mirrored: wevm/vocs's own site at vocs@1.4.1 (`vocs.config.tsx` at the top with `rootDir:
// 'site'`, a sidebar array of `{ text, link, items }`, links written as `/docs/structure#...`) and
// Vocs 2's layout (`src/pages/`, relative links without `./`).
describe('Vocs sites', () => {
  it('reads Vocs 1’s pages, checks Markdown links as its remarkLinks plugin does, and its sidebar', async () => {
    const { model, problems } = await analyze(
      memoryFiles({
        'package.json': '{"devDependencies": {"vocs": "1.0.13"}}',
        'vocs.config.tsx':
          "import { defineConfig } from 'vocs'\n\nexport default defineConfig({\n  rootDir: 'site',\n  basePath: '/docs-site',\n  sidebar: [\n    { text: 'Getting Started', link: '/docs' },\n    { text: 'Guides', items: [\n      { text: 'Blog', link: '/docs/guides/blog' },\n      { text: 'Gone', link: '/docs/guides/gone' },\n    ] },\n  ],\n  topNav: [{ text: 'Blog', link: '/blog' }],\n})\n",
        'site/pages/index.mdx': '# Vocs\n\n[Docs](/docs)\n[Structure](/docs/structure#configuration-file)\n',
        'site/pages/docs/index.mdx':
          '# Getting started\n\n[Blog](./guides/blog.mdx)\n[Blog, no extension](./guides/blog)\n[Relative, not checked](guides/nowhere)\n[Missing](/docs/missing)\n[Logo](/logo.png)\n[Twoslash](/docs/%60Config%60)\n<a href="/docs/nowhere">JSX</a>\n\nimport Snippet from \'../../snippets/note.mdx\'\n\n<Snippet />\n',
        'site/pages/docs/structure.mdx': '# Structure\n',
        'site/pages/docs/guides/blog.mdx':
          "# Blog\n\n[Up](../)\n[Index](../index.mdx)\n\nimport Gone from './gone.mdx'\nimport { Button } from '../../../components/Button'\n",
        'site/components/Card.tsx': '',
        'site/pages/docs/guides/new.mdx': '# New\n',
        'site/pages/blog/index.mdx': '# Blog\n',
        'site/pages/api/og.tsx': 'export default function () {}\n',
        'site/snippets/note.mdx':
          '[From the snippet](../pages/docs/structure.mdx)\n[Broken](./nothing.mdx)\n',
        'site/public/logo.png': '',
      }),
    );
    assert.equal(model.framework, 'vocs');
    assert.equal(model.siteRoot, '');
    assert.deepEqual(model.pages.get('site/pages/docs/guides/blog.mdx'), [
      '/docs-site/docs/guides/blog',
      '/docs-site/docs/guides/blog.html',
    ]);
    assert.deepEqual([...model.partials], ['site/snippets/note.mdx']);
    assert.deepEqual(problemLines(problems), [
      'vocs.config.tsx:10 Navigation entry "/docs/guides/gone" names no page',
      'site/pages/docs/guides/blog.mdx:6 Broken link "./gone.mdx": no file site/pages/docs/guides/gone.mdx to import',
      'site/pages/docs/index.mdx:6 Broken link "/docs/missing": no page or file at site/pages/docs/missing; Vocs reports a dead link and the build fails',
      // `public/` files are served, but Vocs 1's check looks under `pages/` only.
      'site/pages/docs/index.mdx:7 Broken link "/logo.png": no page or file at site/pages/logo.png; Vocs reports a dead link and the build fails',
      'site/snippets/note.mdx:2 Broken link "./nothing.mdx": no page or file at site/snippets/nothing.mdx; Vocs reports a dead link and the build fails',
    ]);
    assert.deepEqual(problemLines(pagesMissingFromNavigation(model, ['site/pages/docs/guides/new.mdx'])), [
      'site/pages/docs/guides/new.mdx:1 New page is missing from navigation; add it to vocs.config.tsx',
    ]);
  });

  it('reads Vocs 2’s `src/pages/` and checks relative links too, taking a folder that exists', async () => {
    const { problems } = await analyze(
      memoryFiles({
        'docs/package.json': '{"dependencies": {"vocs": "^2.8.0"}}',
        'docs/vocs.config.ts':
          "export default {\n  checkDeadlinks: 'warn',\n  sidebar: {\n    '/guide/': [{ text: 'Start', link: '/guide/start' }],\n  },\n}\n",
        'docs/src/pages/index.md':
          '# Home\n\n[Start](guide/start)\n[Folder](guide)\n[Nowhere](guide/nowhere)\n[TODO](/TODO)\n[Shouting](HTTPS://example.com)\n[Site](https://example.com)\n',
        'docs/src/pages/guide/start.mdx': '# Start\n\n[Home](../index.md)\n[Mail](mailto:a@b.c)\n',
      }),
    );
    assert.deepEqual(problemLines(problems), [
      'docs/src/pages/index.md:5 Broken link "guide/nowhere": no page or file at src/pages/guide/nowhere; Vocs reports a dead link',
      'docs/src/pages/index.md:7 Broken link "HTTPS://example.com": Vocs 2 reads it as a path (it skips only `http(s)://`, `mailto:` and `tel:`, in lower case) and finds no page',
    ]);
  });

  it('follows what the review against Vocs’s sources found', async () => {
    const { problems } = await analyze(
      memoryFiles({
        'package.json': '{"devDependencies": {"vocs": "2.8.5"}}',
        // Vocs 2 runs from the configuration's folder whatever `rootDir` says; `basePath` is the
        // router's `basename`, added to links written without it.
        'vocs.config.ts':
          "export default {\n  rootDir: 'site',\n  basePath: 'docs',\n  redirects: [\n    { source: '/old/:path*', destination: '/docs/intro' },\n    { source: '/gone/:slug?', destination: '/' },\n    { source: '/wild/*', destination: '/' },\n  ],\n  sidebar: [\n    { text: 'Intro', link: '/docs/intro' },\n    { text: 'Post', link: '/posts/hello' },\n    { text: 'Old', link: '/old' },\n    { text: 'Gone', link: '/gone' },\n    { text: 'Wild', link: '/wild/thing' },\n    { text: 'Relative', link: 'intro' },\n    { text: 'Rust docs', link: '/api-reference/', external: true },\n    { text: 'Missing', link: '/docs/missing' },\n  ],\n}\n",
        'src/pages/index.mdx': '# Home\n',
        'src/pages/docs/intro.mdx': '# Intro\n',
        'src/pages/posts/index.mdx': '# Posts\n',
        'src/pages/posts/[slug].tsx': 'export default function Post() { return null }\n',
      }),
    );
    assert.deepEqual(problemLines(problems), [
      'vocs.config.ts:17 Navigation entry "/docs/missing" names no page',
    ]);
  });
});
