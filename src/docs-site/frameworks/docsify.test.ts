import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkFiles as check, problemLines as messages } from '../../../test/site-check.ts';
import { detectSite, memoryFiles, pagesMissingFromNavigation } from '../index.ts';

const indexHtml = (config: string) =>
  [
    '<!DOCTYPE html>',
    '<html><head><meta charset="UTF-8"></head>',
    '<body>',
    '  <div id="app"></div>',
    '  <script>',
    `    window.$docsify = ${config};`,
    '  </script>',
    '  <script src="//cdn.jsdelivr.net/npm/docsify@4"></script>',
    '</body></html>',
    '',
  ].join('\n');

// The shape of Tencent/Hippy's `docs/` and docsifyjs/docsify's own: a sidebar per folder, a navbar, a
// cover page, translations that fall back to the default language, an alias to another site, and
// links written from the site's root whatever page they are in.
const site = {
  'docs/index.html': indexHtml(`{
      name: 'Demo',
      loadSidebar: true,
      loadNavbar: true,
      coverpage: true,
      alias: {
        '.*?/changelog': 'https://raw.githubusercontent.com/demo/demo/main/CHANGELOG.md',
        '/.*/_navbar.md': '/_navbar.md',
      },
      fallbackLanguages: ['zh-cn'],
      plugins: [function (hook) { hook.init(() => {}) }],
    }`),
  'docs/README.md': '# Demo\n\n[Quick start](quickstart.md) and [the guide](guide/).\n',
  'docs/_coverpage.md': '# Demo\n\n[Get started](quickstart)\n',
  'docs/_navbar.md': '- [English](/)\n- [中文](/zh-cn/)\n',
  'docs/_sidebar.md':
    '- Getting started\n  - [Quick start](quickstart.md)\n  - [Changelog](changelog.md)\n  - [Gone](gone.md)\n',
  'docs/quickstart.md':
    '# Quick start\n\n[Setup](guide/setup.md), [API](/api/render?id=props), [Missing](guide/missing.md).\n\n![Shot](_images/shot.png)\n',
  'docs/_images/shot.png': '',
  'docs/guide/README.md': '# Guide\n\n![Diagram](diagram.png) ![Lost](lost.png)\n',
  'docs/guide/diagram.png': '',
  'docs/guide/_sidebar.md': '- [Guide](guide/)\n- [Setup](guide/setup.md)\n- [Wrong](setup.md)\n',
  // Written from the root, not from guide/: `setup.md` here would be docs/setup.md.
  'docs/guide/setup.md': '# Setup\n\n[Back](guide/) · [Relative](setup.md) · [Quick start](/quickstart)\n',
  'docs/api/render.md':
    "# Render\n\n[Embedded](_media/example.md ':include') [Raw](../files/tool.zip ':ignore')\n",
  'docs/api/_media/example.md': '# Example\n',
  'docs/zh-cn/README.md': '# 演示\n\n[快速开始](zh-cn/quickstart.md) [指南](zh-cn/guide/setup)\n',
  'docs/files/tool.zip': '',
  'docs/downloads/tool.zip': '',
  'docs/downloads.md':
    '# Downloads\n\n[The tool](downloads/tool.zip) or [as a file](downloads/tool.zip \':ignore\').\n\n<a href="#/guide/setup">Setup</a> <a href="#/nowhere">Nowhere</a> <img src="_images/shot.png">\n',
};

describe('Docsify site model', () => {
  it('is found by the page that loads Docsify', async () => {
    assert.deepEqual(await detectSite(memoryFiles(site)), {
      framework: 'docsify',
      siteRoot: 'docs',
      configFile: 'docs/index.html',
    });
    const plain = { 'docs/index.html': '<html><script src="app.js"></script></html>', 'docs/a.md': '# A\n' };
    assert.equal((await detectSite(memoryFiles(plain))).framework, 'markdown');
  });

  it('serves every Markdown file at its route; sidebars and navbars are navigation, the cover page a partial', async () => {
    const { model } = await check(site);
    assert.equal(model.framework, 'docsify');
    assert.deepEqual(model.pages.get('docs/README.md'), ['/']);
    assert.deepEqual(model.pages.get('docs/guide/README.md'), ['/guide/']);
    assert.deepEqual(model.pages.get('docs/guide/setup.md'), ['/guide/setup']);
    assert.equal(model.pages.has('docs/_sidebar.md'), false);
    assert.deepEqual([...model.partials], ['docs/_coverpage.md']);
    assert.deepEqual(model.configFiles, [
      'docs/index.html',
      'docs/_navbar.md',
      'docs/_sidebar.md',
      'docs/guide/_sidebar.md',
    ]);
    assert.deepEqual(model.unsupported, []);
  });

  it('resolves links from the root, images and embeds from the page, HTML and :ignore from the site', async () => {
    const { problems } = await check(site);
    assert.deepEqual(messages(problems), [
      'docs/_sidebar.md:4: Navigation entry "gone.md" names no page',
      'docs/guide/_sidebar.md:3: Navigation entry "setup.md" names no page',
      'docs/downloads.md:3: Broken link "downloads/tool.zip": Docsify routes a link to docs/downloads/tool.zip to the page docs/downloads/tool.zip.md, which does not exist; link the file with \':ignore\' or a full URL',
      'docs/downloads.md:5: Broken link "#/nowhere": no page docs/nowhere.md (Docsify\'s route /nowhere)',
      'docs/guide/README.md:3: Broken image "lost.png": no file docs/guide/lost.png (Docsify reads it from the page\'s folder)',
      'docs/guide/setup.md:3: Broken link "setup.md": no page docs/setup.md (Docsify\'s route /setup)',
      'docs/quickstart.md:3: Broken link "guide/missing.md": no page docs/guide/missing.md (Docsify\'s route /guide/missing)',
    ]);
  });

  it('follows relativePath, homepage, basePath and a configuration kept in its own script', async () => {
    const files = {
      'index.html':
        '<html><body><div id="app"></div><script src="config.js"></script><script src="//unpkg.com/docsify/lib/docsify.min.js"></script></body></html>\n',
      'config.js':
        "window.$docsify = { basePath: 'content/', homepage: 'intro.md', relativePath: true, loadSidebar: 'toc.md' }\n",
      'content/intro.md': '# Intro\n\n[Lesson](lessons/one.md) [Home](README.md)\n',
      'content/README.md': '# Not served: the home page is intro.md\n',
      'content/toc.md': '- [Intro](intro.md)\n- [Lesson one](lessons/one.md)\n',
      'content/lessons/one.md': '# One\n\n[Two](two.md) [Folder](code) [Intro](../intro.md)\n',
      'content/lessons/two.md': '# Two\n',
      'content/lessons/code/app.py': '',
    };
    const { model, problems } = await check(files);
    assert.deepEqual(model.configFiles, ['index.html', 'config.js', 'content/toc.md']);
    assert.deepEqual(model.pages.get('content/intro.md'), ['/']);
    assert.deepEqual(model.pages.get('content/README.md'), []);
    assert.deepEqual(messages(problems), [
      'content/lessons/one.md:3: Broken link "code": content/lessons/code is a folder: Docsify opens the page content/lessons/code.md, which does not exist; link `code/` for its README, or a full URL',
    ]);
    // A new page belongs in the nearest sidebar.
    const created = { ...files, 'content/lessons/three.md': '# Three\n' };
    const after = await check(created);
    assert.deepEqual(messages(pagesMissingFromNavigation(after.model, ['content/lessons/three.md'])), [
      'content/lessons/three.md:1: New page is missing from navigation; add it to content/toc.md',
    ]);
  });

  // Timed in bench/hostile-pages.ts; the timeout only stops a stalled run.
  it('applies alias patterns with RE2, so a hostile pattern cannot stall the check', {
    timeout: 60_000,
  }, async () => {
    const files = {
      'index.html': indexHtml(`{
        alias: { '/(a+)+b': '/never.md', '/old/(.*)': '/new/$1', '/(?=x)': '/y' },
      }`),
      'README.md': `# Home\n\n[Old](old/page) [Slow](/${'a'.repeat(5000)}c)\n`,
      'new/page.md': '# Page\n',
    };
    const { model, problems } = await check(files);
    assert.deepEqual(model.unsupported, [
      'index.html: the `alias` pattern `/(?=x)` uses syntax this check cannot apply safely; routes it matches are unchecked',
    ]);
    // The unreadable pattern may match anything: the missing page is unchecked, not broken.
    assert.deepEqual(messages(problems), []);
  });

  it('reads a hostile page that loads Docsify, and a configuration it cannot read as defaults', {
    timeout: 60_000,
  }, async () => {
    const files = {
      'index.html': `<html><script>window.$docsify = function (vm) { return { loadSidebar: true } }</script><script src="docsify.js"></script>${'<script '.repeat(200_000)}\n`,
      'README.md': '# Home\n\n[Guide](guide)\n',
      'guide.md': '# Guide\n',
    };
    const { model, problems } = await check(files);
    assert.deepEqual(model.unsupported, [
      "index.html: `window.$docsify` is computed by code; Docsify's defaults are assumed",
    ]);
    assert.deepEqual(messages(problems), []);
  });

  it('takes an extension that is none as .md, and says so', async () => {
    const { model } = await check({
      'index.html': indexHtml("{ ext: '' }"),
      'README.md': '# Home\n',
      'notes.txt': 'x\n',
    });
    assert.deepEqual([...model.pages.keys()], ['README.md']);
    assert.deepEqual(model.unsupported, ['index.html: `ext` "" is not a file extension; `.md` is assumed']);
  });

  it('leaves a nested Docsify site (a demo or test app) to itself', async () => {
    const files = {
      ...site,
      'docs/test/index.html': indexHtml("{ loadSidebar: 'sidebar.md' }"),
      'docs/test/_sidebar.md': '- [Page](page1)\n',
      'docs/test/README.md': '# Test app\n\n[Elsewhere](nowhere.md)\n',
    };
    const { model } = await check(files);
    assert.equal(model.pages.has('docs/test/README.md'), false);
    assert.equal(model.configFiles.includes('docs/test/_sidebar.md'), false);
  });
});
