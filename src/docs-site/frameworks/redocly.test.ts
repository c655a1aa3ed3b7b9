import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { describe, it } from 'node:test';
import { analyzeSite, checkSite, detectSite, memoryFiles, PageFactsCache } from '../index.ts';
import { readPageFacts } from '../page-facts.ts';
import { readRedoclyAnchors } from './redocly-anchors.ts';
import { buildSlugTable, redoclySlug } from './redocly-slugs.ts';

async function analyze(files: ReturnType<typeof memoryFiles>) {
  const { model, source } = await analyzeSite(files, new PageFactsCache());
  return { model, problems: await checkSite(model, source) };
}

const problemLines = (problems: ReadonlyArray<{ file: string; line: number; message: string }>) =>
  problems.map((problem) => `${problem.file}:${problem.line} ${problem.message.replace(/:.*/s, '')}`);

// Every expectation below was observed running @redocly/realm 0.135.2 itself (its route table, its
// link checker and its heading ids) on projects of this shape.
describe('Redocly slugs and anchors', () => {
  it('slugs paths as Realm does: lower case, punctuation dropped, dots kept, each space a dash', () => {
    assert.equal(redoclySlug('/C++ & Co (beta)!'), '/c--co-beta');
    assert.equal(redoclySlug('/Überblick_ß'), '/überblick_ß');
    assert.equal(redoclySlug('/docs/v1.2-notes'), '/docs/v1.2-notes');
    assert.equal(redoclySlug('v1.2/3 Release.Notes', { heading: true }), 'v123-releasenotes');
    assert.equal(redoclySlug('!!!'), '_');
  });

  it('numbers taken slugs in descending ICU order of every file, pages or not', () => {
    const table = buildSlugTable(
      [
        'docs/clash.md',
        'docs/clash.yaml',
        'dual.md',
        'dual.page.tsx',
        'docs/same-name.md',
        'docs/Same Name.md',
        'docs/foo/index.md',
        'docs/foo.md',
        'docs/bar.md',
        'docs/bar/child.md',
        'sec/Index.md',
        'x.page.ts',
      ],
      () => null,
    );
    const slugOf = (path: string) => table.get(path);
    assert.equal(slugOf('docs/clash.yaml'), '/docs/clash');
    assert.equal(slugOf('docs/clash.md'), '/docs/clash-1');
    assert.equal(slugOf('dual.page.tsx'), '/dual');
    assert.equal(slugOf('dual.md'), '/dual-1');
    assert.equal(slugOf('docs/same-name.md'), '/docs/same-name');
    assert.equal(slugOf('docs/Same Name.md'), '/docs/same-name-1');
    assert.equal(slugOf('docs/foo/index.md'), '/docs/foo');
    assert.equal(slugOf('docs/foo.md'), '/docs/foo-1');
    assert.equal(slugOf('docs/bar.md'), '/docs/bar');
    assert.equal(slugOf('docs/bar/child.md'), '/docs/bar/child');
    assert.equal(slugOf('sec/Index.md'), '/sec/index');
    assert.equal(slugOf('x.page.ts'), '/x.page');
  });

  it('gives headings Realm’s ids: pieces joined by spaces, explicit ids kept and not numbered', () => {
    const page = readRedoclyAnchors(
      [
        '# Hello World',
        '## Hello World',
        '## Hello World {% #hello-world-1 %}',
        '## Hello World',
        '## C++ & C# (fast)!',
        '## Install `npm` **now**',
        '## foo**bar**baz',
        '## Überblick — Straße ß',
        '## Spaces   inside',
        '<div id="my-div"></div>',
        '{% step id="prereqs" heading="Prerequisites" %}',
        'x',
        '{% /step %}',
        '',
        'Setext is no heading',
        '---',
      ].join('\n'),
    );
    assert.deepEqual(
      [...page.anchors].sort(),
      [
        'c--c-fast',
        'foo-bar-baz',
        'hello-world',
        'hello-world-1',
        'hello-world-2',
        'install-npm--now',
        'my-div',
        'prereqs',
        'spaces---inside',
        'überblick--straße-ß',
      ].sort(),
    );
    assert.equal(page.complete, true);
    // A partial, or a tag of the project's own theme, may render headings.
    assert.equal(readRedoclyAnchors('{% partial file="_partials/x.md" /%}\n').complete, false);
    assert.equal(readRedoclyAnchors('{% xrpl-card title="x" /%}\n').complete, false);
    assert.equal(readRedoclyAnchors('{% admonition type="info" %}\nx\n{% /admonition %}\n').complete, true);
    // Tabs and cards render ids from their labels; a variable's value is part of a heading's text.
    assert.equal(
      readRedoclyAnchors('{% tabs %}\n{% tab label="A" %}\nx\n{% /tab %}\n{% /tabs %}\n').complete,
      false,
    );
    assert.equal(readRedoclyAnchors('## Language {% $lang %}\n').complete, false);
  });

  // Markdoc processes tags inside code fences too (unless the fence says `process=false`).
  it('reads links from Markdoc tags, fenced ones too, and no HTML attribute inside a tag', () => {
    const facts = readPageFacts(
      '{% partial file="../_partials/note.md" /%}\nSee {% card title="x" to="./next.md" /%}\n{% img src="/img/a.png" /%}\n{% badge href="myurl" %}x{% /badge %}\n```\n{% partial file="in-code.md" /%}\n```\n',
      'markdoc',
    );
    assert.deepEqual(
      facts.links.map(({ url, kind }) => `${kind} ${url}`),
      ['import ../_partials/note.md', 'link ./next.md', 'image /img/a.png', 'import in-code.md'],
    );
  });
});

const example = {
  'redocly.yaml':
    'redirects:\n  /old-page:\n    to: /guides/getting-started\n  /Legacy/*:\n    to: /guides/*\n    type: 302\n  /chain1:\n    to: /chain2\n  /chain2:\n    to: /guides/getting-started\n  /gone:\n    to: /nowhere\n  /moved:\n    to: /legacy/sub/other\nignore:\n  - drafts/\nnavbar:\n  items:\n    - page: index.md\n    - page: /apis/\n    - group: More\n      items:\n        - page: ./gone.md\ncatalog:\n  main:\n    slug: /apis/\nl10n:\n  defaultLocale: en\n  locales:\n    - code: en\n    - code: fr\n',
  'README.md': '# Repository notes, not a page\n',
  'index.md':
    '# Home\n\n[Start](./guides/getting-started.md) [Missing](./guides/missing.md) [Nope](/nope) [Old](/old-page) [Legacy](/legacy/sub/other) [Chain](/chain1)\n[Upper](/Guides/Sub) [Slug](/custom/Second) [Version](/docs/v1/intro) [Static](/img/logo.png) [Tel](tel:+123)\n\n{% partial file="_partials/note.md" /%}\n{% partial file="guides/not-a-partial.md" /%}\n',
  '_hidden.md': '# Not hidden\n',
  '_partials/note.md': 'Note with [a broken link](../nowhere.md).\n',
  'guides/getting-started.md~': '# An editor’s backup, which Realm’s watcher skips\n',
  'guides/getting-started.md':
    '# Start\n\n[Sibling](sub/other) [Up](../index.md) [Ghost](ghost) [Anchor](sub/other.md#top-of-other)\n',
  'guides/Second Page.md': '---\nslug: /custom/Second\n---\n# Second\n',
  'guides/sub/index.md':
    '# Sub\n\n[Child](other) [Api](../../apis/petstore.yaml#tag/pets) [Op](/apis/petstore/pets/listpets)\n',
  'guides/sub/other.md': '# Other\n\n## Top of other\n',
  'guides/not-a-partial.md': '# A page\n',
  'drafts/wip.md': '# Ignored\n',
  'docs/@v1/intro.md': '# v1\n\n[Other](./other.md)\n',
  'docs/@v2/intro.md': '# v2\n\n[Other](./other.md) [Old version](../@v1/intro.md)\n',
  'docs/@v2/other.md': '# v2 other\n',
  'apis/petstore.yaml': 'openapi: 3.1.0\ninfo:\n  title: Pets\n  version: 1.0.0\npaths: {}\n',
  'static/img/logo.png': '',
  '@l10n/fr/index.md': '# Accueil\n\n[Démarrer](./guides/getting-started.md) [Absent](./nope.md)\n',
  'sidebars.yaml':
    '- page: index.md\n- group: Guides\n  items:\n    - page: guides/getting-started.md\n    - page: /custom/Second\n    - page: guides/missing.md\n    - page: drafts/wip.md\n',
};

describe('Redocly projects', () => {
  it('is found by its redocly.yaml with sidebars, not by one that only lints an API', async () => {
    assert.equal((await detectSite(memoryFiles(example))).framework, 'redocly');
    assert.equal(
      (
        await detectSite(
          memoryFiles({
            'redocly.yaml': 'apis:\n  main:\n    root: openapi.yaml\nrules:\n  x: error\n',
            'README.md': '# x\n',
          }),
        )
      ).framework,
      'markdown',
    );
    assert.equal(
      (
        await detectSite(
          memoryFiles({ 'site/redocly.yaml': 'navbar:\n  items: []\n', 'site/index.md': '# x\n' }),
        )
      ).framework,
      'redocly',
    );
    // A project whose package names Realm, with a lint-only redocly.yaml or none at all.
    const realm = '{"dependencies": {"@redocly/realm": "0.135.2"}}';
    const cases: Array<[Record<string, string>, string]> = [
      [{ 'redocly.yaml': 'rules:\n  x: error\n', 'package.json': realm, 'index.md': '# x\n' }, ''],
      [{ 'docs/package.json': realm, 'docs/index.md': '# x\n' }, 'docs'],
    ];
    for (const [files, root] of cases) {
      const detected = await detectSite(memoryFiles(files));
      assert.deepEqual([detected.framework, detected.siteRoot], ['redocly', root]);
    }
  });

  it('serves every Markdown file at its path, translations and versions as Realm routes them', async () => {
    const { model } = await analyze(memoryFiles(example));
    assert.deepEqual(Object.fromEntries(model.pages), {
      '@l10n/fr/index.md': ['/fr'],
      '_hidden.md': ['/_hidden', '/fr/_hidden'],
      'docs/@v1/intro.md': ['/docs/v1/intro', '/fr/docs/v1/intro'],
      'docs/@v2/intro.md': ['/docs/intro', '/fr/docs/intro'],
      'docs/@v2/other.md': ['/docs/other', '/fr/docs/other'],
      'guides/Second Page.md': ['/custom/Second', '/fr/custom/Second'],
      'guides/getting-started.md': ['/guides/getting-started', '/fr/guides/getting-started'],
      'guides/not-a-partial.md': ['/guides/not-a-partial', '/fr/guides/not-a-partial'],
      'guides/sub/index.md': ['/guides/sub', '/fr/guides/sub'],
      'guides/sub/other.md': ['/guides/sub/other', '/fr/guides/sub/other'],
      'index.md': ['/'],
    });
    assert.deepEqual([...model.partials], ['_partials/note.md']);
  });

  it('reports the links, partials, sidebar and navbar entries and redirects Realm cannot resolve', async () => {
    const { problems } = await analyze(memoryFiles(example));
    assert.deepEqual(problemLines(problems).sort(), [
      '@l10n/fr/index.md:3 Broken link "./nope.md"',
      '_partials/note.md:1 Broken link "../nowhere.md"',
      'docs/@v1/intro.md:3 Broken link "./other.md"',
      'guides/getting-started.md:3 Broken link "ghost"',
      'index.md:3 Broken link "./guides/missing.md"',
      'index.md:3 Broken link "/chain1"',
      'index.md:3 Broken link "/nope"',
      'index.md:4 Broken link "/Guides/Sub"',
      'index.md:7 Broken link "guides/not-a-partial.md"',
      'redocly.yaml:12 Redirect from /gone to "/nowhere" names no page (Realm',
      'redocly.yaml:23 Navigation entry "./gone.md" names no page',
      'sidebars.yaml:6 Navigation entry "guides/missing.md" names no page',
      'sidebars.yaml:7 Navigation entry "drafts/wip.md" names no page',
    ]);
  });

  it('reads at most 64 locale folders: pages of the others are unchecked, not missing', async () => {
    const { model, problems } = await analyze(
      memoryFiles({
        'redocly.yaml': 'navbar:\n  items: []\n',
        'index.md': '# Home\n\n[First](/l0/guide) [Last](/l69/guide)\n',
        'guide.md': '# Guide\n',
        ...Object.fromEntries(
          Array.from({ length: 70 }, (_, index) => [`@l10n/l${index}/guide.md`, '# G\n']),
        ),
      }),
    );
    assert.deepEqual(problemLines(problems), []);
    assert.equal(model.resolveLink('index.md', '/l69/guide').kind, 'unchecked');
    assert.equal(model.resolveLink('index.md', '/l0/guide').kind, 'file');
    assert.ok(model.unsupported.some((note) => note.startsWith('6 locale folders beyond the first 64')));
  });

  // Shapes of held-out projects: an OpenAPI description written as JSON in a `.yaml` file, another
  // whose `openapi` key comes after 400 KB of components, and a committed `@l10n/.DS_Store`, which
  // Realm takes for a locale.
  it('finds API descriptions by their top-level key anywhere, and takes any name in @l10n for a locale', async () => {
    const { model, problems } = await analyze(
      memoryFiles({
        'redocly.yaml': 'navbar:\n  items:\n    - page: apis/json.yaml\n    - page: apis/late.yaml\n',
        'index.md': '# Home\n\n[Json](/apis/json) [Late](/apis/late) [Store](/.ds_store/guide)\n',
        'guide.md': '# Guide\n',
        'apis/json.yaml': '{"openapi": "3.0.0", "info": {"title": "x", "version": "1"}, "paths": {}}\n',
        'apis/late.yaml': `components:\n  schemas:\n${'    X:\n      type: string\n'.repeat(20_000)}openapi: 3.1.0\ninfo:\n  title: x\n  version: '1'\n`,
        '@l10n/.DS_Store': '',
      }),
    );
    assert.deepEqual(problemLines(problems), []);
    assert.equal(model.resolveLink('index.md', '/.ds_store/guide').kind, 'file');
  });

  it('reads hostile configuration within its bounds: redirect files naming themselves, groups nested 1,000 deep', async () => {
    const { model, problems } = await analyze(
      memoryFiles({
        'redocly.yaml': 'redirects:\n  $ref: redirects.yaml\n',
        'redirects.yaml': '$ref: redirects.yaml\n',
        'sidebars.yaml': `${Array.from({ length: 1000 }, (_, depth) => `${'  '.repeat(depth)}- group: G\n${'  '.repeat(depth)}  items:\n`).join('')}${'  '.repeat(1000)}- page: nowhere.md\n- page: missing.md\n`,
        'index.md': '# Home\n',
      }),
    );
    assert.deepEqual(problemLines(problems), [
      'sidebars.yaml:2002 Navigation entry "missing.md" names no page',
    ]);
    assert.ok(model.pages.has('index.md'));
  });
});

describe('Redocly API reference pages', () => {
  const folder = 'test/fixtures/redocly-api-rules';
  const realm = JSON.parse(readFileSync(`${folder}/realm.json`, 'utf8')) as {
    apis: Record<string, { base: string; routes: string[] }>;
    brokenLinks: Array<{ source: string; line: number; link: string; message: string }>;
  };
  const project = async () =>
    analyze(
      memoryFiles(
        Object.fromEntries(
          readdirSync(folder, { recursive: true, encoding: 'utf8' })
            .filter((path) => path !== 'realm.json' && statSync(`${folder}/${path}`).isFile())
            .map((path) => [path, readFileSync(`${folder}/${path}`, 'utf8')]),
        ),
      ),
    );

  it('serves every page Realm made of each OpenAPI and AsyncAPI description, and no other below it', async () => {
    const { model } = await project();
    const kind = (route: string) => model.resolveLink('index.md', route, { kind: 'link' }).kind;
    for (const api of Object.values(realm.apis)) {
      // A page whose last segment holds a dot is read as a file: Realm cannot link to it either.
      for (const route of api.routes)
        assert.equal(kind(route), /\.[^/]*$/.test(route) ? 'broken' : 'file', route);
      for (const route of [`${api.base}/nope`, `${api.base}/tag/x`, `${api.routes.at(-1)}/more`])
        assert.equal(kind(route), 'broken', route);
    }
    // An AsyncAPI description's keep their case.
    assert.equal(kind('/apis/events/asyncapi/topics/orderplaced'), 'broken');
  });

  it('leaves the pages of a description it cannot read whole unchecked', async () => {
    const api = (paths: string) =>
      `openapi: 3.1.0\ninfo: {title: A, version: '1'}\npaths:\n  /a:\n    get: {operationId: getA, tags: [A]}\n${paths}`;
    const { model } = await analyze(
      memoryFiles({
        'package.json': '{"dependencies": {"@redocly/realm": "0.135.2"}}',
        'redocly.yaml':
          'apis:\n  filtered:\n    root: filtered.yaml\n    decorators:\n      filter-out: {property: x, value: y}\n',
        'whole.yaml': api(''),
        'remote.yaml': api("  /b:\n    $ref: 'https://example.com/b.yaml'\n"),
        'cycle.yaml': api("  /b:\n    $ref: '#/x'\nx:\n  $ref: '#/paths/~1b'\n"),
        'filtered.yaml': api(''),
        'index.md': '# A\n',
      }),
    );
    const kind = (route: string) => model.resolveLink('index.md', route, { kind: 'link' }).kind;
    assert.equal(kind('/whole/a/geta'), 'file');
    assert.equal(kind('/whole/a/getb'), 'broken');
    for (const api of ['remote', 'cycle', 'filtered']) {
      assert.equal(kind(`/${api}/a/geta`), 'file', api);
      assert.equal(kind(`/${api}/a/getb`), 'unchecked', api);
    }
  });

  it('reports the links Realm reports into API pages', async () => {
    const { problems } = await project();
    assert.deepEqual(
      problems.map(
        (problem) => `${problem.line} ${problem.message.replace(/^Broken link "([^"]*)".*/s, '$1')}`,
      ),
      realm.brokenLinks.map((link) => `${link.line} ${link.link}`),
    );
  });
});
