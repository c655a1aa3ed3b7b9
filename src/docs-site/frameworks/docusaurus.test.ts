import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyzeSite, checkSite, memoryFiles, PageFactsCache, pagesMissingFromNavigation } from '../index.ts';

async function analyze(files: Record<string, string>) {
  const site = await analyzeSite(memoryFiles(files), new PageFactsCache());
  const problems = await checkSite(site.model, site.source);
  return { ...site, problems };
}

// The shape of jestjs/jest: the site in website/, docs in ../docs, JSON sidebars with the
// `{Label: [ids]}` shorthand, `id` front matter, versions.json with versioned docs and sidebars.
const jestLike: Record<string, string> = {
  'website/docusaurus.config.mjs': `
import * as path from 'node:path';
export default {
  baseUrl: '/',
  presets: [['@docusaurus/preset-classic', {
    docs: { path: '../docs', sidebarPath: path.resolve(__dirname, './sidebars.json') },
    blog: { showReadingTime: true },
  }]],
};`,
  'website/sidebars.json':
    '{\n  "docs": {\n    "Introduction": [\n      "getting-started",\n      "api"\n    ]\n  },\n  "api": [\n    "api"\n  ]\n}\n',
  'website/versions.json': '["1.0"]',
  'website/versioned_sidebars/version-1.0-sidebars.json':
    '{"docs": ["version-1.0/getting-started", "old-page"]}',
  'website/versioned_docs/version-1.0/GettingStarted.md': '---\nid: getting-started\n---\n# Start\n',
  'website/versioned_docs/version-1.0/OldPage.md': '---\nid: old-page\n---\n# Old\n',
  'docs/GettingStarted.md':
    '---\nid: getting-started\n---\n# Start\n\nSee [the API](./Api.md), [next API](/docs/next/api) and [old](/docs/old-page).\n',
  'docs/Api.md':
    '---\nid: api\n---\n# API\n\nBack to [start](getting-started) and [1.0](/docs/1.0/old-page).\n',
  'docs/_Note.md': '# A partial\n',
  'website/blog/2020-01-02-hello.md':
    '# Hello\n\nRead [the docs](/docs/getting-started) and [tags](/blog/tags/news).\n',
  'website/src/pages/help.js': 'export default function Help() {}',
  'website/static/img/logo.png': 'binary',
};

describe('Docusaurus site model', () => {
  it('is found in website/ and at the root', async () => {
    const nested = await analyze(jestLike);
    assert.equal(nested.model.framework, 'docusaurus');
    assert.equal(nested.model.siteRoot, 'website');
    const root = await analyze({
      'docusaurus.config.js': "module.exports = { presets: ['classic'] };",
      'docs/intro.md': '# Intro\n',
    });
    assert.equal(root.model.siteRoot, '');
    assert.deepEqual(root.model.pages.get('docs/intro.md'), ['/docs/intro']);
  });

  it('serves docs by id, the last version at /docs, the current folder at /docs/next, blog posts by date', async () => {
    const { model } = await analyze(jestLike);
    assert.deepEqual(model.pages.get('docs/Api.md'), ['/docs/next/api']);
    assert.deepEqual(model.pages.get('website/versioned_docs/version-1.0/OldPage.md'), ['/docs/old-page']);
    assert.deepEqual(model.pages.get('website/blog/2020-01-02-hello.md'), ['/blog/2020/01/02/hello']);
    assert.equal(model.pages.has('docs/_Note.md'), false);
    assert.ok(model.configFiles.includes('website/sidebars.json'));
    assert.ok(model.configFiles.includes('website/versioned_sidebars/version-1.0-sidebars.json'));
  });

  it('lists sidebar entries of every version, old `version-X/` ids included, at their lines', async () => {
    const { model, problems } = await analyze(jestLike);
    const api = model.navigation.filter((entry) => entry.reference === 'api');
    assert.deepEqual(
      api.map((entry) => [entry.file, entry.line, entry.target]),
      [
        ['website/sidebars.json', 5, 'docs/Api.md'],
        ['website/sidebars.json', 9, 'docs/Api.md'],
      ],
    );
    const old = model.navigation.find((entry) => entry.reference === 'version-1.0/getting-started');
    assert.equal(old?.target, 'website/versioned_docs/version-1.0/GettingStarted.md');
    assert.deepEqual(problems, []);
  });

  it('reports a sidebar id that names no doc at its file and line', async () => {
    const { problems } = await analyze({
      ...jestLike,
      'website/sidebars.json': '{\n  "docs": [\n    "getting-started",\n    "missing-doc"\n  ]\n}\n',
    });
    assert.deepEqual(
      problems.map((problem) => [problem.file, problem.line, problem.key]),
      [['website/sidebars.json', 4, 'navigation\0missing-doc']],
    );
  });

  it('reports a broken file link at its line, and not links served by versions, the blog or pages', async () => {
    const { problems } = await analyze({
      ...jestLike,
      'docs/Api.md': '---\nid: api\n---\n# API\n\n[gone](./Gone.md)\n\n[help](/help) [logo](/img/logo.png)\n',
    });
    assert.deepEqual(
      problems.map((problem) => [problem.file, problem.line, problem.key]),
      [['docs/Api.md', 6, 'link\0./Gone.md']],
    );
  });

  it('reports a URL under the docs that no version serves', async () => {
    const { problems } = await analyze({
      ...jestLike,
      'website/blog/2020-01-02-hello.md': '# Hello\n\n[api](/docs/api)\n',
    });
    // The last version (1.0) has no `api` doc: only /docs/next/api serves it.
    assert.deepEqual(
      problems.map((problem) => [problem.file, problem.line]),
      [['website/blog/2020-01-02-hello.md', 3]],
    );
  });

  it('asks for a sidebar entry only for new docs where the sidebars are explicit', async () => {
    const { model } = await analyze(jestLike);
    assert.equal(model.needsNavigationEntry('docs/NewPage.md'), true);
    assert.equal(model.needsNavigationEntry('docs/_Partial.md'), false);
    assert.equal(model.needsNavigationEntry('website/blog/2024-01-01-new.md'), false);
    const changed = await analyze({ ...jestLike, 'docs/NewPage.md': '# New\n' });
    const missing = pagesMissingFromNavigation(changed.model, ['docs/NewPage.md']);
    assert.deepEqual(
      missing.map((problem) => problem.file),
      ['docs/NewPage.md'],
    );
  });
});

// The shape of KusionStack/kusionstack.io and apache/incubator-answer-website: the config at the
// root, several docs plugin instances, autogenerated sidebars with `_category_.json`, number
// prefixes, `slug` front matter, i18n translations, client redirects from a required module.
const multiInstance: Record<string, string> = {
  'docusaurus.config.js': `
const redirects = require('./redirects.js');
module.exports = {
  baseUrl: '/',
  i18n: { defaultLocale: 'en', locales: ['en', 'zh-CN'] },
  presets: [['classic', { docs: { path: 'docs/main', routeBasePath: 'docs', sidebarPath: require.resolve('./sidebars/main.js') }, blog: false }]],
  plugins: [
    ['@docusaurus/plugin-content-docs', { id: 'community', path: 'community', routeBasePath: 'community', sidebarPath: './sidebars/community.js' }],
    ['@docusaurus/plugin-client-redirects', { redirects }],
  ],
};`,
  'redirects.js': "module.exports = [{ to: '/docs/intro', from: ['/start', '/begin'] }];",
  'sidebars/main.js': "module.exports = { main: [{ type: 'autogenerated', dirName: '.' }] };",
  'sidebars/community.js': `module.exports = {
  community: [
    'team',
    { type: 'category', label: 'Contributing', link: { type: 'doc', id: 'contributing/index' }, items: ['contributing/issues'] },
    { type: 'link', label: 'GitHub', href: 'https://github.com' },
  ],
};`,
  'docs/main/1-intro.md':
    '# Intro\n\nSee [guides](./2-guides/1-setup.md), [start](/start) and [team](/community/team).\n',
  'docs/main/2-guides/_category_.json':
    '{"label": "Guides", "link": {"type": "doc", "id": "2-guides/setup"}}',
  'docs/main/2-guides/1-setup.md':
    '# Setup\n\n[intro](../1-intro.md) and [by route](/docs/intro) and [code](pathname:///raw.txt)\n',
  'community/team.md': '# Team\n\n[issues](/community/report-an-issue) [chinese](/zh-CN/docs/guides/setup)\n',
  'community/contributing/index.md': '# Contributing\n',
  'community/contributing/issues.md': '---\nslug: /report-an-issue\n---\n# Issues\n',
  'i18n/zh-CN/docusaurus-plugin-content-docs/current/1-intro.md':
    '# 介绍\n\n[未翻译](./2-guides/1-setup.md)\n',
};

describe('Docusaurus with several docs instances, autogenerated sidebars and translations', () => {
  it('routes number-prefixed docs, slugs and translations', async () => {
    const { model } = await analyze(multiInstance);
    assert.deepEqual(model.pages.get('docs/main/2-guides/1-setup.md'), ['/docs/guides/setup']);
    assert.deepEqual(model.pages.get('community/contributing/issues.md'), ['/community/report-an-issue']);
    assert.deepEqual(model.pages.get('community/contributing/index.md'), ['/community/contributing']);
    assert.deepEqual(model.pages.get('i18n/zh-CN/docusaurus-plugin-content-docs/current/1-intro.md'), [
      '/zh-CN/docs/intro',
    ]);
  });

  it('reads category links, redirects, slugs and locale routes without reporting them', async () => {
    const { model, problems } = await analyze(multiInstance);
    assert.deepEqual(problems, []);
    const category = model.navigation.find((entry) => entry.file === 'docs/main/2-guides/_category_.json');
    assert.equal(category?.target, 'docs/main/2-guides/1-setup.md');
    assert.ok(model.configFiles.includes('redirects.js'));
    assert.equal(model.resolveLink('docs/main/1-intro.md', 'pathname:///raw.txt').kind, 'unchecked');
  });

  it('reports a client redirect to a route no page serves, at its line in the module that sets it', async () => {
    const { problems } = await analyze({
      ...multiInstance,
      'redirects.js': [
        'module.exports = [',
        "  { to: '/docs/intro', from: ['/start', '/begin'] },",
        "  { to: '/docs/moved-away', from: '/old' },",
        "  { to: 'https://example.com/elsewhere', from: '/away' },",
        '];',
      ].join('\n'),
    });
    assert.deepEqual(
      problems.map((problem) => [problem.file, problem.line, problem.message]),
      [
        [
          'redirects.js',
          3,
          'Client redirect to "/docs/moved-away" names no page (the client-redirects plugin fails the build)',
        ],
      ],
    );
  });

  it('needs no sidebar entry in an autogenerated folder, but does under explicit sidebars', async () => {
    const { model } = await analyze(multiInstance);
    assert.equal(model.needsNavigationEntry('docs/main/2-guides/new.md'), false);
    assert.equal(model.needsNavigationEntry('community/new.md'), true);
  });

  it('reports a broken link and a configuration syntax error with their lines', async () => {
    const { problems } = await analyze({
      ...multiInstance,
      'community/team.md': '# Team\n\n[gone](/community/nowhere)\n',
      'sidebars/community.js': 'module.exports = {\n  community: [\n    "team",,,\n  ]\n  oops\n};\n',
    });
    assert.deepEqual(
      problems.map((problem) => [problem.file, problem.line]),
      [
        ['sidebars/community.js', 5],
        ['community/team.md', 3],
      ],
    );
  });

  it('leaves sidebars computed by code unchecked, and says so', async () => {
    const { model, problems } = await analyze({
      ...multiInstance,
      'sidebars/community.js':
        "const items = require('./generated');\nmodule.exports = { community: items };\n",
    });
    assert.deepEqual(problems, []);
    assert.ok(model.unsupported.some((note) => note.includes('computed by code')));
    assert.deepEqual(pagesMissingFromNavigation(model, ['community/team.md']), []);
  });
});

describe('Docusaurus anchors', () => {
  const site: Record<string, string> = {
    ...jestLike,
    'docs/Api.md':
      '---\nid: api\n---\n# API\n\n## Mock functions {#mocks}\n\n## Globals\n\n[mocks](#mocks), [here](#nowhere), [start](./GettingStarted.md#start), [gone](./GettingStarted.md#gone), [old](/docs/next/getting-started#start)\n',
  };

  it('reports a link to an anchor its target page lacks, as the build warns (onBrokenAnchors)', async () => {
    const { problems } = await analyze(site);
    assert.deepEqual(
      problems
        .filter((problem) => problem.key.startsWith('anchor'))
        .map((problem) => `${problem.file}:${problem.line}: ${problem.message}`),
      [
        'docs/Api.md:10: Broken anchor "#nowhere": docs/Api.md has no heading or element with the id "nowhere"',
        'docs/Api.md:10: Broken anchor "./GettingStarted.md#gone": docs/GettingStarted.md has no heading or element with the id "gone"',
      ],
    );
  });

  it('checks no anchor when the site ignores them', async () => {
    const { problems } = await analyze({
      ...site,
      'website/docusaurus.config.mjs':
        site['website/docusaurus.config.mjs']?.replace(
          "baseUrl: '/',",
          "baseUrl: '/',\n  onBrokenAnchors: 'ignore',",
        ) ?? '',
    });
    assert.deepEqual(
      problems.filter((problem) => problem.key.startsWith('anchor')),
      [],
    );
  });
});
