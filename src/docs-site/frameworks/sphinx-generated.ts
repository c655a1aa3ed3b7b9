import { isWithin, joinInside } from '../link-urls.ts';
import type { SphinxPageFacts } from '../site-model.ts';
import type { PythonValue, SphinxConfig } from './sphinx-config.ts';
import { joinDocname, type SphinxProject } from './sphinx-project.ts';

// Extensions that write documents at build time, and the setting naming their folder (its default).
const documentWriters: Record<string, { setting: string; folder: string | null }> = {
  'sphinx_gallery.gen_gallery': { setting: 'sphinx_gallery_conf', folder: null },
  'autoapi.extension': { setting: 'autoapi_root', folder: 'autoapi' },
  'sphinxcontrib.apidoc': { setting: 'apidoc_output_dir', folder: 'api' },
  'sphinx_automodapi.automodapi': { setting: 'automodapi_toctreedirnm', folder: 'api' },
  autodoc2: { setting: 'autodoc2_output_dir', folder: 'apidocs' },
};
/** Extensions that define labels this model does not see (gallery and notebook pages). */
export const labelWriters = new Set(['sphinx_gallery.gen_gallery', 'nbsphinx', 'myst_nb', 'jupyter_sphinx']);

/**
 * The folders (document names) extensions write documents to: autosummary's `:toctree:` folders,
 * each relative to its page; a gallery's, API generator's or `autoapi`'s from `conf.py`. 'all' when
 * a writer's folder cannot be read.
 */
export function findGeneratedFolders(
  config: SphinxConfig,
  project: SphinxProject,
  facts: ReadonlyMap<string, SphinxPageFacts>,
): string[] | 'all' {
  const folders: string[] = [];
  if (project.extensions.has('sphinx.ext.autosummary')) {
    for (const [file, page] of facts) {
      for (const folder of page.generatedFolders) {
        const joined = joinDocname(project.docnames.get(file) ?? '', folder);
        if (joined !== null) folders.push(joined);
      }
    }
  }
  for (const [extension, writer] of Object.entries(documentWriters)) {
    if (!project.extensions.has(extension)) continue;
    const value = config.values.get(writer.setting);
    if (value === undefined && writer.folder !== null) folders.push(writer.folder);
    else if (typeof value === 'string') folders.push(value);
    else if (value instanceof Map && Array.isArray(value.get('gallery_dirs'))) {
      for (const folder of value.get('gallery_dirs') as PythonValue[]) {
        if (typeof folder !== 'string') return 'all';
        folders.push(folder);
      }
    } else if (value instanceof Map && typeof value.get('gallery_dirs') === 'string') {
      folders.push(value.get('gallery_dirs') as string);
    } else return 'all';
  }
  return folders.map((folder) => folder.replace(/^\.?\/+|(?<!\/)\/+$/g, ''));
}

/**
 * Why a document missing from the repository may still exist when Sphinx runs, or null when it
 * cannot: a file Git ignores (generated), a folder an extension writes, a file `conf.py` names and
 * writes (sphinx-book-theme downloads `content/pydata-content-blocks.md`), or a file of that name
 * whose suffix only an extension this model does not know registers.
 */
const readableSource = /\.(py|ipynb|md|markdown|rmd|qmd|txt|rst|rest|inc|jl|r|myst|mdx)$/i;

export function createMissingDocumentReason(options: {
  project: SphinxProject;
  configFile: string;
  configText: string;
  generatedFolders: string[] | 'all';
  isGitIgnored(path: string): boolean;
  /** Whether a path is in a Git submodule, empty in a checkout that did not fetch it. */
  inSubmodule(path: string): boolean;
}): (docname: string) => string | null {
  const { project, configFile, configText, generatedFolders } = options;
  const writesFiles = /\.write(_text|_bytes)?\(|\bopen\([^)\n]{0,200}["'][wa]/.test(configText);
  const sources = [...project.suffixes, '.md', '.rst'];
  // The document names conf.py writes as paths (`"content/blocks.md"`, and each tail: `blocks`),
  // gathered once rather than searched for each missing document.
  const namedInConfig = new Set<string>();
  if (writesFiles) {
    for (const match of configText.matchAll(/["'/]([^"'\s]{1,300})["']/g)) {
      const path = match[1] ?? '';
      const suffix = sources.find((candidate) => path.endsWith(candidate));
      if (suffix === undefined) continue;
      const name = path.slice(0, -suffix.length);
      for (let slash = -1; slash < name.length; slash = name.indexOf('/', slash + 1)) {
        namedInConfig.add(name.slice(slash + 1));
        if (name.indexOf('/', slash + 1) < 0) break;
      }
    }
  }
  return (docname) => {
    const candidate = joinInside(project.srcDir, `${docname}${project.suffixes[0] ?? '.rst'}`);
    if (candidate !== null && options.isGitIgnored(candidate))
      return 'a document generated at build time (ignored by Git)';
    if (candidate !== null && options.inSubmodule(candidate))
      return 'a document in a Git submodule, which this checkout does not hold';
    if (generatedFolders === 'all' || generatedFolders.some((folder) => isWithin(folder, docname)))
      return 'a document an extension writes at build time';
    if (writesFiles && namedInConfig.has(docname)) return `a document ${configFile} writes`;
    const stem = joinInside(project.srcDir, docname);
    const others = stem === null ? [] : (project.filesByStem.get(stem) ?? []);
    // A source an extension may read as a document (a script, a notebook, text), not a bibliography
    // or an image of the same name.
    if (
      others.some(
        (path) => readableSource.test(path) && !project.suffixes.some((suffix) => path.endsWith(suffix)),
      )
    )
      return 'a file of that name that an extension may read';
    return null;
  };
}
