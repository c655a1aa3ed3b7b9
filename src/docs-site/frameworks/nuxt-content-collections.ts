import { CallValue, hasUnknownSpread, isPlainRecord } from '../javascript-config.ts';
import { joinInside } from '../link-urls.ts';
import { majorOf } from '../package-dependencies.ts';
import type { RepositoryFiles } from '../site-model.ts';
import { compileDocfxGlobs } from './docfx-config.ts';
import { readConfigModule } from './vitepress-config.ts';

/**
 * Nuxt Content 3's collections (nuxt/content v3.14 src/utils/config.ts, src/utils/source.ts) and
 * Docus's defaults (nuxt-content/docus layer/content.config.ts): which files are pages, from
 * where, under which route prefix.
 */

/** A collection's source: the folder it reads, what it takes and the route prefix of its files. */
export interface ContentSource {
  cwd: string;
  include: (key: string) => boolean;
  exclude: (key: string) => boolean;
  /** The part of `include` before its first `*`: no part of a file's key. */
  fixed: string;
  prefix: string;
}

export interface Collection {
  name: string;
  sources: ContentSource[];
}

/** Nuxt Content's major version: 3 with a `content.config.*`, else as the dependencies say (Docus 3+ is on 3). */
export function contentVersion(
  dependencies: ReadonlyArray<{ name: string; range: string }>,
  contentConfig: boolean,
): 1 | 2 | 3 {
  if (contentConfig) return 3;
  for (const { name, range } of dependencies) {
    const major = majorOf(range);
    if (major === null) continue;
    if (name === '@nuxt-themes/docus') return 2;
    if (name === 'docus') return major >= 3 ? 3 : 1;
    return major >= 3 ? 3 : major === 2 ? 2 : 1;
  }
  return dependencies.some((dependency) => dependency.name === '@nuxt-themes/docus') ? 2 : 3;
}

/**
 * Nuxt Content 3's page collections: the site's `content.config.*` (`defineCollection({ type:
 * 'page', source })`), over Docus's own when the site extends Docus (nuxt-content/docus
 * layer/content.config.ts: `landing` is `index.md`, `docs` everything else; with `@nuxtjs/i18n`
 * locales, `landing_<code>` and `docs_<code>` under each locale's folder), or the default
 * collection of every file. Null when a collection's sources are computed by code.
 */
export async function readCollections(
  files: RepositoryFiles,
  siteRoot: string,
  contentConfigFile: string | undefined,
  docus: boolean,
  nuxtConfig: Record<string, unknown>,
  unsupported: string[],
): Promise<Collection[] | null> {
  const contentDir = siteRoot === '' ? 'content' : `${siteRoot}/content`;
  const byName = new Map<string, Collection>();
  if (docus) {
    const i18n = isPlainRecord(nuxtConfig.i18n) ? nuxtConfig.i18n : null;
    const locales = Array.isArray(i18n?.locales)
      ? i18n.locales.flatMap((locale) =>
          typeof locale === 'string'
            ? [locale]
            : isPlainRecord(locale) && typeof locale.code === 'string'
              ? [locale.code]
              : [],
        )
      : [];
    // Docus 5.6+: a site's own `app/pages/index.vue` is its landing page.
    const landing = !files.has(siteRoot === '' ? 'app/pages/index.vue' : `${siteRoot}/app/pages/index.vue`);
    const docusSource = (include: string, exclude: string[]) => globSource(contentDir, include, exclude);
    if (locales.length === 0) {
      if (landing) byName.set('landing', { name: 'landing', sources: [docusSource('index.md', [])] });
      byName.set('docs', { name: 'docs', sources: [docusSource('**', ['index.md'])] });
    } else
      for (const code of locales) {
        if (landing)
          byName.set(`landing_${code}`, {
            name: `landing_${code}`,
            sources: [docusSource(`${code}/index.md`, [])],
          });
        byName.set(`docs_${code}`, {
          name: `docs_${code}`,
          sources: [docusSource(`${code}/**`, [`${code}/index.md`])],
        });
      }
  }
  if (contentConfigFile !== undefined) {
    const read = await readConfigModule(files, contentConfigFile);
    const collections = read.value?.collections;
    if (!isPlainRecord(collections) || hasUnknownSpread(collections)) {
      unsupported.push(
        `${contentConfigFile}: the collections are computed by code; links to routes no file here serves are unchecked`,
      );
      return null;
    }
    for (const [name, value] of Object.entries(collections)) {
      const definition = collectionDefinition(value);
      if (definition === null || !(typeof definition.type === 'string')) {
        unsupported.push(`${contentConfigFile}: the collection \`${name}\` is computed by code`);
        return null;
      }
      if (definition.type !== 'page') {
        byName.delete(name);
        continue;
      }
      const sources = (Array.isArray(definition.source) ? definition.source : [definition.source]).map(
        (item) =>
          typeof item === 'string'
            ? localSource(contentDir, { include: item }, siteRoot)
            : isPlainRecord(item) && item.repository === undefined
              ? localSource(contentDir, item, siteRoot)
              : null,
      );
      if (sources.some((item) => item === null)) {
        unsupported.push(
          `${contentConfigFile}: the collection \`${name}\` reads a source this model does not (a repository, or one computed by code)`,
        );
        return null;
      }
      byName.set(name, { name, sources: sources.filter((item) => item !== null) });
    }
  } else if (!docus)
    byName.set('content', { name: 'content', sources: [globSource(contentDir, '**/*', [])] });
  return [...byName.values()];
}

/** `defineCollection({...})` (or a helper around it) as its object. */
function collectionDefinition(value: unknown, depth = 0): Record<string, unknown> | null {
  if (isPlainRecord(value)) return value;
  if (value instanceof CallValue && depth < 4)
    for (const argument of value.arguments_) {
      const found = collectionDefinition(argument, depth + 1);
      if (found !== null) return found;
    }
  return null;
}

/**
 * A local source (nuxt/content src/utils/source.ts `defineLocalSource`): `include` globbed from
 * `cwd` (the site's `content/` by default, `~~/` its root) with dot files, `exclude` left out; the
 * part of `include` before its first `*` is the route prefix and no part of the file's key.
 */
function localSource(
  contentDir: string,
  item: Record<string, unknown>,
  siteRoot: string,
): ContentSource | null {
  if (typeof item.include !== 'string') return null;
  const exclude = Array.isArray(item.exclude) ? item.exclude : item.exclude === undefined ? [] : null;
  if (exclude === null || !exclude.every((pattern) => typeof pattern === 'string')) return null;
  let cwd = contentDir;
  if (item.cwd !== undefined) {
    if (typeof item.cwd !== 'string' || !item.cwd.startsWith('~~/')) return null;
    const joined = joinInside(siteRoot, item.cwd.slice(3));
    if (joined === null) return null;
    cwd = joined;
  }
  return globSource(cwd, item.include, exclude, typeof item.prefix === 'string' ? item.prefix : undefined);
}

function globSource(
  cwd: string,
  written: string,
  exclude: readonly string[],
  prefix?: string,
): ContentSource {
  const include = written.replace(/^(\.\/|\.\.\/|\/)*/, '');
  const fixed = include.includes('*') ? (include.split('*')[0] ?? '') : '';
  const options = { dot: true, caseSensitive: true };
  return {
    cwd,
    include: compileDocfxGlobs([include], options),
    exclude: compileDocfxGlobs([...exclude, '**/.DS_Store'], options),
    fixed,
    prefix: prefix ?? `/${fixed}`.replace(/(?<=.)\/+$/, ''),
  };
}
