import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  analyzeSite,
  checkSite,
  memoryFiles,
  PageFactsCache,
  pagesMissingFromNavigation,
  type SiteProblem,
} from '../index.ts';

// Small sites of our own that reproduce the shapes seen in real Mintlify repositories.
async function analyze(files: Record<string, string>) {
  const site = await analyzeSite(memoryFiles(files), new PageFactsCache());
  const problems = await checkSite(site.model, site.source);
  return { ...site, problems };
}

const places = (problems: readonly SiteProblem[]) =>
  problems.map((problem) => `${problem.file}:${problem.line}`);
const json = (value: unknown) => JSON.stringify(value, null, 2);

describe('Mintlify site model', () => {
  it('detects docs.json at the root and serves each page at its path without extension', async () => {
    const { model, problems } = await analyze({
      'docs.json': json({ navigation: { groups: [{ group: 'Start', pages: ['index', 'guides/setup'] }] } }),
      'index.mdx': '# Home\n\nSee [setup](/guides/setup).\n',
      'guides/setup.mdx': '# Setup\n',
      'guides/index.mdx': '# Guides\n',
    });
    assert.equal(model.framework, 'mintlify');
    assert.equal(model.siteRoot, '');
    assert.deepEqual(model.pages.get('guides/setup.mdx'), ['/guides/setup']);
    assert.deepEqual(model.pages.get('guides/index.mdx'), ['/guides']);
    assert.deepEqual(model.pages.get('index.mdx'), ['/']);
    assert.deepEqual(problems, []);
  });

  it('detects legacy mint.json in a subfolder (the shape of Cloudanix/docs)', async () => {
    const { model, problems } = await analyze({
      'docs/mint.json': json({
        anchors: [{ name: 'AWS', url: 'aws' }],
        navigation: [
          { group: 'Getting Started', pages: ['introduction'] },
          { group: 'AWS', pages: ['aws/setup', { group: 'Rules', pages: ['aws/rules/one'] }] },
        ],
      }),
      'docs/introduction.mdx': '# Intro\n\n[AWS setup](/aws/setup)\n',
      'docs/aws/setup.mdx': '# Setup\n\n[a rule](rules/one)\n',
      'docs/aws/rules/one.mdx': '# One\n',
    });
    assert.equal(model.siteRoot, 'docs');
    assert.deepEqual(
      model.navigation.map((entry) => [entry.reference, entry.target, entry.groups]),
      [
        ['introduction', 'docs/introduction.mdx', ['Getting Started']],
        ['aws/setup', 'docs/aws/setup.mdx', ['AWS']],
        ['aws/rules/one', 'docs/aws/rules/one.mdx', ['AWS', 'Rules']],
      ],
    );
    assert.deepEqual(problems, []);
  });

  it('reads tabs, anchors, dropdowns, versions, products and nested groups with roots', async () => {
    // The shape of langchain-ai/docs (versions > dropdowns > tabs > groups) and mintlify/docs (root pages).
    const { model, problems } = await analyze({
      'docs.json': json({
        navigation: {
          global: { anchors: [{ anchor: 'Forum', href: 'https://example.com' }] },
          versions: [
            {
              version: 'v2',
              dropdowns: [
                {
                  dropdown: 'Platform',
                  tabs: [
                    {
                      tab: 'Guides',
                      groups: [{ group: 'CLI', root: 'cli/index', pages: ['cli/install'] }],
                    },
                  ],
                },
              ],
            },
            { version: 'v1', anchors: [{ anchor: 'Old', pages: ['old/start'] }] },
          ],
          products: [
            { product: 'API', tabs: [{ tab: 'Reference', menu: [{ item: 'Users', pages: ['users'] }] }] },
          ],
        },
      }),
      'cli/index.mdx': '# CLI\n',
      'cli/install.mdx': '# Install\n',
      'old/start.mdx': '# Old\n',
      'users.mdx': '# Users\n',
    });
    assert.deepEqual(
      model.navigation.map((entry) => `${entry.groups.join(' > ')}: ${entry.reference} -> ${entry.target}`),
      [
        'v2 > Platform > Guides > CLI: cli/index -> cli/index.mdx',
        'v2 > Platform > Guides > CLI: cli/install -> cli/install.mdx',
        'v1 > Old: old/start -> old/start.mdx',
        'API > Reference > Users: users -> users.mdx',
      ],
    );
    assert.deepEqual(problems, []);
  });

  it('follows "$ref" includes for translations and redirects, with entries at their own file and line', async () => {
    // The shape of mintlify/docs: languages whose navigation lives in fr.json, redirects in redirects.json.
    const { model, problems } = await analyze({
      'docs.json': json({
        navigation: {
          languages: [
            { language: 'en', groups: [{ group: 'Start', pages: ['index'] }] },
            { $ref: './fr.json' },
          ],
        },
        redirects: { $ref: './redirects.json' },
      }),
      'fr.json': json({ language: 'fr', groups: [{ group: 'Début', pages: ['fr/index', 'fr/missing'] }] }),
      'redirects.json': json([{ source: '/old/:slug*', destination: '/new/:slug*' }]),
      'index.mdx': '# Home\n\n[Old](/old/page) and [French](/fr)\n',
      'fr/index.mdx': '# Accueil\n',
    });
    assert.deepEqual(model.configFiles, ['docs.json', 'fr.json', 'redirects.json']);
    const french = model.navigation.find((entry) => entry.reference === 'fr/index');
    assert.deepEqual([french?.file, french?.line, french?.groups], ['fr.json', 7, ['fr', 'Début']]);
    assert.deepEqual(places(problems), ['fr.json:8']);
    assert.match(problems[0]?.message ?? '', /fr\/missing/);
  });

  it('places a navigation entry at its line in navigation, not where a redirect names the same page first', async () => {
    // The shape of ollama/ollama's docs.json: redirects written before navigation.
    const text = [
      '{',
      '  "redirects": [{ "source": "/api/openai.mdx", "destination": "/api/openai" }],',
      '  "footer": { "links": [{ "href": "/api/openai" }] },',
      '  "navigation": { "groups": [{ "group": "API", "pages": [',
      '    "/api/openai",',
      '    "api/missing"',
      '  ] }] }',
      '}',
    ].join('\n');
    const { model, problems } = await analyze({ 'docs.json': text, 'api/openai.mdx': '# OpenAI\n' });
    const entry = model.navigation.find((candidate) => candidate.reference === '/api/openai');
    assert.deepEqual([entry?.file, entry?.line], ['docs.json', 5]);
    assert.deepEqual(places(problems), ['docs.json:6']);
  });

  it('reports a redirect whose destination is a page that does not exist, at its line', async () => {
    const text = [
      '{',
      '  "navigation": { "pages": ["index"] },',
      '  "redirects": [',
      '    { "source": "/start", "destination": "/index" },',
      '    { "source": "/old-guide", "destination": "/guides/moved" },',
      '    { "source": "/blog/:slug*", "destination": "/news/:slug*" },',
      '    { "source": "/forum", "destination": "https://forum.example.com" },',
      '    { "source": "/again", "destination": "/start" }',
      '  ]',
      '}',
    ].join('\n');
    const { problems } = await analyze({ 'docs.json': text, 'index.mdx': '# Home\n' });
    assert.deepEqual(
      problems.map((problem) => [problem.file, problem.line, problem.message]),
      [['docs.json', 5, 'Redirect destination "/guides/moved" names no page']],
    );
  });

  it('reports a "$ref" cycle and a JSON syntax error at their lines instead of looping', async () => {
    const { problems } = await analyze({
      'docs.json': json({ navigation: { $ref: 'nav.json' } }),
      'nav.json': '{\n  "groups": [\n    {"$ref": "nav.json"}\n  ]\n}\n',
      'broken/docs.json': '',
    });
    assert.deepEqual(places(problems), ['nav.json:3']);
    const syntax = await analyze({ 'docs.json': '{\n  "navigation": {\n    "groups": [,]\n  }\n}\n' });
    assert.equal(syntax.problems.length, 1);
    assert.deepEqual(places(syntax.problems), ['docs.json:3']);
  });

  it('reports a navigation entry that names no page at its line', async () => {
    const { problems } = await analyze({
      'docs.json':
        '{\n  "navigation": {\n    "groups": [{"group": "A", "pages": [\n      "intro",\n      "gone"\n    ]}]\n  }\n}\n',
      'intro.mdx': '# Intro\n',
    });
    assert.deepEqual(places(problems), ['docs.json:5']);
    assert.equal(problems[0]?.key, 'navigation\0gone');
  });

  it('reports a broken link at its line and resolves every working link style', async () => {
    const { model, problems } = await analyze({
      'docs.json': json({ navigation: { pages: ['index', 'guides/a', 'guides/b'] } }),
      'index.mdx': [
        '# Home',
        '',
        '[root-relative](/guides/a) [trailing slash](/guides/a/) [anchor](/guides/b#part)',
        '[relative](guides/a) [dot](./guides/b) [with extension](/guides/a.mdx) [folder index](/guides)',
        '![image](/images/logo.png) [home](/) [same page](#top)',
        '',
        'See [nowhere](/guides/missing).',
      ].join('\n'),
      'guides/index.mdx': '# Guides\n\n[up](../index) [sibling](b) [parent route](guides/a)\n',
      'guides/a.mdx': '# A\n\n[sibling](./b) [up](../guides/b)\n',
      'guides/b.mdx': '# B\n',
      'images/logo.png': 'png',
    });
    assert.deepEqual(places(problems), ['index.mdx:7']);
    assert.equal(problems[0]?.key, 'link\0/guides/missing');
    assert.deepEqual(model.resolveLink('index.mdx', '/images/logo.png'), {
      kind: 'file',
      file: 'images/logo.png',
    });
  });

  it('treats snippets as partials: imported, checked, never pages or navigation candidates', async () => {
    // The shape of Bytez-com/docs: `import X from '/snippets/x.mdx'` and a component from a .jsx snippet.
    const { model, problems } = await analyze({
      'docs.json': json({ navigation: { pages: ['index'] } }),
      'index.mdx':
        "import Note from '/snippets/note.mdx';\nimport Shared from './shared/part.mdx';\nimport Gone from '/snippets/gone.mdx';\n\n# Home\n",
      'snippets/note.mdx': 'A [link](/index) and a [relative one](elsewhere).\n\n[broken](/nowhere)\n',
      'shared/part.mdx': 'Shared text.\n',
    });
    assert.ok(model.partials.has('snippets/note.mdx'));
    assert.ok(model.partials.has('shared/part.mdx'));
    assert.ok(!model.pages.has('shared/part.mdx'));
    assert.equal(model.needsNavigationEntry('snippets/new.mdx'), false);
    assert.deepEqual(places(problems), ['index.mdx:3', 'snippets/note.mdx:3']);
  });

  it('serves redirect sources with :slug, :slug* and partial wildcards', async () => {
    const { problems } = await analyze({
      'docs.json': json({
        navigation: { pages: ['index'] },
        redirects: [
          { source: '/exact', destination: '/index' },
          { source: '/blog/:slug', destination: '/index' },
          { source: '/beta/:slug*', destination: '/index' },
          { source: '/articles/concepts-*', destination: '/index' },
        ],
      }),
      'index.mdx':
        '[a](/exact) [b](/blog/post) [c](/beta/x/y) [d](/beta) [e](/articles/concepts-one)\n\n[f](/blog/post/deeper)\n',
    });
    assert.deepEqual(places(problems), ['index.mdx:3']);
  });

  it('leaves pages generated from OpenAPI unchecked and checks the specification file of operations', async () => {
    // The shape of mintlify/docs and Bytez-com/docs: `openapi` on a tab, operations listed as pages.
    const configuration = json({
      navigation: {
        tabs: [
          { tab: 'API', openapi: 'openapi.json' },
          {
            tab: 'Admin',
            openapi: { source: 'admin.yaml', directory: 'admin-api' },
            groups: [
              { group: 'Users', pages: ['GET /users', 'admin.yaml POST /users', 'missing.json GET /x'] },
            ],
          },
        ],
      },
    });
    const { model, problems } = await analyze({
      'docs.json': configuration,
      'openapi.json': '{}',
      'admin.yaml': 'openapi: 3.1.0\n',
      'index.mdx': '[list users](/api-reference/users/list) [admin](/admin-api/users/create)\n',
    });
    const missingLine = configuration.split('\n').findIndex((line) => line.includes('missing.json')) + 1;
    assert.deepEqual(
      model.navigation.map((entry) => entry.target),
      ['admin.yaml', 'admin.yaml', null],
    );
    assert.deepEqual(places(problems), [`docs.json:${missingLine}`]);
    assert.match(problems[0]?.message ?? '', /missing\.json GET \/x/);
    assert.ok(model.unsupported.some((note) => note.includes('/api-reference')));
  });

  it('asks for a navigation entry for new pages, not for snippets or ignored files', async () => {
    const files = {
      'docs.json': json({ navigation: { groups: [{ group: 'A', pages: ['index'] }] } }),
      '.mintignore': '# Work in progress\ndrafts/*\n!drafts/ready.mdx\n**/*.internal.mdx\n',
      'index.mdx': '# Home\n',
      'guides/new.mdx': '# New\n',
    };
    const { model } = await analyze(files);
    assert.equal(model.needsNavigationEntry('guides/new.mdx'), true);
    assert.equal(model.needsNavigationEntry('drafts/idea.mdx'), false);
    // A negation brings a file back, as in .gitignore.
    assert.equal(model.needsNavigationEntry('drafts/ready.mdx'), true);
    assert.equal(model.needsNavigationEntry('guides/notes.internal.mdx'), false);
    assert.deepEqual(model.unsupported, []);
    assert.equal(model.needsNavigationEntry('README.md'), false);
    assert.deepEqual(places(pagesMissingFromNavigation(model, ['guides/new.mdx'])), ['guides/new.mdx:1']);
    // A hidden page is still served: links to it are not broken.
    assert.deepEqual(model.resolveLink('index.mdx', '/guides/new'), { kind: 'file', file: 'guides/new.mdx' });
  });

  it('leaves uncertain links unchecked: base paths, build-step version copies, assets a copy left out', async () => {
    // langchain-ai/docs names `oss/python/x` in navigation for `oss/x.mdx` copied by its build step;
    // mintlify/docs writes its `/docs` base path in some links.
    const { model, problems } = await analyze({
      'docs.json': json({
        navigation: { versions: [{ version: 'Python', pages: ['index', 'oss/python/overview'] }] },
      }),
      'index.mdx': '[base path](/docs/oss/overview) [copy](/oss/python/overview) ![shot](/images/shot.png)\n',
      'oss/overview.mdx': '# Overview\n',
    });
    assert.deepEqual(problems, []);
    assert.equal(model.resolveLink('index.mdx', '/images/shot.png').kind, 'unchecked');
    assert.ok(model.navigation.some((entry) => typeof entry.target === 'object' && entry.target !== null));
  });

  it('writes conventions with a link taken from the site', async () => {
    const { model } = await analyze({
      'docs.json': json({ navigation: { pages: ['index', 'setup'] } }),
      'index.mdx': '# Home\n\nStart with [setup](/setup).\n',
      'setup.mdx': '# Setup\n',
    });
    assert.match(model.conventions[0] ?? '', /`\/setup` in index\.mdx/);
    assert.match(model.conventions[1] ?? '', /docs\.json/);
  });
});
