import { posix } from 'node:path';
import { isPlainRecord } from '../javascript-config.ts';
import { folderOf, isWithin, joinInside } from '../link-urls.ts';
import { packageManifests } from '../package-dependencies.ts';
import type { RepositoryFiles, SiteProblem } from '../site-model.ts';
import { compileDocfxGlobs } from './docfx-config.ts';
import { configurationOf, readConfigModule } from './vitepress-config.ts';

/**
 * An Eleventy project's settings as 11ty/eleventy v3.1.6 reads them (src/TemplateConfig.js,
 * src/Util/ProjectDirectories.js, src/EleventyFiles.js, src/TemplatePassthrough.js; v2.0.1, v1.0.2
 * and v0.12.1 where they differ): the configuration file's returned `dir`, `pathPrefix` and
 * `templateFormats`, the `eleventy --input` of `package.json`'s scripts, and the calls the file
 * makes with literal arguments (`addPassthroughCopy`, `ignores.add`, `setInputDirectory`, plugins).
 * The configuration is code and never run: what only running it could tell is unknown.
 */
export interface EleventyConfig {
  file: string;
  problems: SiteProblem[];
  unsupported: string[];
  /** Every folder relative to the repository root, without a trailing `/` ('' for the root). */
  input: string;
  output: string;
  includes: string;
  layouts: string | null;
  data: string;
  pathPrefix: string;
  /** Template extensions (`md`, `njk`, `11ty.js`, ...) and the extensions copied as they are (`css`). */
  templateExtensions: readonly string[];
  copiedExtensions: readonly string[];
  /** Whether a file is left out (ignore files, `ignores`, the includes, layouts, data and output folders). */
  ignored: (path: string) => boolean;
  /** Files copied to the output, and where (`addPassthroughCopy`); null when a copy is computed by code. */
  passthrough: Array<{ from: string; to: string }> | null;
  plugins: { inputPathToUrl: boolean; htmlBase: boolean };
  /** markdown-it-anchor with its own slugify (`encodeURIComponent` of the lower-cased text), and how repeats are numbered; null otherwise. */
  anchors: { level: number; firstRepeat: 1 | 2 } | null;
  /** markdown-it-attrs: `{#id}` after a heading or a block sets its id. */
  attributes: boolean;
  /** markdown-it's `typographer` on (curly quotes, dashes and ellipses in headings' text). */
  typographer: boolean;
  /** Data file formats besides JSON and JavaScript (`addDataExtension('yml')`). */
  dataExtensions: readonly string[];
  /** The text of the configuration and the modules it imports, for what this reader finds by name. */
  text: string;
  major: number | null;
}

const configNames = ['.eleventy.js', 'eleventy.config.js', 'eleventy.config.mjs', 'eleventy.config.cjs'];
/** The template languages and their extensions (src/EleventyExtensionMap.js). */
const templateLanguages: Record<string, string[]> = {
  md: ['md'],
  html: ['html'],
  njk: ['njk'],
  liquid: ['liquid'],
  '11ty.js': ['11ty.js', '11ty.cjs', '11ty.mjs'],
  ejs: ['ejs'],
  hbs: ['hbs'],
  mustache: ['mustache'],
  haml: ['haml'],
  pug: ['pug'],
  jstl: ['jstl'],
  webc: ['webc'],
};

export async function readEleventyConfig(files: RepositoryFiles, siteRoot: string): Promise<EleventyConfig> {
  const inRoot = (path: string) => (siteRoot === '' ? path : `${siteRoot}/${path}`);
  const file = configNames.map(inRoot).find((path) => files.has(path)) ?? inRoot('.eleventy.js');
  const main = await readConfigModule(files, file);
  const { config, unsupported, problems } = configurationOf(main, file);
  // The configuration's text and its local modules' (plugins written in the repository: what they
  // call is read by name too), two levels deep.
  let text = [...(main.modules?.texts.values() ?? [(await files.read(file)) ?? ''])].join('\n');
  const readModules = new Set<string>([file]);
  for (let level = 0, from = [file]; level < 2; level += 1) {
    const next: string[] = [];
    for (const module of from) {
      const source = (await files.read(module)) ?? '';
      for (const match of source.matchAll(
        /(?:require\(\s*|\bfrom\s+|\bimport\s+)(['"])(\.{1,2}\/[^'"]+)\1/g,
      )) {
        const base = joinInside(folderOf(module), match[2] ?? '');
        if (base === null) continue;
        const found = [
          base,
          ...['.js', '.cjs', '.mjs', '.ts', '/index.js', '/index.cjs', '/index.mjs'].map(
            (end) => `${base}${end}`,
          ),
        ].find((path) => files.has(path) && !readModules.has(path));
        if (found === undefined || readModules.size >= 50) continue;
        readModules.add(found);
        next.push(found);
        text += `\n${(await files.read(found)) ?? ''}`;
      }
    }
    from = next;
  }

  let scripts = '';
  let range = '';
  for await (const manifest of packageManifests(files, siteRoot)) {
    if (isPlainRecord(manifest.scripts)) scripts = Object.values(manifest.scripts).join('\n');
    for (const field of ['dependencies', 'devDependencies'])
      if (isPlainRecord(manifest[field]) && typeof manifest[field]['@11ty/eleventy'] === 'string')
        range = manifest[field]['@11ty/eleventy'] as string;
    break;
  }
  const major = /(\d+)\./.exec(range)?.[1];
  const majorVersion = major === undefined ? null : Number(major);

  const dir = isPlainRecord(config.dir) ? config.dir : {};
  const folder = (value: unknown, fallback: string): string | null =>
    value === undefined ? fallback : typeof value === 'string' ? value : null;
  // `eleventy --input=docs` in `package.json` (moj-frontend), then the returned `dir`, then
  // `setInputDirectory('docs')`.
  const cliInput = /\beleventy\b[^\n&|;]*?--input(?:=|\s+)(['"]?)([^\s'"]+)\1/.exec(scripts)?.[2];
  const setInput = /\bsetInputDirectory\(\s*(['"`])([^'"`$]+)\1\s*\)/.exec(text)?.[2];
  const inputWritten = cliInput ?? folder(dir.input, setInput ?? '.');
  if (inputWritten === null)
    unsupported.push(`${file}: the input folder is computed by code; the project's folder is read`);
  const clean = (path: string) =>
    (posix.normalize(path).replace(/^\.\/?$|\/+$/g, '') || '').replace(/^\.\//, '');
  const input = joinInside(siteRoot, clean(inputWritten ?? '.')) ?? siteRoot;
  const inInput = (value: string) => joinInside(input, clean(value)) ?? input;
  const includes = inInput(folder(dir.includes, '_includes') ?? '_includes');
  const layoutsWritten = folder(dir.layouts, '');
  const layouts = layoutsWritten === '' || layoutsWritten === null ? null : inInput(layoutsWritten);
  const data = inInput(folder(dir.data, '_data') ?? '_data');
  const output = joinInside(siteRoot, clean(folder(dir.output, '_site') ?? '_site')) ?? inRoot('_site');
  const pathPrefix =
    `/${(typeof config.pathPrefix === 'string' ? config.pathPrefix : '/').replace(/^\/+|\/+$/g, '')}/`.replace(
      /^\/\/$/,
      '/',
    );

  // Template formats: `setTemplateFormats` > the returned `templateFormats` > the version's default.
  const formatsOf = (value: unknown): string[] | null =>
    typeof value === 'string'
      ? value.split(',').map((item) => item.trim())
      : Array.isArray(value) && value.every((item) => typeof item === 'string')
        ? value.map((item) => item.trim())
        : null;
  const written = /\bsetTemplateFormats\(\s*(\[[^\]]*\]|'[^']*'|"[^"]*")\s*\)/.exec(text)?.[1];
  let formats =
    (written === undefined ? null : formatsOf(written.replace(/['"\s[\]]/g, '').split(','))) ??
    formatsOf(config.templateFormats) ??
    (majorVersion !== null && majorVersion < 3
      ? [
          'liquid',
          'ejs',
          'md',
          'hbs',
          'mustache',
          'haml',
          'pug',
          'njk',
          'html',
          '11ty.js',
          ...(majorVersion === 0 ? ['jstl'] : []),
        ]
      : ['liquid', 'md', 'njk', 'html', '11ty.js']);
  for (const match of text.matchAll(/\baddTemplateFormats\(\s*(['"])([^'"]+)\1/g))
    formats = [...formats, ...(match[2] ?? '').split(',').map((item) => item.trim())];
  if (/@11ty\/eleventy-plugin-webc|\bpluginWebc\b/.test(text)) formats = [...formats, 'webc'];
  const templateExtensions = formats.flatMap((format) => templateLanguages[format] ?? []);
  const copiedExtensions = formats.filter((format) => format !== '' && !(format in templateLanguages));

  // Ignores (src/EleventyFiles.js): each line of the root `.gitignore` and of the `.eleventyignore`
  // files, anchored at its file's folder (no negation); `ignores.add`; the special folders.
  const patterns: string[] = [];
  const ignoreFiles = [
    ...(/\bsetUseGitIgnore\(\s*false\s*\)/.test(text) ? [] : [inRoot('.gitignore')]),
    inRoot('.eleventyignore'),
    ...(input === siteRoot ? [] : [`${input}/.eleventyignore`]),
  ];
  for (const ignoreFile of ignoreFiles) {
    const lines = ((await files.read(ignoreFile)) ?? '').split('\n').slice(0, 500);
    for (const line of lines) {
      const trimmed = line.trim();
      if (trimmed === '' || trimmed.startsWith('#') || trimmed.startsWith('!')) continue;
      const anchored = joinInside(folderOf(ignoreFile), trimmed.replace(/^\/+/, '').replace(/\/+$/, ''));
      if (anchored === null || anchored === '') continue;
      patterns.push(anchored, `${anchored}/**`);
    }
  }
  for (const match of text.matchAll(/\bignores\.add\(\s*(['"`])([^'"`$]+)\1\s*\)/g)) {
    const entry = (match[2] ?? '').replace(/^\.\//, '');
    if (entry.startsWith('**/')) patterns.push(siteRoot === '' ? entry : `${siteRoot}/${entry}`);
    else {
      const anchored = joinInside(siteRoot, entry);
      if (anchored !== null) patterns.push(anchored);
    }
  }
  const globs = compileDocfxGlobs(patterns, { dot: true, caseSensitive: true });
  const specialFolders = [includes, layouts, data, output].filter(
    (path): path is string => path !== null && path !== input,
  );
  const ignored = (path: string) =>
    /(^|\/)(node_modules|\.git)\//.test(path) ||
    specialFolders.some((special) => isWithin(special, path)) ||
    globs(path);

  return {
    file,
    problems,
    unsupported,
    input,
    output,
    includes,
    layouts,
    data,
    pathPrefix,
    templateExtensions,
    copiedExtensions,
    ignored,
    passthrough: readPassthrough(text, siteRoot),
    plugins: {
      inputPathToUrl: /\bInputPathToUrlTransformPlugin\b/.test(text),
      htmlBase: /\b(Eleventy)?HtmlBasePlugin\b/.test(text),
    },
    anchors: await readAnchorPlugin(files, siteRoot, text),
    attributes: /markdown-it-attrs/.test(text),
    typographer: /\btypographer\s*:\s*true\b/.test(text),
    dataExtensions: [...text.matchAll(/\baddDataExtension\(\s*['"]([^'"]+)['"]/g)].flatMap((match) =>
      (match[1] ?? '').split(',').map((item) => item.trim()),
    ),
    text,
    major: majorVersion,
  };
}

/**
 * `addPassthroughCopy` calls with literal arguments (src/TemplatePassthrough.js): a path or glob
 * (relative to the project) copied to the same path under the output, the input folder's prefix
 * dropped; `{ from: to }` copies `from` to `to` (a glob's files flattened into it). Null when any
 * call's argument is computed by code.
 */
function readPassthrough(text: string, siteRoot: string): Array<{ from: string; to: string }> | null {
  const copies: Array<{ from: string; to: string }> = [];
  const inRoot = (path: string) => joinInside(siteRoot, path.replace(/^\.\//, '')) ?? '';
  for (const call of text.matchAll(/\baddPassthroughCopy\(\s*([^)]*)\)/g)) {
    const argument = (call[1] ?? '').trim();
    const literal = /^(['"`])([^'"`$]+)\1\s*(,[^)]*)?$/.exec(argument);
    if (literal !== null) {
      copies.push({ from: inRoot(literal[2] ?? ''), to: '' });
      continue;
    }
    const object = /^\{([^{}]*)\}\s*(,[^)]*)?$/.exec(argument);
    if (object === null) return null;
    const pairs = [...(object[1] ?? '').matchAll(/(['"`])([^'"`$]+)\1\s*:\s*(['"`])([^'"`$]*)\3/g)];
    if (pairs.length === 0 || (object[1] ?? '').split(':').length - 1 !== pairs.length) return null;
    for (const pair of pairs)
      copies.push({ from: inRoot(pair[2] ?? ''), to: (pair[4] ?? '').replace(/^\/+/, '') || '.' });
  }
  return copies;
}

/**
 * markdown-it-anchor as the configuration uses it: its own `slugify` (none passed), headings from
 * `level` on; repeats from `-1` in 6 and later, `-2` in 5 (its range in `package.json`). Null when
 * the site does not use it, or slugs headings its own way.
 */
async function readAnchorPlugin(
  files: RepositoryFiles,
  siteRoot: string,
  text: string,
): Promise<EleventyConfig['anchors']> {
  if (!/markdown-it-anchor/.test(text) || /\bslugify\s*:|\bslugifyWithState\b/.test(text)) return null;
  const level = /\blevel\s*:\s*(\d)\b/.exec(text);
  if (/\blevel\s*:\s*\[/.test(text)) return null;
  let range = '';
  for await (const manifest of packageManifests(files, siteRoot)) {
    for (const field of ['dependencies', 'devDependencies'])
      if (isPlainRecord(manifest[field]) && typeof manifest[field]['markdown-it-anchor'] === 'string')
        range = manifest[field]['markdown-it-anchor'] as string;
    break;
  }
  const major = Number(/(\d+)\./.exec(range)?.[1] ?? 9);
  return { level: level === null ? 1 : Number(level[1]), firstRepeat: major >= 6 ? 1 : 2 };
}
