import { parseDocument } from 'yaml';
import { joinInside } from '../link-urls.ts';
import type { RepositoryFiles, SiteProblem } from '../site-model.ts';
import { tomlValue } from './toml-value.ts';
import { isRecord, yamlProblems, yamlValue } from './yaml-problems.ts';

/** A folder of the repository mounted into Hugo's content or static tree. */
export interface HugoMount {
  /** The repository folder. */
  source: string;
  /** Where it lands inside the component (`''` for its root, `docs` for `content/docs`). */
  target: string;
  /** The language its content is in; null for every language (or the default one). */
  language: string | null;
}

/** A menu entry of the configuration (https://gohugo.io/content-management/menus/#define-in-site-configuration). */
export interface HugoMenuEntry {
  /** The configuration file it is written in. */
  file: string;
  menu: string;
  /** `pageRef`, a page's logical path, or `url`, a site URL; what it names. */
  kind: 'pageRef' | 'url';
  reference: string;
}

/** What of a Hugo configuration decides which pages are built, at which URLs. */
export interface HugoConfig {
  /** The configuration files read, the main one first. */
  files: string[];
  /** Whether a theme or module is imported: its files and pages are not in this repository. */
  hasTheme: boolean;
  /** The path of `baseURL` (`/docs` for `https://example.org/docs/`), '' at a host's root. */
  basePath: string;
  uglyURLs: boolean;
  /** URLs are lower-cased unless `disablePathToLower`. */
  lowerCasePaths: boolean;
  /** `canonifyURLs` or `relativeURLs`: root-relative links are rewritten under `baseURL`. */
  rewritesRootLinks: boolean;
  defaultLanguage: string;
  defaultLanguageInSubdir: boolean;
  /** Every language code configured (the default one included). */
  languages: string[];
  content: HugoMount[];
  static: HugoMount[];
  /** `permalinks`: a section (or `page`/`section` kind table) → its URL template. */
  permalinks: Map<string, string>;
  /** The entries of the configuration's menus that name a page (`pageRef`) or a URL of the site. */
  menus: HugoMenuEntry[];
  /** Taxonomies' plural names (`tags`, `categories` unless `taxonomies` says otherwise). */
  taxonomies: string[];
  /** Whether a missing `ref`/`relref` stops the build (`refLinksErrorLevel`, ERROR by default). */
  refErrorsStopBuild: boolean;
  /** Hugo's embedded link render hook: on by default for a multilingual single-host site. */
  embeddedLinkHook: boolean;
  problems: SiteProblem[];
  unsupported: string[];
}

const configNames = ['hugo', 'config'];
const configExtensions = ['toml', 'yaml', 'yml', 'json'];
const maximumDepth = 20;

/**
 * Reads a Hugo site's configuration (https://gohugo.io/configuration/introduction/) without running
 * Hugo: `hugo.{toml,yaml,json}` (or `config.*`) in the site's folder, and `config/_default/`, where a
 * file named after a key holds that key (`languages.toml`, `module.toml`). Keys are case-insensitive
 * in Hugo, so they are read lower-cased. TOML is read with smol-toml, YAML with yaml; a syntax error is
 * a problem at its line.
 */
export async function readHugoConfig(files: RepositoryFiles, siteRoot: string): Promise<HugoConfig> {
  const inRoot = (path: string) => (siteRoot === '' ? path : `${siteRoot}/${path}`);
  const problems: SiteProblem[] = [];
  const read: string[] = [];
  let values: Record<string, unknown> = {};
  const menus: HugoMenuEntry[] = [];
  const main = configNames
    .flatMap((name) => configExtensions.map((extension) => inRoot(`${name}.${extension}`)))
    .find((path) => files.has(path));
  if (main !== undefined) {
    const mainValues = await readConfigFile(files, main, problems);
    menus.push(...menuEntries(mainValues, main));
    values = merge(values, mainValues);
    read.push(main);
  }
  const defaults = inRoot('config/_default/');
  for (const path of files.paths) {
    if (!path.startsWith(defaults) || path.slice(defaults.length).includes('/')) continue;
    const name = /^([^.]+)\.(toml|ya?ml|json)$/.exec(path.slice(defaults.length));
    if (name === null) continue;
    const key = (name[1] ?? '').toLowerCase();
    const fileValues = await readConfigFile(files, path, problems);
    const keyed = configNames.includes(key) ? fileValues : { [key]: fileValues };
    menus.push(...menuEntries(keyed, path));
    values = merge(values, keyed);
    read.push(path);
  }
  const unsupported: string[] = [];
  const text = (value: unknown, fallback: string) => (typeof value === 'string' ? value : fallback);
  const baseUrl = text(values.baseurl, '/');
  const withHost = /^(?:[a-z][a-z0-9+.-]*:)?\/\/[^/]*(\/.*)?$/i.exec(baseUrl);
  const basePath = (withHost === null ? baseUrl : (withHost[1] ?? '')).replace(/(?<!\/)\/+$/, '');

  const languageValues = isRecord(values.languages) ? values.languages : {};
  const defaultLanguage = text(values.defaultcontentlanguage, 'en').toLowerCase();
  const languages = [...new Set([defaultLanguage, ...Object.keys(languageValues)])];
  const moduleValues = isRecord(values.module) ? values.module : {};
  const mounts = Array.isArray(moduleValues.mounts) ? moduleValues.mounts.filter(isRecord) : [];
  const mountsOf = (component: 'content' | 'static'): HugoMount[] => {
    const result: HugoMount[] = [];
    for (const mount of mounts) {
      const target = text(mount.target, '').replace(/^\/+|(?<!\/)\/+$/g, '');
      if (target !== component && !target.startsWith(`${component}/`)) continue;
      const source = joinInside(siteRoot, text(mount.source, ''));
      if (source === null) continue;
      const language = typeof mount.lang === 'string' ? mount.lang.toLowerCase() : null;
      result.push({ source, target: target.slice(component.length + 1), language });
    }
    return result;
  };
  // A mount for a component replaces its default folder (https://gohugo.io/hugo-modules/configuration/#module-configuration-mounts).
  let content = mountsOf('content');
  if (content.length === 0) {
    // Each language's `contentDir`, else the site's; languages sharing a folder tell their pages
    // apart by file name (`page.fr.md`).
    const folderOf = (code: string) => {
      const language = languageValues[code];
      const own = isRecord(language) ? language.contentdir : undefined;
      return joinInside(siteRoot, text(own, text(values.contentdir, 'content'))) ?? siteRoot;
    };
    const folders = new Map<string, string[]>();
    for (const code of languages) folders.set(folderOf(code), [...(folders.get(folderOf(code)) ?? []), code]);
    content = [...folders].map(([source, codes]) => ({
      source,
      target: '',
      language: folders.size > 1 && codes.length === 1 ? (codes[0] ?? null) : null,
    }));
  }
  let statics = mountsOf('static');
  if (statics.length === 0) {
    const dirs = Array.isArray(values.staticdir) ? values.staticdir : [text(values.staticdir, 'static')];
    statics = dirs
      .filter((dir): dir is string => typeof dir === 'string')
      .flatMap((dir) => {
        const source = joinInside(siteRoot, dir);
        return source === null ? [] : [{ source, target: '', language: null }];
      });
  }
  const permalinks = new Map<string, string>();
  const permalinkValues = isRecord(values.permalinks) ? values.permalinks : {};
  for (const [key, value] of Object.entries(permalinkValues)) {
    if (typeof value === 'string') permalinks.set(key, value);
    // Hugo 0.112+: tables per kind (`[permalinks.page]`, `[permalinks.section]`).
    else if (isRecord(value) && (key === 'page' || key === 'section'))
      for (const [section, template] of Object.entries(value))
        if (typeof template === 'string')
          permalinks.set(key === 'page' ? section : `${section}/_index`, template);
  }
  const markup = isRecord(values.markup) ? values.markup : {};
  const goldmark = isRecord(markup.goldmark) ? markup.goldmark : {};
  const hooks = isRecord(goldmark.renderhooks) ? goldmark.renderhooks : {};
  const linkHook = isRecord(hooks.link) ? hooks.link : {};
  const multihost = Object.values(languageValues).some(
    (language) => isRecord(language) && 'baseurl' in language,
  );
  const embeddedLinkHook =
    typeof linkHook.enabledefault === 'boolean' ? linkHook.enabledefault : languages.length > 1 && !multihost;
  const hasTheme =
    typeof values.theme === 'string' ||
    Array.isArray(values.theme) ||
    isRecord(moduleValues.imports) ||
    Array.isArray(moduleValues.imports);
  if (hasTheme)
    unsupported.push(
      `${read[0] ?? inRoot('hugo.toml')}: the theme's own content and layouts are not in this repository; what they add is not checked`,
    );
  return {
    files: read,
    hasTheme,
    basePath,
    uglyURLs: values.uglyurls === true,
    lowerCasePaths: values.disablepathtolower !== true,
    rewritesRootLinks: values.canonifyurls === true || values.relativeurls === true,
    defaultLanguage,
    defaultLanguageInSubdir: values.defaultcontentlanguageinsubdir === true,
    languages,
    content,
    static: statics,
    permalinks,
    menus,
    taxonomies: isRecord(values.taxonomies)
      ? Object.values(values.taxonomies).filter((plural): plural is string => typeof plural === 'string')
      : ['tags', 'categories'],
    refErrorsStopBuild: text(values.reflinkserrorlevel, 'ERROR').toUpperCase() !== 'WARNING',
    embeddedLinkHook,
    problems,
    unsupported,
  };
}

async function readConfigFile(
  files: RepositoryFiles,
  path: string,
  problems: SiteProblem[],
): Promise<Record<string, unknown>> {
  const text = (await files.read(path)) ?? '';
  let value: unknown = {};
  if (path.endsWith('.toml')) {
    const read = tomlValue(text, path);
    problems.push(...read.problems);
    value = read.value;
  } else if (path.endsWith('.json')) {
    try {
      value = JSON.parse(text);
    } catch (error: unknown) {
      problems.push({
        file: path,
        line: 1,
        message: `${path} is not valid JSON: ${error instanceof Error ? error.message : 'unreadable'}`,
        key: 'configuration\0json',
      });
    }
  } else {
    const document = parseDocument(text, { logLevel: 'silent', strict: false, uniqueKeys: false });
    const read = yamlValue(document, path);
    problems.push(...yamlProblems(document, path), ...read.problems);
    value = read.value;
  }
  return isRecord(value) ? (lowerCaseKeys(value, 0) as Record<string, unknown>) : {};
}

function lowerCaseKeys(value: unknown, depth: number): unknown {
  if (depth > maximumDepth) return undefined;
  if (Array.isArray(value)) return value.map((item) => lowerCaseKeys(item, depth + 1));
  if (!isRecord(value)) return value;
  // Without a prototype: a key named `__proto__` in a hostile configuration is only a key.
  const result: Record<string, unknown> = Object.create(null);
  for (const [key, item] of Object.entries(value)) result[key.toLowerCase()] = lowerCaseKeys(item, depth + 1);
  return result;
}

/** `over`'s values over `under`'s, tables merged key by key. */
function merge(under: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const result: Record<string, unknown> = Object.assign(Object.create(null), under);
  for (const [key, value] of Object.entries(over)) {
    const existing = result[key];
    result[key] = isRecord(existing) && isRecord(value) ? merge(existing, value) : value;
  }
  return result;
}

const maximumMenuEntries = 1000;

/** The `menu`/`menus` entries of one configuration file's values, with a page or a site URL. */
function menuEntries(values: Record<string, unknown>, file: string): HugoMenuEntry[] {
  const entries: HugoMenuEntry[] = [];
  for (const key of ['menu', 'menus']) {
    const menus = values[key];
    if (!isRecord(menus)) continue;
    for (const [menu, items] of Object.entries(menus)) {
      for (const item of Array.isArray(items) ? items.slice(0, maximumMenuEntries) : []) {
        if (!isRecord(item)) continue;
        if (typeof item.pageref === 'string' && item.pageref.trim() !== '')
          entries.push({ file, menu, kind: 'pageRef', reference: item.pageref.trim() });
        else if (typeof item.url === 'string' && item.url.startsWith('/') && !item.url.startsWith('//'))
          entries.push({ file, menu, kind: 'url', reference: item.url.trim() });
      }
    }
  }
  return entries;
}
