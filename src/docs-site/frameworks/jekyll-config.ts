import { RE2JS } from 're2js';
import { parseDocument } from 'yaml';
import { joinInside } from '../link-urls.ts';
import type { RepositoryFiles, SiteProblem } from '../site-model.ts';
import { isRecord, yamlProblems, yamlValue } from './yaml-problems.ts';

/** What of `_config.yml` (and the Gemfile) decides which files Jekyll renders, at which URLs. */
export interface JekyllConfig {
  file: string;
  /** `baseurl`, '' or `/path` without a trailing slash. */
  baseurl: string;
  /** `permalink`: a style (`date`, `pretty`, `none`, `ordinal`) or a template. */
  permalink: string;
  /** Whether an entry (a path relative to the source) is left out by `exclude`/`include` and Jekyll's rules. */
  isExcluded(entry: string): boolean;
  /** Collections by label (`posts` always), with their folder and URL template when written. */
  collections: Map<string, { folder: string; output: boolean; permalink: string | null }>;
  /** `defaults` that set a permalink: a path scope, a type scope, the value. */
  permalinkDefaults: Array<{ path: string; type: string | null; permalink: string }>;
  plugins: Set<string>;
  /** Built the way GitHub Pages builds it (the `github-pages` gem, or no Gemfile), so its plugins run. */
  githubPages: boolean;
  /** `relative_links` options of jekyll-relative-links. */
  relativeLinks: { enabled: boolean; collections: boolean };
  theme: string;
  problems: SiteProblem[];
}

// https://github.com/github/pages-gem/blob/master/lib/github-pages/plugins.rb (DEFAULT_PLUGINS).
const githubPagesPlugins = [
  'jekyll-coffeescript',
  'jekyll-commonmark-ghpages',
  'jekyll-gist',
  'jekyll-github-metadata',
  'jekyll-paginate',
  'jekyll-relative-links',
  'jekyll-optional-front-matter',
  'jekyll-readme-index',
  'jekyll-default-layout',
  'jekyll-titles-from-headings',
];
// Jekyll 4 adds these to every `exclude` (Configuration::DEFAULT_EXCLUDES).
const defaultExcludes = [
  '.sass-cache',
  '.jekyll-cache',
  'gemfiles',
  'Gemfile',
  'Gemfile.lock',
  'node_modules',
  'vendor/bundle/',
  'vendor/cache/',
  'vendor/gems/',
  'vendor/ruby/',
];
const maximumPatterns = 200;

/**
 * Reads a Jekyll site's `_config.yml` (https://jekyllrb.com/docs/configuration/options/) and its
 * Gemfile. `exclude` and `include` entries are matched as Jekyll's EntryFilter matches them
 * (lib/jekyll/entry_filter.rb): a glob (`File.fnmatch`, `*` crossing slashes) or a plain prefix of
 * the entry's path; globs are compiled for RE2, so no pattern can make matching slow.
 */
export async function readJekyllConfig(files: RepositoryFiles, siteRoot: string): Promise<JekyllConfig> {
  const file =
    ['_config.yml', '_config.yaml']
      .map((name) => (siteRoot === '' ? name : `${siteRoot}/${name}`))
      .find((path) => files.has(path)) ?? (siteRoot === '' ? '_config.yml' : `${siteRoot}/_config.yml`);
  const text = (await files.read(file)) ?? '';
  const parse = (source: string) =>
    parseDocument(source, { logLevel: 'silent', strict: false, uniqueKeys: false });
  let document = parse(text);
  // Jekyll reads YAML with libyaml, which takes a flow list continued at the line's start
  // (`exclude: [a,\n, b\n]`); such a line cannot mean anything else, so it is indented and read again.
  if (document.errors.length > 0) {
    const indented = parse(text.replace(/^(?=[,\]}])/gm, ' '));
    if (indented.errors.length === 0) document = indented;
  }
  const read = yamlValue(document, file);
  const problems = [...yamlProblems(document, file), ...read.problems];
  const raw: unknown = read.value;
  const values = isRecord(raw) ? raw : {};
  const strings = (value: unknown): string[] =>
    (Array.isArray(value) ? value : typeof value === 'string' ? [value] : []).filter(
      (item): item is string => typeof item === 'string',
    );
  const baseurlValue = typeof values.baseurl === 'string' ? values.baseurl.trim() : '';
  const baseurl =
    baseurlValue === '' || baseurlValue === '/' ? '' : `/${baseurlValue.replace(/^\/+|(?<!\/)\/+$/g, '')}`;

  const exclude = [...strings(values.exclude), ...defaultExcludes]
    .slice(0, maximumPatterns)
    .map(entryPattern);
  const include = ['.htaccess', ...strings(values.include)].slice(0, maximumPatterns).map(entryPattern);
  const isExcluded = (entry: string): boolean => {
    if (include.some((matches) => matches(entry))) return false;
    // Jekyll's special files: a segment starting with `.`, `_` or `#`, or ending with `~`.
    const special = entry.split('/').some((segment) => /^[._#]|~$/.test(segment));
    return special || exclude.some((matches) => matches(entry));
  };

  const collectionsDir =
    typeof values.collections_dir === 'string' ? values.collections_dir.replace(/^\/+|(?<!\/)\/+$/g, '') : '';
  const collections: JekyllConfig['collections'] = new Map();
  const collectionValues = values.collections;
  const labels: Array<[string, unknown]> = Array.isArray(collectionValues)
    ? collectionValues.filter((label) => typeof label === 'string').map((label) => [label, {}])
    : isRecord(collectionValues)
      ? Object.entries(collectionValues)
      : [];
  for (const [label, metadata] of [['posts', { output: true }], ...labels] as Array<[string, unknown]>) {
    const options = isRecord(metadata) ? metadata : {};
    const folder = joinInside(collectionsDir, `_${label}`);
    if (folder === null) continue;
    collections.set(label, {
      folder,
      output: label === 'posts' ? options.output !== false : options.output === true,
      permalink: typeof options.permalink === 'string' ? options.permalink : null,
    });
  }
  const permalinkDefaults: JekyllConfig['permalinkDefaults'] = [];
  for (const item of Array.isArray(values.defaults) ? values.defaults : []) {
    if (!isRecord(item) || !isRecord(item.values) || typeof item.values.permalink !== 'string') continue;
    const scope = isRecord(item.scope) ? item.scope : {};
    permalinkDefaults.push({
      path: typeof scope.path === 'string' ? scope.path.replace(/^\/+|(?<!\/)\/+$/g, '') : '',
      type: typeof scope.type === 'string' ? scope.type : null,
      permalink: item.values.permalink,
    });
  }

  const gemfile = [siteRoot === '' ? 'Gemfile' : `${siteRoot}/Gemfile`, 'Gemfile'].find((path) =>
    files.has(path),
  );
  const gemfileText = gemfile === undefined ? null : ((await files.read(gemfile)) ?? '');
  const githubPages = gemfileText === null || /['"]github-pages['"]/.test(gemfileText);
  const plugins = new Set([...strings(values.plugins), ...strings(values.gems)]);
  for (const match of (gemfileText ?? '').matchAll(/^\s*gem\s+['"]([\w-]+)['"]/gm))
    plugins.add(match[1] ?? '');
  if (githubPages) for (const plugin of githubPagesPlugins) plugins.add(plugin);
  const relativeLinks = isRecord(values.relative_links) ? values.relative_links : {};
  return {
    file,
    baseurl,
    permalink: typeof values.permalink === 'string' ? values.permalink.trim() : 'date',
    isExcluded,
    collections,
    permalinkDefaults,
    plugins,
    githubPages,
    relativeLinks: {
      enabled: plugins.has('jekyll-relative-links') && relativeLinks.enabled !== false,
      collections: relativeLinks.collections === true,
    },
    theme: [values.theme, values.remote_theme].filter((item) => typeof item === 'string').join(' '),
    problems,
  };
}

/** An `exclude`/`include` entry as EntryFilter#glob_include? matches it: a glob or a plain prefix. */
function entryPattern(value: string): (entry: string) => boolean {
  const pattern = value.trim().replace(/^\.?\/+/, '');
  if (pattern === '') return () => false;
  let glob: RE2JS | null = null;
  if (/[*?[]/.test(pattern)) {
    const source = [...pattern]
      .map((character) => (character === '*' ? '.*' : character === '?' ? '.' : RE2JS.quote(character)))
      .join('');
    try {
      glob = RE2JS.compile(`^${source}$`);
    } catch {
      glob = null;
    }
  }
  return (entry) => entry.startsWith(pattern) || (glob?.matches(entry) ?? false);
}
