import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyzeSite, checkSite, memoryFiles, PageFactsCache, pagesMissingFromNavigation } from '../index.ts';

async function analyze(files: ReturnType<typeof memoryFiles>) {
  const { model, source } = await analyzeSite(files, new PageFactsCache());
  return { model, problems: await checkSite(model, source) };
}

// Shapes mirrored: vuepress/docs (VuePress 2: `defineUserConfig` with `theme: defaultTheme({...})`,
// `locales` keyed by path with their own navbar and sidebar, imported through `export *` from
// `./configs/index.js` written in TypeScript, sidebars keyed by prefix listing `.md` paths) and
// vuejs/vuepress (VuePress 1: `themeConfig.sidebar` of strings relative to its key, `[path, title]`).
describe('VuePress sites', () => {
  it('reads VuePress 2’s routes, links and default-theme navigation through re-exported modules', async () => {
    const { model, problems } = await analyze(
      memoryFiles({
        'package.json': '{"devDependencies": {"vuepress": "2.0.0-rc.24"}}',
        'docs/.vuepress/config.ts':
          "import { defaultTheme } from '@vuepress/theme-default'\nimport { defineUserConfig } from 'vuepress'\nimport { navbarEn, sidebarEn } from './configs/index.js'\n\nexport default defineUserConfig({\n  base: '/docs/',\n  theme: defaultTheme({\n    locales: {\n      '/': { navbar: navbarEn, sidebar: sidebarEn },\n    },\n  }),\n})\n",
        'docs/.vuepress/configs/index.ts': "export * from './navbar.js'\nexport * from './sidebar.js'\n",
        'docs/.vuepress/configs/navbar.ts': "export const navbarEn = [{ text: 'Guide', link: '/guide/' }]\n",
        'docs/.vuepress/configs/sidebar.ts':
          "export const sidebarEn = {\n  '/guide/': [\n    { text: 'Guide', children: ['/guide/README.md', '/guide/getting-started.md', '/guide/gone.md'] },\n  ],\n}\n",
        'docs/.vuepress/public/logo.png': '',
        'docs/README.md':
          '---\nhome: true\nactions:\n  - text: Get Started\n    link: /guide/getting-started.html\n  - text: Gone\n    link: /guide/gone.html\n---\n\n[Start](./guide/getting-started.md#install)\n[Guide](/guide/)\n',
        'docs/guide/README.md':
          '# Guide\n\n[Start](getting-started.html)\n[Missing](./missing.md)\n[Logo](/logo.png)\n[Raw](/guide/getting-started)\n',
        'docs/guide/getting-started.md':
          '# Getting started\n\n[Guide](./README.md)\n[Home](../)\n[Folder](./getting-started/)\n',
        'docs/guide/new-page.md': '# New\n',
      }),
    );
    assert.equal(model.framework, 'vuepress');
    assert.equal(model.siteRoot, 'docs');
    assert.deepEqual(model.pages.get('docs/guide/getting-started.md'), ['/docs/guide/getting-started.html']);
    assert.deepEqual(model.pages.get('docs/guide/README.md'), ['/docs/guide/']);
    assert.deepEqual(
      problems.map((problem) => `${problem.file}:${problem.line} ${problem.message}`),
      [
        'docs/.vuepress/configs/sidebar.ts:3 Navigation entry "/guide/gone.md" names no page',
        // The home page's hero buttons (front matter `actions`).
        'docs/README.md:7 Navigation entry "/guide/gone.html" names no page',
        'docs/guide/README.md:4 Broken link "./missing.md": no page is served at /guide/missing',
        // A folder route for a page that is a file: VuePress's router serves `/guide/getting-started.html` only.
        'docs/guide/getting-started.md:5 Broken link "./getting-started/": no page is served at /guide/getting-started/ (the page is at /guide/getting-started.html)',
      ],
    );
    assert.deepEqual(
      pagesMissingFromNavigation(model, ['docs/guide/new-page.md']).map((problem) => problem.message),
      ['New page is missing from navigation; add it to docs/.vuepress/configs/sidebar.ts'],
    );
  });

  it('reads VuePress 1’s sidebar items relative to their key, and vuepress-theme-hope’s through its helpers', async () => {
    const one = await analyze(
      memoryFiles({
        'package.json': '{"devDependencies": {"vuepress": "^1.9.10"}}',
        'docs/.vuepress/config.js':
          "module.exports = {\n  themeConfig: {\n    nav: [{ text: 'Guide', link: '/guide/' }],\n    sidebar: {\n      '/guide/': ['', 'install', ['setup', 'Setup'], { title: 'More', children: ['gone', 'README.md'] }],\n    },\n  },\n}\n",
        'docs/README.md': '# Home\n',
        'docs/guide/README.md': '# Guide\n\n[Install](install.md)\n',
        'docs/guide/install.md': '# Install\n',
        'docs/guide/setup.md': '# Setup\n',
      }),
    );
    assert.deepEqual(
      one.problems.map((problem) => `${problem.file}:${problem.line} ${problem.message}`),
      // `README.md` is no page to VuePress 1's sidebar, which matches `/guide/` only.
      [
        'docs/.vuepress/config.js:5 Navigation entry "gone" names no page',
        'docs/.vuepress/config.js:5 Navigation entry "README.md" names no page',
      ],
    );
    const hope = await analyze(
      memoryFiles({
        'package.json': '{"devDependencies": {"vuepress-theme-hope": "2.0.0-rc.94"}}',
        'src/.vuepress/config.ts':
          "import { defineUserConfig } from 'vuepress'\nimport { hopeTheme, sidebar } from 'vuepress-theme-hope'\nexport default defineUserConfig({\n  theme: hopeTheme({\n    sidebar: sidebar({\n      '/guide/': [{ text: 'Basics', prefix: 'basics/', children: ['intro', 'gone'] }],\n      '/notes/': 'structure',\n    }),\n  }),\n})\n",
        'src/README.md': '# Home\n',
        'src/guide/basics/intro.md': '# Intro\n',
        'src/notes/new.md': '# New\n',
      }),
    );
    // vuepress-theme-hope (Snailclimb/JavaGuide's shape): the default theme's forms through `sidebar(...)`;
    // a `structure` sidebar lists its folder by itself.
    assert.deepEqual(
      hope.problems.map((problem) => `${problem.file}:${problem.line} ${problem.message}`),
      ['src/.vuepress/config.ts:6 Navigation entry "gone" names no page'],
    );
    assert.deepEqual(pagesMissingFromNavigation(hope.model, ['src/notes/new.md']), []);
  });

  it('follows what VuePress serves besides files: sanitised paths, permalinks, redirects, theme pages', async () => {
    const two = await analyze(
      memoryFiles({
        'package.json': '{"devDependencies": {"vuepress": "2.0.0-rc.24"}}',
        'docs/.vuepress/config.ts':
          "import { defaultTheme } from '@vuepress/theme-default'\nexport default defineUserConfig({\n  theme: defaultTheme({ sidebar: { '/guide/': ['/guide/README.md', '/guide/install.md'] } }),\n})\n",
        'docs/.vuepress/public/_redirects': '/chat https://discord.gg/x 302\n',
        'docs/.github/TEMPLATE.md': '[Contributing](../CONTRIBUTING.md)\n',
        'docs/guide/README.md':
          '# Guide\n\n[Post](/posts/hello.html)\n[Chat](/chat)\n[Not found](/404.html)\n[Data](./data.json)\n\n<a href="./install.md">Install</a>\n',
        'docs/guide/install.md': '# Install\n',
        'docs/guide/data.json': '{}',
        'docs/_posts/hello.md': '# Hello\n',
      }),
    );
    // Two strings are a list in VuePress 2, not `[path, title]`: install.md is listed.
    assert.deepEqual(pagesMissingFromNavigation(two.model, ['docs/guide/install.md']), []);
    assert.deepEqual(
      two.problems.map((problem) => `${problem.file}:${problem.line} ${problem.message}`),
      [
        'docs/guide/README.md:6 Broken link "./data.json": docs/guide/data.json is not published: VuePress serves pages and its public folder only',
        'docs/guide/README.md:8 Broken link "./install.md": ./install.md is written in HTML, which VuePress does not turn into the page\'s route',
      ],
    );
    const one = await analyze(
      memoryFiles({
        'package.json': '{"devDependencies": {"vuepress": "1.9.10"}}',
        'docs/.vuepress/config.js':
          "module.exports = {\n  locales: { '/': {}, '/zh/': {} },\n  themeConfig: { nav: [{ text: 'Storybook', link: '/storybook/', target: '_blank' }] },\n}\n",
        'docs/README.md': '# Home\n\n[About](/about/)\n[Start](/zh/start/)\n[Play](./playground.html)\n',
        'docs/about.md': '---\npermalink: about\n---\n# About\n',
        'docs/zh/intro.md': '---\npermalink: /start/\n---\n# 介绍\n',
        'docs/playground.vue': '<template><div/></template>\n',
      }),
    );
    assert.deepEqual(one.problems, []);
    const hope = await analyze(
      memoryFiles({
        'package.json': '{"devDependencies": {"vuepress-theme-hope": "2.0.0-rc.94"}}',
        'src/.vuepress/config.ts':
          "import { hopeTheme } from 'vuepress-theme-hope'\nexport default defineUserConfig({ theme: hopeTheme({}) })\n",
        'src/README.md': '# Home\n\n[Basics](/java/basis/)\n[Tags](/tag/)\n[Gone](/java/gone.md)\n',
        'src/java/basis/a.md': '# A\n',
      }),
    );
    assert.deepEqual(
      hope.problems.map((problem) => `${problem.file}:${problem.line} ${problem.message}`),
      ['src/README.md:5 Broken link "/java/gone.md": no page is served at /java/gone'],
    );
  });
});
