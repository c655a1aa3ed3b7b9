import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyzeSite, checkSite, memoryFiles, PageFactsCache, pagesMissingFromNavigation } from '../index.ts';
import { readPageFacts } from '../page-facts.ts';
import { compileDocfxGlobs } from './docfx-config.ts';
import { readMarkdownToc } from './docfx-toc.ts';

async function analyze(files: ReturnType<typeof memoryFiles>) {
  const { model, source } = await analyzeSite(files, new PageFactsCache());
  return { model, problems: await checkSite(model, source) };
}

const problemLines = (problems: ReadonlyArray<{ file: string; line: number; message: string }>) =>
  problems.map((problem) => `${problem.file}:${problem.line} ${problem.message}`);

// Shapes mirrored: dotnet/docfx's own site (`docs/docfx.json` with `**/*.{md,yml}` content and a
// `metadata` section writing `api/`, a navbar `toc.yml` of folder references, `docs/toc.yml` with
// `../` entries and a nested `toc.yml`), MicrosoftDocs/PowerShell-Docs-Modules (content groups with
// `src` and `dest`, `[!INCLUDE]` files excluded from the content, links differing in case, Learn's
// `.openpublishing.redirection.json`) and bUnit (a `toc.md`, pages with `uid` linked by `xref:`).
describe('DocFX sites', () => {
  it('reads docfx.json’s content, links to files of the build, tables of contents and includes', async () => {
    const { model, problems } = await analyze(
      memoryFiles({
        'docs/docfx.json':
          '// comments are allowed\n{\n  "build": {\n    "content": [\n      { "files": ["**/*.{md,yml}"], "exclude": ["_site/**", "**/includes/**"] },\n      { "src": "../samples", "files": ["**.md"], "dest": "samples" },\n    ],\n    "resource": [{ "files": ["**/images/**"] }]\n  }\n}\n',
        'docs/toc.yml':
          '- name: Docs\n  href: docs/\n- name: Missing\n  href: nowhere/\n- name: Samples\n  href: ../samples/toc.yml\n',
        'docs/index.md':
          '# Home\n\n[Start](docs/Getting-Started.md)\n[Output](docs/getting-started.html)\n[Folder](docs/)\n',
        'docs/docs/toc.yml':
          '- name: Get started\n  items:\n  - href: getting-started.md\n  - href: ../index.md\n  - name: Reference\n    href: reference/toc.yml\n  - href: gone.md\n',
        'docs/docs/index.md': '# Docs\n',
        'docs/docs/getting-started.md':
          '# Getting started\n\n[Home](~/index.md)\n[Image](../images/logo.png)\n[Not built](../README.md)\n[Gone](gone.md)\n<a href="reference/api.md">API</a>\n[Back](..\\index.md)\n\n[!INCLUDE [note](../includes/note.md)]\n[!INCLUDE [missing](../includes/missing.md)]\n\n```md\n[In code](nowhere.md)\n```\n',
        'docs/docs/reference/toc.yml': 'items:\n- href: api.md\n',
        'docs/docs/reference/api.md': '# API\n',
        'docs/docs/new-page.md': '# New\n',
        'docs/includes/note.md': '[Relative to the include](../docs/index.md)\n[Broken](../docs/none.md)\n',
        'docs/images/logo.png': '',
        'docs/README.md': '# Not in the build\n',
        'samples/toc.yml': '- href: intro.md\n',
        'samples/intro.md': '# Samples\n\n[Docs](../docs/index.md)\n',
      }),
    );
    assert.equal(model.framework, 'docfx');
    assert.equal(model.siteRoot, 'docs');
    assert.deepEqual(model.pages.get('docs/docs/getting-started.md'), ['/docs/getting-started.html']);
    assert.deepEqual(model.pages.get('docs/index.md'), ['/']);
    assert.deepEqual(model.pages.get('samples/intro.md'), ['/samples/intro.html']);
    assert.equal(model.pages.has('docs/README.md'), true, 'matched by **/*.md');
    assert.deepEqual([...model.partials], ['docs/includes/note.md']);
    assert.equal(
      model.navigation.find((entry) => entry.reference === 'docs/')?.target,
      'docs/docs/getting-started.md',
      'a folder opens the first page of its toc.yml',
    );
    assert.deepEqual(problemLines(problems), [
      'docs/toc.yml:4 Navigation entry "nowhere/" names no page',
      'docs/docs/toc.yml:7 Navigation entry "gone.md" names no page',
      'docs/docs/getting-started.md:6 Broken link "gone.md": no file docs/docs/gone.md',
      'docs/docs/getting-started.md:11 Broken link "../includes/missing.md": no file docs/includes/missing.md to include',
      'docs/includes/note.md:2 Broken link "../docs/none.md": no file docs/docs/none.md',
    ]);
    assert.deepEqual(problemLines(pagesMissingFromNavigation(model, ['docs/docs/new-page.md'])), [
      'docs/docs/new-page.md:1 New page is missing from navigation; add it to docs/docs/toc.yml',
    ]);
  });

  it('reports a file outside the build, and reads paths without case as Windows and Learn do', async () => {
    const { problems } = await analyze(
      memoryFiles({
        '.openpublishing.publish.config.json':
          '{"docsets_to_publish": [{"build_source_folder": "reference"}]}\n',
        '.openpublishing.redirection.json':
          '{"redirections": [{"source_path": "reference/docs/old.md", "redirect_url": "/powershell/new"}]}\n',
        'reference/docfx.json':
          '{"build": {"content": [{"src": "docs", "dest": "module", "files": ["**/*.md", "**/*.yml"], "exclude": ["includes/**"]}]}}\n',
        'reference/docs/toc.yml': '- href: Overview.md\n- href: old.md\n- uid: Some.Api.Type\n',
        'reference/docs/overview.md':
          '# Overview\n\n[Moved](old.md)\n[Case](OVERVIEW.md)\n[Learn uid](xref:Microsoft.PowerShell.Core.About)\n[Include, not a page](includes/shared.md)\n[!INCLUDE[shared](includes/shared.md)]\n',
        'reference/docs/includes/shared.md': 'Shared text.\n',
      }),
    );
    assert.deepEqual(problemLines(problems), [
      'reference/docs/overview.md:6 Broken link "includes/shared.md": reference/docs/includes/shared.md is not in reference/docfx.json\'s `build.content` or `build.resource`, so DocFX does not publish it',
    ]);
  });

  it('resolves uids from front matter, and reports unknown ones only when nothing else defines uids', async () => {
    const site = (docfx: string) =>
      memoryFiles({
        'docfx.json': docfx,
        'toc.md': '# [Intro](intro.md)\n## Guides\n### [Setup](@guides-setup)\n### @missing-uid\n',
        'intro.md':
          '---\nuid: intro\n---\n# Intro\n\n<xref:guides-setup>\n[Setup](xref:guides-setup?displayProperty=name)\n[Nothing](xref:no-such-uid)\n',
        'guides/setup.md': '---\nuid: guides-setup\n---\n# Setup\n\n[Intro](xref:intro)\n',
      });
    const closed = await analyze(site('{"build": {"content": [{"files": ["**.md", "toc.md"]}]}}\n'));
    assert.equal(
      closed.model.navigation.find((entry) => entry.reference === 'guides-setup')?.target,
      'guides/setup.md',
    );
    assert.deepEqual(problemLines(closed.problems), [
      'toc.md:4 Navigation entry "missing-uid" names no page',
      'intro.md:8 Broken link "xref:no-such-uid": no page has the uid "no-such-uid"',
    ]);
    // API pages from `metadata`, or cross-reference maps, may define any uid.
    const open = await analyze(
      site(
        '{"metadata": [{"src": [{"files": ["src/**.csproj"]}], "dest": "api"}], "build": {"content": [{"files": ["**.md", "toc.md", "api/**.yml"]}]}}\n',
      ),
    );
    assert.deepEqual(problemLines(open.problems), []);
  });

  it('leaves generated API pages and the site’s root links unchecked', async () => {
    const { model, problems } = await analyze(
      memoryFiles({
        'docfx.json':
          '{"metadata": [{"src": [{"src": "../src", "files": ["**/*.csproj"]}], "dest": "api"}], "build": {"content": [{"files": ["api/**.yml", "api/index.md"]}, {"files": ["*.md", "toc.yml"]}]}}\n',
        'toc.yml': '- name: Home\n  href: index.md\n- name: API\n  href: api/\n',
        'index.md':
          '# Home\n\n[A type](api/Polly.ResiliencePipeline.html)\n[Root](/docs/other.html)\n[Gone](api/gone.md)\n',
        'api/index.md': '# API\n',
      }),
    );
    assert.deepEqual(problemLines(problems), ['index.md:5 Broken link "api/gone.md": no file api/gone.md']);
    assert.equal(
      model.needsNavigationEntry('api/new.md'),
      false,
      'the API folder’s table of contents is generated',
    );
  });

  it('checks fragments against the ids DocFX gives headings, as its ValidateBookmark does', async () => {
    const { problems } = await analyze(
      memoryFiles({
        'docfx.json': '{"build": {"content": [{"files": ["**.md"]}]}}\n',
        'config.md':
          '# Configuration\n\n## ⚙️ Changes to `Client`\n\n### HttpRequest\n\n### HttpRequest\n\n## <a name="custom"></a>Custom\n\n## C# & .NET: v2.0\n\n## $\\alpha$-shape filter\n',
        'usage.md':
          '# Usage\n\n[a](config.md#-changes-to-client)\n[b](config.md#httprequest-1)\n[c](config.md#custom)\n[d](config.md#c--net-v20)\n[e](config.md#top)\n[f](config.md#HttpRequest)\n[g](#usage)\n[h](#nothing)\n[i](shared.md#anything)\n[j](config.md#-shape-filter)\n[k](config.md##custom)\n',
        // Included files add headings this reader does not follow: their page's anchors are unknown.
        'shared.md': '# Shared\n\n[!INCLUDE [x](includes/x.md)]\n',
        'includes/x.md': '## Anything\n',
      }),
    );
    assert.deepEqual(problemLines(problems), [
      'usage.md:8 Broken anchor "config.md#HttpRequest": config.md has no heading or element with the id "HttpRequest"',
      'usage.md:10 Broken anchor "#nothing": usage.md has no heading or element with the id "nothing"',
    ]);
  });

  it('reads includes, code snippets and triple-colon images as DocFX Flavored Markdown writes them', () => {
    const facts = readPageFacts(
      '# Page\n\n[!INCLUDE [title](../includes/a.md)]\nText [!include[inline](b.md)] here.\n[!code-csharp[Main](../samples/Program.cs#L1-L5)]\n:::image type="content" source="media/shot.png" alt-text="A shot." lightbox="media/shot-big.png":::\n:::code language="csharp" source="snippets/x.cs" range="1-3":::\n`[!INCLUDE [shown](not-read.md)]`\n[Plain](plain.md)\n',
      'docfx',
    );
    assert.deepEqual(
      facts.links.map(
        (link) => `${link.line} ${link.kind}${link.title === undefined ? '' : `:${link.title}`} ${link.url}`,
      ),
      [
        '3 import:include ../includes/a.md',
        '4 import:include b.md',
        '5 import:code ../samples/Program.cs#L1-L5',
        '6 image media/shot.png',
        '6 image media/shot-big.png',
        '7 import:code snippets/x.cs',
        '9 link plain.md',
      ],
    );
  });

  it('matches globs as DocFX does', () => {
    const matches = compileDocfxGlobs(['**.md', 'api/**.yml', 'docs/{a,b}/*.yml', 'Articles/**']);
    assert.equal(matches('x.md'), true, '`**.md` is `**/*.md`, at the top too');
    assert.equal(matches('a/b/x.md'), true);
    assert.equal(matches('.github/x.md'), false, 'a wildcard takes no leading dot');
    assert.equal(matches('api/sub/t.yml'), true);
    assert.equal(matches('docs/b/t.yml'), true);
    assert.equal(matches('docs/c/t.yml'), false);
    assert.equal(matches('articles/intro/x.png'), true, 'without case');
    assert.equal(compileDocfxGlobs(['*.md'])('a/x.md'), false);
    assert.equal(compileDocfxGlobs(['docs/**'])('docs/a/b.png'), true);
    assert.equal(
      compileDocfxGlobs(['**/*.png'])('a/.attachments/x.png'),
      false,
      '`**` crosses no dot folder',
    );
    assert.equal(compileDocfxGlobs(['*'])('.gitignore'), false);
    assert.equal(
      compileDocfxGlobs(['**/*.png'], { dot: true })('a/.attachments/x.png'),
      true,
      'unless `dot` is set',
    );
    assert.equal(
      compileDocfxGlobs(['A.md'], { caseSensitive: true })('a.md'),
      false,
      '`case` makes it case-sensitive',
    );
  });

  it('reads a toc.md as DocFX does: headings, comments, and the lines that stop its build', () => {
    assert.deepEqual(
      readMarkdownToc(
        '# [Home](index.md)\n<!--\n# [Old](old.md)\n-->\n# Guides\n## [Setup](guides/setup.md "Setup")\n## @uid-one\n## [By xref](xref:uid-two)\n## <xref:uid-three>\n## @intro.\n',
        'toc.md',
      ),
      {
        references: [
          { key: 'href', value: 'index.md', line: 1, groups: [] },
          { key: 'href', value: 'guides/setup.md', line: 6, groups: ['Guides'] },
          { key: 'uid', value: 'uid-one', line: 7, groups: ['Guides'] },
          { key: 'uid', value: 'uid-two', line: 8, groups: ['Guides'] },
          { key: 'uid', value: 'uid-three', line: 9, groups: ['Guides'] },
        ],
        problems: [],
      },
    );
    const messages = (text: string) =>
      readMarkdownToc(text, 'toc.md').problems.map((problem) => problem.message);
    assert.deepEqual(messages('# [A](a.md)\n- [B](b.md)\n'), [
      'toc.md: DocFX cannot read line 2 (not a heading, comment or blank line), so the build stops',
    ]);
    assert.deepEqual(messages('# [A](a.md)\n### [B](b.md)\n# [C](c.md)\n'), [
      'toc.md: DocFX cannot read line 2 (a heading more than one level below the one before), so the build stops',
    ]);
    assert.deepEqual(messages('# [A](a.md)\n### [B](b.md)\n'), [], 'a skipped level on the last line passes');
  });

  it('follows what the review against DocFX’s sources found', async () => {
    const { model, problems } = await analyze(
      memoryFiles({
        '.openpublishing.publish.config.json':
          '{"dependent_repositories": [{"path_to_root": "reusable-content", "url": "https://github.com/MicrosoftDocs/reusable-content"}]}\n',
        'docs/docfx.json':
          '{"metadata": [{"src": [{"files": ["**.csproj"]}], "dest": "api"}], "build": {"content": [{"files": ["**/*.md", "**/toc.yml"], "exclude": ["includes/**"], "dest": "."}, {"files": ["**/*.png"], "dot": true}]}}\n',
        'docs/toc.yml':
          '- href: guide/a.html\n- href: guide/\n- href: api/toc.yml\n- name: By uid\n  uid: guide-a\n  href: stale.md\n- tocHref: guide/a.md\n',
        'docs/guide/a.md':
          '---\nuid: guide-a\n---\n# A\n\n[B](~/guide/b.html)\n![Attachment](.attachments/shot.png)\n',
        'docs/guide/b.md':
          '# B\n\n<!-- [!INCLUDE [old](../includes/old.md)] -->\n<!--\n:::image source="media/gone.png" alt-text="x":::\n-->\n[!INCLUDE [shared](~/reusable-content/shared.md)]\n[!INCLUDE [note](../includes/note.md)]\n',
        'docs/guide/index.md': '# Guide\n',
        'docs/guide/.attachments/shot.png': '',
        'docs/includes/note.md':
          '[Markdown, from the include](../guide/a.md)\n<a href="b.md">HTML, from the page</a>\n',
      }),
    );
    assert.deepEqual(model.pages.get('docs/guide/a.md'), ['/guide/a.html'], '`dest: "."` is the root');
    assert.deepEqual(problemLines(problems), [
      'docs/toc.yml:7 tocHref "guide/a.md" must name a toc.yml or toc.md (or an absolute URL); DocFX stops the build',
    ]);
  });
});
