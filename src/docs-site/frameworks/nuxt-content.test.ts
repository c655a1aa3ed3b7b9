import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readMdcAnchors } from '../heading-anchors.ts';
import { analyzeSite, checkSite, memoryFiles, PageFactsCache, pagesMissingFromNavigation } from '../index.ts';
import { readPageFacts } from '../page-facts.ts';
import { generatePath, normaliseLink } from './nuxt-content-paths.ts';

async function analyze(files: ReturnType<typeof memoryFiles>) {
  const { model, source } = await analyzeSite(files, new PageFactsCache());
  return { model, problems: await checkSite(model, source) };
}

const problemLines = (problems: ReadonlyArray<{ file: string; line: number; message: string }>) =>
  problems.map((problem) => `${problem.file}:${problem.line} ${problem.message}`);

describe('Nuxt Content routes', () => {
  it('drops one ordering number per segment and `index`, keeps versions, and slugifies in lower case', () => {
    assert.equal(generatePath('1.guide/2.install'), '/guide/install');
    assert.equal(generatePath('1.guide/index'), '/guide');
    assert.equal(generatePath('0.index'), '/');
    assert.equal(generatePath('1.2.foo'), '/2.foo');
    assert.equal(generatePath('2.x/Release Notes'), '/2.x/release-notes');
    assert.equal(generatePath('3.api/$fetch'), '/api/dollarfetch');
    assert.equal(generatePath('4.Types/1.DirectusUser'), '/types/directususer');
    assert.equal(generatePath('guide/setup.draft'), '/guide/setup');
  });

  it('rewrites relative links to `.md` files only, in lower case in v2 and as written in v3', () => {
    assert.equal(normaliseLink('./2.install.md#options', 2), './install#options');
    assert.equal(normaliseLink('../1.guide/index.md', 3), '../guide/');
    assert.equal(normaliseLink('Setup.md', 2), 'setup');
    assert.equal(normaliseLink('./Setup.md', 3), './Setup');
    assert.equal(normaliseLink('/guide/install.md', 3), '/guide/install.md');
    assert.equal(normaliseLink('./2.install', 3), './2.install');
    assert.equal(normaliseLink('https://example.com/x.md', 3), 'https://example.com/x.md');
  });
});

// Shapes mirrored: nuxt-modules/i18n's and nuxt/content's docs (Docus 5: `docs/nuxt.config.ts`
// extending `docus`, numbered folders, `.navigation.yml`, links written as routes, `::tip{to=...}`),
// CodeDredd/pinia-orm's (Docus 2 beta on Nuxt Content 2: `_dir.yml`, relative links without `.md`).
describe('Nuxt Content sites', () => {
  it('reads a Docus site’s pages and checks links as routes, relative ones from the page’s URL', async () => {
    const { model, problems } = await analyze(
      memoryFiles({
        'package.json': '{"devDependencies": {"docus": "^5.12.3"}}',
        'docs/nuxt.config.ts':
          "export default defineNuxtConfig({\n  extends: ['docus'],\n  routeRules: {\n    '/docs': { redirect: '/docs/getting-started' },\n    '/old/**': { redirect: '/docs/**' },\n  },\n})\n",
        'docs/content/index.md': '# Home\n\n:u-button{label="Start" to="/docs/getting-started"}\n',
        'docs/content/docs/01.getting-started/index.md':
          '# Getting started\n\n[Install](./02.install.md)\n[Install, as a route](./install)\n[Old](/old/anything)\n[Redirect](/docs)\n[Install, from the folder’s URL](./getting-started/install)\n',
        'docs/content/docs/01.getting-started/02.install.md':
          '---\nlinks:\n  - label: GitHub\n    to: https://github.com/nuxt/nuxt\n  - label: Options\n    to: /docs/api/option\n---\n\n# Install\n\n## 2. Setup `nuxt.config`{lang="ts"}\n\n[Setup](#_2-setup-nuxtconfig)\n[Missing](#setup)\n[Options, from the page’s URL](../api/options.md)\n[Options, a route](/docs/api/options#base-url)\n[Case](/docs/api/Options)\n[Logo](/logo.png)\n[Absolute .md](/docs/api/options.md)\n\n::tip{to="/docs/nowhere"}\nA tip.\n::\n\n::card\n---\ntitle: Card\nto: /docs/getting-started/install\n---\n::\n',
        'docs/content/docs/01.getting-started/.navigation.yml':
          'title: Getting started\nicon: i-lucide-rocket\n',
        'docs/content/docs/03.api/options.md': '# Options\n\n## `baseUrl`\n\n[Up](./)\n',
        'docs/app/pages/playground.vue': '<template><div /></template>\n',
        'docs/public/logo.png': '',
      }),
    );
    assert.equal(model.framework, 'nuxt-content');
    assert.equal(model.siteRoot, 'docs');
    assert.deepEqual(
      [...model.pages.entries()],
      [
        ['docs/content/index.md', ['/']],
        ['docs/content/docs/01.getting-started/02.install.md', ['/docs/getting-started/install']],
        ['docs/content/docs/01.getting-started/index.md', ['/docs/getting-started']],
        ['docs/content/docs/03.api/options.md', ['/docs/api/options']],
      ],
    );
    assert.deepEqual(problemLines(problems), [
      'docs/content/docs/01.getting-started/02.install.md:6 Broken link "/docs/api/option": no page at /docs/api/option',
      'docs/content/docs/01.getting-started/02.install.md:14 Broken anchor "#setup": docs/content/docs/01.getting-started/02.install.md has no heading or element with the id "setup"',
      'docs/content/docs/01.getting-started/02.install.md:16 Broken anchor "/docs/api/options#base-url": docs/content/docs/03.api/options.md has no heading or element with the id "base-url"',
      'docs/content/docs/01.getting-started/02.install.md:17 Broken link "/docs/api/Options": no page at /docs/api/Options; the router tells case apart (/docs/api/options is docs/content/docs/03.api/options.md)',
      'docs/content/docs/01.getting-started/02.install.md:19 Broken link "/docs/api/options.md": no page at /docs/api/options.md; Nuxt Content rewrites only relative links to `.md` files',
      'docs/content/docs/01.getting-started/02.install.md:21 Broken link "/docs/nowhere": no page at /docs/nowhere',
      // In `index.md`, served at /docs/getting-started, `./install` is /docs/install.
      'docs/content/docs/01.getting-started/index.md:3 Broken link "./02.install.md": no page at /docs/install (Nuxt Content rewrites the link to ./install), resolved from the page’s URL, /docs/getting-started',
      'docs/content/docs/01.getting-started/index.md:4 Broken link "./install": no page at /docs/install, resolved from the page’s URL, /docs/getting-started',
      // A folder without an index page is no page.
      'docs/content/docs/03.api/options.md:5 Broken link "./": no page at /docs/api, resolved from the page’s URL, /docs/api/options',
    ]);
    assert.deepEqual(
      problemLines(pagesMissingFromNavigation(model, ['docs/content/docs/03.api/options.md'])),
      [],
    );
    assert.equal(model.resolveLink('docs/content/index.md', '/playground').kind, 'served');
  });

  it('reads Nuxt Content 2: `_dir.yml` redirects, partials, drafts and ignored names', async () => {
    const { model, problems } = await analyze(
      memoryFiles({
        'docs/package.json': '{"devDependencies": {"@nuxt-themes/docus": "2.0.0-beta.13"}}',
        'docs/nuxt.config.ts': "export default defineNuxtConfig({ extends: '@nuxt-themes/docus' })\n",
        'docs/content/0.index.md':
          '# Home\n\n[Guide](/guide/setup)\n[Draft](/guide/later)\n[Hidden](/guide/notes)\n',
        'docs/content/1.guide/_dir.yml': 'title: Guide\nnavigation.redirect: /guide/start\n',
        'docs/content/1.guide/1.setup.md': '# Setup\n\n[Next](./2.usage)\n[Next, as a file](./2.Usage.md)\n',
        'docs/content/1.guide/2.usage.md': '# Usage\n',
        'docs/content/1.guide/later.draft.md': '# Later\n',
        'docs/content/1.guide/.notes.md': '# Notes\n',
        'docs/content/1.guide/_partial.md': '[Broken from a partial](/guide/none)\n',
      }),
    );
    assert.deepEqual(
      [...model.pages.keys()],
      ['docs/content/0.index.md', 'docs/content/1.guide/1.setup.md', 'docs/content/1.guide/2.usage.md'],
    );
    assert.deepEqual(problemLines(problems), [
      'docs/content/1.guide/_dir.yml:2 Navigation entry "/guide/start" names no page',
      'docs/content/0.index.md:4 Broken link "/guide/later": a draft, which Nuxt Content leaves out of a build',
      'docs/content/0.index.md:5 Broken link "/guide/notes": no page at /guide/notes',
      'docs/content/1.guide/1.setup.md:3 Broken link "./2.usage": no page at /guide/2.usage, resolved from the page’s URL, /guide/setup',
      'docs/content/1.guide/_partial.md:1 Broken link "/guide/none": no page at /guide/none',
    ]);
  });

  it('reads a site’s own collections, and leaves unknown layers’ and computed routes unchecked', async () => {
    const { model, problems } = await analyze(
      memoryFiles({
        'package.json': '{"dependencies": {"@nuxt/content": "^3.6.0"}}',
        'nuxt.config.ts':
          "import { redirects } from './redirects'\nexport default defineNuxtConfig({\n  modules: ['@nuxt/content'],\n  routeRules: { ...redirects },\n})\n",
        'content.config.ts':
          "import { defineContentConfig, defineCollection } from '@nuxt/content'\nexport default defineContentConfig({\n  collections: {\n    docs: defineCollection({ type: 'page', source: { include: 'docs/**/*.md', prefix: '/guide' } }),\n    blog: defineCollection({ type: 'page', source: 'blog/*.md' }),\n    authors: defineCollection({ type: 'data', source: 'authors/*.yml' }),\n  },\n})\n",
        'content/docs/1.intro.md': '# Intro\n\n[Post](/blog/hello)\n[Gone](/guide/gone)\n',
        'content/blog/hello.md': '# Hello\n',
        'content/authors/ann.yml': 'name: Ann\n',
        'content/drafts/x.md': '# Not in a collection\n',
      }),
    );
    assert.deepEqual(
      [...model.pages.entries()],
      [
        ['content/docs/1.intro.md', ['/guide/intro']],
        ['content/blog/hello.md', ['/blog/hello']],
      ],
    );
    assert.deepEqual(problemLines(problems), []);
    assert.deepEqual(model.unsupported, [
      'nuxt.config.ts: `routeRules` are computed by code; a route no page serves may be redirected and is unchecked',
    ]);
    assert.equal(model.resolveLink('content/docs/1.intro.md', '/guide/gone').kind, 'unchecked');
    // A Nuxt application without Nuxt Content is no documentation site.
    const app = await analyzeSite(
      memoryFiles({
        'nuxt.config.ts': "export default defineNuxtConfig({ modules: ['@nuxt/ui'] })\n",
        'README.md': '# App\n',
      }),
      new PageFactsCache(),
    );
    assert.equal(app.model.framework, 'markdown');
  });

  // Cases where a first reading disagreed with @nuxtjs/mdc 0.23's parser on real pages (Docus's and
  // nuxt/content's own docs, nuxt-modules/i18n's landing page) or on probes.
  it('reads a component’s content without its indentation, and MDC’s ids and inline syntax as @nuxtjs/mdc does', () => {
    const anchors = readMdcAnchors(
      '::tabs\n  :::tabs-item{label="Preview"}\n    ::::steps{level="4"}\n    #### Start a fresh new project\n    ::::\n  :::\n::\n\n### Studio :badge[Soon]{color="neutral"}\n\n## **Bold**{.x} word\n\n## ![logo](/logo.png) Title\n\n## Usage (:to prop)\n\n## Usage :to-prop: now\n\n## Hello {{ $doc.name }}\n\nHello [World]{#custom-id .x} !\n\n```md\n::card\n---\ntitle: x\n```\n\n## After a fence\n\nA note[^1].\n\n[^1]: The note.\n\n    ## Indented at the top is code\n',
    );
    assert.deepEqual([...anchors.anchors].sort(), [
      'after-a-fence',
      'bold-word',
      'custom-id',
      'footnote-label',
      'hello',
      'start-a-fresh-new-project',
      'studio-soon',
      'title',
      'usage-prop',
      'usage-to-prop-now',
    ]);
    assert.deepEqual(anchors.knownPrefixes, ['user-content-fn']);
    const facts = readPageFacts(
      '::u-page-grid\n    ::u-page-card\n    ---\n    to: /docs/guide\n    ---\n    ::\n::\n\n<NuxtLink to="/html-to">x</NuxtLink>\n*:u-button{to="/after-star"}*\n<!-- :u-button{to="/commented"} -->\n\n::card\n  ---\n  to: /deeper-is-no-props\n  ---\n::\n',
      'mdc',
    );
    assert.deepEqual(
      facts.links.map((link) => `${link.line} ${link.url}`),
      ['4 /docs/guide', '9 /html-to', '10 /after-star'],
    );
  });

  it('reads MDC: component props, YAML props and front-matter links; anchors as @nuxtjs/mdc makes them', () => {
    const facts = readPageFacts(
      '---\nlinks:\n  - label: Source\n    to: /source\nnavigation.redirect: /guide\n---\n# Title\n\n::tip{to="/a" icon="x"}\nText with :u-button{to=/b label="B"} and `:x{to="/code"}`.\n::\n\n::block-hero\n---\ncta:\n  - Get started\n  - /start\nsecondary:\n  - GitHub\n  - https://github.com/x\n---\n::\n\n```md\n::tip{to="/in-code"}\n```\n',
      'mdc',
    );
    assert.deepEqual(
      facts.links.map((link) => `${link.line} ${link.kind} ${link.url}`),
      [
        '4 html /source',
        '5 html /guide',
        '9 html /a',
        '10 html /b',
        '17 html /start',
        '20 html https://github.com/x',
      ],
    );
    const anchors = readMdcAnchors(
      '# Title\n\n## 2. Setup\n\n## Setup `nuxt.config`{lang="ts"}\n\n## Title\n\n## [Span]{.x} and :badge{label="New"}\n\n::card\n---\ntitle: Not a heading\n---\n::\n\n<div id="Custom"></div>\n',
    );
    assert.deepEqual(
      [...anchors.anchors],
      ['title', '_2-setup', 'setup-nuxtconfig', 'title-1', 'span-and', 'Custom'],
    );
  });
});
