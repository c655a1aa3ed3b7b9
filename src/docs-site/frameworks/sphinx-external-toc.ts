import { isMap, isScalar, isSeq, LineCounter, type Node, parseDocument } from 'yaml';
import type { SiteProblem } from '../site-model.ts';
import type { PythonValue, SphinxConfig } from './sphinx-config.ts';
import { isRecord, stringList as strings, yamlProblems, yamlValue } from './yaml-problems.ts';

/** One entry of a `_toc.yml`: a document (`file`, the root too) or a glob of them, with its line. */
export interface ExternalTocItem {
  kind: 'file' | 'glob';
  value: string;
  line: number;
}

export interface ExternalToc {
  /** The root document (`root:`), as written. */
  root: { value: string; line: number } | null;
  items: ExternalTocItem[];
  problems: SiteProblem[];
}

// No table of contents lists more documents, nor nests deeper; a hostile one stops here.
const maximumItems = 20_000;
const maximumDepth = 64;

/**
 * Reads a sphinx-external-toc table of contents (https://sphinx-external-toc.readthedocs.io/, the
 * `_toc.yml` of Jupyter Book 1): `root`, then documents under `parts`/`chapters`/`sections`
 * (`jb-book`, `jb-article`) or `subtrees`/`entries` (the default format), each `file:` (a document
 * name from the source folder, with or without its suffix), `glob:` or `url:`. Read from the YAML
 * tree with each value's line; aliases are not followed.
 */
export function readExternalToc(text: string, file: string): ExternalToc {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, logLevel: 'silent', uniqueKeys: false });
  const contents = document.contents;
  const rootNode = isMap(contents) ? contents.get('root', true) : undefined;
  const root =
    isScalar(rootNode) && typeof rootNode.value === 'string'
      ? { value: rootNode.value, line: lineCounter.linePos(rootNode.range?.[0] ?? 0).line }
      : null;
  const items = readTocItems(contents, lineCounter, { file: 'file', glob: 'glob' });
  return { root, items, problems: yamlProblems(document, file) };
}

/**
 * The `file` and glob entries of a YAML table of contents, at any depth under `node` (parts,
 * chapters, sections, children, subtrees, entries), each with its line; `keys` names the key of
 * each kind (`glob` in `_toc.yml`, `pattern` in a MyST `myst.yml`). Aliases are not followed.
 */
export function readTocItems(
  node: unknown,
  lineCounter: LineCounter,
  keys: { file: string; glob: string },
): ExternalTocItem[] {
  const items: ExternalTocItem[] = [];
  const visit = (current: unknown, depth: number) => {
    if (depth > maximumDepth || items.length >= maximumItems) return;
    if (isSeq(current)) {
      for (const item of current.items) visit(item, depth + 1);
      return;
    }
    if (!isMap(current)) return;
    for (const pair of current.items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : '';
      const value = pair.value;
      if (isScalar(value) && typeof value.value === 'string') {
        const kind = key === keys.file ? 'file' : key === keys.glob ? 'glob' : null;
        const line = lineCounter.linePos((value as Node).range?.[0] ?? 0).line;
        if (kind !== null) items.push({ kind, value: value.value, line });
      } else if (!['meta', 'defaults', 'options'].includes(key)) visit(value, depth + 1);
    }
  };
  visit(node, 0);
  return items;
}

// What Jupyter Book 1 always loads (jupyter_book/config.py). intersphinx is loaded too but resolves
// nothing without a mapping, so it counts only when `sphinx.config` gives one.
const jupyterBookExtensions = [
  'sphinx_togglebutton',
  'sphinx_copybutton',
  'myst_nb',
  'jupyter_book',
  'sphinx_thebe',
  'sphinx_comments',
  'sphinx_external_toc',
  'sphinx_design',
  'sphinx_book_theme',
];
const jupyterBookExcluded = ['_build', 'Thumbs.db', '.DS_Store', '**.ipynb_checkpoints'];

/**
 * The Sphinx settings Jupyter Book 1 builds from `_config.yml` (https://jupyterbook.org/en/stable/customize/config.html,
 * jupyter_book/config.py `yaml_to_sphinx`): its extensions and `sphinx.extra_extensions`,
 * `exclude_patterns`, the `parse` settings (MyST's), `only_build_toc_files` as
 * `external_toc_exclude_missing`, and `sphinx.config` over all of them. Nothing is run.
 */
export function readJupyterBookConfig(
  text: string,
  file: string,
): { config: SphinxConfig; problems: SiteProblem[] } {
  const document = parseDocument(text, { logLevel: 'silent', uniqueKeys: false });
  const read = yamlValue(document, file);
  const yaml = isRecord(read.value) ? read.value : {};
  const sphinx = isRecord(yaml.sphinx) ? yaml.sphinx : {};
  const overrides = isRecord(sphinx.config) ? sphinx.config : {};
  const localExtensions = isRecord(sphinx.local_extensions) ? Object.keys(sphinx.local_extensions) : [];
  const extensions = [
    ...jupyterBookExtensions,
    ...(overrides.intersphinx_mapping === undefined ? [] : ['sphinx.ext.intersphinx']),
    ...(Array.isArray(yaml.bibtex_bibfiles) && yaml.bibtex_bibfiles.length > 0
      ? ['sphinxcontrib.bibtex']
      : []),
    ...strings(sphinx.extra_extensions),
    ...localExtensions,
  ];
  const values = new Map<string, PythonValue>([
    ['extensions', [...new Set(extensions)]],
    ['exclude_patterns', [...strings(yaml.exclude_patterns), ...jupyterBookExcluded]],
    ['external_toc_path', '_toc.yml'],
    ['external_toc_exclude_missing', yaml.only_build_toc_files === true],
  ]);
  for (const [key, value] of Object.entries(isRecord(yaml.parse) ? yaml.parse : {}))
    values.set(key, pythonValue(value));
  for (const [key, value] of Object.entries(overrides)) values.set(key, pythonValue(value));
  return {
    config: { file, values, conditional: new Set(), possibly: new Map(), dynamic: false },
    problems: [...yamlProblems(document, file), ...read.problems],
  };
}

function pythonValue(value: unknown): PythonValue {
  if (Array.isArray(value)) return value.map(pythonValue);
  if (isRecord(value)) return new Map(Object.entries(value).map(([key, item]) => [key, pythonValue(item)]));
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  return null;
}
