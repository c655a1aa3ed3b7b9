import { posix } from 'node:path';
import isGlob from 'is-glob';
import { Minimatch } from 'minimatch';
import { parseDocument } from 'yaml';
import { ConfigLines } from '../config-lines.ts';
import { isWithin, relativeTo } from '../link-urls.ts';
import type { RepositoryFiles, SiteProblem } from '../site-model.ts';
import { isRecord, stringList, yamlProblems, yamlValue } from './yaml-problems.ts';

/**
 * A Redocly project's files and configuration as @redocly/realm 0.135.2 reads them (Realm, Revel
 * and Reef share this engine): the files its watcher sees (dist/server/fs/fs.js), the translations'
 * copies (dist/server/fs/content-fs.js), `ignore:` and partials folders
 * (dist/server/plugins/config-parser/loaders/redocly-config-loader.js, dist/server/utils/globs.js)
 * and version folders (versions-config-loader.js, dist/utils/path/parse-path-versions.js).
 * Paths here are relative to the project's folder (the one holding `redocly.yaml`).
 */
export interface RedoclyProject {
  /** Every file of the project, with one copy per locale of each default-language file a locale lacks. */
  paths: string[];
  /** A locale's copy (`@l10n/fr/x.md`) to the default-language file it shows (`x.md`). */
  copies: ReadonlyMap<string, string>;
  /** Locale folders (`fr`, `es-ES`), as found under `@l10n/` (or `@i18n/`). */
  locales: string[];
  /** Locale folders beyond the first 64 (or 500,000 copied files), whose pages are not read. */
  skippedLocales: string[];
  /** The folder translations live in: `@l10n`, or `@i18n` when only that one exists. */
  localeFolder: string;
  isIgnored(path: string): boolean;
  isPartial(path: string): boolean;
  defaultVersionOf(path: string): string | null;
  config: Readonly<Record<string, unknown>>;
  configText: ConfigLines;
  problems: SiteProblem[];
  configFiles: string[];
}

/** Realm's `parsePathVersions`: a path with one `@folder/` (not `@l10n/`, `@i18n/`) is versioned. */
export function parsePathVersions(
  path: string,
): { versionFolderPath: string; versionName: string; filePathInVersion: string } | null {
  if ((path.match(/((?!@i18n\/|@l10n\/)\/?@.*?(?=\/))/g)?.length ?? 0) !== 1) return null;
  const match = /^(?:@(?:i18n|l10n)\/)?(.*?\/?)@(.*)$/s.exec(path);
  if (match === null) return null;
  const rest = match[2] ?? '';
  const slash = rest.indexOf('/');
  return {
    versionFolderPath: match[1] || '/',
    versionName: slash < 0 ? rest : rest.slice(0, slash),
    filePathInVersion: slash < 0 ? '' : rest.slice(slash + 1),
  };
}

/** `pathMatchesGlobPattern`, compiled once: a glob through minimatch's defaults, or a path and everything below it. */
function compilePattern(pattern: string): (path: string) => boolean {
  if (isGlob(pattern)) {
    const glob = new Minimatch(pattern);
    return (path) => glob.match(path);
  }
  const plain = posix.normalize(pattern).replace(/^\/+/, '').replace(/\/+$/, '');
  return (path) => path === plain || path.startsWith(`${plain}/`);
}

const maximumPatterns = 500;
const maximumLocales = 64;
const maximumCopies = 500_000;

export async function readRedoclyProject(files: RepositoryFiles, siteRoot: string): Promise<RedoclyProject> {
  const inRoot = (path: string) => (siteRoot === '' ? path : `${siteRoot}/${path}`);
  const configFile = inRoot('redocly.yaml');
  const problems: SiteProblem[] = [];
  const configFiles = [configFile];
  const text = (await files.read(configFile)) ?? '';
  const document = parseDocument(text, { logLevel: 'silent', uniqueKeys: false });
  problems.push(...yamlProblems(document, configFile));
  const read = yamlValue(document, configFile);
  problems.push(...read.problems);
  const config = isRecord(read.value) ? read.value : {};

  // The watcher leaves out `.git`, `node_modules`, anything holding `@theme`, the output folder
  // `public/` and the project's own README.md, and chokidar 3 its editors' swap and backup files.
  const own = files.paths
    .filter((path) => isWithin(siteRoot, path))
    .map((path) => relativeTo(siteRoot, path))
    .filter(
      (path) =>
        !/(\/.git\/|\/node_modules\/|@theme)/.test(`/${path}`) &&
        !/\..*\.(sw[px])$|~$|\.subl.*\.tmp/.test(path) &&
        path !== 'README.md' &&
        !path.startsWith('public/'),
    );
  const l10n = own.some((path) => path.startsWith('@l10n/'));
  const localeFolder = l10n || !own.some((path) => path.startsWith('@i18n/')) ? '@l10n' : '@i18n';
  // A locale is any name inside the locale folder, a file's too (a committed `@l10n/.DS_Store` is
  // one: `ContentFs.localeFolders`). Each copies every default-language file: past 64 locales, or
  // past 500,000 copies (a hostile repository's thousands of locales), their pages are not known.
  const allLocales = [
    ...new Set(
      own.flatMap((path) => {
        const segments = path.split('/');
        return segments[0] === localeFolder && segments.length > 1 ? [segments[1] ?? ''] : [];
      }),
    ),
  ];
  const defaults = own.filter((path) => !/^@(l10n|i18n)\//.test(path));
  const locales = allLocales.slice(
    0,
    Math.min(maximumLocales, Math.floor(maximumCopies / Math.max(1, defaults.length))),
  );
  const present = new Set(own);
  const copies = new Map<string, string>();
  for (const locale of locales)
    for (const path of defaults) {
      const copy = `${localeFolder}/${locale}/${path}`;
      if (!present.has(copy)) copies.set(copy, path);
    }
  const paths = [...own, ...copies.keys()];

  // `ignore:` (with `static` first), each entry but a glob starting with `*` (or naming a locale
  // folder) repeated under every locale; the last pattern a path matches decides, `!` un-ignores.
  const forAllLocales = (pattern: string) =>
    /^\/?@(l10n|i18n)/.test(pattern)
      ? [posix.normalize(pattern)]
      : [
          posix.normalize(pattern),
          ...locales.map((locale) => posix.join(localeFolder, locale, posix.normalize(pattern))),
        ];
  const ignore = ['static', ...stringList(config.ignore)]
    .slice(0, maximumPatterns)
    .flatMap((pattern) =>
      isGlob(pattern) && (pattern.startsWith('*') || /^\/?@(l10n|i18n)/.test(pattern))
        ? [pattern]
        : forAllLocales(pattern),
    );
  const ignoreRules = ignore.map((pattern) => ({
    negated: pattern.startsWith('!'),
    matches: compilePattern(pattern.startsWith('!') ? pattern.slice(1) : pattern),
  }));
  const ignoredCache = new Map<string, boolean>();
  const isIgnored = (path: string): boolean => {
    let ignored = ignoredCache.get(path);
    if (ignored === undefined) {
      ignored = false;
      for (const rule of ignoreRules) if (rule.matches(path)) ignored = !rule.negated;
      ignoredCache.set(path, ignored);
    }
    return ignored;
  };
  const markdown = isRecord(config.markdown) ? config.markdown : {};
  const partialsFolders = (
    Array.isArray(markdown.partialsFolders) ? stringList(markdown.partialsFolders) : ['**/_partials/**']
  )
    .slice(0, maximumPatterns)
    .flatMap(forAllLocales)
    .map(compilePattern);
  const isPartial = (path: string) => partialsFolders.some((matches) => matches(path));

  // Versions: each version folder's `versions.yaml` names them and the default; without one, the
  // folders found, in ICU order, the last the default.
  const collator = new Intl.Collator();
  const versionSets = new Map<string, { listed: boolean; versions: Set<string>; default?: string }>();
  for (const path of paths) {
    if (posix.basename(path) !== 'versions.yaml') continue;
    let folder = posix.dirname(path);
    folder = folder === '.' ? '/' : `${folder}/`;
    folder = folder.replace(/^@(i18n|l10n)\//, '');
    const file = inRoot(copies.get(path) ?? path);
    const versionsText = await files.read(file);
    if (versionsText === null) continue;
    if (!configFiles.includes(file)) configFiles.push(file);
    const value = yamlValue(parseDocument(versionsText, { logLevel: 'silent' }), file).value;
    const record = isRecord(value) ? value : {};
    const versions = (Array.isArray(record.versions) ? record.versions : []).flatMap((entry) =>
      isRecord(entry) && typeof entry.version === 'string' ? [entry.version] : [],
    );
    versionSets.set(folder, {
      listed: true,
      versions: new Set(versions),
      ...(typeof record.default === 'string' ? { default: record.default } : {}),
    });
  }
  for (const path of paths) {
    const parsed = parsePathVersions(path);
    if (parsed === null) continue;
    const set = versionSets.get(parsed.versionFolderPath) ?? { listed: false, versions: new Set<string>() };
    if (!set.listed) set.versions.add(parsed.versionName);
    versionSets.set(parsed.versionFolderPath, set);
  }
  const defaultVersions = new Map<string, string | null>();
  for (const [folder, set] of versionSets) {
    const ordered = set.listed ? [...set.versions] : [...set.versions].sort(collator.compare);
    defaultVersions.set(folder, set.default ?? ordered.at(-1) ?? null);
  }
  const defaultVersionOf = (path: string) => {
    const parsed = parsePathVersions(path);
    return parsed === null ? null : (defaultVersions.get(parsed.versionFolderPath) ?? null);
  };

  return {
    paths,
    copies,
    locales,
    skippedLocales: allLocales.slice(locales.length),
    localeFolder,
    isIgnored,
    isPartial,
    defaultVersionOf,
    config,
    configText: new ConfigLines(text),
    problems,
    configFiles,
  };
}
