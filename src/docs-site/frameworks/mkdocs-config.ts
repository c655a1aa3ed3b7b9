import { parseDocument } from 'yaml';
import { folderOf, joinInside } from '../link-urls.ts';
import type { RepositoryFiles, SiteProblem } from '../site-model.ts';
import { tomlValue } from './toml-value.ts';
import { isRecord, yamlProblems } from './yaml-problems.ts';

/** One `mkdocs.yml` as read, with the `INHERIT` chain merged in, or one `zensical.toml`. */
export interface MkDocsConfig {
  /** The configuration file, and the files it inherits from (nearest first). */
  file: string;
  inherited: string[];
  /** The merged configuration (the child's values over its parent's, as MkDocs merges them). */
  values: Record<string, unknown>;
  /** The file whose `nav` is in effect (the child's own, or the nearest parent's), or null without one. */
  navFile: string | null;
  /** Every file's text by path, for finding lines. */
  texts: Map<string, string>;
  problems: SiteProblem[];
}

/** How many `INHERIT` steps are followed: a chain this long is a mistake or a loop. */
const maximumInheritance = 5;

/**
 * Reads an MkDocs configuration as MkDocs does: YAML with Python tags (`!!python/name:...`,
 * `!ENV`) taken as plain values, and `INHERIT: ../en/mkdocs.yml` merged under it — mappings merged
 * key by key, everything else replaced by the child's value
 * (https://www.mkdocs.org/user-guide/configuration/#configuration-inheritance).
 */
export async function readMkDocsConfig(files: RepositoryFiles, file: string): Promise<MkDocsConfig> {
  const texts = new Map<string, string>();
  const problems: SiteProblem[] = [];
  const chain: Array<{ file: string; values: Record<string, unknown> }> = [];
  let current: string | null = file;
  while (current !== null && chain.length < maximumInheritance && !texts.has(current)) {
    const text = await files.read(current);
    if (text === null) break;
    texts.set(current, text);
    const values = parseYamlMapping(text, current, problems);
    chain.push({ file: current, values });
    const parent: unknown = values.INHERIT;
    current = typeof parent === 'string' ? joinInside(folderOf(current), parent.trim()) : null;
  }
  let values: Record<string, unknown> = {};
  let navFile: string | null = null;
  for (const link of [...chain].reverse()) {
    values = mergeConfig(values, link.values, 0);
    // An empty `nav` is no `nav`: the navigation is built from the pages (MkDocs and Zensical alike).
    if (Array.isArray(link.values.nav) && link.values.nav.length > 0) navFile = link.file;
  }
  return {
    file,
    inherited: chain.slice(1).map((link) => link.file),
    values,
    navFile,
    texts,
    problems,
  };
}

/**
 * Reads a Zensical configuration (https://zensical.org/docs/setup/basics/): TOML whose settings are
 * those of `mkdocs.yml`, in a `[project]` table (zensical/config.py takes the table when present,
 * else the whole file). It has no `INHERIT`.
 */
export async function readZensicalConfig(files: RepositoryFiles, file: string): Promise<MkDocsConfig> {
  const text = (await files.read(file)) ?? '';
  const { value, problems } = tomlValue(text, file);
  const values = isRecord(value.project) ? value.project : value;
  return {
    file,
    inherited: [],
    values,
    navFile: Array.isArray(values.nav) && values.nav.length > 0 ? file : null,
    texts: new Map([[file, text]]),
    problems,
  };
}

function parseYamlMapping(text: string, file: string, problems: SiteProblem[]): Record<string, unknown> {
  const document = parseDocument(text, {
    customTags: [],
    logLevel: 'silent',
    strict: false,
    uniqueKeys: false,
  });
  problems.push(...yamlProblems(document, file));
  try {
    const value: unknown = document.toJS({ maxAliasCount: 100 });
    return isRecord(value) ? value : {};
  } catch {
    return {};
  }
}

function mergeConfig(
  parent: Record<string, unknown>,
  child: Record<string, unknown>,
  depth: number,
): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...parent };
  for (const [key, value] of Object.entries(child)) {
    const before = merged[key];
    merged[key] =
      depth < 8 && isRecord(before) && isRecord(value) ? mergeConfig(before, value, depth + 1) : value;
  }
  return merged;
}

/**
 * The plugins a configuration enables with their options: `plugins` is a list of names or
 * `{name: options}` items, or a mapping of name to options.
 */
export function readPlugins(values: Record<string, unknown>): Map<string, Record<string, unknown>> {
  const plugins = new Map<string, Record<string, unknown>>();
  const add = (name: string, options: unknown) => {
    // `material/blog` is the same plugin as `blog`.
    plugins.set(name.replace(/^material\//, ''), isRecord(options) ? options : {});
  };
  const list = values.plugins;
  if (Array.isArray(list)) {
    for (const item of list) {
      if (typeof item === 'string') add(item, {});
      else if (isRecord(item)) for (const [name, options] of Object.entries(item)) add(name, options);
    }
  } else if (isRecord(list)) {
    for (const [name, options] of Object.entries(list)) add(name, options);
  } else {
    // MkDocs enables `search` when `plugins` is not set.
    add('search', {});
  }
  return plugins;
}

/** `markdown_extensions` names with their options (a list of names or `{name: options}`, or a mapping). */
export function readMarkdownExtensions(
  values: Record<string, unknown>,
): Map<string, Record<string, unknown>> {
  const extensions = new Map<string, Record<string, unknown>>();
  const list = values.markdown_extensions;
  const add = (name: string, options: unknown) => {
    // Zensical's TOML tables nest dotted names (`[project.markdown_extensions.pymdownx.snippets]`);
    // zensical/config.py hoists them back to `pymdownx.snippets`.
    if ((name === 'pymdownx' || name === 'zensical') && isRecord(options)) {
      for (const [child, childOptions] of Object.entries(options)) add(`${name}.${child}`, childOptions);
    } else extensions.set(name, isRecord(options) ? options : {});
  };
  if (Array.isArray(list)) {
    for (const item of list) {
      if (typeof item === 'string') add(item, {});
      else if (isRecord(item)) for (const [name, options] of Object.entries(item)) add(name, options);
    }
  } else if (isRecord(list)) {
    for (const [name, options] of Object.entries(list)) add(name, options);
  }
  return extensions;
}

/**
 * Where a key's value is written in a TOML file (offsets, end excluded): from `key =` at the start of
 * a line to the next table header (`[project.theme]`), since an array may span many lines.
 */
export function tomlKeySpan(text: string, key: string): [number, number] | undefined {
  const assigned = new RegExp(`^[ \\t]*${key}[ \\t]*=`, 'm').exec(text)?.index;
  // Or written as tables (`[[project.nav]]`), up to the first header of another table.
  const tables = new RegExp(`^[ \\t]*\\[\\[project\\.${key}\\]\\]`, 'm').exec(text)?.index;
  const start = assigned ?? tables;
  if (start === undefined) return undefined;
  const header =
    assigned === undefined
      ? new RegExp(`^[ \\t]*\\[(?!\\[project\\.${key}\\])`, 'gm')
      : /^[ \t]*\[\[?[A-Za-z_"']/gm;
  header.lastIndex = start + 1;
  const next = header.exec(text);
  return [start, next === null ? text.length : next.index];
}

/**
 * Where a top-level key's block is written in a YAML file (offsets, end excluded): from its key to the
 * next line that starts another top-level key. Undefined when the key is not written at the top.
 */
export function topLevelYamlSpan(text: string, key: string): [number, number] | undefined {
  const start = new RegExp(`^${key}\\s*:`, 'm').exec(text)?.index;
  if (start === undefined) return undefined;
  const lineEnd = text.indexOf('\n', start);
  if (lineEnd < 0) return [start, text.length];
  // A sequence may sit at the key's own indentation (`nav:` then `- Home: index.md`).
  const next = /^[^\s#-]/m.exec(text.slice(lineEnd + 1));
  return [start, next === null ? text.length : lineEnd + 1 + next.index];
}
