import { posix } from 'node:path';
import { RE2JS } from 're2js';
import { folderOf, isWithin, joinInside, normalizeRoute, relativeTo } from '../link-urls.ts';
import type { SiteSource } from '../site-model.ts';
import { type MkDocsConfig, readMkDocsConfig, readPlugins, readZensicalConfig } from './mkdocs-config.ts';
import { gitignoreMatcher } from './mkdocs-navigation.ts';
import { isRecord } from './yaml-problems.ts';

/** The builds that read MkDocs' configuration and Python-Markdown pages: MkDocs and Zensical. */
export type MkDocsFlavor = 'mkdocs' | 'zensical';

/** One built MkDocs site: the primary one, or a translation built from its own folder. */
export interface MkDocsSite {
  flavor: MkDocsFlavor;
  /** The language folder's name for a translation (`de`), null for the primary site. */
  language: string | null;
  config: MkDocsConfig;
  docsDir: string;
  /** Routes of this site start with it (`/de`), '' for the primary site. */
  routePrefix: string;
  useDirectoryUrls: boolean;
  /** Page file → its route (normalized), and back. */
  routes: Map<string, string>;
  files: Map<string, string>;
  /** Where this site's `nav` is written in its navigation file, when not at the top (mkdocs-static-i18n). */
  navWithin?: [number, number];
  /** Translations read from mkdocs-static-i18n's folders (on the primary site). */
  staticI18n?: boolean;
  /** The Material blog plugin's folder of posts and folder of the blog (both repository paths), or null. */
  blogDir: string | null;
  postsDir: string | null;
  isExcluded(path: string): boolean;
}

// Python-Markdown's page extensions as MkDocs lists them (mkdocs/utils/__init__.py, markdown_extensions).
const documentPattern = /\.(md|markdown|mdown|mkdn|mkd)$/i;

export function isMkDocsDocument(path: string, flavor: MkDocsFlavor = 'mkdocs'): boolean {
  // Zensical renders `**/*.md` only (zensical/src/workflow.rs, process_markdown).
  return flavor === 'zensical' ? path.endsWith('.md') : documentPattern.test(path);
}

/**
 * The sites an MkDocs configuration builds. FastAPI's shape: `docs/en/mkdocs.yml` is the primary
 * configuration, and each sibling language folder (`docs/de/`) holds its own `docs/` built with a
 * configuration that inherits the primary one (`INHERIT: ../en/mkdocs.yml`), served under `/de/`.
 * The translation layout is recognized when at least one sibling's `mkdocs.yml` inherits the primary.
 */
export async function findMkDocsSites(
  source: SiteSource,
  configFile: string,
  flavor: MkDocsFlavor = 'mkdocs',
): Promise<MkDocsSite[]> {
  const files = source.files;
  const primaryConfig = configFile.endsWith('.toml')
    ? await readZensicalConfig(files, configFile)
    : await readMkDocsConfig(files, configFile);
  const i18n = flavor === 'mkdocs' ? readStaticI18n(primaryConfig) : null;
  const translated = i18n === null ? null : await staticI18nSites(source, primaryConfig, i18n);
  if (translated !== null) return translated;
  const primary = await buildSite(source, primaryConfig, null, flavor);
  const sites = primary === null ? [] : [primary];
  const configFolder = folderOf(configFile);
  // Zensical's TOML has no `INHERIT`, so no translation inherits the primary configuration.
  if (configFolder === '' || primary === null || configFile.endsWith('.toml')) return sites;
  const parent = folderOf(configFolder);
  const siblings = new Map<string, string | null>();
  const configName = configFile.slice(configFolder.length + 1);
  for (const path of files.paths) {
    if (!isWithin(parent, path) || isWithin(configFolder, path)) continue;
    const rest = relativeTo(parent, path);
    const slash = rest.indexOf('/');
    if (slash <= 0) continue;
    const folder = rest.slice(0, slash);
    if (!siblings.has(folder)) siblings.set(folder, null);
    if (rest.slice(slash + 1) === configName) siblings.set(folder, path);
  }
  let inheritsPrimary = false;
  const languageConfigs = new Map<string, MkDocsConfig>();
  for (const [folder, file] of siblings) {
    if (file === null) continue;
    const config = await readMkDocsConfig(files, file);
    languageConfigs.set(folder, config);
    if (config.inherited.includes(configFile)) inheritsPrimary = true;
  }
  if (!inheritsPrimary) return sites;
  const docsDirRelative = relativeTo(configFolder, primary.docsDir);
  for (const folder of siblings.keys()) {
    const languageFolder = parent === '' ? folder : `${parent}/${folder}`;
    const config = languageConfigs.get(folder) ?? {
      // A language without its own configuration is built with the primary one (FastAPI's script does).
      ...primaryConfig,
      file: `${languageFolder}/${configName}`,
      inherited: [configFile, ...primaryConfig.inherited],
      values: { ...primaryConfig.values, docs_dir: docsDirRelative },
      problems: [],
    };
    const site = await buildSite(source, config, folder, flavor, languageFolder);
    if (site !== null && site.files.size > 0) sites.push(site);
  }
  return sites;
}

async function buildSite(
  source: SiteSource,
  config: MkDocsConfig,
  language: string | null,
  flavor: MkDocsFlavor,
  folder = folderOf(config.file),
): Promise<MkDocsSite | null> {
  const values = config.values;
  const docsDirValue = typeof values.docs_dir === 'string' ? values.docs_dir : 'docs';
  const docsDir = joinInside(folder, docsDirValue);
  if (docsDir === null) return null;
  // Zensical's `offline` plugin turns directory URLs off (zensical/config.py, _convert_plugins).
  const offline = flavor === 'zensical' ? readPlugins(values).get('offline') : undefined;
  const useDirectoryUrls =
    values.use_directory_urls !== false && (offline === undefined || offline.enabled === false);
  // MkDocs leaves out dot files and `templates/` unless `exclude_docs` says otherwise; Zensical
  // skips hidden folders (zensical-watch's agent) and knows no `exclude_docs`.
  const excludePatterns = typeof values.exclude_docs === 'string' ? values.exclude_docs : '';
  const excluded = gitignoreMatcher(flavor === 'zensical' ? '.*' : `.*\n/templates/\n${excludePatterns}`);
  const plugins = readPlugins(values);
  const excludedByPlugin = flavor === 'mkdocs' ? excludePluginMatcher(plugins.get('exclude')) : () => false;
  const isExcluded = (path: string) => {
    const relative = relativeTo(docsDir, path);
    return excluded(relative) || excludedByPlugin(relative);
  };
  // Zensical runs none of MkDocs' plugins; its blog is not built from them.
  const blog = flavor === 'zensical' ? undefined : plugins.get('blog');
  const blogDir =
    blog === undefined
      ? null
      : joinInside(docsDir, typeof blog.blog_dir === 'string' ? blog.blog_dir : 'blog');
  const postDirValue = typeof blog?.post_dir === 'string' ? blog.post_dir : '{blog}/posts';
  const postsDir =
    blogDir === null
      ? null
      : joinInside(docsDir, postDirValue.replace('{blog}', relativeTo(docsDir, blogDir)));
  const site: MkDocsSite = {
    flavor,
    language,
    config,
    docsDir,
    routePrefix: language === null ? '' : `/${language}`,
    useDirectoryUrls,
    routes: new Map(),
    files: new Map(),
    blogDir,
    postsDir,
    isExcluded,
  };
  for (const path of source.files.paths) {
    if (!isWithin(docsDir, path) || !isMkDocsDocument(path, flavor) || isExcluded(path)) continue;
    // index.md wins over README.md in the same folder (MkDocs skips the README with a warning).
    if (/(^|\/)README\.md$/i.test(path) && source.files.has(`${folderOf(path)}/index.md`)) continue;
    let route = routeOfDocument(relativeTo(docsDir, path), useDirectoryUrls);
    if (postsDir !== null && isWithin(postsDir, path) && blogDir !== null) {
      route = (await postRoute(source, path, relativeTo(docsDir, blogDir))) ?? route;
    }
    const full = normalizeRoute(`${site.routePrefix}/${route}`);
    site.routes.set(path, full);
    if (!site.files.has(full)) site.files.set(full, path);
  }
  return site;
}

/** `guide/setup.md` → `guide/setup/`; `guide/index.md` and `guide/README.md` → `guide/`. */
function routeOfDocument(relative: string, useDirectoryUrls: boolean): string {
  const withoutExtension = relative.replace(documentPattern, '');
  const name = withoutExtension.slice(withoutExtension.lastIndexOf('/') + 1);
  if (/^(index|readme)$/i.test(name)) return withoutExtension.slice(0, -name.length);
  return useDirectoryUrls ? `${withoutExtension}/` : `${withoutExtension}.html`;
}

/**
 * A blog post's route as the Material blog plugin makes it by default: `blog/2024/01/31/slug/`
 * from the front matter's `date` (or `date.created`) and `slug`, else the title
 * (https://squidfunk.github.io/mkdocs-material/plugins/blog/#config.post_url_format).
 */
async function postRoute(source: SiteSource, path: string, blogRelative: string): Promise<string | null> {
  const facts = await source.pageFacts(path);
  const matter = facts?.frontMatter ?? null;
  if (matter === null) return null;
  const dateValue =
    isRecord(matter.date) && !(matter.date instanceof Date) ? matter.date.created : matter.date;
  const date = dateValue instanceof Date ? dateValue.toISOString() : String(dateValue ?? '');
  const parts = /^(\d{4})-(\d{2})-(\d{2})/.exec(date);
  const title = typeof matter.title === 'string' ? matter.title : facts?.title;
  const slug = typeof matter.slug === 'string' ? matter.slug : slugify(title ?? '');
  if (parts === null || slug === '') return null;
  return posix.join(blogRelative, parts[1] ?? '', parts[2] ?? '', parts[3] ?? '', slug, '/');
}

function slugify(title: string): string {
  return title
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .trim()
    .replace(/[\s-]+/g, '-');
}

/** The site whose docs_dir holds `path` (the deepest one), or null. */
export function siteOf(sites: readonly MkDocsSite[], path: string): MkDocsSite | null {
  let best: MkDocsSite | null = null;
  for (const site of sites) {
    if (isWithin(site.docsDir, path) && (best === null || site.docsDir.length > best.docsDir.length))
      best = site;
  }
  return best;
}

/** How many patterns of the `exclude` plugin are read, each at most 1 KiB: a real configuration has a handful. */
const maximumExcludePatterns = 200;

/**
 * The files the mkdocs-exclude plugin leaves out of the build (https://github.com/apenwarr/mkdocs-exclude):
 * `glob` patterns matched with Python's `fnmatch` (a `*` crosses folders) and `regex` patterns
 * matched from the start of the path, both against the path in docs_dir. Patterns are repository
 * content, so they run on RE2 (linear time); one RE2 cannot read is skipped.
 */
function excludePluginMatcher(options: Record<string, unknown> | undefined): (relative: string) => boolean {
  if (options === undefined) return () => false;
  const list = (value: unknown) =>
    (Array.isArray(value) ? value : [value]).filter((item): item is string => typeof item === 'string');
  const sources = [
    ...list(options.glob).map((glob) => `^${fnmatchSource(glob)}$`),
    ...list(options.regex).map((regex) => `^(?:${regex}).*$`),
  ]
    .filter((source) => source.length <= 1_024)
    .slice(0, maximumExcludePatterns);
  const patterns: RE2JS[] = [];
  for (const source of sources) {
    try {
      patterns.push(RE2JS.compile(source));
    } catch {
      // Not a pattern RE2 reads (Python lookarounds): its files stay in the build here.
    }
  }
  return (relative) => patterns.some((pattern) => pattern.matches(relative));
}

/** Python's `fnmatch` pattern as a regular expression: `*` any run, `?` one character, `[...]` a set. */
function fnmatchSource(glob: string): string {
  let source = '';
  for (let index = 0; index < glob.length; index += 1) {
    const character = glob[index] ?? '';
    if (character === '*') source += '.*';
    else if (character === '?') source += '.';
    else if (character === '[') {
      const close = glob.indexOf(']', index + 2);
      if (close < 0) source += '\\[';
      else {
        const inside = glob.slice(index + 1, close).replace(/\\/g, '\\\\');
        source += `[${inside.startsWith('!') ? `^${inside.slice(1)}` : inside}]`;
        index = close;
      }
    } else source += RE2JS.quote(character);
  }
  return source;
}

/** mkdocs-static-i18n's languages in its folder structure: the default one at docs_dir's root. */
interface StaticI18n {
  defaultLocale: string;
  defaultNav: unknown[] | null;
  defaultWithin: [number, number] | undefined;
  languages: Array<{ locale: string; nav: unknown[] | null; within: [number, number] | undefined }>;
}

/**
 * mkdocs-static-i18n 1.x with `docs_structure: folder` (https://ultrabug.github.io/mkdocs-static-i18n/,
 * mkdocs_static_i18n/folder.py): a page in `docs/<locale>/` is that language's, served under
 * `/<locale>/`, every other page the default language's; a language's `nav` is written in its entry
 * of the plugin's `languages`, and a page it lacks falls back to the default language's. Read only when
 * the default language has no folder of its own; otherwise null, and the plugin stays unread.
 */
function readStaticI18n(config: MkDocsConfig): StaticI18n | null {
  const options = readPlugins(config.values).get('i18n');
  if (options?.docs_structure !== 'folder' || !Array.isArray(options.languages)) return null;
  const entries = options.languages.filter(
    (entry): entry is Record<string, unknown> =>
      isRecord(entry) && typeof entry.locale === 'string' && /^[A-Za-z][\w-]{0,15}$/.test(entry.locale),
  );
  const defaultEntry = entries.find((entry) => entry.default === true) ?? entries[0];
  if (defaultEntry === undefined) return null;
  const text = config.texts.get(config.file) ?? '';
  const navOf = (entry: Record<string, unknown>) =>
    Array.isArray(entry.nav) && entry.nav.length > 0 ? entry.nav : null;
  return {
    defaultLocale: String(defaultEntry.locale),
    defaultNav: navOf(defaultEntry),
    defaultWithin: languageSpan(text, String(defaultEntry.locale)),
    languages: entries
      .filter((entry) => entry !== defaultEntry && entry.build !== false)
      .map((entry) => ({
        locale: String(entry.locale),
        nav: navOf(entry),
        within: languageSpan(text, String(entry.locale)),
      })),
  };
}

/** Where a language's entry is written in the plugin's `languages`: from `- locale: xx` to the next. */
function languageSpan(text: string, locale: string): [number, number] | undefined {
  const escaped = locale.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const start = new RegExp(`^[ \\t]*-[ \\t]*locale[ \\t]*:[ \\t]*["']?${escaped}["']?[ \\t]*$`, 'm').exec(
    text,
  );
  if (start === null) return undefined;
  const from = start.index + start[0].length;
  const next = /^[ \t]*-[ \t]*locale[ \t]*:|^\S/m.exec(text.slice(from));
  return [start.index, next === null ? text.length : from + next.index];
}

/** The sites of each language, or null when the default language has a folder of its own (not read). */
async function staticI18nSites(
  source: SiteSource,
  config: MkDocsConfig,
  i18n: StaticI18n,
): Promise<MkDocsSite[] | null> {
  const hasNav = Array.isArray(config.values.nav) && config.values.nav.length > 0;
  const defaultNav = hasNav ? config.values.nav : i18n.defaultNav;
  // A top-level `nav` is in its file (an inherited one, perhaps); the plugin's in the configuration's.
  const withNav = (nav: unknown, language: MkDocsConfig['values'], navFile: string | null) => ({
    ...config,
    values: { ...config.values, ...language, nav },
    navFile: Array.isArray(nav) && nav.length > 0 ? navFile : null,
  });
  const defaultNavFile = hasNav ? config.navFile : config.file;
  const primary = await buildSite(source, withNav(defaultNav, {}, defaultNavFile), null, 'mkdocs');
  if (primary === null) return [];
  const inDocs = (name: string) => (primary.docsDir === '' ? name : `${primary.docsDir}/${name}`);
  const defaultFolder = inDocs(i18n.defaultLocale);
  if (source.files.paths.some((path) => isWithin(defaultFolder, path) && isMkDocsDocument(path))) return null;
  primary.staticI18n = true;
  if (!hasNav) primary.navWithin = i18n.defaultWithin;
  const sites = [primary];
  const configFolder = folderOf(config.file);
  for (const language of i18n.languages) {
    const docsDir = relativeTo(configFolder, inDocs(language.locale));
    const site = await buildSite(
      source,
      language.nav === null
        ? withNav(defaultNav, { docs_dir: docsDir }, defaultNavFile)
        : withNav(language.nav, { docs_dir: docsDir }, config.file),
      language.locale,
      'mkdocs',
    );
    if (site === null || site.files.size === 0) continue;
    if (language.nav !== null) site.navWithin = language.within;
    else if (!hasNav) site.navWithin = i18n.defaultWithin;
    sites.push(site);
  }
  return sites;
}
