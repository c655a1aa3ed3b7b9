import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkFiles as check, problemLines as messages } from '../../../test/site-check.ts';
import { detectSite, memoryFiles } from '../index.ts';

// The shape of grpc/grpc.io and google/docsy-example: sections with `_index.md`, page bundles with
// their images, `ref` shortcodes, a blog with `permalinks`, aliases, drafts, a headless folder of
// snippets, `static/` files and Netlify redirects written by a template.
const site = {
  'hugo.toml': [
    "baseURL = 'https://example.org/docs/'",
    "title = 'Demo'",
    '[permalinks]',
    "  blog = '/:section/:year/:slug/'",
    '[menus]',
    '  [[menus.main]]',
    "    pageRef = '/guide'",
    '  [[menus.main]]',
    "    pageRef = '/gone'",
    '  [[menus.main]]',
    "    url = '/docs/guide/start/'",
    '',
  ].join('\n'),
  'layouts/home.redirects': '/old/*  /docs/:splat\n{{ range site.Pages }}{{ end }}\n',
  'content/_index.md':
    '---\ntitle: Home\n---\n[Guide]({{< ref "guide" >}}) · [Start](/docs/guide/start/) · [Old](/docs/old/page)\n',
  'content/guide/_index.md':
    '---\ntitle: Guide\n---\n[Start]({{< ref "start.md" >}}) · [Install](install/) · [Missing]({{< ref "missing" >}})\n',
  'content/guide/start.md': [
    '+++',
    "title = 'Start'",
    "aliases = ['/docs/begin/']",
    'tags = ["setup"]',
    '+++',
    '[Install](../install/) · [Install as written](install/) · [Diagram](/docs/guide/install/diagram.png) · [Tags](/docs/tags/setup/)',
    '[Logo](/docs/images/logo.svg) · [Draft](../draft/) · [Snippet](/docs/snippets/note/)',
    '',
  ].join('\n'),
  'content/guide/install/index.md':
    '---\ntitle: Install\nslug: ignored-for-bundles\n---\n![Diagram](diagram.png) ![Gone](gone.png)\n',
  'content/guide/install/diagram.png': '',
  'content/guide/Upper Case.md': '---\ntitle: Upper\n---\n[Start]({{< relref "/guide/start" >}})\n',
  'content/guide/draft.md': '---\ntitle: Draft\ndraft: true\n---\n',
  'content/blog/_index.md': '---\ntitle: Blog\n---\n',
  'content/blog/release.md': "+++\ntitle = 'Release notes'\ndate = 2024-06-01T10:00:00Z\n+++\n",
  'content/blog/launch.md':
    '---\ntitle: Launch\ndate: 2024-05-01\nslug: we-launched\n---\n[Guide]({{< ref "/guide/_index.md" >}})\n',
  'content/snippets/_index.md': '---\ncascade:\n  build:\n    render: never\n---\n',
  'content/snippets/note.md': '---\ntitle: Note\n---\n[Broken on purpose](nowhere/)\n',
  'static/images/logo.svg': '',
};

describe('Hugo site model', () => {
  it('is found by its configuration, `config.*` only with Hugo keys', async () => {
    assert.deepEqual(await detectSite(memoryFiles(site)), {
      framework: 'hugo',
      siteRoot: '',
      configFile: 'hugo.toml',
    });
    const nested = {
      'website/config/_default/hugo.yaml': 'title: X\n',
      'website/content/_index.md': '# X\n',
    };
    assert.equal((await detectSite(memoryFiles(nested))).siteRoot, 'website');
    const other = { 'config.yaml': 'port: 8080\nlogLevel: debug\n', 'docs/a.md': '# A\n' };
    assert.equal((await detectSite(memoryFiles(other))).framework, 'markdown');
  });

  it('publishes pages where Hugo does: sections, bundles, slugs, permalinks, lower-cased paths', async () => {
    const { model } = await check(site);
    assert.equal(model.framework, 'hugo');
    assert.deepEqual(Object.fromEntries(model.pages), {
      'content/_index.md': ['/'],
      'content/blog/_index.md': ['/blog/'],
      'content/blog/launch.md': ['/blog/2024/we-launched/'],
      // TOML front matter's date is a date, not text.
      'content/blog/release.md': ['/blog/2024/release-notes/'],
      'content/guide/Upper Case.md': ['/guide/upper-case/'],
      'content/guide/_index.md': ['/guide/'],
      'content/guide/install/index.md': ['/guide/install/'],
      'content/guide/start.md': ['/guide/start/'],
      // A cascade reaches the section's pages, not the section's own.
      'content/snippets/_index.md': ['/snippets/'],
    });
  });

  it('resolves ref shortcodes as Hugo looks pages up, and other links from the page URL', async () => {
    const { model, problems } = await check(site);
    assert.deepEqual(
      model.navigation.map(({ reference, line, target }) => `${line} ${reference} ${target}`),
      ['7 /guide content/guide/_index.md', '9 /gone null', '11 /docs/guide/start/ content/guide/start.md'],
    );
    assert.deepEqual(messages(problems), [
      'hugo.toml:9: Navigation entry "/gone" names no page',
      `content/guide/_index.md:4: Broken link "{{< ref "missing" >}}": Hugo's build fails: REF_NOT_FOUND: Ref "missing": no page of en content is found at that path`,
      'content/guide/install/index.md:5: Broken image "gone.png": the built site has no page or file at /guide/install/gone.png',
      'content/guide/start.md:6: Broken link "install/": the built site has no page or file at /guide/start/install/',
      // A page of a headless section is not published.
      'content/guide/start.md:7: Broken link "/docs/snippets/note/": the built site has no page or file at /snippets/note/',
    ]);
  });

  it('resolves Markdown links to pages under the embedded link hook of a multilingual site', async () => {
    const files = {
      'hugo.yaml': [
        'baseURL: /',
        'defaultContentLanguage: en',
        'languages:',
        '  en: { contentDir: content/en }',
        '  fr: { contentDir: content/fr }',
        '',
      ].join('\n'),
      'content/en/docs/_index.md':
        '---\ntitle: Docs\n---\n[Setup](setup.md) · [Setup by path](../docs/setup) · [Gone](gone.md)\n',
      'content/en/docs/setup.md': '---\ntitle: Setup\n---\n',
      'content/fr/docs/_index.md': '---\ntitle: Docs\n---\n[Installation](setup.md)\n',
      'content/fr/docs/setup.md': '---\ntitle: Installation\n---\n',
    };
    const { model, problems } = await check(files);
    assert.deepEqual(model.pages.get('content/fr/docs/setup.md'), ['/fr/docs/setup/']);
    assert.deepEqual(messages(problems), [
      'content/en/docs/_index.md:4: Broken link "gone.md": the built site has no page or file at /docs/gone.md',
    ]);
  });

  it('reports a configuration Hugo cannot read at its line, and leaves content of a missing submodule unchecked', async () => {
    const broken = {
      'hugo.toml': "baseURL = 'https://x.org/'\ntitle = [\n",
      'content/_index.md': '# Home\n',
    };
    assert.deepEqual(
      messages((await check(broken)).problems).map((line) => line.slice(0, line.indexOf(':', 10))),
      ['hugo.toml:3'],
    );
    const submodule = {
      'hugo.yaml': [
        'baseURL: /',
        'module:',
        '  mounts:',
        '    - { source: content, target: content }',
        '    - { source: sdk/docs, target: content/sdk }',
        '',
      ].join('\n'),
      'content/_index.md':
        '---\ntitle: Home\n---\n[SDK]({{< ref "python" >}}) · [SDK page](/sdk/python/) · [Gone](/other/)\n',
    };
    const { model, problems } = await check(submodule);
    assert.match(model.unsupported.join('\n'), /content mounted from sdk\/docs is not in this checkout/);
    assert.deepEqual(messages(problems), [
      'content/_index.md:4: Broken link "/other/": the built site has no page or file at /other/',
    ]);
  });
});
