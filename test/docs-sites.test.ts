/**
 * The docs-site checks on real documentation repositories (test/fixtures/docs-sites/: trimmed copies
 * with their source, commit and license), one per framework the checks know (bench/docs-corpus.ts
 * runs larger corpora). The unmodified sites report only problems confirmed by hand, and mutations
 * of sampled pages report every problem they introduce, at its file and line.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { committedCorpus, corpusSites, evaluateSite } from './docs-site-corpus.ts';

const sites: Record<string, { framework: string; pages: number }> = {
  'LandRise__realestateapi-docs': { framework: 'readme', pages: 238 },
  'ant-design__antd-style': { framework: 'dumi', pages: 84 },
  'better-auth__better-auth': { framework: 'fumadocs', pages: 182 },
  CommandPost__ResolveCafe: { framework: 'retype', pages: 38 },
  D4Vinci__Scrapling: { framework: 'zensical', pages: 44 },
  docsifyjs__docsify: { framework: 'docsify', pages: 22 },
  'dotansimha__graphql-yoga': { framework: 'nextra', pages: 68 },
  dotnet__docfx: { framework: 'docfx', pages: 47 },
  'fluent__fluentd-docs-gitbook': { framework: 'gitbook', pages: 192 },
  'google__oss-fuzz': { framework: 'jekyll', pages: 38 },
  'grpc__grpc.io': { framework: 'hugo', pages: 176 },
  hahwul__goyo: { framework: 'zola', pages: 38 },
  'Intevel__nuxt-directus': { framework: 'nuxt-content', pages: 22 },
  jestjs__jest: { framework: 'docusaurus', pages: 171 },
  'just-the-docs__just-the-docs': { framework: 'jekyll', pages: 47 },
  ithacaxyz__porto: { framework: 'vocs', pages: 122 },
  JetBrains__Qodana: { framework: 'writerside', pages: 94 },
  'jupyter-book__workshop-template': { framework: 'myst', pages: 19 },
  'k8up-io__k8up': { framework: 'antora', pages: 38 },
  'kazupon__vue-i18n': { framework: 'vuepress', pages: 76 },
  'learning-rust__site': { framework: 'hexo', pages: 33 },
  'lexmin0412__dify-chat': { framework: 'rspress', pages: 148 },
  machow__quartodoc: { framework: 'quarto', pages: 24 },
  'MicrosoftDocs__PowerShell-Docs-Modules': { framework: 'docfx', pages: 122 },
  'nuxt-modules__i18n': { framework: 'nuxt-content', pages: 44 },
  ollama__ollama: { framework: 'mintlify', pages: 59 },
  pallets__click: { framework: 'sphinx', pages: 37 },
  psf__requests: { framework: 'sphinx', pages: 15 },
  spatialaudio__nbsphinx: { framework: 'sphinx', pages: 40 },
  Tencent__Hippy: { framework: 'docsify', pages: 85 },
  TeachBooks__manual: { framework: 'sphinx', pages: 50 },
  'TheAcharya__MarkerData-Website': { framework: 'retype', pages: 40 },
  'rust-lang__mdBook': { framework: 'mdbook', pages: 34 },
  rubocop__rubocop: { framework: 'antora', pages: 44 },
  'shoelace-style__shoelace': { framework: 'eleventy', pages: 86 },
  'squidfunk__mkdocs-material': { framework: 'mkdocs', pages: 96 },
  'tidepool-org__TidepoolApi': { framework: 'redocly', pages: 72 },
  'tisanelabs__tisane-docs': { framework: 'redocly', pages: 128 },
  vitejs__vite: { framework: 'vitepress', pages: 57 },
  vuepress__docs: { framework: 'vuepress', pages: 68 },
  'web-infra-dev__rslib': { framework: 'rspress', pages: 138 },
  wevm__vocs: { framework: 'vocs', pages: 42 },
  withastro__starlight: { framework: 'starlight', pages: 338 },
  'zylon-ai__private-gpt': { framework: 'fern', pages: 39 },
};

describe('docs-site checks on real repositories', async () => {
  it('the committed corpus is the one listed here', async () => {
    assert.deepEqual(await corpusSites(committedCorpus), Object.keys(sites).sort());
  });

  for (const [name, site] of Object.entries(sites)) {
    it(`${name}: only real problems on the unmodified site, every introduced one after a change`, async () => {
      const outcome = await evaluateSite(committedCorpus, name, 20);
      assert.equal(outcome.framework, site.framework);
      assert.equal(outcome.pages, site.pages);
      assert.equal(outcome.confirmedAt, null, 'the problems were confirmed at the copy’s commit');
      const unconfirmed = outcome.problems.filter((problem) => !problem.confirmed);
      assert.deepEqual(
        unconfirmed.map(({ problem }) => `${problem.file}:${problem.line}: ${problem.message}`),
        [],
      );
      assert.ok(
        outcome.expected >= 30,
        `only ${outcome.expected} expected problems: the mutations missed the site`,
      );
      assert.deepEqual(outcome.missed, []);
      assert.equal(outcome.found, outcome.expected);
    });
  }
});
