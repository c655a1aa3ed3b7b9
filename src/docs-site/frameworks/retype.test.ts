import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readRetypeAnchors } from '../heading-anchors.ts';
import { analyzeSite, checkSite, memoryFiles, PageFactsCache, pagesMissingFromNavigation } from '../index.ts';

async function analyze(files: ReturnType<typeof memoryFiles>) {
  const { model, source } = await analyzeSite(files, new PageFactsCache());
  return { model, problems: await checkSite(model, source) };
}

const problemLines = (problems: ReadonlyArray<{ file: string; line: number; message: string }>) =>
  problems.map((problem) => `${problem.file}:${problem.line} ${problem.message}`);

// Each rule was checked against Retype 4.6.0's own build (`retype build`: its warnings and the site
// it writes). Shapes mirrored: CommandPost/ResolveCafe (a project in `docs/`, `{{ include }}` from
// `_includes/`, `../static/` images written from the page's URL), BlissRoms-x86/Documentation (a
// GitBook migration: `x.md` beside `x/README.md`, images in `.gitbook/assets/`), AIHubCentral/docs
// (`input: ./assets`, raw HTML images), TheAcharya/MarkerData-Website (links written as URLs).
describe('Retype sites', () => {
  it('reads pages, routes and links as Retype builds them', async () => {
    const { model, problems } = await analyze(
      memoryFiles({
        'docs/.gitbook.yaml': 'root: ./\n',
        'docs/retype.yml':
          'input: .\nurl: example.com/help\nexclude:\n  - drafts/\nlinks:\n  - text: Guide\n    link: guide/getting-started.md\n  - text: Gone\n    link: /gone.md\nfooter:\n  links:\n    - text: About\n      link: About Us.md\n',
        'docs/README.md':
          '# Home\n\n[Start](Guide/Getting-Started.md#first-steps)\n[Route](/guide/getting-started/)\n[Missing](missing.md)\n[Draft](drafts/plan.md)\n[Dropped](install/readme.md)\n[Folder](install)\n[No page](empty/)\n[Tags](/tags/)\n',
        'docs/About Us.md':
          '---\ntags: [guide]\n---\n# About\n\n[Home](./)\n[CSV](data.csv)\n[Zip](files/all.zip)\n[Up](../outside.md)\n',
        'docs/data.csv': '',
        'docs/files/all.zip': '',
        'docs/Guide/Getting Started.md':
          '# Getting started\n\n## First steps\n\n[Bad anchor](#second-steps)\n[Case](#First-Steps)\n![Shot](../static/shot.png)\n![Found elsewhere](shot.png)\n<img src="../../static/shot.png">\n<img src="../static/shot.png">\n',
        'docs/_includes/note.md': '[From the include](<../About Us.md>)\n[Broken](../nothing.md)\n',
        'docs/static/shot.png': '',
        'docs/install.md': '# Install\n\n{{ include "note" }}\n{{ include "nowhere" }}\n',
        'docs/install/readme.md': '# Install (superseded)\n',
        'docs/install/linux.md': '---\nredirect: ../nowhere.md\n---\n# Linux\n',
        'docs/empty/image.png': '',
        'docs/drafts/plan.md': '# Plan\n',
        'docs/_partials/hidden.md': '# Hidden\n',
        'docs/.gitbook/assets/photo.png': '',
      }),
    );
    assert.equal(model.framework, 'retype');
    assert.equal(model.siteRoot, 'docs');
    assert.deepEqual(model.pages.get('docs/README.md'), ['/help/']);
    assert.deepEqual(model.pages.get('docs/Guide/Getting Started.md'), [
      '/help/guide/getting-started/',
      '/help/guide/getting-started',
    ]);
    // `install.md` is the `install/` folder's page; its `readme.md` is not built.
    assert.deepEqual(model.pages.get('docs/install.md'), ['/help/install/', '/help/install']);
    assert.equal(model.pages.has('docs/install/readme.md'), false);
    assert.equal(model.pages.has('docs/drafts/plan.md'), false);
    assert.equal(model.pages.has('docs/_partials/hidden.md'), false);
    assert.deepEqual([...model.partials], ['docs/_includes/note.md']);
    assert.deepEqual(problemLines(problems), [
      'docs/install/linux.md:2 The redirect to "../nowhere.md" names no page: no file nowhere.md under docs/; Retype warns that the URL was not resolved',
      'docs/retype.yml:9 Navigation entry "/gone.md" names no page',
      'docs/About Us.md:7 Broken link "data.csv": Retype copies only media and known resource types, files under static/, public/, assets/ or resources/, and `include`d ones; docs/data.csv is not copied',
      'docs/About Us.md:9 Broken link "../outside.md": outside.md is outside the input folder docs; Retype does not resolve it',
      // A URL is left as written, and this one misses the site's base path (`url: example.com/help`).
      'docs/README.md:4 Broken link "/guide/getting-started/": no file guide/getting-started under docs/; Retype warns that the URL was not resolved',
      'docs/README.md:5 Broken link "missing.md": no file missing.md under docs/; Retype warns that the URL was not resolved',
      'docs/README.md:6 Broken link "drafts/plan.md": Retype leaves docs/drafts/plan.md out (names starting with `.` or `_`, `node_modules`, `exclude`)',
      'docs/README.md:7 Broken link "install/readme.md": Retype builds docs/install.md in its place (a folder has one page) and does not resolve it',
      'docs/README.md:9 Broken link "empty/": the folder docs/empty has no page (index.md, default.md or readme.md)',
      'docs/install.md:4 Broken link "nowhere": no file nowhere to include in the page\'s folder, an `_includes` folder or a folder above; Retype warns that the partial was not resolved',
      'docs/Guide/Getting Started.md:5 Broken anchor "#second-steps": docs/Guide/Getting Started.md has no heading or element with the id "second-steps"',
      'docs/Guide/Getting Started.md:10 Broken image "../static/shot.png": Retype leaves HTML links as written, and the browser finds no page or file at /help/guide/static/shot.png',
      'docs/_includes/note.md:2 Broken link "../nothing.md": no file nothing.md under docs/; Retype warns that the URL was not resolved',
    ]);
    // A new page needs no navigation entry: the sidebar is made from the folders.
    assert.deepEqual(pagesMissingFromNavigation(model, ['docs/Guide/new.md']), []);
  });

  it('takes a folder page in Retype’s order, a page named after its folder, and permalinks', async () => {
    const { model } = await analyze(
      memoryFiles({
        'retype.yml': 'input: src\ngenerator:\n  recase: none\n',
        'src/welcome.md': '# Welcome\n',
        'src/home.md': '# Home\n',
        'src/a/README.md': '# A\n',
        'src/a/default.md': '# A default\n',
        'src/b/b.md': '# B\n',
        'src/b/Other Page.md': '---\npermalink: /elsewhere/Page\n---\n# Other\n',
        'src/c/index.yml': 'permalink: tutorials\n',
        'src/c/intro.md': '# Intro\n',
      }),
    );
    assert.deepEqual(model.pages.get('src/home.md'), ['/']);
    assert.deepEqual(model.pages.get('src/welcome.md'), undefined);
    assert.deepEqual(model.pages.get('src/a/default.md'), ['/a/', '/a']);
    assert.equal(model.pages.has('src/a/README.md'), false);
    assert.deepEqual(model.pages.get('src/b/b.md'), ['/b/', '/b']);
    // `recase: none` keeps the permalink's case, in the site and in links.
    assert.deepEqual(model.pages.get('src/b/Other Page.md'), ['/elsewhere/Page/', '/elsewhere/Page']);
    assert.deepEqual(model.pages.get('src/c/intro.md'), ['/tutorials/intro/', '/tutorials/intro']);
  });

  it('reads `retype.json`, reports its syntax errors, and follows no symbolic link', async () => {
    const { model, problems } = await analyze(
      memoryFiles({
        'retype.json': '{\n  "input": "docs",\n  "url": "example.com",\n}\n',
        'docs/index.md':
          '# Home\n\n[Linked folder](gem/config.rb)\n\n:::code source="/gem/lib.rb" :::\n\n:::code source="missing.rb" :::\n',
        docs: '',
        'docs/gem': '../gem',
      }),
    );
    assert.equal(model.framework, 'retype');
    assert.deepEqual(problemLines(problems), [
      'docs/index.md:7 Broken link "missing.rb": no file docs/missing.rb; Retype warns that the code snippet\'s source is not found',
    ]);
  });

  it('follows what Retype 4.6 builds where gitignore rules, folders and redirects differ', async () => {
    const { model, problems } = await analyze(
      memoryFiles({
        'retype.yml': 'url: example.com\nexclude:\n  - keep/\n  - "!keep/sub/k.md"\n  - ex/\n',
        'index.md': [
          '# Home',
          '',
          '[Taken back](keep/sub/k.md)',
          '[Asset in an excluded folder](ex/assets/b.png)',
          '[Anything under .gitbook](.gitbook/other/o.csv)',
          '[Folder, same-name page first](m#m-same-sec)',
          '[Folder page by name](m/index)',
          '[By name in a usual folder](deep/fallback.pdf)',
          '[Empty fragment](m/m.md#)',
          '[HTML folder](htmlonly/)',
          '[Redirect, same depth](r.md)',
          '[Redirect to nothing](gone.md)',
          '<a href="/M/">Case</a>',
          '[Heading with a badge](#heading-with-new)',
          '',
          '## Heading with [!badge NEW]',
          '',
          '{{ include "parts/p" }}',
          '',
          '',
          '[From the include](#from-the-partial)',
          '[Not anywhere](#nowhere)',
        ].join('\n'),
        'keep/sub/k.md': '# K\n',
        'ex/assets/b.png': '',
        '.gitbook/other/o.csv': '',
        'm/index.md': '# M\n\n## M Index Sec\n',
        'm/m.md': '# M same\n\n## M Same Sec\n',
        'static/fallback.pdf': '',
        'htmlonly/index.html': '<p>x</p>',
        'r.md': '---\nredirect: target.md\n---\n# R\n',
        'target.md': '# Target\n\n{{ include "m/nowhere" }}\n',
        'gone.md': '---\nredirect: missing.md\n---\n# Gone\n',
        'a/b/deep.md': '# Deep\n\n[Redirect, deeper](../../r.md)\n',
        '_includes/parts/p.md': '## From the partial\n',
        'n.md': '---\npermalink: /Mixed Case\n---\n# N\n',
      }),
    );
    assert.equal(model.pages.has('keep/sub/k.md'), true);
    assert.deepEqual(problemLines(problems), [
      'n.md:2 The permalink "/Mixed Case" is written as it is (/Mixed Case/) but every link to the page goes to /mixed-case/: a 404 on a host that tells case apart; write it in lower case, with `-` for spaces',
      'gone.md:2 The redirect to "missing.md" names no page: no file missing.md under the root/; Retype warns that the URL was not resolved',
      'a/b/deep.md:3 Broken link "../../r.md": r.md redirects to target.md, and Retype writes the link as the way from /r/ (../target/), which from here leads to /a/b/target/',
      'index.md:4 Broken link "ex/assets/b.png": Retype leaves ex/assets/b.png out (names starting with `.` or `_`, `node_modules`, `exclude`)',
      'index.md:7 Broken link "m/index": no file m/index under the root/; Retype warns that the URL was not resolved',
      'index.md:9 Broken link "m/m.md#": an empty fragment: Retype stops on it (\'anchor\' has bad format) and does not write the page',
      'index.md:12 Broken link "gone.md": gone.md redirects to "missing.md", which names no page, and Retype writes the link as that',
      'index.md:13 Broken link "/M/": Retype leaves HTML links as written, and the browser finds no page or file at /M/',
      'index.md:22 Broken anchor "#nowhere": index.md has no heading or element with the id "nowhere"',
      'target.md:3 Broken link "m/nowhere": no file m/nowhere to include from the page\'s folder or an `_includes` folder; Retype warns that the partial was not resolved',
    ]);
  });

  it('follows Retype 4.6 on blogs, downloads, templating, includes in code and configuration files', async () => {
    const { problems } = await analyze(
      memoryFiles({
        'retype.yml':
          'url: example.com\nblog:\n  base: news\n  pageSize: 2\nbranding:\n  logo: static/logo.png\n  logoDark: static/missing-dark.png\nhub:\n  link: nope-hub.md\nlinks:\n  - text: Menu\n    items:\n      - text: Deeper\n        items:\n          - text: Not rendered\n            link: deep-nope.md\n',
        'index.md': [
          '# Home',
          '',
          '[News](news/)',
          '[Page 2](/news/2/)',
          '[Page 3](/news/3/)',
          '[Download](files/data.yml)',
          '[!file](files/data.yml)',
          '[Folder page first](k)',
          '',
          '```md',
          '{{ include "missing-in-code" }}',
          '```',
          '<!-- {{ include "missing-in-comment" }} -->',
          '',
          '{{ include "nothere" }}',
          '',
          'Setext One',
          '==========',
          '',
          'Setext Two',
          '----------',
          '',
          '## Hone [!badge NEW]',
          '## Htwo [!badge NEW|info]',
          '## Hfour [!badge NEW](k.md)',
          '',
          '[a](#setext-one) [b](#setext-two) [c](#hone-new) [d](#htwo) [e](#hfour-new) [f](#hone)',
        ].join('\n'),
        'news/2024-01-01-a.md': '# A\n',
        'news/2024-01-02-b.md': '# B\n',
        'news/2024-01-03-c.md': '# C\n',
        'files/data.yml': 'a: 1\n',
        'k.md': '# K beside\n',
        'k/index.md': '# K index\n',
        'k/k.md': '# K same\n',
        'static/logo.png': '',
        'plain.md': '---\ntemplating: false\n---\n# Plain\n\n{{ include "shown-as-text" }}\n\n[x](#plain)\n',
      }),
    );
    assert.deepEqual(problemLines(problems), [
      'retype.yml:7 `branding.logoDark` names static/missing-dark.png, which is not under the root/: Retype warns and shows none',
      'retype.yml:9 Navigation entry "nope-hub.md" names no page',
      'index.md:5 Broken link "/news/3/": no file news/3 under the root/; Retype warns that the URL was not resolved',
      'index.md:11 Broken link "missing-in-code": no file missing-in-code to include in the page\'s folder, an `_includes` folder or a folder above; Retype warns that the partial was not resolved',
      'index.md:13 Broken link "missing-in-comment": no file missing-in-comment to include in the page\'s folder, an `_includes` folder or a folder above; Retype warns that the partial was not resolved',
      'index.md:15 Broken link "nothere": no file nothere to include in the page\'s folder, an `_includes` folder or a folder above; Retype warns that the partial was not resolved',
      'index.md:27 Broken anchor "#setext-two": index.md has no heading or element with the id "setext-two"',
    ]);
  });

  it('finds a wikilink’s page by its file name anywhere, and checks its heading', async () => {
    const { problems } = await analyze(
      memoryFiles({
        'retype.yml': 'url: example.com\n',
        'index.md':
          '# Home\n\n[[Getting Started]] [[guide/getting-started|Start]] [[getting-started#First Steps]]\n[[Nope Page]] [[getting-started#Nope Heading]]\n\n`[[In code]]`\n',
        'guide/Getting Started.md': '# Getting started\n\n## First steps\n',
      }),
    );
    assert.deepEqual(problemLines(problems), [
      'index.md:4 Broken link "[[Nope Page]]": no page or file named Nope Page in the project; Retype warns that the URL was not resolved',
      'index.md:4 Broken anchor "[[getting-started]]#nope-heading": guide/Getting Started.md has no heading or element with the id "nope-heading"',
    ]);
  });

  it('makes heading ids as Retype does and looks fragments up without case', () => {
    const anchors = readRetypeAnchors(
      '# Title\n\n## retype --override\n\n## Hello, World! (v1.2)\n\n## Same\n\n## Same\n\n## Same-1\n\n## :icon-package: macOS\n\n## Base{#base-variables .wide}\n\n==- :icon-stop:&nbsp; Troubleshooting\ntext\n===\n\n+++ First Tab\none\n+++\n\n!!! Callout\ntext\n!!!\n\n```md\n=== Not a panel\n```\n',
    );
    assert.equal(anchors.complete, true);
    assert.equal(anchors.caseInsensitive, true);
    assert.deepEqual(
      [...anchors.anchors].sort(),
      [
        'base-variables',
        'first-tab',
        'hello-world-v12',
        'macos',
        'retype---override',
        'same',
        'same-1',
        'same-1-1',
        'title',
        'troubleshooting',
      ].sort(),
    );
    assert.equal(readRetypeAnchors('# A\n\n{{ include "more" }}\n').complete, false);
  });
});
