import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyzeSite, checkSite, detectSite, memoryFiles, PageFactsCache } from '../index.ts';
import { FernRedirects } from './fern-redirects.ts';
import {
  changelogDate,
  changelogSlug,
  nameToSlug,
  SlugGenerator,
  slugjoin,
  titleSlug,
} from './fern-slugs.ts';

async function analyze(files: ReturnType<typeof memoryFiles>) {
  const { model, source } = await analyzeSite(files, new PageFactsCache());
  return { model, problems: await checkSite(model, source) };
}

const problemLines = (problems: ReadonlyArray<{ file: string; line: number; message: string }>) =>
  problems.map((problem) => `${problem.file}:${problem.line} ${problem.message}`);

// Every expected value below is what the released CLI (fern-api 5.131.1) computes: its bundled
// functions were run on the same inputs, and its resolver on 14 real sites gave the same URLs for
// all 4,555 of their pages (docs/benchmarks.md, "Fern").
describe('Fern slugs', () => {
  it('makes titles segments with lodash kebabCase, and folder entries with nameToSlug', () => {
    assert.equal(titleSlug('Getting Started'), 'getting-started');
    assert.equal(titleSlug('SDKs'), 'sd-ks');
    assert.equal(titleSlug('Preview & publish'), 'preview-publish');
    assert.equal(titleSlug('v1.0'), 'v-1-0');
    assert.equal(titleSlug('Café résumé'), 'cafe-resume');
    assert.equal(titleSlug("What's new?"), 'whats-new');
    assert.equal(nameToSlug('Getting Started.mdx'), 'getting-started');
    assert.equal(nameToSlug('api_keys.md'), 'apikeys');
    assert.equal(nameToSlug('Quick Start!.mdx'), 'quick-start');
  });

  it('joins slugs as slugjoin does, decoded, one slash at each end dropped', () => {
    assert.equal(slugjoin('docs', '/guides/'), 'docs/guides');
    assert.equal(slugjoin('docs', '/'), 'docs');
    assert.equal(slugjoin('', 'a'), 'a');
    assert.equal(slugjoin('docs', 'my%20page'), 'docs/my page');
    assert.equal(slugjoin('docs', 'a//b'), 'docs/a//b');
  });

  it('places a front matter slug from the base, product or version, as SlugGenerator.set does', () => {
    const root = SlugGenerator.init('docs');
    assert.equal(
      root.append('start').apply({ urlSlug: 'x', fullSlug: '/guides/intro' }).slug,
      'docs/guides/intro',
    );
    // The string-prefix quirk: `docs-intro` starts with the base path's text and stays outside it.
    assert.equal(root.apply({ urlSlug: 'x', fullSlug: 'docs-intro' }).slug, 'docs-intro');
    const version = root.setVersionSlug('v2');
    assert.equal(version.append('a').apply({ urlSlug: 'x', fullSlug: 'email' }).slug, 'docs/v2/email');
    assert.equal(root.apply({ urlSlug: 'x', skipUrlSlug: true }).slug, 'docs');
    const product = SlugGenerator.init('learn').setProductSlug('docs');
    // An item at the product's root whose slug already starts with the product is taken from the base.
    assert.equal(product.apply({ urlSlug: 'docs/overview' }).slug, 'learn/docs/overview');
  });

  it('dates changelog entries as YYYY/M/D, ISO names in UTC', () => {
    const day = (name: string) => {
      const date = changelogDate(name);
      return date === null ? null : changelogSlug(date);
    };
    assert.equal(day('2025-03-31.mdx'), '2025/3/31');
    assert.equal(day('2024-01-15-release.mdx'), '2024/1/15');
    assert.equal(day('summary.mdx'), null);
    assert.equal(day('24.mdx'), null);
  });
});

describe('Fern redirects', () => {
  it('matches path-to-regexp 6 patterns in order, without case, the base path put in front', () => {
    const redirects = new FernRedirects(
      [
        { source: '/old', destination: '/docs/new' },
        { source: '/docs/blog/:slug*', destination: '/docs/posts/:slug*' },
        { source: '/a/:p*/index.html', destination: '/docs/a/:p*' },
        { source: '*', destination: '/docs/everything' },
        { source: '/docs/self', destination: '/docs/self/' },
      ],
      'docs',
    );
    assert.equal(redirects.redirect('/docs/old'), '/docs/new');
    assert.equal(redirects.redirect('/docs/OLD/'), '/docs/new');
    assert.equal(redirects.redirect('/docs/blog/2024/x'), '/docs/posts/2024/x');
    assert.equal(redirects.redirect('/docs/a/b/c/index.html'), '/docs/a/b/c');
    // A bare `*` is no pattern in path-to-regexp 6: it never matches.
    assert.equal(redirects.redirect('/docs/anything'), null);
    assert.equal(redirects.redirect('/docs/self'), null);
  });

  // Timed in bench/hostile-pages.ts; the timeout only stops a stalled run.
  it('runs a hostile pattern without backtracking', { timeout: 60_000 }, () => {
    const redirects = new FernRedirects([{ source: `/:a(a+)+b${'x'.repeat(10)}`, destination: '/y' }], '');
    assert.equal(redirects.redirect(`/${'a'.repeat(5_000)}c`), null);
  });
});

// Shapes mirrored from real sites: zylon-ai/private-gpt (tabs and sections with `skip-slug`, pages
// with multi-segment `slug`s), NVIDIA's NeMo sites (a base path, versions with the first one the
// default, `folder:` entries, `slug: ""`), Vapi (changelog folders, API references, redirects),
// OpenShell (a skipped folder whose index names its own slug).
describe('Fern sites', () => {
  const site = () =>
    memoryFiles({
      'fern/fern.config.json': '{"organization": "acme", "version": "0.60.0"}',
      'fern/docs.yml': [
        'instances:',
        '  - url: acme.docs.buildwithfern.com/docs',
        '    custom-domain: acme.com/docs',
        'tabs:',
        '  guides:',
        '    display-name: Guides',
        '    skip-slug: true',
        '  api:',
        '    display-name: API Reference',
        'navigation:',
        '  - tab: guides',
        '    layout:',
        '      - section: Get Started',
        '        contents:',
        '          - page: Welcome',
        '            path: ./pages/welcome.mdx',
        '          - page: Install SDKs',
        '            path: ./pages/install.mdx',
        '          - page: Moved',
        '            path: ./pages/moved.mdx',
        '          - page: Hidden page',
        '            path: ./pages/hidden.mdx',
        '            hidden: true',
        '          - page: Missing',
        '            path: ./pages/missing.mdx',
        '      - folder: ./pages/concepts',
        '      - changelog: ./changelog',
        '  - tab: api',
        '    layout:',
        '      - api: Plant Store',
        'redirects:',
        '  - source: /old-welcome',
        '    destination: /docs/get-started/welcome',
        '  - source: /docs/legacy/:slug*',
        '    destination: /docs/concepts/:slug*',
        '  - source: /gone',
        '    destination: /docs/nowhere',
      ].join('\n'),
      'fern/pages/welcome.mdx': [
        '---',
        'title: Welcome',
        '---',
        '## Overview [#intro]',
        '',
        '<Steps>',
        '  <Step title="Create a key">',
        '  </Step>',
        '</Steps>',
        '',
        '<ParamField path="user_id" type="string" />',
        '',
        '[Install](./install.mdx#set-up--go) [Wrong anchor](./install.mdx#nope) [Own](#intro) [Step](#create-a-key) [Param](#user_id)',
        '[By URL](/docs/get-started/moved) [Without base](/get-started/moved) [Relative URL](moved) [Old slug](/docs/get-started/install-sd-ks)',
        '[Draft](./draft.mdx) [No file](./nope.mdx) [From the fern folder](/pages/install.mdx)',
        '[Concept](/docs/concepts/basics) [Concept index](/docs/concepts) [Changelog](/docs/changelog/2025/3/31)',
        '[Redirected](/docs/old-welcome) [Legacy](/docs/legacy/basics) [API](/docs/api-reference/plant-store/plants/add-plant)',
        '[llms](/docs/llms.txt) [Markdown view](/docs/get-started/welcome.md) [Typo](/docs/get-started/welcom) [MCP](/docs/_mcp/server)',
        '[Front matter slug](/docs/setup) [Hidden](/docs/get-started/hidden-page) [Elsewhere](/other-site/page)',
        '[Image](../images/logo.png) [Host](https://acme.com/docs/get-started/welcome) [Off host](https://example.com/x)',
      ].join('\n'),
      'fern/pages/install.mdx': '---\nslug: setup\n---\n## Set up -- go\n',
      'fern/pages/moved.mdx': '# Moved\n',
      'fern/pages/hidden.mdx': '# Hidden\n',
      'fern/pages/draft.mdx': '# Not listed\n',
      'fern/pages/concepts/index.mdx': '# Concepts\n',
      'fern/pages/concepts/basics.mdx': '# Basics\n',
      'fern/pages/concepts/_partial.mdx': '# Not a page\n',
      'fern/pages/concepts/Advanced Topics/index.mdx': '---\nhidden: true\n---\n# Advanced\n',
      'fern/pages/concepts/Advanced Topics/tuning.md': '# Tuning\n',
      'fern/changelog/2025-03-31.mdx': '## Released\n',
      'fern/changelog/overview.mdx': '# Changelog\n',
      'fern/changelog/notes.mdx': '# No date: no URL\n',
      'fern/images/logo.png': '',
    });

  it('detects the site by fern.config.json beside docs.yml', async () => {
    const detected = await detectSite(site());
    assert.deepEqual(detected, { framework: 'fern', siteRoot: 'fern', configFile: 'fern/docs.yml' });
  });

  it('serves each navigation page at its slug, under the base path, and nothing else', async () => {
    const { model } = await analyze(site());
    assert.deepEqual(Object.fromEntries(model.pages), {
      'fern/pages/welcome.mdx': ['/docs/get-started/welcome'],
      // A front matter slug is the whole path from the base path.
      'fern/pages/install.mdx': ['/docs/setup'],
      'fern/pages/moved.mdx': ['/docs/get-started/moved'],
      'fern/pages/hidden.mdx': ['/docs/get-started/hidden-page'],
      'fern/pages/concepts/index.mdx': ['/docs/concepts'],
      'fern/pages/concepts/basics.mdx': ['/docs/concepts/basics'],
      'fern/pages/concepts/Advanced Topics/index.mdx': ['/docs/concepts/advanced-topics'],
      'fern/pages/concepts/Advanced Topics/tuning.md': ['/docs/concepts/advanced-topics/tuning'],
      'fern/changelog/overview.mdx': ['/docs/changelog'],
      'fern/changelog/2025-03-31.mdx': ['/docs/changelog/2025/3/31'],
    });
    // A file no navigation entry names is published only once it is listed.
    assert.ok(model.builtOnlyWhenListed?.has('fern/pages/draft.mdx'));
    assert.equal(model.needsNavigationEntry('fern/pages/draft.mdx'), true);
    // A new file in a `folder:` or `changelog:` folder is listed by it.
    assert.equal(model.needsNavigationEntry('fern/pages/concepts/basics.mdx'), false);
  });

  it('checks links as the build rewrites them and the docs frontend serves them', async () => {
    const { problems } = await analyze(site());
    assert.deepEqual(problemLines(problems), [
      'fern/docs.yml:37 Redirect destination "/docs/nowhere" names no page',
      'fern/docs.yml:25 Navigation entry "./pages/missing.mdx" names no page',
      'fern/pages/welcome.mdx:13 Broken anchor "./install.mdx#nope": fern/pages/install.mdx has no heading or element with the id "nope"',
      'fern/pages/welcome.mdx:14 Broken link "/docs/get-started/install-sd-ks": no page of the site is served at /docs/get-started/install-sd-ks',
      'fern/pages/welcome.mdx:15 Broken link "./draft.mdx": fern/pages/draft.mdx is in no navigation entry, so Fern serves it at no URL',
      'fern/pages/welcome.mdx:15 Broken link "./nope.mdx": fern/pages/nope.mdx does not exist',
      'fern/pages/welcome.mdx:18 Broken link "/docs/get-started/welcom": no page of the site is served at /docs/get-started/welcom',
    ]);
  });

  it('serves the default version without its segment too, and reads a skipped folder that names its own slug', async () => {
    const { model, problems } = await analyze(
      memoryFiles({
        'fern/fern.config.json': '{}',
        'fern/docs.yml':
          'instances:\n  - url: https://acme.docs.buildwithfern.com/nemo/tool\nversions:\n  - display-name: Latest\n    path: versions/latest.yml\n    slug: latest\n  - display-name: v1\n    path: versions/v1.yml\n',
        'fern/versions/latest.yml':
          'navigation:\n  - section: About\n    slug: about\n    contents:\n      - page: Overview\n        path: ./latest/index.mdx\n        slug: ""\n      - folder: ./latest/tutorials\n        skip-slug: true\n',
        'fern/versions/v1.yml': 'navigation:\n  - page: Overview\n    path: ./v1/index.mdx\n',
        'fern/versions/latest/index.mdx':
          '[Tutorials](/about/tutorials) [Old](/v-1/overview) [Same version](/about)\n',
        'fern/versions/latest/tutorials/index.mdx': '---\nslug: about/tutorials\n---\n# Tutorials\n',
        'fern/versions/latest/tutorials/first.mdx': '# First\n',
        'fern/versions/v1/index.mdx': '# v1\n',
      }),
    );
    assert.deepEqual(Object.fromEntries(model.pages), {
      'fern/versions/latest/index.mdx': ['/nemo/tool/about', '/nemo/tool/latest/about'],
      'fern/versions/latest/tutorials/index.mdx': [
        '/nemo/tool/about/tutorials',
        '/nemo/tool/latest/about/tutorials',
      ],
      'fern/versions/latest/tutorials/first.mdx': ['/nemo/tool/about/first', '/nemo/tool/latest/about/first'],
      'fern/versions/v1/index.mdx': ['/nemo/tool/v-1/overview'],
    });
    assert.deepEqual(problemLines(problems), []);
  });

  it('leaves pages a build step writes unchecked, and a link to them', async () => {
    const { model, problems } = await analyze(
      memoryFiles({
        'fern/fern.config.json': '{}',
        '.gitignore': 'fern/product-docs/\n',
        'fern/docs.yml':
          'instances:\n  - url: acme.docs.buildwithfern.com\nnavigation:\n  - section: Reference\n    contents:\n      - folder: ./product-docs/library\n      - page: Intro\n        path: ./intro.mdx\n',
        'fern/intro.mdx': '[Module](/acme-lib/module) [Typo](/reference/intr)\n',
      }),
    );
    assert.deepEqual(
      model.navigation.map((entry) => entry.target),
      [
        { unchecked: 'fern/product-docs/library/ is written by a build step (`.gitignore` names it)' },
        'fern/intro.mdx',
      ],
    );
    assert.deepEqual(problemLines(problems), [
      'fern/intro.mdx:1 Broken link "/reference/intr": no page of the site is served at /reference/intr',
    ]);
  });

  // Its entries beyond the bounds are left unread (no timing asserted here).
  it('reads a hostile configuration within its bounds: redirect files naming themselves, a folder listed 6,000 times', async () => {
    const { model } = await analyze(
      memoryFiles({
        'fern/fern.config.json': '{}',
        'fern/docs.yml': `instances:\n  - url: acme.docs.buildwithfern.com\nredirects:\n  - ./more.yml\n  - ./docs.yml\nnavigation:\n${'  - folder: .\n'.repeat(6_000)}`,
        'fern/more.yml': 'redirects:\n  - ./more.yml\n  - source: /a\n    destination: /b\n',
        ...Object.fromEntries(Array.from({ length: 200 }, (_, index) => [`fern/p${index}.mdx`, '# Page\n'])),
      }),
    );
    assert.ok(model.unsupported.some((note) => note.includes('5000 folders is not read')));
    assert.equal(model.pages.size, 200);
  });

  // Shapes of Cartesia's and DevRev's API layouts, and Cohere's changelog (two entries, one slug).
  it("serves pages in an API reference's packages, and the newest changelog entry at a shared slug", async () => {
    const { model } = await analyze(
      memoryFiles({
        'fern/fern.config.json': '{}',
        'fern/docs.yml': [
          'instances:',
          '  - url: acme.docs.buildwithfern.com',
          'navigation:',
          '  - api: API Reference',
          '    layout:',
          '      - page: Getting started',
          '        path: ./welcome.mdx',
          '      - authConnections:',
          '          - page: Identity provider',
          '            path: ./identity.mdx',
          '          - auth.get',
          '      - tts:',
          '          title: Text to speech',
          '          slug: speech',
          '          contents:',
          '            - section: Working with WebSockets',
          '              contents:',
          '                - page: Contexts',
          '                  path: ./contexts.mdx',
          '  - changelog: ./changelog',
        ].join('\n'),
        'fern/welcome.mdx': '# Welcome\n',
        'fern/identity.mdx': '# Identity\n',
        'fern/contexts.mdx': '# Contexts\n',
        'fern/changelog/2025-02-19-azure.mdx': '---\nslug: changelog/azure\n---\n',
        'fern/changelog/2025-02-25-azure.mdx': '---\nslug: changelog/azure\n---\n',
      }),
    );
    assert.deepEqual(Object.fromEntries(model.pages), {
      'fern/welcome.mdx': ['/api-reference/getting-started'],
      'fern/identity.mdx': ['/api-reference/auth-connections/identity-provider'],
      'fern/contexts.mdx': ['/api-reference/speech/working-with-web-sockets/contexts'],
      'fern/changelog/2025-02-25-azure.mdx': ['/changelog/azure'],
    });
  });

  it("leaves unchecked what an API reference that skips its slug may serve beside its parent's pages", async () => {
    const { problems } = await analyze(
      memoryFiles({
        'fern/fern.config.json': '{}',
        'fern/docs.yml':
          'instances:\n  - url: acme.docs.buildwithfern.com\nnavigation:\n  - section: Guides\n    contents:\n      - page: Welcome\n        path: ./welcome.mdx\n  - api: API Reference\n    skip-slug: true\n',
        'fern/welcome.mdx': '[Endpoint](/plants/add-plant) [Typo](/guides/welcom)\n',
      }),
    );
    assert.deepEqual(problemLines(problems), [
      'fern/welcome.mdx:1 Broken link "/guides/welcom": no page of the site is served at /guides/welcom',
    ]);
  });

  it('keeps the first node at a slug, unless a visible page meets a hidden one or a section', async () => {
    const { model } = await analyze(
      memoryFiles({
        'fern/fern.config.json': '{}',
        'fern/docs.yml':
          'instances:\n  - url: acme.docs.buildwithfern.com\nnavigation:\n  - page: Setup\n    path: ./a.mdx\n    hidden: true\n  - page: Setup\n    path: ./b.mdx\n  - page: Setup\n    path: ./c.mdx\n',
        'fern/a.mdx': '# A\n',
        'fern/b.mdx': '# B\n',
        'fern/c.mdx': '# C\n',
      }),
    );
    assert.deepEqual(Object.fromEntries(model.pages), { 'fern/b.mdx': ['/setup'] });
  });
});
