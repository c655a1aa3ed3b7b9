import { RE2JS } from 're2js';
import { isPlainRecord, readJavaScriptConfig, UnknownValue } from '../javascript-config.ts';
import { folderOf, isExternalUrl, joinInside } from '../link-urls.ts';
import type { RepositoryFiles, Unchecked } from '../site-model.ts';

/** The options of `window.$docsify` that decide which file a route fetches and where a link leads. */
export interface DocsifyConfig {
  /** The files the configuration was read from: the page that loads Docsify, and its local scripts. */
  files: string[];
  /** `alias`: route patterns (anchored, in order) and what they become (`$1` for a group). */
  alias: Array<{ pattern: RE2JS; replacement: string }>;
  basePath: string;
  homepage: string;
  ext: string;
  relativePath: boolean;
  routerMode: 'hash' | 'history';
  /** The sidebar and navbar file names, or null when they are not loaded. */
  loadSidebar: string | null;
  loadNavbar: string | null;
  /** Cover page file names (`coverpage: true` is `_coverpage.md`). */
  coverpages: string[];
  noCompileLinks: RE2JS[];
  fallbackLanguages: string[];
  fallbackDefaultLanguage: string;
  /** `routes`: virtual routes served by code, as anchored patterns. */
  virtualRoutes: RE2JS[];
  unsupported: string[];
}

const maximumScripts = 20;
const maximumPatternLength = 500;

/**
 * Finds and reads `window.$docsify` (https://docsify.js.org/#/configuration) in the page that loads
 * Docsify: its inline scripts, then the local scripts it loads (`<script src="config.js">`), without
 * running any of them (repository content is hostile). Route patterns (`alias`, `noCompileLinks`,
 * `routes`) are repository-written regular expressions: they are compiled with RE2, whose matching
 * time is linear in the route's length, so no pattern can stall the check; one RE2 cannot read
 * (lookaround, back-references) is said to be unsupported.
 */
export async function readDocsifyConfig(files: RepositoryFiles, entry: string): Promise<DocsifyConfig> {
  const config: DocsifyConfig = {
    files: [entry],
    alias: [],
    basePath: '',
    homepage: 'README.md',
    ext: '.md',
    relativePath: false,
    routerMode: 'hash',
    loadSidebar: null,
    loadNavbar: null,
    coverpages: [],
    noCompileLinks: [],
    fallbackLanguages: [],
    fallbackDefaultLanguage: '',
    virtualRoutes: [],
    unsupported: [],
  };
  const html = (await files.read(entry)) ?? '';
  let value: unknown;
  let scripts = 0;
  for (const script of scriptElements(html)) {
    scripts += 1;
    if (scripts > maximumScripts) break;
    const attributes = script.attributes;
    const source = /\bsrc\s*=\s*["']?([^"'\s>]+)/i.exec(attributes)?.[1];
    let text: string | null = script.text;
    let file = entry;
    if (source !== undefined) {
      // Docsify itself, its plugins and minified libraries are not where a site configures it.
      if (isExternalUrl(source) || source.startsWith('/') || /docsify|\.min\.js/i.test(source)) continue;
      const path = joinInside(folderOf(entry), source.split(/[?#]/)[0] ?? '');
      if (path === null || !path.endsWith('.js')) continue;
      text = await files.read(path);
      file = path;
    } else {
      // Blank lines before the script keep its lines the page's, for a syntax error's place.
      text = '\n'.repeat(countNewlines(html, script.offset)) + text;
    }
    if (text === null || !text.includes('$docsify')) continue;
    const read = readJavaScriptConfig(text, file.endsWith('.js') ? file : `${file}.js`).named.get(
      'window.$docsify',
    );
    if (read === undefined) continue;
    if (file !== entry) config.files.push(file);
    value = read;
    break;
  }
  if (value === undefined) {
    config.unsupported.push(
      `${entry}: no \`window.$docsify = {...}\` was found; Docsify's defaults are assumed`,
    );
    return config;
  }
  if (!isPlainRecord(value)) {
    config.unsupported.push(
      `${entry}: \`window.$docsify\` is computed by code; Docsify's defaults are assumed`,
    );
    return config;
  }
  const text = (key: string, fallback: string): string => {
    const option = value[key];
    if (option === undefined) return fallback;
    if (typeof option === 'string') return option;
    config.unsupported.push(`${entry}: \`${key}\` is computed by code; \`${fallback}\` is assumed`);
    return fallback;
  };
  // `true` names the default file; a string names the file (https://docsify.js.org/#/configuration?id=loadsidebar).
  const fileOption = (key: string, defaultName: string): string | null => {
    const option = value[key];
    if (option === true) return defaultName;
    if (typeof option === 'string' && option !== '') return option;
    if (option instanceof UnknownValue)
      config.unsupported.push(`${entry}: \`${key}\` is computed by code; it is taken as not set`);
    return null;
  };
  config.ext = text('ext', '.md');
  // An extension such as `.md`: anything else (an empty one) would make every file a page.
  if (!/^\.\w+$/.test(config.ext)) {
    config.unsupported.push(
      `${entry}: \`ext\` ${JSON.stringify(config.ext)} is not a file extension; \`.md\` is assumed`,
    );
    config.ext = '.md';
  }
  config.basePath = text('basePath', '');
  config.homepage = text('homepage', 'README.md');
  config.relativePath = value.relativePath === true;
  config.routerMode = value.routerMode === 'history' ? 'history' : 'hash';
  config.loadSidebar = fileOption('loadSidebar', `_sidebar${config.ext}`);
  config.loadNavbar = fileOption('loadNavbar', `_navbar${config.ext}`);
  const coverpage = value.coverpage;
  if (coverpage === true) config.coverpages.push(`_coverpage${config.ext}`);
  else if (typeof coverpage === 'string' && coverpage !== '') config.coverpages.push(coverpage);
  else if (Array.isArray(coverpage)) config.coverpages.push(`_coverpage${config.ext}`);
  else if (isPlainRecord(coverpage)) {
    for (const cover of Object.values(coverpage))
      config.coverpages.push(cover === true ? `_coverpage${config.ext}` : String(cover));
  }
  config.fallbackDefaultLanguage = text('fallbackDefaultLanguage', '');
  if (Array.isArray(value.fallbackLanguages))
    config.fallbackLanguages = value.fallbackLanguages.filter((item) => typeof item === 'string');
  const compile = (option: string, pattern: string): RE2JS | null => {
    if (pattern.length > maximumPatternLength) {
      config.unsupported.push(
        `${entry}: a \`${option}\` pattern is over ${maximumPatternLength} characters; it is not applied`,
      );
      return null;
    }
    try {
      return RE2JS.compile(`^(?:${pattern})$`);
    } catch {
      config.unsupported.push(
        `${entry}: the \`${option}\` pattern \`${pattern}\` uses syntax this check cannot apply safely; routes it matches are unchecked`,
      );
      return null;
    }
  };
  if (isPlainRecord(value.alias)) {
    for (const [key, replacement] of Object.entries(value.alias)) {
      const pattern = compile('alias', key);
      if (pattern === null) config.virtualRoutes.push(RE2JS.compile('.*'));
      else if (typeof replacement === 'string') config.alias.push({ pattern, replacement });
      else config.virtualRoutes.push(pattern);
    }
  }
  if (Array.isArray(value.noCompileLinks)) {
    for (const item of value.noCompileLinks) {
      const pattern = typeof item === 'string' ? compile('noCompileLinks', item) : null;
      if (pattern !== null) config.noCompileLinks.push(pattern);
    }
  }
  if (isPlainRecord(value.routes)) {
    for (const key of Object.keys(value.routes)) {
      const pattern = compile('routes', key);
      config.virtualRoutes.push(pattern ?? RE2JS.compile('.*'));
    }
  }
  return config;
}

/**
 * The `<script>` elements of a page: attributes, text and the text's offset. Found with `indexOf`,
 * not a regular expression, so an unclosed tag ends the search instead of rescanning the page.
 */
function* scriptElements(html: string): Generator<{ attributes: string; text: string; offset: number }> {
  // ASCII only, so offsets stay those of `html` (`İ`.toLowerCase() is two characters).
  const lower = html.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
  let from = 0;
  for (;;) {
    const start = lower.indexOf('<script', from);
    if (start < 0) return;
    const open = lower.indexOf('>', start);
    const close = open < 0 ? -1 : lower.indexOf('</script', open);
    if (close < 0) return;
    yield { attributes: html.slice(start + 7, open), text: html.slice(open + 1, close), offset: open + 1 };
    from = close + 8;
  }
}

function countNewlines(text: string, end: number): number {
  let count = 0;
  for (let index = text.indexOf('\n'); index >= 0 && index < end; index = text.indexOf('\n', index + 1))
    count += 1;
  return count;
}

/** A route after `alias` (https://docsify.js.org/#/configuration?id=alias), as Docsify's router applies it. */
export function applyAlias(config: DocsifyConfig, route: string): string | Unchecked {
  let path = route;
  let last: string | null = null;
  // Each pass replaces the route by the first pattern that matches it and did not produce it.
  for (let passes = 0; passes < 20; passes += 1) {
    const alias = config.alias.find(({ pattern }) => path !== last && pattern.matches(path));
    if (alias === undefined) return path;
    last = path;
    path = alias.pattern.matcher(path).replaceFirst(alias.replacement);
  }
  return { unchecked: `the \`alias\` option rewrites ${route} without end` };
}
