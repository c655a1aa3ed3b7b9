import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyzeSite, checkSite, memoryFiles, PageFactsCache, pagesMissingFromNavigation } from '../index.ts';

// Shapes mirrored: vuejs/vitepress (docs/.vitepress/config.ts with `rewrites: { 'en/:rest*': ':rest*' }`,
// locales, additional config in docs/config.ts whose sidebar comes from local functions with a
// `base` joined to each link) and vitejs/vite (sidebar object keyed by route prefix, nav, a blog).
const mainConfig = `import { defineConfig } from 'vitepress'

export default defineConfig({
  title: 'Site',
  cleanUrls: true,
  rewrites: { 'en/:rest*': ':rest*' },
  locales: {
    root: { label: 'English' },
    zh: { label: '简体中文', themeConfig: { sidebar: [{ text: '指南', link: '/zh/guide/intro' }] } },
  },
  themeConfig: {
    nav: [{ text: 'Guide', link: '/guide/intro' }, { text: 'Blog', link: '/blog' }],
  },
})
`;
const additionalConfig = `import { defineAdditionalConfig } from 'vitepress'

export default defineAdditionalConfig({
  themeConfig: {
    sidebar: {
      '/guide/': { base: '/guide/', items: sidebarGuide() },
    },
  },
})

function sidebarGuide() {
  return [
    {
      text: 'Introduction',
      items: [
        { text: 'Intro', link: 'intro' },
        { text: 'Routing', link: 'routing' },
        { text: 'Gone', link: 'gone' },
      ],
    },
  ]
}
`;

function site(extra: Record<string, string> = {}) {
  return memoryFiles({
    'docs/.vitepress/config.ts': mainConfig,
    'docs/config.ts': additionalConfig,
    'docs/en/index.md': '# Home\n\n[Intro](/guide/intro)\n',
    'docs/en/guide/intro.md':
      '# Intro\n\n[Routing](./routing.md)\n[Routing again](routing.html#top)\n[Home](../)\n',
    'docs/en/guide/routing.md': '# Routing\n\n![logo](/logo.svg)\n[pure](/pure.html){target="_self"}\n',
    'docs/en/blog.md': '# Blog\n',
    'docs/zh/guide/intro.md': '# 介绍\n\n[路由](/zh/guide/intro)\n',
    'docs/public/logo.svg': '<svg/>',
    ...extra,
  });
}

async function analyze(files: ReturnType<typeof memoryFiles>) {
  const analyzed = await analyzeSite(files, new PageFactsCache());
  return { ...analyzed, problems: await checkSite(analyzed.model, analyzed.source) };
}

describe('VitePress site model', () => {
  it('detects the site in a subfolder and serves pages at their rewritten routes', async () => {
    const { model } = await analyze(site());
    assert.equal(model.framework, 'vitepress');
    assert.equal(model.siteRoot, 'docs');
    assert.deepEqual(model.pages.get('docs/en/guide/intro.md'), ['/guide/intro']);
    assert.deepEqual(model.pages.get('docs/en/index.md'), ['/']);
    assert.ok(model.configFiles.includes('docs/config.ts'));
  });

  it('reads sidebars from local functions with their base, nav and locale sidebars', async () => {
    const { model } = await analyze(site());
    assert.deepEqual(
      model.navigation.map((entry) => [entry.reference, entry.file, entry.line, entry.target]),
      [
        ['/guide/intro', 'docs/.vitepress/config.ts', 12, 'docs/en/guide/intro.md'],
        ['/blog', 'docs/.vitepress/config.ts', 12, 'docs/en/blog.md'],
        ['/zh/guide/intro', 'docs/.vitepress/config.ts', 9, 'docs/zh/guide/intro.md'],
        ['intro', 'docs/config.ts', 16, 'docs/en/guide/intro.md'],
        ['routing', 'docs/config.ts', 17, 'docs/en/guide/routing.md'],
        ['gone', 'docs/config.ts', 18, null],
      ],
    );
  });

  it('reports the sidebar link to no page and a broken link, each at its line', async () => {
    const { problems } = await analyze(
      site({ 'docs/en/blog.md': '# Blog\n\nRead [the post](./blog/missing-post.md).\n' }),
    );
    assert.deepEqual(
      problems.map((problem) => [problem.file, problem.line, problem.key]),
      [
        ['docs/config.ts', 18, 'navigation\0gone'],
        ['docs/en/blog.md', 3, 'link\0./blog/missing-post.md'],
      ],
    );
  });

  it('places a sidebar link at its own line, not where a footer link names the same page first', async () => {
    // The shape of vitejs/vite's config: `themeConfig.footer.nav` links to /guide/ above the sidebar.
    const config = [
      "import { defineConfig } from 'vitepress'",
      'export default defineConfig({',
      '  themeConfig: {',
      "    footer: { nav: [{ title: 'Vite', items: [{ text: 'Guide', link: '/guide/' }] }] },",
      "    nav: [{ text: 'Guide', link: '/guide/' }],",
      "    sidebar: { '/guide/': [{ text: 'Introduction', items: [",
      "      { text: 'Start', link: '/guide/' },",
      '    ] }] },',
      '  },',
      '})',
      '',
    ].join('\n');
    const { model } = await analyze(
      memoryFiles({ 'docs/.vitepress/config.ts': config, 'docs/guide/index.md': '# Guide\n' }),
    );
    assert.deepEqual(
      model.navigation.map((entry) => [entry.groups[0], entry.line]),
      [
        ['sidebar', 7],
        ['nav', 5],
      ],
    );
  });

  it('resolves links with or without extensions, to folders, public files and outside the router', async () => {
    const { model } = await analyze(site());
    const from = 'docs/en/guide/intro.md';
    assert.deepEqual(model.resolveLink(from, './routing.md'), {
      kind: 'file',
      file: 'docs/en/guide/routing.md',
    });
    assert.deepEqual(model.resolveLink(from, 'routing.html#top'), {
      kind: 'file',
      file: 'docs/en/guide/routing.md',
    });
    assert.deepEqual(model.resolveLink(from, '../'), { kind: 'file', file: 'docs/en/index.md' });
    assert.equal(model.resolveLink(from, '/logo.svg').kind, 'served');
    assert.equal(model.resolveLink('docs/en/guide/routing.md', '/pure.html').kind, 'unchecked');
  });

  it('honours ignoreDeadLinks', async () => {
    const files = memoryFiles({
      '.vitepress/config.mjs': 'export default { ignoreDeadLinks: true }\n',
      'index.md': '# Home\n\n[missing](./missing)\n',
    });
    const { model, problems } = await analyze(files);
    assert.equal(model.siteRoot, '');
    assert.deepEqual(problems, []);
  });

  it('needs a navigation entry only in a section an explicit default-locale sidebar covers', async () => {
    const { model } = await analyze(
      site({ 'docs/en/guide/new.md': '# New\n', 'docs/en/blog/post.md': '# Post\n' }),
    );
    assert.equal(model.needsNavigationEntry('docs/en/guide/new.md'), true);
    assert.equal(model.needsNavigationEntry('docs/en/blog/post.md'), false);
    assert.equal(model.needsNavigationEntry('docs/zh/guide/intro.md'), false);
    assert.equal(pagesMissingFromNavigation(model, ['docs/en/guide/new.md']).length, 1);
  });
});
