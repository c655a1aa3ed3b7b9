import { posix } from 'node:path';
import { UnknownValue } from '../javascript-config.ts';
import { normalizeRoute, relativeTo } from '../link-urls.ts';
import { isPagePath, type SiteSource } from '../site-model.ts';
import type {
  ContentPluginSettings,
  DocsPluginSettings,
  ModuleReader,
  SiteSettings,
} from './docusaurus-config.ts';

/** One version of one docs plugin instance: its content folder, routes and doc ids. */
export interface DocsVersion {
  plugin: DocsPluginSettings;
  /** `current` or the name in versions.json. */
  name: string;
  contentPath: string;
  /** Translated copies of the content folder, by locale. */
  localizedPaths: ReadonlyMap<string, string>;
  /** The version's route without baseUrl: `/docs`, `/docs/next`, `/docs/1.0`. */
  routeBase: string;
  sidebarFile: string | null | UnknownValue;
  /** Doc id → file, as sidebars name docs. */
  docIds: Map<string, string>;
}

/** A route's owner: a page file, or a reason it is served without one. */
export type RouteOwner = { file: string } | { served: string };

export interface SiteContent {
  versions: DocsVersion[];
  /** Page files (Markdown) and their routes without baseUrl, canonical first. */
  pages: Map<string, string[]>;
  partials: Set<string>;
  routes: Map<string, RouteOwner>;
  /** Lower-case routes, for links that differ only in case (hosts differ there: unchecked). */
  routesIgnoringCase: Set<string>;
  unsupported: string[];
}

// https://docusaurus.io/docs/api/plugins/@docusaurus/plugin-content-docs#number-prefixes
const numberPrefixPattern = /^\d+\s*[-_.]+\s*([^-_.\s].*)$/;
const pageExtensions = /\.(mdx?|jsx?|tsx?)$/;

function stripNumberPrefix(name: string): string {
  return numberPrefixPattern.exec(name)?.[1] ?? name;
}

/** Excluded by every content plugin's default `exclude`: `_`-prefixed files and folders, tests. */
export function isExcludedSource(relative: string): boolean {
  return (
    relative.split('/').some((segment) => segment.startsWith('_') || segment === '__tests__') ||
    /\.test\.[jt]sx?$/.test(relative)
  );
}

export async function readSiteContent(
  source: SiteSource,
  settings: SiteSettings,
  reader: ModuleReader,
): Promise<SiteContent> {
  const content: SiteContent = {
    versions: [],
    pages: new Map(),
    partials: new Set(),
    routes: new Map(),
    routesIgnoringCase: new Set(),
    unsupported: [],
  };
  const addRoute = (route: string, owner: RouteOwner) => {
    if (!content.routes.has(route)) content.routes.set(route, owner);
    content.routesIgnoringCase.add(route.toLowerCase());
  };
  const filesUnder = (folder: string) => {
    const prefix = folder === '' ? '' : `${folder}/`;
    return source.files.paths.filter((path) => path.startsWith(prefix));
  };
  const localizedFolder = (locale: string, plugin: string, id: string, suffix: string) => {
    const root = settings.configFile?.includes('/')
      ? settings.configFile.slice(0, settings.configFile.lastIndexOf('/') + 1)
      : '';
    return `${root}i18n/${locale}/docusaurus-plugin-content-${plugin}${id === 'default' ? '' : `-${id}`}${suffix}`;
  };
  const otherLocales = settings.locales.filter((locale) => locale !== settings.defaultLocale);

  for (const plugin of settings.docs) {
    const versions = await listVersions(source, settings, reader, plugin, content.unsupported);
    for (const version of versions) {
      const localizedPaths = new Map(
        otherLocales.map((locale) => [
          locale,
          localizedFolder(
            locale,
            'docs',
            plugin.id,
            version.name === 'current' ? '/current' : `/version-${version.name}`,
          ),
        ]),
      );
      const docsVersion: DocsVersion = { ...version, plugin, localizedPaths, docIds: new Map() };
      content.versions.push(docsVersion);
      for (const file of filesUnder(version.contentPath)) {
        if (!isPagePath(file)) continue;
        const relative = relativeTo(version.contentPath, file);
        if (isExcludedSource(relative)) {
          content.partials.add(file);
          continue;
        }
        const facts = await source.pageFacts(file);
        const frontMatter = facts?.frontMatter ?? {};
        const folder = posix.dirname(relative);
        const fileName = posix.basename(relative).replace(/\.[^.]+$/, '');
        const baseId = typeof frontMatter.id === 'string' ? frontMatter.id : stripNumberPrefix(fileName);
        docsVersion.docIds.set(folder === '.' ? baseId : `${folder}/${baseId}`, file);
        const slug = docSlug(folder, fileName, baseId, frontMatter.slug);
        const route = normalizeRoute(`${version.routeBase}/${slug}`);
        content.pages.set(file, [route]);
        addRoute(route, { file });
        for (const [locale, localizedPath] of localizedPaths) {
          const translated = `${localizedPath}/${relative}`;
          if (source.files.has(translated))
            content.pages.set(translated, [normalizeRoute(`/${locale}${route}`)]);
        }
      }
    }
  }
  for (const blog of settings.blogs) {
    for (const file of filesUnder(blog.path)) {
      if (!isPagePath(file)) continue;
      const relative = relativeTo(blog.path, file);
      if (isExcludedSource(relative)) {
        content.partials.add(file);
        continue;
      }
      const facts = await source.pageFacts(file);
      const route = normalizeRoute(`${blog.routeBase}/${blogSlug(relative, facts?.frontMatter?.slug)}`);
      content.pages.set(file, [route]);
      addRoute(route, { file });
      for (const locale of otherLocales) {
        const translated = `${localizedFolder(locale, 'blog', blog.id, '')}/${relative}`;
        if (source.files.has(translated))
          content.pages.set(translated, [normalizeRoute(`/${locale}${route}`)]);
      }
    }
  }
  for (const pages of settings.pages) addPagesPlugin(pages, content, addRoute, filesUnder);
  return content;
}

function addPagesPlugin(
  plugin: ContentPluginSettings,
  content: SiteContent,
  addRoute: (route: string, owner: RouteOwner) => void,
  filesUnder: (folder: string) => string[],
): void {
  // https://docusaurus.io/docs/api/plugins/@docusaurus/plugin-content-pages: every JS/TS/MD file a route.
  for (const file of filesUnder(plugin.path)) {
    const relative = relativeTo(plugin.path, file);
    if (!pageExtensions.test(relative) || relative.endsWith('.d.ts')) continue;
    if (isExcludedSource(relative)) {
      if (isPagePath(file)) content.partials.add(file);
      continue;
    }
    const route = normalizeRoute(`${plugin.routeBase}/${relative.replace(pageExtensions, '')}`);
    if (isPagePath(file)) {
      content.pages.set(file, [route]);
      addRoute(route, { file });
    } else addRoute(route, { served: `the page ${file}` });
  }
}

/** https://docusaurus.io/docs/create-doc#doc-urls: `slug` front matter, else folder and id; index docs serve the folder. */
function docSlug(folder: string, fileName: string, baseId: string, frontMatterSlug: unknown): string {
  const strippedFolder = folder === '.' ? '' : folder.split('/').map(stripNumberPrefix).join('/');
  const folderSlug = strippedFolder === '' ? '/' : `/${strippedFolder}/`;
  if (typeof frontMatterSlug === 'string' && frontMatterSlug.startsWith('/')) return frontMatterSlug;
  const lastFolder = folder === '.' ? '' : (folder.split('/').pop() ?? '');
  const lower = fileName.toLowerCase();
  if (
    typeof frontMatterSlug !== 'string' &&
    (lower === 'index' || lower === 'readme' || lower === lastFolder.toLowerCase())
  )
    return folderSlug;
  const relative = typeof frontMatterSlug === 'string' ? frontMatterSlug : baseId;
  return posix.normalize(`${folderSlug}${relative}`);
}

// https://docusaurus.io/docs/blog#blog-post-date: `YYYY-MM-DD-name.md` or `YYYY-MM-DD-name/index.md`.
const datedPostPattern = /^(.*?)(\d{4}[-/]\d{1,2}[-/]\d{1,2})[-/]?(.*?)(?:\/index)?\.mdx?$/;

function blogSlug(relative: string, frontMatterSlug: unknown): string {
  if (typeof frontMatterSlug === 'string') return frontMatterSlug;
  const dated = datedPostPattern.exec(relative);
  if (dated !== null) return `/${(dated[2] ?? '').replace(/-/g, '/')}/${dated[1] ?? ''}${dated[3] ?? ''}`;
  return `/${relative.replace(/(?:\/index)?\.mdx?$/, '')}`;
}

interface VersionPlace {
  name: string;
  contentPath: string;
  routeBase: string;
  sidebarFile: string | null | UnknownValue;
}

/** https://docusaurus.io/docs/versioning: versions.json, versioned_docs/version-X, versioned_sidebars. */
async function listVersions(
  source: SiteSource,
  settings: SiteSettings,
  reader: ModuleReader,
  plugin: DocsPluginSettings,
  unsupported: string[],
): Promise<VersionPlace[]> {
  const root = settings.configFile?.includes('/')
    ? settings.configFile.slice(0, settings.configFile.lastIndexOf('/') + 1)
    : '';
  const prefix = plugin.id === 'default' ? '' : `${plugin.id}_`;
  const versionsFile = `${root}${prefix}versions.json`;
  let names: string[] = [];
  if (source.files.has(versionsFile)) {
    settings.configFiles.push(versionsFile);
    const value = await reader.read(versionsFile);
    if (Array.isArray(value)) names = value.filter((name): name is string => typeof name === 'string');
  }
  let lastVersion = names[0] ?? 'current';
  if (typeof plugin.lastVersion === 'string') lastVersion = plugin.lastVersion;
  else if (plugin.lastVersion instanceof UnknownValue && names.length > 0)
    unsupported.push(
      `${settings.configFile}: \`lastVersion\` of the docs plugin \`${plugin.id}\` is computed by code; ${lastVersion} is assumed`,
    );
  const routeOf = (name: string) => {
    const path =
      plugin.versionPaths.get(name) ?? (name === lastVersion ? '' : name === 'current' ? 'next' : name);
    return normalizeRoute(`${plugin.routeBase}/${path}`);
  };
  const places: VersionPlace[] = [];
  if (plugin.includeCurrentVersion)
    places.push({
      name: 'current',
      contentPath: plugin.path,
      routeBase: routeOf('current'),
      sidebarFile: plugin.sidebarPath,
    });
  for (const name of names) {
    const sidebarFile = `${root}${prefix}versioned_sidebars/version-${name}-sidebars.json`;
    places.push({
      name,
      contentPath: `${root}${prefix}versioned_docs/version-${name}`,
      routeBase: routeOf(name),
      sidebarFile: source.files.has(sidebarFile) ? sidebarFile : null,
    });
  }
  return places;
}
