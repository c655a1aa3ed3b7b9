import { posix } from 'node:path';
import { RE2JS } from 're2js';
import { isWithin, joinInside, relativeTo } from '../link-urls.ts';
import type { RepositoryFiles } from '../site-model.ts';
import {
  isComputed,
  knownStrings,
  possibleStrings,
  type SphinxConfig,
  stringListSetting,
  stringSetting,
} from './sphinx-config.ts';

/** The documents of a Sphinx project: which files are sources, and the name each is known by. */
export interface SphinxProject {
  /** The source folder (the folder of `conf.py`), relative to the repository root. */
  srcDir: string;
  rootDoc: string;
  suffixes: string[];
  /** Suffixes of notebooks in other formats, converted by Jupytext (`.pct.py`): documents, not read. */
  convertedSuffixes: string[];
  extensions: Set<string>;
  /** Document name (`guide/install`) → its file. */
  documents: Map<string, string>;
  /** File → document name. */
  docnames: Map<string, string>;
  /** Every repository file by its path without its last extension (`img/logo` → `img/logo.png`, ...). */
  filesByStem: ReadonlyMap<string, readonly string[]>;
  /** Whether a source-relative path is left out by `exclude_patterns` (and what Sphinx adds to them). */
  isExcluded(relative: string): boolean;
  /** Settings this reader could not know, named for the run's report. */
  computed: string[];
}

// sphinx/project.py: left out of every project.
const alwaysExcluded = ['**/_sources', '.#*', '**/.#*', '*.lproj/**'];
// The suffixes each Markdown or notebook extension registers for itself.
const extensionSuffixes: Record<string, string[]> = {
  myst_parser: ['.md'],
  myst_nb: ['.md', '.ipynb'],
  recommonmark: ['.md'],
  nbsphinx: ['.ipynb'],
  // Canonical's starter pack extension turns MyST on.
  canonical_sphinx: ['.md'],
  'sphinx_gallery.load_style': [],
};
const maximumPatterns = 200;
const maximumDepth = 64;
const maximumPatternLength = 1024;

/**
 * Finds the documents the way `Project.discover` does (sphinx/project.py, sphinx/util/matching.py):
 * every file under the source folder ending in a `source_suffix`, except those matching
 * `exclude_patterns`, `templates_path`, `html_static_path` or `html_extra_path` (a folder that matches
 * leaves out all below it), and only those matching `include_patterns`. Patterns are Sphinx's globs
 * (`*` and `?` stop at `/`, `**` does not), compiled for RE2 so a repository's pattern cannot stall a check.
 */
export function findSphinxProject(
  files: RepositoryFiles,
  config: SphinxConfig,
  srcDir: string,
): SphinxProject {
  const computed: string[] = [];
  // A list known only in part (imported, then extended) is read as what it holds for certain.
  const list = (name: string, fallback: string[]): string[] => {
    const value = stringListSetting(config, name);
    if (value === null && config.values.has(name)) computed.push(name);
    else if (config.conditional.has(name)) computed.push(name);
    if (value !== null) return value;
    const known = knownStrings(config, name);
    return known.length > 0 ? [...fallback, ...known] : fallback;
  };
  // An extension some builds load is read as loaded: it may resolve or write what the model cannot see.
  const extensions = new Set([...list('extensions', []), ...possibleStrings(config, 'extensions')]);
  const suffixValue = config.values.get('source_suffix');
  let suffixes: string[];
  if (suffixValue instanceof Map) suffixes = [...suffixValue.keys()];
  else suffixes = list('source_suffix', ['.rst']);
  if (isComputed(suffixValue)) computed.push('source_suffix');
  for (const extension of extensions) {
    for (const suffix of extensionSuffixes[extension] ?? [])
      if (!suffixes.includes(suffix)) suffixes.push(suffix);
  }
  // Notebooks in other formats (https://nbsphinx.readthedocs.io/en/latest/custom-formats.html,
  // https://myst-nb.readthedocs.io/en/latest/authoring/custom-formats.html): their suffixes are documents'.
  const convertedSuffixes: string[] = [];
  for (const [extension, setting] of [
    ['nbsphinx', 'nbsphinx_custom_formats'],
    ['myst_nb', 'nb_custom_formats'],
  ] as const) {
    const formats = config.values.get(setting);
    if (!extensions.has(extension) || !(formats instanceof Map)) continue;
    for (const suffix of formats.keys()) {
      if (typeof suffix !== 'string' || !suffix.startsWith('.') || suffixes.includes(suffix)) continue;
      suffixes.push(suffix);
      convertedSuffixes.push(suffix);
    }
  }
  const rootDoc = stringSetting(config, 'root_doc') ?? stringSetting(config, 'master_doc') ?? 'index';
  const excluded = compileGlobs([
    ...list('exclude_patterns', []),
    ...list('templates_path', []),
    ...list('html_static_path', []),
    ...list('html_extra_path', []),
    ...alwaysExcluded,
  ]);
  const included = compileGlobs(list('include_patterns', ['**']));
  const isExcluded = (relative: string) => excluded.some((pattern) => pattern.matches(relative));
  const documents = new Map<string, string>();
  const docnames = new Map<string, string>();
  const excludedFolders = new Map<string, boolean>();
  // Whether a file's folder, or one above it, is excluded: from the top down, each folder once, so a
  // path ten thousand folders deep costs no recursion.
  const folderExcluded = (relative: string): boolean => {
    let excluded = false;
    for (
      let slash = relative.indexOf('/');
      slash >= 0 && !excluded;
      slash = relative.indexOf('/', slash + 1)
    ) {
      const folder = relative.slice(0, slash);
      let known = excludedFolders.get(folder);
      if (known === undefined) {
        known = isExcluded(folder);
        excludedFolders.set(folder, known);
      }
      excluded = known;
    }
    return excluded;
  };
  const filesByStem = new Map<string, string[]>();
  for (const path of files.paths) {
    const stem = path.replace(/\.[^./]*$/, '');
    const named = filesByStem.get(stem);
    if (named === undefined) filesByStem.set(stem, [path]);
    else named.push(path);
  }
  for (const path of files.paths) {
    if (!isWithin(srcDir, path)) continue;
    const relative = relativeTo(srcDir, path).normalize('NFC');
    // No documentation nests 64 folders deep; checking every folder of such a path costs its
    // depth times its length.
    if (relative.split('/', maximumDepth + 1).length > maximumDepth) continue;
    const suffix = suffixes.find((candidate) => relative.endsWith(candidate));
    if (suffix === undefined || folderExcluded(relative) || isExcluded(relative)) continue;
    if (!included.some((pattern) => pattern.matches(relative))) continue;
    const docname = relative.slice(0, relative.length - suffix.length);
    // Two files for one document: Sphinx warns and keeps the first it finds.
    if (docname === '' || documents.has(docname)) continue;
    documents.set(docname, path);
    docnames.set(path, docname);
  }
  return {
    srcDir,
    rootDoc,
    suffixes,
    convertedSuffixes,
    extensions,
    documents,
    docnames,
    filesByStem,
    isExcluded,
    computed,
  };
}

/**
 * The source folder: the configuration's, but with sphinx-multiproject
 * (https://sphinx-multiproject.readthedocs.io/) each project's own folder (`path`, or its name), the
 * `PROJECT` environment variable choosing one at build time. The first project is the one checked.
 */
export function sourceFolder(config: SphinxConfig, siteRoot: string, unsupported: string[]): string {
  const projects = config.values.get('multiproject_projects');
  if (!(projects instanceof Map) || !(stringListSetting(config, 'extensions') ?? []).includes('multiproject'))
    return siteRoot;
  const [name, options] = [...projects][0] ?? [];
  if (name === undefined) return siteRoot;
  const path =
    options instanceof Map && typeof options.get('path') === 'string'
      ? (options.get('path') as string)
      : name;
  const folder = joinInside(siteRoot, path) ?? siteRoot;
  if (projects.size > 1)
    unsupported.push(
      `sphinx-multiproject: only the first project, \`${name}\` (${folder}/), is checked; its others are built from their own folders`,
    );
  return folder;
}

/** `docname_join` (sphinx/util/__init__.py): a name relative to a document's folder, `/` for the source root. */
export function joinDocname(base: string, name: string): string | null {
  // As `posixpath.normpath` from the root: `..` above the source folder stays at it.
  const joined = posix.normalize(name.startsWith('/') ? name : posix.join(`/${base}`, '..', name)).slice(1);
  return joined === '' || joined === '.' ? null : joined.replace(/(?<!\/)\/+$/, '');
}

/** Sphinx's glob (`_translate_pattern` in sphinx/util/matching.py), for RE2. */
export function compileGlobs(patterns: readonly string[]): Array<{ matches(path: string): boolean }> {
  return patterns.slice(0, maximumPatterns).map((pattern) => {
    // No path pattern is kilobytes long; compiling a hostile one took seconds.
    if (pattern.length > maximumPatternLength) return { matches: () => false };
    let expression = '';
    const lastClose = pattern.lastIndexOf(']');
    for (let index = 0; index < pattern.length; index += 1) {
      const character = pattern[index] ?? '';
      if (character === '*') {
        if (pattern[index + 1] === '*') {
          expression += '.*';
          index += 1;
        } else expression += '[^/]*';
      } else if (character === '?') expression += '[^/]';
      else if (character === '[') {
        // Once no `]` follows, none follows any later `[` either: one search, not one per bracket.
        const close = index + 2 > lastClose ? -1 : pattern.indexOf(']', index + 2);
        if (close < 0) expression += '\\[';
        else {
          let inside = pattern.slice(index + 1, close).replace(/\\/g, '\\\\');
          if (inside.startsWith('!')) inside = `^/${inside.slice(1)}`;
          else if (inside.startsWith('^')) inside = `\\${inside}`;
          expression += `[${inside}]`;
          index = close;
        }
      } else expression += character.replace(/[.+(){}|^$\\\]]/g, '\\$&');
    }
    // As `get_matching_files` matches (not `Matcher`): `**/x` does not match `x` at the top.
    try {
      const compiled = RE2JS.compile(`^(?:${expression})$`, RE2JS.DOTALL);
      return { matches: (path: string) => compiled.matches(path) };
    } catch {
      return { matches: () => false };
    }
  });
}

/** The source suffix `name` ends with (the first of `suffixes`, as Sphinx's `remove_suffix`), if any. */
export function sourceSuffixOf(name: string, suffixes: readonly string[]): string | undefined {
  return suffixes.find((candidate) => name.endsWith(candidate));
}

/** A document name without its source suffix (`intro.md` is `intro`); as written without one. */
export function withoutSourceSuffix(
  name: string,
  suffixes: readonly string[] = ['.md', '.ipynb', '.rst'],
): string {
  const suffix = sourceSuffixOf(name, suffixes);
  return suffix === undefined ? name : name.slice(0, -suffix.length);
}
