import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyzeSite, checkSite, memoryFiles, PageFactsCache, pagesMissingFromNavigation } from '../index.ts';

async function check(files: Record<string, string>) {
  const site = await analyzeSite(memoryFiles(files), new PageFactsCache());
  const problems = await checkSite(site.model, site.source);
  return { model: site.model, problems };
}

// The shape of squidfunk/mkdocs-material: `{Title: path}` entries, sections, an external link,
// not_in_nav, Python tags in the YAML, and the Material blog plugin.
const materialShape = {
  'mkdocs.yml': [
    'site_name: Example',
    'plugins:',
    '  - blog',
    '  - search',
    'markdown_extensions:',
    '  - pymdownx.emoji:',
    '      emoji_index: !!python/name:material.extensions.emoji.twemoji',
    'not_in_nav: |',
    '  /tutorials/**/*.md',
    'nav:',
    '  - Home: index.md',
    '  - Setup:',
    '    - setup/index.md',
    '    - Colors: setup/colors.md',
    '    - Chat: https://example.com/chat',
    '  - Blog:',
    '    - blog/index.md',
    '',
  ].join('\n'),
  'docs/index.md': '# Home\n\nSee [colors](setup/colors.md#palette) and [setup](setup/).\n',
  'docs/setup/index.md': '# Setup\n\n!!! note\n\n    Indented text is content: [home](../index.md).\n',
  'docs/setup/colors.md': '# Colors\n\n[Back](../index.md) and [the blog](../blog/category/news/).\n',
  'docs/tutorials/basic.md': '# Tutorial\n',
  'docs/blog/index.md': '# Blog\n',
  'docs/blog/posts/hello.md':
    '---\ndate: 2024-01-31\n---\n\n# Hello world\n\n[Setup](../../setup/colors.md)\n',
  'docs/img/logo.png': 'png',
};

describe('MkDocs site model', () => {
  it('detects mkdocs.yml at the root and serves every docs_dir page at its directory URL', async () => {
    const { model } = await check(materialShape);
    assert.equal(model.framework, 'mkdocs');
    assert.equal(model.siteRoot, '');
    assert.deepEqual(model.pages.get('docs/setup/colors.md'), ['/setup/colors']);
    assert.deepEqual(model.pages.get('docs/setup/index.md'), ['/setup']);
    assert.deepEqual(model.pages.get('docs/blog/posts/hello.md'), ['/blog/2024/01/31/hello-world']);
    assert.deepEqual(model.configFiles, ['mkdocs.yml']);
  });

  it('reads every nav shape with its line and section titles, skipping external links', async () => {
    const { model } = await check(materialShape);
    assert.deepEqual(
      model.navigation.map((entry) => [entry.reference, entry.line, entry.groups.join('/'), entry.target]),
      [
        ['index.md', 11, 'Home', 'docs/index.md'],
        ['setup/index.md', 13, 'Setup', 'docs/setup/index.md'],
        ['setup/colors.md', 14, 'Setup/Colors', 'docs/setup/colors.md'],
        ['blog/index.md', 17, 'Blog', 'docs/blog/index.md'],
      ],
    );
  });

  it('places nav entries within nav, not where a redirect map above it names the same page', async () => {
    const { model } = await check({
      'mkdocs.yml': [
        'site_name: Example',
        'plugins:',
        '  - redirects:',
        '      redirect_maps:',
        "        'old.md': 'guide.md'",
        'nav:',
        '- Home: index.md',
        '- Guide: guide.md',
        'theme: material',
        '',
      ].join('\n'),
      'docs/index.md': '# Home\n',
      'docs/guide.md': '# Guide\n',
    });
    assert.deepEqual(
      model.navigation.map((entry) => [entry.reference, entry.line]),
      [
        ['index.md', 7],
        ['guide.md', 8],
      ],
    );
  });

  it('reports a redirect_maps target that names no page, at its line', async () => {
    const { problems } = await check({
      'mkdocs.yml': [
        'site_name: Example',
        'plugins:',
        '  - redirects:',
        '      redirect_maps:',
        "        'old.md': 'guide.md#install'",
        "        'older.md': 'moved/guide.md'",
        "        'elsewhere.md': 'https://example.com/docs/'",
        '',
      ].join('\n'),
      'docs/index.md': '# Home\n',
      'docs/guide.md': '# Guide\n',
    });
    assert.deepEqual(
      problems.map((problem) => [problem.file, problem.line, problem.message]),
      [['mkdocs.yml', 6, 'Redirect target "moved/guide.md" names no page in docs']],
    );
  });

  it('reports nothing on a working site: folder links, blog pages, admonition content', async () => {
    const { problems } = await check(materialShape);
    assert.deepEqual(problems, []);
  });

  it('reports a broken link at its line, and a nav entry naming no page at its line', async () => {
    const { problems } = await check({
      ...materialShape,
      'mkdocs.yml': materialShape['mkdocs.yml'].replace('setup/colors.md', 'setup/colours.md'),
      'docs/setup/index.md': '# Setup\n\n!!! note\n\n    See [missing](../missing.md).\n',
    });
    assert.deepEqual(
      problems.map((problem) => [problem.file, problem.line, problem.key]),
      [
        ['mkdocs.yml', 14, 'navigation\0setup/colours.md'],
        ['docs/setup/index.md', 5, 'link\0../missing.md'],
      ],
    );
  });

  it('leaves absolute links, links to folders without an index, and missing assets of unseen kinds unchecked', async () => {
    const { model } = await check(materialShape);
    assert.equal(model.resolveLink('docs/index.md', '/anything/').kind, 'unchecked');
    assert.equal(model.resolveLink('docs/index.md', 'tutorials/').kind, 'unchecked');
    assert.equal(model.resolveLink('docs/index.md', 'img/missing.gif').kind, 'unchecked');
    assert.equal(model.resolveLink('docs/index.md', 'img/missing.png').kind, 'broken');
    assert.equal(model.resolveLink('docs/index.md', '../README.md').kind, 'unchecked');
  });

  it('needs a nav entry for a new page unless not_in_nav matches it or it is a blog post', async () => {
    const created = {
      ...materialShape,
      'docs/setup/new.md': '# New\n',
      'docs/tutorials/new.md': '# New tutorial\n',
      'docs/blog/posts/new.md': '---\ndate: 2024-02-01\n---\n# New post\n',
    };
    const { model } = await check(created);
    const missing = pagesMissingFromNavigation(model, [
      'docs/setup/new.md',
      'docs/tutorials/new.md',
      'docs/blog/posts/new.md',
    ]);
    assert.deepEqual(
      missing.map((problem) => problem.file),
      ['docs/setup/new.md'],
    );
  });

  it('puts every page in navigation when there is no nav', async () => {
    const { model } = await check({ 'mkdocs.yml': 'site_name: Plain\n', 'docs/index.md': '# Home\n' });
    assert.equal(model.needsNavigationEntry('docs/new.md'), false);
    assert.deepEqual(model.navigation, []);
  });

  it('reports YAML syntax errors at their line', async () => {
    const { problems } = await check({
      'mkdocs.yml': 'site_name: Broken\nnav:\n  - [index.md\n',
      'docs/index.md': '# Home\n',
    });
    assert.equal(problems[0]?.file, 'mkdocs.yml');
    assert.ok((problems[0]?.line ?? 0) >= 3);
  });

  // The shape of fastapi/fastapi: docs/en/mkdocs.yml is the primary configuration, docs/hi/mkdocs.yml
  // only inherits it, docs/de/ has no configuration, and every language has its own docs/ folder.
  const translatedShape = {
    'docs/en/mkdocs.yml':
      'site_name: Translated\nnav:\n- Home: index.md\n- "":\n  - tutorial/index.md\n  - tutorial/first.md\n',
    'docs/en/docs/index.md': '# Home\n\n[First steps](tutorial/first.md)\n',
    'docs/en/docs/tutorial/index.md': '# Tutorial\n',
    'docs/en/docs/tutorial/first.md': '# First\n\n[Home](../index.md)\n',
    'docs/hi/mkdocs.yml': 'INHERIT: ../en/mkdocs.yml\n',
    'docs/hi/docs/index.md': '# Hindi home\n\n[Tutorial](tutorial/index.md)\n',
    'docs/de/docs/index.md': '# Start\n\n[Erste Schritte](tutorial/first.md)\n',
    'docs/de/docs/tutorial/first.md': '# Erste\n\n[Fehlt](../nowhere.md)\n',
  };

  it('detects a configuration in a subfolder and builds each language folder under its prefix', async () => {
    const { model } = await check(translatedShape);
    assert.equal(model.siteRoot, 'docs/en');
    assert.deepEqual(model.pages.get('docs/de/docs/tutorial/first.md'), ['/de/tutorial/first']);
    assert.deepEqual(model.pages.get('docs/en/docs/tutorial/first.md'), ['/tutorial/first']);
    assert.deepEqual(model.configFiles, ['docs/en/mkdocs.yml', 'docs/hi/mkdocs.yml']);
  });

  it('serves a missing translation from the primary language, and reports a link missing everywhere', async () => {
    const { model, problems } = await check(translatedShape);
    assert.equal(model.resolveLink('docs/hi/docs/index.md', 'tutorial/index.md').kind, 'served');
    assert.deepEqual(
      problems.map((problem) => [problem.file, problem.line, problem.key]),
      [['docs/de/docs/tutorial/first.md', 3, 'link\0../nowhere.md']],
    );
    const german = model.navigation.filter((entry) => entry.groups[0] === 'de');
    assert.deepEqual(
      german.map((entry) => [entry.file, entry.line, entry.target]),
      [
        ['docs/en/mkdocs.yml', 3, 'docs/de/docs/index.md'],
        ['docs/en/mkdocs.yml', 5, 'docs/en/docs/tutorial/index.md'],
        ['docs/en/mkdocs.yml', 6, 'docs/de/docs/tutorial/first.md'],
      ],
    );
  });

  it('describes how links are written with an example from the site', async () => {
    const { model } = await check(materialShape);
    assert.match(model.conventions[0] ?? '', /docs\/index\.md` links to `setup\/colors\.md#palette`/);
    assert.match(model.conventions[1] ?? '', /nav` in `mkdocs\.yml`/);
  });

  it('checks link fragments only with validation: anchors: warn (MkDocs logs them at info by default)', async () => {
    const anchors = (problems: Awaited<ReturnType<typeof check>>['problems']) =>
      problems.filter((problem) => problem.key.startsWith('anchor\0')).map((problem) => problem.message);
    // docs/index.md links setup/colors.md#palette, a section the page does not have.
    assert.deepEqual(anchors((await check(materialShape)).problems), []);
    const warned = await check({
      ...materialShape,
      'mkdocs.yml': `${materialShape['mkdocs.yml']}validation:\n  anchors: warn\n`,
    });
    assert.deepEqual(anchors(warned.problems), [
      'Broken anchor "setup/colors.md#palette": docs/setup/colors.md has no heading or element with the id "palette"',
    ]);
  });

  // conductor-oss/conductor's shape: `use_directory_urls: false` and raw HTML cards linking pages by
  // their built names; knative/docs': snippet files left out by the mkdocs-exclude plugin.
  it('resolves links to built .html names, index pages included, and honours the exclude plugin', async () => {
    const { problems } = await check({
      'mkdocs.yml': [
        'site_name: x',
        'use_directory_urls: false',
        'plugins:',
        '  - exclude:',
        '      glob:',
        '        - snippets/*',
        '      regex:',
        "        - '.*\\.draft\\.md$'",
        '',
      ].join('\n'),
      'docs/index.md': '# Home\n',
      'docs/concepts/index.md':
        '# Concepts\n\n<a href="workers.html">Workers</a> <a href="../guide/setup.html#install">Setup</a> [Gone](gone.md)\n',
      'docs/concepts/workers.md': '# Workers\n',
      'docs/guide/setup.md': '# Setup\n\n## Install\n',
      'docs/snippets/prereqs.md': '[missing](../nowhere.md)\n',
      'docs/notes.draft.md': '[missing](nowhere.md)\n',
    });
    assert.deepEqual(
      problems.map((problem) => problem.message),
      ['Broken link "gone.md": no file docs/concepts/gone.md'],
    );
  });

  // openai/openai-agents-python's shape: mkdocs-static-i18n with `docs_structure: folder`, English
  // at docs_dir's root, each translation in its folder with its own `nav` in the plugin's languages.
  it('reads mkdocs-static-i18n folders as sites with their own nav, falling back to the default language', async () => {
    const { model, problems } = await check({
      'mkdocs.yml': [
        'site_name: x',
        'plugins:',
        '  - i18n:',
        '      docs_structure: folder',
        '      languages:',
        '        - locale: en',
        '          default: true',
        '          nav:',
        '            - Intro: index.md',
        '            - Agents: agents.md',
        '        - locale: ja',
        '          nav:',
        '            - はじめに: index.md',
        '            - agents.md',
        '            - gone.md',
        '',
      ].join('\n'),
      'docs/index.md': '# Intro\n\n[Agents](agents.md)\n',
      'docs/agents.md': '# Agents\n',
      'docs/ja/index.md': '# はじめに\n\n[Agents](agents.md) [missing](missing.md)\n',
    });
    assert.deepEqual(model.pages.get('docs/ja/index.md'), ['/ja']);
    assert.deepEqual(
      model.navigation.map((entry) => [entry.reference, entry.line, entry.groups[0], entry.target]),
      [
        ['index.md', 9, 'Intro', 'docs/index.md'],
        ['agents.md', 10, 'Agents', 'docs/agents.md'],
        ['index.md', 13, 'ja', 'docs/ja/index.md'],
        ['agents.md', 14, 'ja', 'docs/agents.md'],
        ['gone.md', 15, 'ja', null],
      ],
    );
    assert.deepEqual(
      problems.map((problem) => `${problem.file}:${problem.line}: ${problem.message}`),
      [
        'mkdocs.yml:15: Navigation entry "gone.md" names no page',
        'docs/ja/index.md:3: Broken link "missing.md": no file docs/ja/missing.md',
      ],
    );
    assert.equal(
      model.unsupported.some((note) => note.includes('i18n')),
      false,
    );
  });
});
