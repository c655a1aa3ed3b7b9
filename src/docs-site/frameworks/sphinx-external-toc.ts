import { isMap, isScalar, isSeq, LineCounter, type Node, parseDocument } from 'yaml';
import type { SiteProblem } from '../site-model.ts';
import type { PythonValue, SphinxConfig } from './sphinx-config.ts';
import { yamlProblems, yamlValue } from './yaml-problems.ts';

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
  const items: ExternalTocItem[] = [];
  let root: ExternalToc['root'] = null;
  const lineOf = (node: Node) => lineCounter.linePos(node.range?.[0] ?? 0).line;
  const visit = (node: unknown, depth: number) => {
    if (depth > maximumDepth || items.length >= maximumItems) return;
    if (isSeq(node)) {
      for (const item of node.items) visit(item, depth + 1);
      return;
    }
    if (!isMap(node)) return;
    for (const pair of node.items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : '';
      const value = pair.value;
      if (isScalar(value) && typeof value.value === 'string') {
        if (key === 'file' || key === 'glob')
          items.push({ kind: key, value: value.value, line: lineOf(value) });
        else if (key === 'root' && depth === 0) root = { value: value.value, line: lineOf(value) };
      } else if (!['meta', 'defaults', 'options'].includes(key)) visit(value, depth + 1);
    }
  };
  visit(document.contents, 0);
  return { root, items, problems: yamlProblems(document, file) };
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

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function strings(value: unknown): string[] {
  return (Array.isArray(value) ? value : []).filter((item): item is string => typeof item === 'string');
}
