import { CallValue, isPlainRecord, readJavaScriptConfig, UnknownValue } from '../javascript-config.ts';
import { readJavaScriptModules } from '../javascript-modules.ts';
import { joinInside, normalizeRoute } from '../link-urls.ts';
import type { RepositoryFiles } from '../site-model.ts';
import { readNextRedirects } from './next-app.ts';

/** One collection of docs: its content folder and the URL the app serves its pages under. */
export interface FumadocsCollection {
  /** The exported name in `source.config.ts` (`docs`). */
  name: string;
  /** The content folder, relative to the repository root. */
  dir: string;
  /** The loader's `baseUrl` (`/docs`). */
  baseUrl: string;
}

export interface FumadocsConfig {
  /** The files read: `source.config.ts` and the loader's module when found. */
  files: string[];
  collections: FumadocsCollection[];
  /** A loader's `i18n` configuration (translations), or null without one. */
  i18n: FumadocsI18n | null;
  /**
   * Folders where fumadocs-openapi's `openapiSource(..., { baseDir })` adds pages built from an
   * OpenAPI document (no files), relative to the content folder (`en/api-reference/(generated)`).
   */
  virtualDirs: string[];
  /** The `source` routes of the Next.js configuration's `redirects()`, as written. */
  redirects: string[];
  unsupported: string[];
}

/** Modules a site's loaders are usually in: `lib/source.ts`, `src/lib/source.ts`, `lib/geistdocs/source.ts`, `lib/source/index.tsx`. */
const loaderModule = /^(src\/)?lib\/([\w-]+\/)?source(\/index)?\.(ts|tsx|js|mjs)$/;
const defaultDir = 'content/docs';
const defaultBaseUrl = '/docs';

/**
 * Reads a Fumadocs MDX site's collections without running its code (javascript-config.ts): each
 * `defineDocs({ dir })` exported by `source.config.ts` (https://fumadocs.dev/docs/mdx/collections,
 * default `content/docs`), paired with the `loader({ baseUrl, source: docs.toFumadocsSource() })`
 * of `lib/source.ts` that serves it (https://fumadocs.dev/docs/headless/source-api).
 */
export async function readFumadocsConfig(
  files: RepositoryFiles,
  siteRoot: string,
  configFile: string,
): Promise<FumadocsConfig> {
  const unsupported: string[] = [];
  const read = new Set<string>([configFile]);
  const config = readJavaScriptConfig((await files.read(configFile)) ?? '', configFile);
  const dirs = new Map<string, string>();
  for (const [name, value] of config.named) {
    if (!(value instanceof CallValue) || value.callee !== 'defineDocs') continue;
    const options = value.arguments_[0];
    const dir = isPlainRecord(options) && typeof options.dir === 'string' ? options.dir : defaultDir;
    const folder = joinInside(siteRoot, dir);
    if (folder !== null) dirs.set(name, folder);
  }
  if (dirs.size === 0) dirs.set('docs', joinInside(siteRoot, defaultDir) ?? defaultDir);

  const baseUrls = new Map<string, string>();
  const loaders: string[] = [];
  let i18n: FumadocsI18n | null = null;
  const virtualDirs: string[] = [];
  const prefix = siteRoot === '' ? '' : `${siteRoot}/`;
  const modules = files.paths.filter(
    (path) => path.startsWith(prefix) && loaderModule.test(path.slice(prefix.length)),
  );
  for (const file of modules) {
    read.add(file);
    // With the local modules it imports: `import { i18n } from './i18n'` (defineI18n in lib/i18n.ts).
    const modules = await readJavaScriptModules(files, file);
    for (const imported of modules?.files ?? []) read.add(imported);
    const module = modules?.config ?? readJavaScriptConfig((await files.read(file)) ?? '', file);
    for (const value of module.named.values()) {
      if (!(value instanceof CallValue) || value.callee !== 'loader') continue;
      // `loader({ baseUrl, source })`, or since Fumadocs 16 `loader(source, { baseUrl })`, where the
      // source may be several (`{ docs: docs.toFumadocsSource(), openapi: ... }`).
      const [first, second] = value.arguments_;
      const options = isPlainRecord(second) ? second : isPlainRecord(first) ? first : {};
      const sources = isPlainRecord(second)
        ? isPlainRecord(first)
          ? Object.values(first)
          : [first]
        : [options.source];
      if (typeof options.baseUrl !== 'string') continue;
      loaders.push(options.baseUrl);
      if (options.i18n !== undefined) i18n = readI18n(await i18nValue(files, siteRoot, options.i18n, read));
      virtualDirs.push(...openapiBaseDirs(value.arguments_, 0));
      for (const source of sources) {
        // `docs.toFumadocsSource()`; `toFumadocsSource(docs, ...)` with `docs` imported is not told.
        const name =
          source instanceof CallValue ? /^(\w+)\.toFumadocsSource$/.exec(source.callee)?.[1] : undefined;
        if (name !== undefined && dirs.has(name)) baseUrls.set(name, normalizeRoute(options.baseUrl));
      }
    }
  }
  const collections: FumadocsCollection[] = [];
  for (const [name, dir] of dirs) {
    let baseUrl = baseUrls.get(name);
    if (baseUrl === undefined && dirs.size === 1 && loaders.length === 1)
      baseUrl = normalizeRoute(loaders[0] ?? defaultBaseUrl);
    if (baseUrl === undefined) {
      unsupported.push(
        `the loader serving the \`${name}\` collection (${dir}) was not found in lib/source.ts; its pages are taken to be under ${defaultBaseUrl}`,
      );
      baseUrl = defaultBaseUrl;
    }
    collections.push({ name, dir, baseUrl });
  }
  const next = await readNextRedirects(files, siteRoot);
  if (next.file !== null) read.add(next.file);
  return { files: [...read], collections, i18n, virtualDirs, redirects: next.sources, unsupported };
}

/**
 * A site's translations (https://fumadocs.dev/docs/internationalization): `parser` `dot`
 * (`page.cn.mdx` beside `page.mdx`, the default) or `dir` (`cn/page.mdx` under the content folder),
 * and `hideLocale`: `never` (the default: every language's URLs have its prefix, the default one's
 * too, and the middleware sends unprefixed URLs there), `default-locale` or `always`.
 */
export interface FumadocsI18n {
  parser: 'dot' | 'dir';
  defaultLanguage: string | null;
  languages: string[];
  hideLocale: 'never' | 'default-locale' | 'always';
}

function readI18n(value: unknown): FumadocsI18n {
  const options = value instanceof CallValue ? value.arguments_[0] : value;
  const record = isPlainRecord(options) ? options : {};
  const languages = Array.isArray(record.languages)
    ? record.languages.filter((language): language is string => typeof language === 'string')
    : [];
  const hideLocale = record.hideLocale;
  return {
    parser: record.parser === 'dir' ? 'dir' : 'dot',
    defaultLanguage: typeof record.defaultLanguage === 'string' ? record.defaultLanguage : null,
    languages,
    hideLocale: hideLocale === 'always' || hideLocale === 'default-locale' ? hideLocale : 'never',
  };
}

/** The `baseDir` of every `openapiSource(document, { baseDir })` call within a loader's arguments. */
function openapiBaseDirs(values: readonly unknown[], depth: number): string[] {
  if (depth > 6) return [];
  const found: string[] = [];
  for (const value of values) {
    if (value instanceof CallValue) {
      const options = value.arguments_[1];
      if (
        /(^|\.)openapiSource$/.test(value.callee) &&
        isPlainRecord(options) &&
        typeof options.baseDir === 'string'
      )
        found.push(options.baseDir.replace(/^\.?\/+|(?<!\/)\/+$/g, ''));
      found.push(...openapiBaseDirs(value.arguments_, depth + 1));
    } else if (isPlainRecord(value)) found.push(...openapiBaseDirs(Object.values(value), depth + 1));
    else if (Array.isArray(value)) found.push(...openapiBaseDirs(value, depth + 1));
  }
  return found;
}

/**
 * The loader's `i18n` value; when it is imported through a path alias (`@/lib/i18n`, which only
 * tsconfig's `paths` resolve), the `defineI18n(...)` call of the site's `lib/i18n` module
 * (`src/lib/` first, as Next.js's `@/*` alias does when a `src` folder exists).
 */
async function i18nValue(
  files: RepositoryFiles,
  siteRoot: string,
  value: unknown,
  read: Set<string>,
): Promise<unknown> {
  if (!(value instanceof UnknownValue)) return value;
  for (const folder of ['src/lib', 'lib']) {
    for (const extension of ['ts', 'tsx', 'js', 'mjs']) {
      const file = joinInside(siteRoot, `${folder}/i18n.${extension}`);
      if (file === null || !files.has(file)) continue;
      read.add(file);
      const module = readJavaScriptConfig((await files.read(file)) ?? '', file);
      for (const named of [...module.named.values(), module.value])
        if (named instanceof CallValue && /(^|\.)defineI18n$/.test(named.callee)) return named;
    }
  }
  return value;
}
