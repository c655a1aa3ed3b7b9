import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkFiles as check, problemLines as messages } from '../../../test/site-check.ts';
import { detectSite, memoryFiles, pagesMissingFromNavigation } from '../index.ts';
import { readPageFacts } from '../page-facts.ts';

// The shape of rubocop's and camel-quarkus' `docs/`: one component version, a ROOT module with topic
// folders, a second module, partials and examples, images, attributes in `antora.yml`, a navigation
// file per module.
const site = {
  'docs/antora.yml': [
    'name: guide',
    'version: ~',
    'nav:',
    '- modules/ROOT/nav.adoc',
    '- modules/api/nav.adoc',
    'asciidoc:',
    '  attributes:',
    '    samples: example$snippets',
    '    show-extra: false',
    '',
  ].join('\n'),
  'docs/modules/ROOT/nav.adoc':
    '* xref:index.adoc[Home]\n* Usage\n** xref:usage/install.adoc[]\n** xref:usage/gone.adoc[]\n////\n* xref:commented-out.adoc[]\n////\n// * xref:also-commented.adoc[]\n',
  'docs/modules/api/nav.adoc': '* xref:api:index.adoc[API]\n',
  'docs/modules/ROOT/pages/index.adoc': [
    '= Home',
    ':page-aliases: start.adoc',
    '',
    'See xref:usage/install.adoc[installing], xref:usage/install.adoc#options[its options] and',
    'xref:api:index.adoc[the API], xref:other-component::index.adoc[another component],',
    'xref:install.adoc[a path from the wrong folder] and <<usage/install.adoc#,the install page>>.',
    "A folder this repository does not hold may be another repository's: xref:cli/tool.adoc[].",
    'An anchor: xref:top[] and <<top>>; without `.adoc` but with a fragment, a page: xref:usage/install#options[] and xref:usage/nowhere#x[].',
    '',
    '// A comment: xref:commented.adoc[]',
    '////',
    'xref:block-comment.adoc[]',
    '////',
    '',
    '[source,ruby]',
    '----',
    'include::{samples}/hello.rb[]',
    'xref:in-a-listing.adoc[]',
    '----',
    '',
    'include::partial$note.adoc[]',
    'include::partial$missing.adoc[]',
    'include::{unknown}/x.adoc[]',
    'ifeval::[{show-extra} == true]',
    'include::extra/not-here.adoc[]',
    'endif::[]',
    '',
    'image::diagram.png[Diagram]',
    'image::lost.png[Lost]',
    'Inline image:old.png[Old] from Antora 1 assets.',
    '',
  ].join('\n'),
  'docs/modules/ROOT/pages/usage/install.adoc':
    '= Install\n\nBack xref:index.adoc[home], xref:./sibling.adoc[a sibling], xref:start.adoc[an alias].\n',
  'docs/modules/ROOT/pages/usage/sibling.adoc': '= Sibling\n',
  'docs/modules/ROOT/pages/_hidden.adoc': '= Not published\n',
  // An xref in a partial is read where the partial is included (the api module's pages, say).
  'docs/modules/ROOT/partials/note.adoc': 'NOTE: a partial, see xref:client.adoc[].\n',
  'docs/modules/ROOT/examples/snippets/hello.rb': 'puts "hello"\n',
  'docs/modules/ROOT/images/diagram.png': '',
  'docs/modules/ROOT/assets/images/old.png': '',
  'docs/modules/api/pages/index.adoc': '= API\n',
};

describe('Antora site model', () => {
  it('is found by a component descriptor', async () => {
    assert.deepEqual(await detectSite(memoryFiles(site)), {
      framework: 'antora',
      siteRoot: 'docs',
      configFile: 'docs/antora.yml',
    });
    assert.equal(
      (await detectSite(memoryFiles({ 'antora.yml': 'site: {}\n', 'a.md': '# A\n' }))).framework,
      'markdown',
    );
  });

  it('publishes each page at its resource ID, ROOT and a versionless component left out of the URL', async () => {
    const { model } = await check(site);
    assert.deepEqual([...model.pages.keys()].sort(), [
      'docs/modules/ROOT/pages/index.adoc',
      'docs/modules/ROOT/pages/usage/install.adoc',
      'docs/modules/ROOT/pages/usage/sibling.adoc',
      'docs/modules/api/pages/index.adoc',
    ]);
    assert.deepEqual(model.pages.get('docs/modules/ROOT/pages/usage/install.adoc'), [
      '/guide/usage/install.html',
    ]);
    assert.deepEqual(model.pages.get('docs/modules/api/pages/index.adoc'), ['/guide/api']);
    assert.deepEqual(model.configFiles, [
      'docs/antora.yml',
      'docs/modules/ROOT/nav.adoc',
      'docs/modules/api/nav.adoc',
    ]);
  });

  it('reports what Antora logs: xrefs, includes and images that name nothing, and navigation entries', async () => {
    const { problems } = await check(site);
    assert.deepEqual(messages(problems), [
      'docs/modules/ROOT/nav.adoc:4: Navigation entry "usage/gone.adoc" names no page',
      'docs/modules/ROOT/pages/index.adoc:6: Broken link "xref:install.adoc": target of xref not found: guide:ROOT:install.adoc',
      'docs/modules/ROOT/pages/index.adoc:8: Broken link "xref:usage/nowhere#x": target of xref not found: guide:ROOT:usage/nowhere.adoc',
      'docs/modules/ROOT/pages/index.adoc:22: Broken link "partial$missing.adoc": target of include not found: guide:ROOT:partial$missing.adoc',
      'docs/modules/ROOT/pages/index.adoc:29: Broken image "lost.png": image not found: guide:ROOT:image$lost.png',
    ]);
  });

  it('asks for a navigation entry in the module’s own navigation file', async () => {
    const { model } = await check({ ...site, 'docs/modules/api/pages/client.adoc': '= Client\n' });
    assert.deepEqual(
      pagesMissingFromNavigation(model, ['docs/modules/api/pages/client.adoc']).map(
        (problem) => problem.message,
      ),
      ['New page is missing from navigation; add it to docs/modules/api/nav.adoc'],
    );
  });

  it('leaves unchecked what other repositories of the playbook, or the Antora Collector, may add', async () => {
    const playbook = 'content:\n  sources:\n  - url: .\n  - url: https://github.com/example/other-docs\n';
    const { problems, model } = await check({ ...site, 'antora-playbook.yml': playbook });
    assert.deepEqual(
      messages(problems).filter((line) => line.includes('xref')),
      [],
    );
    assert.match(model.unsupported.join('\n'), /other repositories/);
  });
});

describe('AsciiDoc page facts', () => {
  it('reads header attributes, and keeps macros of comments and listings out, includes in', () => {
    const facts = readPageFacts(
      '= Title\n:page-aliases: old.adoc\n\n----\nxref:no.adoc[]\ninclude::example$yes.rb[]\n----\n\\xref:escaped.adoc[]\n\n|[source]\nimage: image:in-a-listing.png[]\n\n xref:indented.adoc[] is a literal paragraph\n\n  * xref:listed.adoc[] is a list item\n',
      'asciidoc',
    );
    assert.equal(facts.title, 'Title');
    assert.deepEqual(facts.frontMatter, { 'page-aliases': 'old.adoc' });
    assert.deepEqual(
      facts.links.map((link) => link.url),
      ['example$yes.rb', 'xref:listed.adoc'],
    );
  });

  it('warns as Asciidoctor warns: blocks never closed, section levels skipped, a second document title', () => {
    const warnings = (text: string) =>
      readPageFacts(text, 'asciidoc').warnings?.map((warning) => `${warning.line} ${warning.message}`);
    assert.deepEqual(
      warnings(
        [
          '[[anchor]]',
          '= Title',
          ':description: A page.',
          '',
          '== One',
          '',
          '==== Skipped a level',
          '',
          '[source,yaml]',
          '--',
          'key: value',
          '--',
          '',
          '```ruby',
          '====',
          '```',
          '',
          '[discrete]',
          '====== A discrete heading skips nothing',
          '',
          '= Another title',
          '',
          '====',
          'An example never closed.',
          '',
        ].join('\n'),
      ),
      [
        '7 section title out of sequence: expected level 2, got level 3',
        '21 level 0 sections can only be used when doctype is book',
        '23 unterminated example block',
      ],
    );
    // A partial has no title: its section levels depend on where it is included.
    assert.deepEqual(warnings("=== A partial's section\n"), []);
  });

  it('reads a hostile line once: thousands of macro names and brackets', () => {
    const facts = readPageFacts(
      `${'xref:'.repeat(20000)}\n${'<<'.repeat(50000)}\n:a: ${' '.repeat(100000)}x\n`,
      'asciidoc',
    );
    assert.deepEqual(facts.links, []);
  });
});
