import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  analyzeSite,
  checkSite,
  detectSite,
  memoryFiles,
  PageFactsCache,
  pagesMissingFromNavigation,
} from '../index.ts';

// Shapes mirrored: web-infra-dev/rspress's own website (Rspress 2: `root: path.join(__dirname,
// 'docs')`, `lang: 'en'` and `locales` with every language in its folder, `_nav.json` per language,
// `_meta.json` listings with `dir` entries, partials under `_`-prefixed names, `public/` files).
const config = `import path from 'node:path';
import { defineConfig } from '@rspress/core';

export default defineConfig({
  root: path.join(__dirname, 'docs'),
  lang: 'en',
  locales: [
    { lang: 'en', label: 'English' },
    { lang: 'zh', label: '简体中文' },
  ],
  route: { exclude: ['**/fragments/**'] },
});
`;

function site(extra: Record<string, string | null> = {}) {
  const files: Record<string, string> = {
    'website/package.json': '{"dependencies": {"@rspress/core": "^2.0.0"}}',
    'website/rspress.config.ts': config,
    'website/docs/en/index.md': '# Home\n\n[Start](/guide/start/introduction)\n',
    'website/docs/en/_nav.json': '[{ "text": "Guide", "link": "/guide/start/introduction" }]\n',
    'website/docs/en/guide/_meta.json':
      '[\n  { "type": "dir", "name": "start", "label": "Start" },\n  { "type": "divider" },\n  "faq"\n]\n',
    'website/docs/en/guide/faq.mdx':
      '# FAQ\n\n[Intro](start/introduction)\n[Intro again](./start/introduction.md#why)\n[Zh intro](/zh/guide/start/introduction)\n[Logo](/logo.png)\n\nimport Tip from "./_tip.mdx";\n\n<Tip />\n',
    'website/docs/en/guide/_tip.mdx': 'A tip, see [the FAQ](faq).\n',
    'website/docs/en/guide/start/_meta.json': '["introduction", "install.md"]\n',
    'website/docs/en/guide/start/introduction.md': '# Introduction\n\n[Install](install)\n[FAQ](../faq)\n',
    'website/docs/en/guide/start/install.md': '# Install\n\n[Home](/)\n[Guide](/guide/faq.html)\n',
    'website/docs/en/guide/fragments/note.md': '# Note\n\n[Nowhere](./nowhere)\n',
    'website/docs/zh/index.md': '# 首页\n\n[开始](/guide/start/introduction)\n',
    'website/docs/zh/guide/start/introduction.md': '# 介绍\n',
    'website/docs/public/logo.png': 'png',
  };
  for (const [path, text] of Object.entries(extra)) {
    if (text === null) delete files[path];
    else files[path] = text;
  }
  return memoryFiles(files);
}

async function analyze(files: ReturnType<typeof memoryFiles>) {
  const { model, source } = await analyzeSite(files, new PageFactsCache());
  return { model, problems: await checkSite(model, source) };
}

describe('Rspress sites', () => {
  it('reads routes, languages, partials and links as Rspress 2 does, and reports nothing on a whole site', async () => {
    const { model, problems } = await analyze(site());
    assert.equal(model.framework, 'rspress');
    assert.equal(model.siteRoot, 'website');
    assert.deepEqual(model.pages.get('website/docs/en/guide/start/introduction.md'), [
      '/guide/start/introduction',
    ]);
    assert.deepEqual(model.pages.get('website/docs/zh/guide/start/introduction.md'), [
      '/zh/guide/start/introduction',
    ]);
    assert.deepEqual(model.pages.get('website/docs/en/index.md'), ['/']);
    // `_tip.mdx` is a partial a page imports (its links are checked); `fragments/` is excluded by `route.exclude`.
    assert.ok(model.partials.has('website/docs/en/guide/_tip.mdx'));
    assert.ok(!model.pages.has('website/docs/en/guide/_tip.mdx'));
    // Nothing imports it: Rspress never compiles it, so its broken link is no problem.
    assert.ok(!model.partials.has('website/docs/en/guide/fragments/note.md'));
    assert.ok(!model.pages.has('website/docs/en/guide/fragments/note.md'));
    assert.deepEqual(problems, []);
  });

  it('gives an absolute link the page’s language, and reads a relative one from the page’s file', async () => {
    const { model } = await analyze(site());
    // From a Chinese page, `/guide/start/introduction` is the Chinese one (`autoPrefix`).
    assert.deepEqual(model.resolveLink('website/docs/zh/index.md', '/guide/start/introduction'), {
      kind: 'file',
      file: 'website/docs/zh/guide/start/introduction.md',
    });
    assert.deepEqual(model.resolveLink('website/docs/zh/index.md', '/guide/faq').kind, 'broken');
    assert.deepEqual(model.resolveLink('website/docs/en/guide/faq.mdx', 'start/introduction'), {
      kind: 'file',
      file: 'website/docs/en/guide/start/introduction.md',
    });
    assert.equal(model.resolveLink('website/docs/en/guide/faq.mdx', '/logo.png').kind, 'served');
  });

  it('reports a broken link, a `_meta.json` entry naming no file and a new page its folder’s listing lacks', async () => {
    const { model, problems } = await analyze(
      site({
        'website/docs/en/guide/start/introduction.md': '# Introduction\n\n[Install](instal)\n',
        'website/docs/en/guide/start/_meta.json': '[\n  "introduction",\n  "install.md",\n  "gone"\n]\n',
        'website/docs/en/guide/start/new-page.md': '# New\n',
        'website/docs/en/guide/loose/page.md': '# Loose\n',
      }),
    );
    assert.deepEqual(
      problems
        .filter((problem) => !problem.file.includes('fragments'))
        .map((problem) => `${problem.file}:${problem.line} ${problem.message}`),
      [
        'website/docs/en/guide/start/_meta.json:4 Navigation entry "gone" names no page',
        'website/docs/en/guide/start/introduction.md:3 Broken link "instal": no page is served at /guide/start/instal',
      ],
    );
    assert.deepEqual(
      pagesMissingFromNavigation(model, [
        'website/docs/en/guide/start/new-page.md',
        'website/docs/en/guide/loose/page.md',
      ]).map((problem) => problem.message),
      ['New page is missing from navigation; add it to website/docs/en/guide/start/_meta.json'],
    );
  });

  it('takes the configuration’s sidebar over `_meta.json` files, string items included', async () => {
    const { model, problems } = await analyze(
      site({
        'website/rspress.config.ts': `import { defineConfig } from '@rspress/core';
export default defineConfig({
  root: 'docs',
  lang: 'en',
  locales: [{ lang: 'en', label: 'English' }, { lang: 'zh', label: '中文' }],
  themeConfig: {
    sidebar: {
      '/guide/': [
        { text: 'Start', items: ['/guide/start/introduction', { text: 'Install', link: '/guide/start/install' }] },
        { text: 'Gone', link: '/guide/gone' },
      ],
    },
  },
});
`,
        'website/docs/en/guide/start/_meta.json': '["nothing-here"]\n',
      }),
    );
    assert.deepEqual(
      problems
        .filter((problem) => problem.key.startsWith('navigation'))
        .map((problem) => `${problem.file}:${problem.line} ${problem.message}`),
      ['website/rspress.config.ts:10 Navigation entry "/guide/gone" names no page'],
    );
    assert.equal(model.needsNavigationEntry('website/docs/en/guide/faq.mdx'), true);
    assert.equal(model.needsNavigationEntry('website/docs/en/index.md'), false);
  });

  it('reads Rspress 1’s links: without `./` from the root, and checks them although its build does not', async () => {
    const { model, problems } = await analyze(
      memoryFiles({
        'package.json': '{"devDependencies": {"rspress": "^1.40.0"}}',
        'rspress.config.ts':
          "import { defineConfig } from 'rspress/config';\nexport default defineConfig({ root: 'docs' });\n",
        'docs/index.md': '# Home\n\n[Guide](guide/intro)\n[Gone](guide/gone)\n',
        'docs/guide/intro.md': '# Intro\n\n[Home](./../index.md)\n[Other](guide/other)\n',
        'docs/guide/other.md': '# Other\n',
      }),
    );
    assert.equal(model.framework, 'rspress');
    assert.deepEqual(
      problems.map((problem) => `${problem.file}:${problem.line} ${problem.message}`),
      ['docs/index.md:4 Broken link "guide/gone": no page is served at /guide/gone'],
    );
  });

  it('leaves links unchecked where the site turned the check off, and reads a broken `_meta.json` as a configuration error', async () => {
    const { problems } = await analyze(
      site({
        'website/rspress.config.ts': `import { defineConfig } from '@rspress/core';
export default defineConfig({ lang: 'en', locales: [{ lang: 'en' }, { lang: 'zh' }], markdown: { link: { checkDeadLinks: false } } });
`,
        'website/docs/en/guide/start/introduction.md': '# Introduction\n\n[Install](instal)\n',
        'website/docs/en/guide/start/_meta.json': '["introduction",\n  "install"\n',
      }),
    );
    assert.deepEqual(
      problems
        .filter((problem) => !problem.file.includes('fragments'))
        .map((problem) => `${problem.file} ${problem.key}`),
      ['website/docs/en/guide/start/_meta.json configuration\0syntax'],
    );
  });

  it('finds a site in a monorepo’s documentation package and an Rstack site’s `define.doc`', async () => {
    // web-infra-dev/rsdoctor keeps its site in packages/document; other packages' configurations are not the site.
    const monorepo = await detectSite(
      memoryFiles({
        'packages/document/rspress.config.ts': config,
        'packages/ui/rspress.config.ts': config,
        'packages/document/docs/en/index.md': '# Home\n',
      }),
    );
    assert.deepEqual([monorepo.framework, monorepo.siteRoot], ['rspress', 'packages/document']);
    // web-infra-dev/rsbuild: `website/rstack.config.ts` calls `define.doc({...})`, built by `rs doc build`.
    const { model, problems } = await analyze(
      memoryFiles({
        'website/rstack.config.ts':
          "import { define } from 'rstack';\n\ndefine.doc({\n  lang: 'en',\n  locales: [{ lang: 'en' }, { lang: 'zh' }],\n});\n",
        'website/docs/en/index.md': '# Home\n\n[Guide](/guide/start)\n[Gone](/guide/gone)\n',
        'website/docs/en/guide/start.md': '# Start\n',
        'website/docs/zh/guide/start.md': '# 开始\n\n[首页](/)\n',
        'website/docs/zh/index.md': '# 首页\n',
      }),
    );
    assert.equal(model.framework, 'rspress');
    assert.deepEqual(model.pages.get('website/docs/zh/guide/start.md'), ['/zh/guide/start']);
    assert.deepEqual(
      problems.map((problem) => `${problem.file}:${problem.line} ${problem.message}`),
      ['website/docs/en/index.md:4 Broken link "/guide/gone": no page is served at /guide/gone'],
    );
  });

  it('checks fragments against headings’ ids when `markdown.link.checkAnchors` is on', async () => {
    const files = (checkAnchors: boolean) =>
      memoryFiles({
        'rspress.config.ts': `import { defineConfig } from '@rspress/core';\nexport default defineConfig({ markdown: { link: { checkAnchors: ${checkAnchors} } } });\n`,
        'docs/index.md':
          '# Home\n\n[Why](./guide#why)\n[Install](guide.md#install-it)\n[Nope](/guide#nope)\n[Hello](/guide#hello)\n[Mid](/guide#mid)\n[Note](/guide#note)\n[Title](/titled#page-title)\n',
        // Rspress's ids (remarkToc): the text trimmed, inline HTML, images and footnote references
        // left out, `{#id}` anywhere in it; a page without a level-1 heading gets its title's slug.
        'docs/guide.md':
          '# Guide\n\n## Why Rspress {#why}\n\n## Install **it**\n\n## Hello <Badge text="new" />\n\n## Mid {#mid} tail\n\n## Note[^1]\n\n[^1]: A note.\n',
        'docs/titled.md': '---\ntitle: Page Title\n---\n\nText.\n',
      });
    const on = await analyze(files(true));
    assert.deepEqual(
      on.problems.map((problem) => `${problem.file}:${problem.line} ${problem.key}`),
      ['docs/index.md:5 anchor\0/guide#nope'],
    );
    assert.deepEqual((await analyze(files(false))).problems, []);
  });

  it('forgives what Rspress forgives and reports what stops its build', async () => {
    const { model, problems } = await analyze(
      memoryFiles({
        'package.json': '{"devDependencies": {"@rspress/core": "2.0.19"}}',
        // No `lang`: Rspress 2 takes `en`, so `docs/en/` pages are served without the prefix.
        'rspress.config.ts':
          "import { defineConfig } from '@rspress/core';\nexport default defineConfig({ locales: [{ lang: 'en' }, { lang: 'zh' }] });\n",
        'docs/en/_nav.json': '[{ "text": "Install", "link": "/guide/start#install" }]\n',
        'docs/en/guide/_meta.json':
          '[\n  "start.mdx",\n  "old-name.md",\n  { "name": "untyped" },\n  { "type": "dir", "name": "demos" }\n]\n',
        'docs/en/guide/start.md': '# Start\n\n[Home](/)\n[Case](./Start.md)\n',
        'docs/en/guide/demos/button.tsx': 'export default () => null;\n',
        'docs/en/guide/notes.mdx': '# Notes\n\n{/* [old](/removed-page) */}\n',
        'docs/en/index.md': '# Home\n',
        'docs/zh/index.md': '# 首页\n',
      }),
    );
    assert.deepEqual(model.pages.get('docs/en/guide/start.md'), ['/guide/start']);
    assert.deepEqual(
      problems.map((problem) => `${problem.file}:${problem.line} ${problem.message}`),
      [
        'docs/en/guide/_meta.json:4 docs/en/guide/_meta.json: an entry without `type` ("Unknown meta item type"); Rspress stops',
        'docs/en/guide/start.md:4 Broken link "./Start.md": no page is served at /guide/Start (the route\'s case differs: Rspress compares routes exactly)',
      ],
    );
  });

  it('reads Rspress 1’s `_` files as pages and leaves a configuration spread from a package unread', async () => {
    const one = await analyze(
      memoryFiles({
        'package.json': '{"devDependencies": {"rspress": "1.47.2"}}',
        'rspress.config.ts':
          "import { defineConfig } from 'rspress/config';\nexport default defineConfig({});\n",
        'docs/index.md': '# Home\n\n[Internals](/guide/_internals)\n',
        'docs/guide/_internals.md': '# Internals\n',
      }),
    );
    assert.ok(one.model.pages.has('docs/guide/_internals.md'));
    assert.deepEqual(one.problems, []);
    const spread = await analyze(
      memoryFiles({
        'rspress.config.ts':
          "import { defineConfig } from '@rspress/core';\nimport { shared } from '@acme/docs-preset';\nexport default defineConfig({ ...shared, root: 'docs' });\n",
        'docs/en/index.md': '# Home\n\n[Start](/guide/start)\n',
        'docs/en/guide/start.md': '# Start\n',
      }),
    );
    assert.deepEqual(spread.problems, []);
    assert.ok(spread.model.unsupported.some((line) => line.includes('partly computed')));
  });

  it('checks a home page’s hero and feature links, and stops on a _meta.json entry without a name', async () => {
    const { problems } = await analyze(
      memoryFiles({
        'rspress.config.ts':
          "import { defineConfig } from '@rspress/core';\nexport default defineConfig({});\n",
        // felixmosh/bull-board's home links its guide and a demo app the build copies to `/demo/`.
        'docs/index.md':
          '---\npageType: home\nhero:\n  actions:\n    - text: Start\n      link: /guide/start\n    - text: Demo\n      link: /demo/\n    - text: Gone\n      link: /guide/gone\nfeatures:\n  - title: API\n    link: /guide/start#api\n---\n',
        'docs/guide/start.md': '# Start\n',
        'docs/guide/_meta.json': '[\n  "start",\n  { "type": "file", "label": "Nameless" }\n]\n',
      }),
    );
    assert.deepEqual(
      problems.map((problem) => `${problem.file}:${problem.line} ${problem.message}`),
      [
        'docs/guide/_meta.json:3 docs/guide/_meta.json: a `file` entry without a `name`; Rspress stops',
        'docs/index.md:10 Navigation entry "/guide/gone" names no page',
      ],
    );
  });
});
