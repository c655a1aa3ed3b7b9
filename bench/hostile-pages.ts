// The page and configuration readers on hostile input: each construct at 1 MB (or the size named),
// timed. Pages and configuration files are repository content, written by anyone who can open a pull
// request; none of these may stall a check. docs/benchmarks.md ("Hostile pages") has the figures.
//   npm run bench:hostile [-- --size 1000000]
import { parseArgs } from 'node:util';
import { FernRedirects } from '../src/docs-site/frameworks/fern-redirects.ts';
import { readSphinxConfig } from '../src/docs-site/frameworks/sphinx-config.ts';
import { analyzeSite, checkSite, memoryFiles, PageFactsCache } from '../src/docs-site/index.ts';
import { type MarkdownDialect, readPageFacts } from '../src/docs-site/page-facts.ts';

const { values } = parseArgs({ options: { size: { type: 'string', default: '1000000' } } });
const size = Number(values.size);
const repeat = (unit: string) => unit.repeat(Math.max(1, Math.floor(size / unit.length)));

const pages: Array<[string, MarkdownDialect, string]> = [
  ['reStructuredText: a target name and spaces', 'rst', `.. _a${repeat(' ')}x\n`],
  ['reStructuredText: roles never closed', 'rst', repeat(':doc:`a ')],
  ['reStructuredText: a paragraph of roles', 'rst', repeat(':ref:`x`\n')],
  ['MyST: a directive argument and spaces', 'myst', `\`\`\`{note} a${repeat(' ')}b\n\`\`\`\n`],
  ['MyST: colon fences', 'myst', repeat(':::a\n')],
  ['MyST: colon directives', 'myst', repeat(':::{note}\n')],
  ['MyST: directives nested in fences', 'myst', repeat('```{note}\n')],
  ['MyST: a heading of hashes', 'myst', `# ${repeat('# ')}x\n`],
  ['AsciiDoc: xref names', 'asciidoc', repeat('xref:')],
  ['AsciiDoc: source cells', 'asciidoc', repeat('|[source,')],
  ['AsciiDoc: an attribute of spaces', 'asciidoc', `:a: ${repeat(' ')}x\n`],
  ['Quarto: escaped shortcodes', 'quarto', `{{< include a.qmd >}} ${repeat('{{{<')}\n`],
  [
    'Notebook: Markdown lines of links',
    'myst-notebook',
    `{"cells": [{"cell_type": "markdown", "source": [${repeat('"[a](b.md)\\n",\n').slice(0, -2)}]}]}`,
  ],
  ['Notebook: outputs nested deep', 'quarto-notebook', `{"cells": [{"outputs": ${repeat('[')}`],
  ['MyST: list markers and spaces before a fence', 'myst', `${repeat('-        ')}x\n`],
  // Comments were blanked by lazy patterns, quadratic on openers never closed (180 s for `{/*`).
  ['MDX: comment openers never closed', 'mdx', repeat('{/*')],
  ['MDX: links after comment openers', 'mdx', repeat('{/* [a](b) ')],
  ['MDX: attributes and HTML comment openers', 'mdx', repeat('<a href="x"> <!--')],
  ['DocFX: include openers never closed', 'docfx', repeat('[!include[a](b.md) [!INCLUDE[')],
  ['Markdoc: tag openers never closed', 'markdoc', repeat('{% card to="x" ')],
  ['Markdoc: tags of many attributes', 'markdoc', `{% partial ${repeat('a="b" ')} /%}\n`],
  ['Markdoc: nested tags and fences', 'markdoc', repeat('{% tab %}\n```\n')],
  // Each line just under the 4 KiB searched: a path pattern that overlapped its title's took 173 s.
  [
    'DocFX: lines of include openers with a path and no end',
    'docfx',
    repeat(`${'[!include[](x'.repeat(300)}\n`),
  ],
  ['DocFX: triple-colon image lines', 'docfx', repeat(':::image source="a.png" lightbox="b.png":::\n')],
  ['Retype: badge openers never closed', 'retype', repeat(`${'[!badge link='.repeat(300)}\n`)],
  ['Retype: include and code lines', 'retype', repeat('{{ include "a" }} :::code source="b.js" :::\n')],
  ['Retype: wikilink openers never closed', 'retype', repeat(`${' [[a#b|c'.repeat(400)}\n`)],
  [
    'Writerside: include and resource openers never closed',
    'writerside',
    repeat('<include from="a" <resource src="b" '),
  ],
  [
    'Writerside: an XML topic of elements nested 100,000 deep',
    'writerside-topic',
    `<topic>${repeat('<p><a href="x.md"/>')}</topic>`,
  ],
  ['Hugo: ref shortcode openers never closed', 'hugo', repeat('{{< ref a')],
  ['Jekyll: a raw block of baseurl tags never closed', 'jekyll', `{% raw %}${repeat('{{ site.baseurl')}`],
  ['MDC: inline component openers never closed', 'mdc', repeat(' :a{to=')],
  ['MDC: indented components never closed', 'mdc', repeat('  ::a\n    ::b\n')],
  ['MDC: component lines, each with a props fence', 'mdc', repeat('::a\n---\nto: /x\n')],
  ['Hexo: comment openers never closed', 'hexo', repeat('{# [a](b) ')],
  ['Hexo: post_link openers never closed', 'hexo', repeat('{% post_link "a ')],
  ['Hexo: raw and codeblock openers never closed', 'hexo', repeat('{% raw %}{% codeblock x %}')],
  ['Hexo: legacy front matter lines', 'hexo', repeat('a: b\n')],
  ['Eleventy: template tag openers never closed', 'eleventy', repeat('{{ [a](b) ')],
  ['Eleventy: url filters on written paths', 'eleventy', repeat("[a]({{ '/x/' | url }}) {% x %}\n")],
  [
    'Notebook: strings 4,000 deep',
    'myst-notebook',
    `{"x":${'['.repeat(4000)}${repeat('"",')}""${']'.repeat(4000)}, "cells": []}`,
  ],
];

const time = async (label: string, run: () => unknown) => {
  const started = performance.now();
  await run();
  console.log(`| ${label} | ${Math.round(performance.now() - started)} ms |`);
};

console.log(`Inputs of about ${size.toLocaleString('en')} characters.\n\n| construct | time |\n|---|---:|`);
for (const [label, dialect, text] of pages) await time(label, () => readPageFacts(text, dialect));
await time('Sphinx conf.py: brackets nested deep', () => readSphinxConfig(repeat('(['), 'conf.py'));
await time('Sphinx conf.py: 10,000 appends', () =>
  readSphinxConfig(`extensions = []\n${'extensions.append("a")\n'.repeat(10000)}`, 'conf.py'),
);
const site = async (files: Record<string, string>) => {
  const analyzed = await analyzeSite(memoryFiles(files), new PageFactsCache());
  await checkSite(analyzed.model, analyzed.source);
};
await time('Sphinx: a toctree entry of spaces', () =>
  site({ 'conf.py': 'extensions = []\n', 'index.rst': `T\n=\n\n.. toctree::\n\n   a${repeat(' ')}b\n` }),
);
await time('Sphinx: a glob of brackets', () =>
  site({
    'conf.py': 'extensions = []\n',
    'index.rst': `T\n=\n\n.. toctree::\n   :glob:\n\n   *${repeat('[')}\n`,
  }),
);
await time('Sphinx: a path 10,000 folders deep', () =>
  site({ 'conf.py': 'extensions = []\n', 'index.rst': 'T\n=\n', [`${'a/'.repeat(10000)}x.rst`]: 'X\n=\n' }),
);
const entries = Math.floor(size / 20);
await time(`Quarto: a sidebar of ${entries.toLocaleString('en')} entries`, () =>
  site({
    '_quarto.yml': `website:\n  sidebar:\n    contents:\n${Array.from({ length: entries }, (_, index) => `      - p${index}.qmd`).join('\n')}\n`,
    'index.qmd': '# Home\n',
  }),
);
await time(`MyST: a table of contents of ${entries.toLocaleString('en')} patterns over 2,000 pages`, () =>
  site({
    'myst.yml': `version: 1\nproject:\n  toc:\n${Array.from({ length: entries }, (_, index) => `    - pattern: p${index}/*.md`).join('\n')}\n`,
    ...Object.fromEntries(Array.from({ length: 2000 }, (_, index) => [`p${index}/page.md`, '# Page\n'])),
  }),
);
await time('MyST: myst.yml extending itself and another in a cycle', () =>
  site({
    'myst.yml': 'version: 1\nextends: [myst.yml, other.yml]\nproject:\n  title: x\n',
    'other.yml': 'version: 1\nextends: [myst.yml, other.yml]\n',
    'index.md': '# Home\n',
  }),
);
await time('Jupyter Book: a _toc.yml of 50,000 entries', () =>
  site({
    '_config.yml': 'title: x\n',
    '_toc.yml': `root: index\nchapters:\n${Array.from({ length: 50000 }, (_, index) => `- file: p${index}`).join('\n')}\n`,
    'index.md': '# Home\n',
  }),
);
await time('.gitmodules: a path followed by spaces', () =>
  site({
    '.gitmodules': `[submodule "x"]\n\tpath = a${repeat(' ')}b\n`,
    'index.md': '# Home\n\n[x](x.md)\n',
  }),
);
await time('Retype: a heading and a line of `{#a` and a link to it', () =>
  site({
    'retype.yml': 'input: .\n',
    'index.md': `## ${repeat('{#a').slice(0, 400_000)}\n\n${repeat('{#a ').slice(0, 400_000)}\n\n[x](#a)\n`,
  }),
);
await time('Writerside: a heading of `# {` and `#`, a line of `{#a` and `<a id`, and a link to it', () =>
  site({
    'writerside.cfg': '<ihp version="2.0"><topics dir="t"/><instance src="h.tree"/></ihp>\n',
    'h.tree': '<instance-profile id="h"><toc-element topic="a.md"/></instance-profile>\n',
    't/a.md': `## x${repeat(' # {').slice(0, 300_000)}\n\n${repeat('{#a <a id ').slice(0, 300_000)}\n\n[x](#y)\n`,
  }),
);
await time('Nuxt Content: a heading of `:a{` and `{#`, and a link to it', () =>
  site({
    'nuxt.config.ts': "export default defineNuxtConfig({ extends: ['docus'] })\n",
    'content/index.md': `## ${repeat(' :a{#b').slice(0, 400_000)}\n\n${repeat('::a\n---\n').slice(0, 400_000)}\n[x](#y)\n`,
  }),
);
await time('dumi: a file name of capitals 200 long in 5,000 pages', () =>
  site({
    '.dumirc.ts': 'export default {}\n',
    ...Object.fromEntries(
      Array.from({ length: 5000 }, (_, index) => [
        `docs/p${index}/${'AbC'.repeat(70)}.md`,
        '# Page\n[x](./a.md)\n',
      ]),
    ),
  }),
);
await time('Zola: 50,000 equal headings and a link to the last', () =>
  site({
    'config.toml': 'base_url = "https://example.org"\n',
    'content/_index.md': '+++\n+++\n[x](@/page.md#a-49999)\n',
    'content/page.md': `+++\n+++\n${'## A\n\n'.repeat(50_000)}`,
  }),
);
await time('Hexo: a heading of quotes, dashes and entities, and 50,000 equal headings', () =>
  site({
    'package.json': '{"dependencies": {"hexo": "^7.0.0", "hexo-renderer-marked": "^6.0.0"}}',
    '_config.yml': 'title: x\nnew_post_name: :title.md\n',
    'source/index.md': `## ${repeat('"a\' -- &amp; `<b>` ').slice(0, 400_000)}\n\n${'## A\n\n'.repeat(50_000)}[x](#A-49999)\n`,
  }),
);
await time('Eleventy: a permalink of 2,000 template tags, and 5,000 links to match against it', () =>
  site({
    '.eleventy.js': "module.exports = () => ({ dir: { input: 'src' } });\n",
    'src/a.md': `---\npermalink: "/${'{{ a }}x'.repeat(2000)}/"\n---\n# A\n`,
    'src/b.md': `# B\n\n${Array.from({ length: 5000 }, (_, index) => `[x](/${'x'.repeat(200)}${index}/)`).join('\n')}\n`,
  }),
);
await time('Fern: a heading of `[#` and `{#`, Step and Markdown tags never closed, and a link to it', () =>
  site({
    'fern/fern.config.json': '{}',
    'fern/docs.yml':
      'instances:\n  - url: x.docs.buildwithfern.com\nnavigation:\n  - page: A\n    path: ./a.mdx\n',
    'fern/a.mdx': `## ${repeat('[#{#').slice(0, 300_000)}\n\n${repeat('<Step title="x ').slice(0, 300_000)}\n\n${repeat('<Markdown ').slice(0, 300_000)}\n\n[x](#y)\n`,
  }),
);
await time('Fern: a backtracking redirect pattern against a path of 5,000 characters', () =>
  new FernRedirects([{ source: `/:a(a+)+b${'x'.repeat(10)}`, destination: '/y' }], '').redirect(
    `/${'a'.repeat(5_000)}c`,
  ),
);
await time(
  'Fern: 2,000 redirect patterns (half of them matching any path), navigation 40 deep, and 5,000 links to match against them',
  () =>
    site({
      'fern/fern.config.json': '{}',
      'fern/docs.yml': `instances:\n  - url: x.docs.buildwithfern.com/docs\nnavigation:\n${Array.from({ length: 40 }, (_, depth) => `${'  '.repeat(depth + 1)}- section: S${depth}\n${'  '.repeat(depth + 2)}contents:\n`).join('')}${'  '.repeat(42)}- page: A\n${'  '.repeat(42)}  path: ./a.mdx\nredirects:\n${Array.from({ length: 2000 }, (_, index) => `  - source: ${index % 2 === 0 ? `/old${index}` : ''}/:a(a+)+/:rest*\n    destination: /docs/new/:rest*`).join('\n')}\n`,
      'fern/a.mdx': `# A\n\n${Array.from({ length: 5000 }, (_, index) => `[x](/docs/${'a'.repeat(200)}${index}c)`).join('\n')}\n`,
    }),
);
await time(
  'Redocly: a heading of `{% #` annotations, Markdoc tags never closed, and 50,000 equal headings',
  () =>
    site({
      'redocly.yaml': 'navbar:\n  items: []\n',
      'index.md': `## ${repeat('{% #a ').slice(0, 300_000)}\n\n${repeat('{% card to="').slice(0, 300_000)}\n\n${'## A\n\n'.repeat(50_000)}[x](#a-49999)\n`,
    }),
);
await time(
  'Redocly: 5,000 files named alike, 500 ignore globs, 2,000 wildcard redirects and 5,000 links to match against them',
  () =>
    site({
      'redocly.yaml': `ignore:\n${Array.from({ length: 500 }, (_, index) => `  - '**/x${index}/**/*.{md,yaml}'`).join('\n')}\nredirects:\n${Array.from({ length: 2000 }, (_, index) => `  /${'a/'.repeat(index % 40)}o${index}/*:\n    to: /n/*`).join('\n')}\n`,
      'sidebars.yaml': '- page: index.md\n',
      ...Object.fromEntries(
        Array.from({ length: 5000 }, (_, index) => [
          `docs/A b ${index % 50}${'.'.repeat(index % 3)}.md`.replace(/\.+md$/, `${index}.md`),
          '# P\n',
        ]),
      ),
      'index.md': `# A\n\n${Array.from({ length: 5000 }, (_, index) => `[x](/${'a/'.repeat(index % 40)}${'b'.repeat(100)}${index})`).join('\n')}\n`,
    }),
);
await time(
  'Redocly: an OpenAPI description of 5,000 operations under 50 tags each, $refs in a cycle, and 5,000 links into it',
  () =>
    site({
      'package.json': '{"dependencies": {"@redocly/realm": "0.135.2"}}',
      'apis/a.yaml': `openapi: 3.1.0\ninfo: {title: A, version: '1', description: {$ref: '#/x'}}\nx: {$ref: '#/info/description'}\ntags:\n${Array.from({ length: 50 }, (_, index) => `  - name: T${index}\n    description: "${'# h\\n'.repeat(200)}"`).join('\n')}\npaths:\n${Array.from({ length: 5_000 }, (_, index) => `  /p${index}:\n    get: {operationId: o${index}, tags: [${Array.from({ length: 50 }, (_, tag) => `T${tag}`).join(', ')}]}`).join('\n')}\n`,
      'index.md': `# A\n\n${Array.from({ length: 5000 }, (_, index) => `[x](/apis/a/t${index % 50}/o${index})`).join('\n')}\n`,
    }),
);
await time('ReadMe: 20,000 pages listed in one `_order.yaml`, and 5,000 links to slugs none has', () =>
  site({
    'docs/_order.yaml': '- A\n',
    'docs/A/_order.yaml': Array.from({ length: 20_000 }, (_, index) => `- page-${index}\n`).join(''),
    ...Object.fromEntries(Array.from({ length: 20_000 }, (_, index) => [`docs/A/page-${index}.md`, '# P\n'])),
    'docs/A/index.md': `# A\n\n${Array.from({ length: 5000 }, (_, index) => `[x](doc:nope-${index}) [y](/docs/Page-${index})`).join('\n')}\n`,
  }),
);
await time('Writerside: a tree of 50,000 entries nested 30 deep', () =>
  site({
    'writerside.cfg': '<ihp version="2.0"><topics dir="t"/><instance src="h.tree"/></ihp>\n',
    'h.tree': `<instance-profile id="h">${'<toc-element toc-title="g">'.repeat(30)}${Array.from({ length: 50000 }, (_, index) => `<toc-element topic="p${index}.md"/>`).join('\n')}${'</toc-element>'.repeat(30)}</instance-profile>\n`,
    't/a.md': '# A\n',
  }),
);
await time('Docusaurus: a heading of `{#` and a link to it', () =>
  site({
    'docusaurus.config.js': "module.exports = { presets: [['classic', { docs: { path: 'docs' } }]] };\n",
    'docs/a.md': `## ${repeat('{#').slice(0, 400_000)}\n\n[x](#a)\n`,
  }),
);
// Zensical reads every page's anchors (its build checks a link's fragment by default); a page is
// read whole only up to 512 KiB.
const zensicalPage = (page: string) =>
  site({ 'zensical.toml': '[project]\nsite_name = "x"\n', 'docs/index.md': `${page}\n\n[x](#a)\n` });
for (const [label, unit] of [
  ['a heading of unclosed link brackets', '[a'],
  ['a heading of unclosed images', '![a]('],
  ['a heading of footnote openers', '[^'],
  ['a heading of emphasis markers', '*a_'],
  ['a heading of attr_list braces', '{#a '],
  ['a heading of unclosed tags', '<'],
] as const)
  await time(`Zensical: ${label}`, () => zensicalPage(`# ${repeat(unit).slice(0, 500_000)}`));
await time('Zensical: 100,000 headings', () => zensicalPage('## a\n'.repeat(100_000).slice(0, 500_000)));
await time('Zensical: an unclosed attr_list brace and spaces', () => zensicalPage(`{${' '.repeat(500_000)}`));
await time('Zensical: 5,000 equal headings', () => zensicalPage('## a\n'.repeat(5_000)));
// Rspress reads every `_meta.json` its walk reaches and the configuration's `route.exclude` globs.
const rspressConfig = (config: string) => ({
  'rspress.config.ts': `import { defineConfig } from '@rspress/core';\nexport default defineConfig(${config});\n`,
});
await time(`Rspress: a _meta.json of ${entries.toLocaleString('en')} entries`, () =>
  site({
    ...rspressConfig('{}'),
    'docs/guide/_meta.json': JSON.stringify(Array.from({ length: entries }, (_, index) => `p${index}`)),
    'docs/guide/p0.md': '# Page\n',
  }),
);
await time('Rspress: custom links nested 100,000 deep', () =>
  site({
    ...rspressConfig('{}'),
    'docs/guide/_meta.json': `[${'{"type":"custom-link","label":"a","link":"/a","items":['.repeat(100_000)}${']}'.repeat(100_000)}]`,
    'docs/guide/a.md': '# Page\n',
  }),
);
await time('Rspress: 200 route.exclude globs of stars over 2,000 pages', () =>
  site({
    ...rspressConfig(
      `{ route: { exclude: ${JSON.stringify(Array.from({ length: 200 }, () => `${'*'.repeat(500)}x`))} } }`,
    ),
    ...Object.fromEntries(
      Array.from({ length: 2000 }, (_, index) => [`docs/p${index}/${'a'.repeat(200)}.md`, '# Page\n']),
    ),
  }),
);
await time('Rspress: 2,000 folders, each walked through a listing', () =>
  site({
    ...rspressConfig('{}'),
    ...Object.fromEntries(
      Array.from({ length: 2000 }, (_, index) => [
        `docs/${'d/'.repeat(index % 50)}f${index}/_meta.json`,
        JSON.stringify([{ type: 'dir', name: 'x' }, 'page']),
      ]),
    ),
    ...Object.fromEntries(
      Array.from({ length: 2000 }, (_, index) => [
        `docs/${'d/'.repeat(index % 50)}f${index}/page.md`,
        '# P\n',
      ]),
    ),
  }),
);
// A link of slashes: every `/\/+$/` was quadratic on a run of slashes before its end.
await time('VuePress: a link of 200,000 slashes', () =>
  site({
    'docs/.vuepress/config.js': 'module.exports = {}\n',
    'docs/README.md': `# Home\n\n[x](${'/'.repeat(200_000)}a)\n`,
  }),
);
await time(`VuePress: a sidebar of ${entries.toLocaleString('en')} paths after 1,000,000 blank lines`, () =>
  site({
    'docs/.vuepress/config.js': `${'\n'.repeat(1_000_000)}module.exports = { themeConfig: { sidebar: [${Array.from({ length: entries }, (_, index) => `'/p${index}'`).join(',')}] } }\n`,
    'docs/README.md': '# Home\n',
  }),
);
await time(`DocFX: 200 content globs of stars over ${(2000).toLocaleString('en')} pages`, () =>
  site({
    'docfx.json': JSON.stringify({
      build: { content: [{ files: Array.from({ length: 200 }, () => `${'*'.repeat(500)}.md`) }] },
    }),
    ...Object.fromEntries(
      Array.from({ length: 2000 }, (_, index) => [`d${index % 40}/p${index}.md`, '# P\n']),
    ),
  }),
);
await time(
  `DocFX: a toc.yml of ${entries.toLocaleString('en')} items nested 30 deep and a toc.md of as many headings`,
  () =>
    site({
      'docfx.json': '{"build": {"content": [{"files": ["**.md", "**/toc.yml", "**/toc.md"]}]}}',
      'toc.yml': Array.from(
        { length: entries },
        (_, index) => `${'  '.repeat(index % 30)}- href: p${index}.md\n${'  '.repeat(index % 30)}  items:\n`,
      ).join(''),
      'guide/toc.md': Array.from(
        { length: entries },
        (_, index) => `${'#'.repeat(1 + (index % 6))} [P](p${index}.md)\n`,
      ).join(''),
      'index.md': '# Home\n',
    }),
);
await time('DocFX: a link of 200,000 backslashes', () =>
  site({
    'docfx.json': '{"build": {"content": [{"files": ["**.md"]}]}}',
    'index.md': `# Home\n\n[x](${'\\'.repeat(200_000)}a.md)\n`,
  }),
);
// Folder entries opened the first page of their table of contents afresh each time (24 s for 80).
await time('DocFX: 80 tables of contents, each referencing every folder', () =>
  site({
    'docfx.json': '{"build": {"content": [{"files": ["**/*.md", "**/toc.yml"]}]}}',
    'index.md': '# Home\n',
    ...Object.fromEntries(
      Array.from({ length: 80 }, (_, index) => [
        `d${index}/toc.yml`,
        Array.from({ length: 80 }, (_, other) => `- href: ../d${other}/\n`).join(''),
      ]),
    ),
  }),
);
// Every pattern was its own expression tried on every path (78 s for 50 mappings).
await time('DocFX: 50 mappings of 200 brace patterns over 2,000 pages', () =>
  site({
    'docfx.json': JSON.stringify({
      build: {
        content: Array.from({ length: 50 }, () => ({
          files: Array.from({ length: 200 }, (_, index) => `{a,b,c,d}{e,f,g,h}{i,j}/x${index}/**/*.md`),
        })),
      },
    }),
    ...Object.fromEntries(
      Array.from({ length: 2000 }, (_, index) => [`d${index % 40}/p${index}.md`, '# P\n']),
    ),
  }),
);
// TSX configurations have their JSX blanked before TypeScript is stripped: one pass, whatever the text.
// Type assertions nested in brackets made amaro's parser backtrack exponentially (252 s for 14 of
// `(<a><a><a>` in a `.ts` file): more than six are not handed to it.
for (const [file, unit] of [
  ['vocs.config.ts', '(<a><a><a>'],
  ['vocs.config.ts', '(<a>'],
] as const) {
  await time(`TypeScript configuration: ${JSON.stringify(unit)} repeated`, () =>
    site({ [file]: `export default { a: ${repeat(unit)} }\n`, 'docs/pages/index.md': '# Home\n' }),
  );
}
for (const unit of ['(<a ', '(<a><a><a>', 'x = <a b={']) {
  await time(`TSX configuration: ${JSON.stringify(unit)} repeated`, () =>
    site({ 'vocs.config.tsx': `export default { a: ${repeat(unit)} }\n`, 'docs/pages/index.md': '# Home\n' }),
  );
}
// An environment assignment pattern that backtracked (102 s for 111 characters before the fix).
await time('Vocs: a build script of 500 `a======` words after `vocs build`', () =>
  site({
    'package.json': JSON.stringify({
      devDependencies: { vocs: '1.4.1' },
      scripts: { build: `vocs build && ${'a====== '.repeat(500)}x` },
    }),
    'vocs.config.ts': "export default { sidebar: [{ text: 'a', link: '/a' }] }\n",
    'docs/pages/index.mdx': '# Home\n',
  }),
);
const docsify = (config: string, after = '') =>
  `<html><script>window.$docsify = ${config}</script><script src="docsify.js"></script>${after}\n`;
await time('Docsify: a backtracking alias pattern and a link of 5,000 characters', () =>
  site({
    'index.html': docsify(`{ alias: { '/(a+)+b': '/never.md', '/old/(.*)': '/new/$1' } }`),
    'README.md': `# Home\n\n[Old](old/page) [Slow](/${'a'.repeat(5000)}c)\n`,
    'new/page.md': '# Page\n',
  }),
);
await time('Docsify: an index.html of 200,000 script openers', () =>
  site({
    'index.html': docsify('function (vm) { return { loadSidebar: true } }', '<script '.repeat(200_000)),
    'README.md': '# Home\n\n[Guide](guide)\n',
    'guide.md': '# Guide\n',
  }),
);
await time('Jekyll: a _config.yml that is not YAML, and 50,000 raw and baseurl tags never closed', () =>
  site({
    '_config.yml': 'title: [Broken\nexclude: x\n',
    'index.md': `---\ntitle: Home\n---\n${'{% raw %}'.repeat(50_000)}${'{{ site.baseurl'.repeat(50_000)}\n`,
  }),
);
// Constants read again wherever they are used grow exponentially (out of memory at 6 levels).
await time('Configuration: constants nesting each other 8 levels deep, 10 each', () => {
  let text = `const l0 = [${Array(10).fill('{ text: "x" }').join(', ')}]\n`;
  for (let level = 1; level <= 8; level += 1)
    text += `const l${level} = [${Array(10)
      .fill(`{ text: "x", items: l${level - 1} }`)
      .join(', ')}]\n`;
  return site({
    'vocs.config.ts': `${text}export default { sidebar: l8, topNav: l8 }\n`,
    'docs/pages/index.mdx': '# Home\n',
  });
});
