import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyzeSite, checkSite, memoryFiles, PageFactsCache } from '../index.ts';
import { createRoutePath, kebabCaseRoutePath, localizedAbsPath } from './dumi-routes.ts';

async function analyze(files: ReturnType<typeof memoryFiles>) {
  const { model, source } = await analyzeSite(files, new PageFactsCache());
  return { model, problems: await checkSite(model, source) };
}

const problemLines = (problems: ReadonlyArray<{ file: string; line: number; message: string }>) =>
  problems.map((problem) => `${problem.file}:${problem.line} ${problem.message}`);

describe('dumi routes', () => {
  it('makes umi’s conventional paths, kebab-cased as dumi does, localised by base or suffix', () => {
    assert.equal(createRoutePath('guide/index'), 'guide');
    assert.equal(createRoutePath('guide/README'), 'guide');
    assert.equal(createRoutePath('guide/my.file'), 'guide/my/file');
    assert.equal(createRoutePath('blog/$id'), 'blog/:id');
    assert.equal(createRoutePath('index.en-US'), 'index/en-US');
    assert.equal(kebabCaseRoutePath('/guide/HelloWorld'), '/guide/hello-world');
    assert.equal(kebabCaseRoutePath('/components/Button-Group'), '/components/button--group');
    assert.equal(kebabCaseRoutePath('/FAQ'), '/faq');
    assert.equal(kebabCaseRoutePath('/hooks/useRequest'), '/hooks/use-request');
    // The last match took the `y` before `C`: dumi still writes `-` (ant-design-charts' page).
    assert.equal(kebabCaseRoutePath('/elementHighlightByColor'), '/element-highlight-by-color');
    const locales = [
      { id: 'zh-CN', base: '/' },
      { id: 'en-US', base: '/en-US' },
    ];
    assert.equal(
      localizedAbsPath('guide/intro/en-US', 'intro.en-US.md', locales, true),
      '/en-US/guide/intro',
    );
    assert.equal(localizedAbsPath('index/en-US', 'index.en-US.md', locales, true), '/en-US/');
    assert.equal(localizedAbsPath('guide/foo/zh-CN', 'foo.zh-CN.md', locales, true), '/guide/foo');
    // A locale that is not configured stays in the path, kebab-cased.
    assert.equal(localizedAbsPath('guide/foo/fr-FR', 'foo.fr-FR.md', locales, true), '/guide/foo/fr--fr');
    const suffixed = [
      { id: 'en-US', suffix: '' },
      { id: 'zh-CN', suffix: '-cn' },
    ];
    assert.equal(
      localizedAbsPath('components/button/zh-CN', 'index.zh-CN.md', suffixed, true),
      '/components/button-cn',
    );
  });
});

// Shapes mirrored: ant-design/antd-style (`docs/` with `.en-US.md` and `.zh-CN.md` pairs, links as
// routes with `/zh-CN/`), ant-design/pro-flow (components in `src/<Name>/index.zh-CN.md`), alibaba/x-render
// (`themeConfig.nav` by locale, absolute `.md` links), ant-design/pro-components (`$tab-api` files).
describe('dumi sites', () => {
  it('reads docs and components, resolves `.md` links to their routes and others from the page’s URL', async () => {
    const { model, problems } = await analyze(
      memoryFiles({
        'package.json': '{"devDependencies": {"dumi": "^2.4.12"}}',
        '.dumirc.ts':
          "import { defineConfig } from 'dumi';\nexport default defineConfig({\n  locales: [\n    { id: 'en-US', name: 'English' },\n    { id: 'zh-CN', name: '中文' },\n  ],\n  themeConfig: {\n    nav: {\n      'en-US': [\n        { title: 'Guide', link: '/guide/getting-started' },\n        { title: 'Charts', link: '/chart-render' },\n      ],\n    },\n  },\n});\n",
        'docs/index.md': '# Home\n\n[Start](./guide/GettingStarted.en-US.md)\n[Button](/components/button)\n',
        'docs/guide/GettingStarted.en-US.md':
          '# Getting started\n\n## Install\n\n[Sibling](./faq.md)\n[Gone](./gone.md)\n[Absolute .md](/guide/faq.md)\n[Relative route](faq)\n[Button in Chinese](/zh-CN/components/button)\n[Case](/GUIDE/FAQ)\n<code src="./demos/basic.tsx"></code>\n<code src="./demos/missing.tsx"></code>\n',
        'docs/guide/GettingStarted.zh-CN.md': '# 开始\n',
        'docs/guide/faq.md': '# FAQ\n\n## Why\n\n[Up](..)\n[Why](#why)\n[Case](#Why)\n',
        'docs/guide/demos/basic.tsx': 'export default () => null;\n',
        'docs/_hidden.md': '# Hidden\n',
        'src/Button/index.md': '# Button\n\n[API](#api)\n',
        'src/Button/index.zh-CN.md': '# 按钮\n',
        'src/Button/demo/basic.md': '# Not a page\n',
        'src/Button/index.$tab-api.md': '## API\n',
        'public/logo.png': '',
      }),
    );
    assert.equal(model.framework, 'dumi');
    assert.deepEqual(
      [...model.pages.entries()],
      [
        ['docs/guide/GettingStarted.en-US.md', ['/guide/getting-started']],
        ['docs/guide/GettingStarted.zh-CN.md', ['/zh-CN/guide/getting-started']],
        ['docs/guide/faq.md', ['/guide/faq']],
        ['docs/index.md', ['/']],
        ['src/Button/index.md', ['/components/button']],
        ['src/Button/index.zh-CN.md', ['/zh-CN/components/button']],
      ],
    );
    assert.deepEqual(problemLines(problems), [
      '.dumirc.ts:11 Navigation entry "/chart-render" names no page',
      'docs/guide/GettingStarted.en-US.md:6 Broken link "./gone.md": no file docs/guide/gone.md: dumi leaves the link as written, and it leads to no page',
      'docs/guide/GettingStarted.en-US.md:7 Broken link "/guide/faq.md": an absolute link to a `.md` file: dumi leaves the link as written, and it leads to no page',
      'docs/guide/GettingStarted.en-US.md:12 Broken image "./demos/missing.tsx": no file docs/guide/demos/missing.tsx: dumi cannot resolve it and the build fails',
      // Ids are matched with case; github-slugger lower-cases them.
      'docs/guide/faq.md:7 Broken anchor "#Why": docs/guide/faq.md has no heading or element with the id "Why"',
      // The API tab's headings are shown with `?tab=api` only.
      'src/Button/index.md:3 Broken anchor "#api": src/Button/index.md has no heading or element with the id "api"',
    ]);
  });

  // Cases where a first reading disagreed with dumi 2.4.49's own route and Markdown code, run on
  // the corpus and on small sites.
  it('agrees with dumi on nested folders, tabs, badges, embedded files, hero links and demos inside HTML', async () => {
    const { model, problems } = await analyze(
      memoryFiles({
        '.dumirc.ts':
          "export default {\n  resolve: { docDirs: ['docs', { type: 'x-sdk', dir: 'docs/x-sdk' }] },\n};\n",
        'docs/index.md':
          '---\nhero:\n  actions:\n    - text: Start\n      link: /case\n---\n\n# Home\n\n<embed src="../README.md"></embed>\n',
        'README.md': '# Readme\n\n[Chinese](./README.zh-CN.md)\n',
        'README.zh-CN.md': '# 自述\n',
        'docs/x-sdk/intro.md': '# Intro\n\n[Tab](./intro.$tab-api.md)\n',
        'docs/x-sdk/intro.$tab-api.md': '## API\n\n<code src="./missing.tsx"></code>\n',
        'docs/x-sdk/demo.tsx': 'export default () => null;\n',
        'docs/guide.md':
          '# Guide\n\n### editLink <Badge>2.2.2+</Badge>\n\n[Edit](#editlink)\n\n<div>\n<code src="./not-a-demo.tsx"></code>\n</div>\n',
        'docs/guide/intro.md': '# Nested\n',
      }),
    );
    assert.deepEqual(
      [...model.pages.entries()],
      [
        ['docs/guide.md', ['/guide']],
        ['docs/guide/intro.md', ['/guide/intro']],
        ['docs/index.md', ['/']],
        // A later folder's route wins: /x-sdks/intro, not /x-sdk/intro.
        ['docs/x-sdk/intro.md', ['/x-sdks/intro']],
      ],
    );
    assert.deepEqual(problemLines(problems), [
      'docs/index.md:5 Navigation entry "/case" names no page',
      'docs/x-sdk/intro.md:3 Broken link "./intro.$tab-api.md": docs/x-sdk/intro.$tab-api.md is no page: dumi leaves the link as written, and it leads to no page',
      'docs/x-sdk/intro.$tab-api.md:3 Broken image "./missing.tsx": no file docs/x-sdk/missing.tsx: dumi cannot resolve it and the build fails',
      // An embedded file's links are read from where it is: dumi rewrites them for the page.
      'README.md:3 Broken link "./README.zh-CN.md": README.zh-CN.md is no page: dumi leaves the link as written, and it leads to no page',
    ]);
  });

  it('leaves routes unchecked where a plugin or runtime code may add some, and names invalid route paths', async () => {
    const { model, problems } = await analyze(
      memoryFiles({
        '.dumirc.ts':
          "import { defineConfig } from 'dumi';\nimport path from 'path';\nexport default defineConfig({\n  plugins: [path.join(__dirname, 'site-plugin'), require.resolve('./scripts/redirect')],\n});\n",
        'site-plugin.ts': 'export default (api) => { api.addEntryImports(() => []); };\n',
        'scripts/redirect.ts': 'export default (api) => { api.modifyRoutes((routes) => routes); };\n',
        'docs/index.md': '# Home\n\n[Nowhere](/nowhere)\n',
        'docs/中文.md': '# 中文\n',
      }),
    );
    assert.equal(model.resolveLink('docs/index.md', '/nowhere').kind, 'unchecked');
    assert.deepEqual(problemLines(problems), [
      'docs/中文.md:1 dumi stops the build on this file\'s route "中文" (Invalid route path): name the file with ASCII letters, digits and `-` only',
    ]);
    assert.deepEqual(model.unsupported, [
      '.dumirc.ts: a plugin may add routes; links to routes no file serves are unchecked',
    ]);
  });
});

// Shapes mirrored: alibaba/hooks (dumi 1 in `site` mode: hooks documented beside their code in
// `packages/hooks/src/<name>/index.<locale>.md` under a front matter `nav.path`, `menus` naming
// files, `navs` by locale), and the decorators' rules of umijs/dumi dumi@1.1.54
// (packages/preset-dumi/src/routes/decorator/: nav, group, fallback, redirect, hide).
describe('dumi 1 sites', () => {
  it('moves pages by nav and group, serves fallbacks and redirects, and reads `navs` and `menus`', async () => {
    const { model, problems } = await analyze(
      memoryFiles({
        'package.json': '{"devDependencies": {"dumi": "^1.1.54"}}',
        '.umirc.ts': [
          "import { defineConfig } from 'dumi';",
          'export default defineConfig({',
          "  mode: 'site',",
          "  resolve: { includes: ['docs', 'packages/hooks/src'] },",
          '  navs: {',
          "    'en-US': [",
          "      { title: 'Guide', path: '/guide' },",
          "      { title: 'Hooks', path: '/hooks' },",
          "      { title: 'API', path: '/api' },",
          "      { title: 'GitHub', path: 'https://github.com/alibaba/hooks' },",
          '    ],',
          '  },',
          "  menus: { '/hooks': [{ title: 'Basics', children: ['useRequest/index', 'useMissing/index'] }] },",
          '});',
          '',
        ].join('\n'),
        'docs/index.md': '# Home\n',
        'docs/index.zh-CN.md': '# 首页\n',
        'docs/guide/index.en-US.md': [
          '# Guide',
          '',
          '[Upload](./advanced/Upload.md)',
          '[useRequest](/hooks/use-request)',
          '[Hooks](/hooks)',
          '[Old](/old-upload)',
          '[Toggle in Chinese](/zh-CN/hooks/state/use-toggle)',
          '[Draft](/draft)',
          '[By file](../../packages/hooks/src/useRequest/index.en-US.md)',
          '',
        ].join('\n'),
        'docs/guide/index.zh-CN.md': '# 指南\n',
        'docs/guide/advanced/Upload.md': '---\nlegacy: /old-upload\n---\n# Upload\n',
        'docs/draft.md': '---\nhide: true\n---\n# Draft\n',
        'docs/_partial.md': '# Partial\n',
        'packages/hooks/src/useRequest/index.en-US.md': '---\nnav:\n  path: /hooks\n---\n# useRequest\n',
        'packages/hooks/src/useRequest/index.zh-CN.md': '---\nnav:\n  path: /hooks\n---\n# useRequest\n',
        'packages/hooks/src/useToggle/index.en-US.md':
          '---\nnav:\n  path: /hooks\ngroup:\n  title: State\n  path: /state\n---\n# useToggle\n',
      }),
    );
    assert.deepEqual(
      [...model.pages.entries()],
      [
        ['docs/index.md', ['/']],
        ['docs/index.zh-CN.md', ['/zh-CN']],
        ['docs/guide/index.en-US.md', ['/guide']],
        ['docs/guide/index.zh-CN.md', ['/zh-CN/guide']],
        ['docs/guide/advanced/Upload.md', ['/guide/advanced/upload', '/zh-CN/guide/advanced/upload']],
        ['packages/hooks/src/useRequest/index.en-US.md', ['/hooks/use-request']],
        ['packages/hooks/src/useRequest/index.zh-CN.md', ['/zh-CN/hooks/use-request']],
        [
          'packages/hooks/src/useToggle/index.en-US.md',
          ['/hooks/state/use-toggle', '/zh-CN/hooks/state/use-toggle'],
        ],
      ],
    );
    assert.deepEqual(problemLines(problems), [
      '.umirc.ts:9 Navigation entry "/api" names no page',
      '.umirc.ts:13 Navigation entry "useMissing/index" names no page',
      'docs/guide/index.en-US.md:8 Broken link "/draft": no page at /draft',
      'docs/guide/index.en-US.md:9 Broken link "../../packages/hooks/src/useRequest/index.en-US.md": no page at /packages/hooks/src/useRequest/index.en-US (resolved from the page’s URL, /guide) (dumi 1 drops the link’s `.md` and looks the rest up as a route)',
    ]);
    assert.deepEqual(model.unsupported, []);
  });
});
