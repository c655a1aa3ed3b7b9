import { CallValue, isPlainRecord, readJavaScriptConfig } from '../javascript-config.ts';
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
  /** Whether a loader is given an `i18n` configuration (translations as `page.cn.mdx`). */
  i18n: boolean;
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
  let i18n = false;
  const prefix = siteRoot === '' ? '' : `${siteRoot}/`;
  const modules = files.paths.filter(
    (path) => path.startsWith(prefix) && loaderModule.test(path.slice(prefix.length)),
  );
  for (const file of modules) {
    read.add(file);
    const module = readJavaScriptConfig((await files.read(file)) ?? '', file);
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
      if (options.i18n !== undefined) i18n = true;
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
  return { files: [...read], collections, i18n, redirects: next.sources, unsupported };
}
