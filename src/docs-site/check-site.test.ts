import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkFiles, problemLines } from '../../test/site-check.ts';
import { introducedProblems } from './check-site.ts';
import { ConfigLines } from './config-lines.ts';
import { detectSite } from './detect-site.ts';
import { memoryFiles } from './repository-files.ts';
import type { SiteProblem } from './site-model.ts';

const problem = (file: string, line: number, url: string): SiteProblem => ({
  file,
  line,
  message: `Broken link "${url}"`,
  key: `link\0${url}`,
});

describe('what a change introduced', () => {
  it('is what the base did not have, by file and key, counted, whatever the lines', () => {
    const base = [problem('a.md', 3, 'x.md'), problem('b.md', 9, 'y.md')];
    const current = [problem('a.md', 7, 'x.md'), problem('a.md', 8, 'x.md'), problem('b.md', 9, 'z.md')];
    assert.deepEqual(introducedProblems(current, base), [
      problem('a.md', 8, 'x.md'),
      problem('b.md', 9, 'z.md'),
    ]);
  });

  it('follows a moved file to its old problems', () => {
    const base = [problem('old/page.md', 3, 'x.md')];
    assert.deepEqual(
      introducedProblems(
        [problem('new/page.md', 3, 'x.md')],
        base,
        new Map([['new/page.md', 'old/page.md']]),
      ),
      [],
    );
  });
});

describe('links into Git submodules', () => {
  it('are unknown, not broken, since a checkout may not hold the submodule', async () => {
    const files = {
      'docs/index.md':
        '# Home\n\n[Shared](../vendor/handbook/intro.md), [absolute](/vendor/handbook/a.md), [gone](gone.md)\n',
    };
    const withSubmodule = {
      ...files,
      '.gitmodules':
        '[submodule "handbook"]\n\tpath = vendor/handbook\n\turl = https://example.com/handbook.git\n',
    };
    assert.deepEqual(problemLines((await checkFiles(files)).problems), [
      'docs/index.md:3: Broken link "../vendor/handbook/intro.md": no file vendor/handbook/intro.md',
      'docs/index.md:3: Broken link "/vendor/handbook/a.md": no file vendor/handbook/a.md',
      'docs/index.md:3: Broken link "gone.md": no file docs/gone.md',
    ]);
    assert.deepEqual(problemLines((await checkFiles(withSubmodule)).problems), [
      'docs/index.md:3: Broken link "gone.md": no file docs/gone.md',
    ]);
  });
});

describe('configuration lines', () => {
  it('finds each written value in order, as a whole value', () => {
    const lines = new ConfigLines(
      '{\n  "pages": [\n    "intro-extra",\n    "intro",\n    "guide"\n  ],\n  "more": ["intro"]\n}\n',
    );
    assert.equal(lines.lineOf('intro'), 4);
    assert.equal(lines.lineOf('intro'), 7);
    assert.equal(lines.lineOf('guide'), 5);
    assert.equal(lines.lineOf('missing'), 1);
  });
});

describe('framework detection', () => {
  it('takes the shallowest configuration, in a subfolder too, and ignores templates and examples', async () => {
    const detected = await detectSite(
      memoryFiles({
        'website/docusaurus.config.ts': 'export default {}',
        'examples/classic/docusaurus.config.js': 'module.exports = {}',
        'packages/create/templates/docs.json': '{"navigation": []}',
      }),
    );
    assert.deepEqual(detected, {
      framework: 'docusaurus',
      siteRoot: 'website',
      configFile: 'website/docusaurus.config.ts',
    });
  });

  it('tells Mintlify from another docs.json, Starlight from another Astro site, and finds VitePress and mdBook', async () => {
    const detect = async (files: Record<string, string>) => (await detectSite(memoryFiles(files))).framework;
    assert.equal(await detect({ 'docs.json': '{"apiVersion": 2}' }), 'markdown');
    assert.equal(await detect({ 'docs/docs.json': '{"navigation": {"groups": []}}' }), 'mintlify');
    assert.equal(await detect({ 'astro.config.mjs': 'export default {}' }), 'markdown');
    assert.equal(
      await detect({ 'docs/astro.config.mjs': "import starlight from '@astrojs/starlight';" }),
      'starlight',
    );
    assert.equal(await detect({ 'docs/.vitepress/config.ts': 'export default {}' }), 'vitepress');
    assert.equal(await detect({ 'guide/book.toml': '[book]' }), 'mdbook');
    assert.equal(await detect({ 'docs/en/mkdocs.yml': 'site_name: x' }), 'mkdocs');
    // A Nuxt module's playground loads the module (and Nuxt Content) and is no docs site.
    assert.equal(
      await detect({
        'playground/nuxt.config.ts': "export default defineNuxtConfig({ modules: ['@nuxt/content'] })",
        'docs/en/mkdocs.yml': 'site_name: x',
      }),
      'mkdocs',
    );
  });
});
