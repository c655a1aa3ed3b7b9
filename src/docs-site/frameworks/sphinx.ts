import { readGitIgnored } from '../git-ignored.ts';
import {
  folderOf,
  isExternalUrl,
  isWithin,
  joinInside,
  normalizeRoute,
  relativeTo,
  splitUrl,
} from '../link-urls.ts';
import { normalizeLabel } from '../rst-facts.ts';
import type {
  LinkTarget,
  NavigationEntry,
  PageLink,
  SiteModelBuilder,
  SphinxPageFacts,
} from '../site-model.ts';
import { createCheckoutCoverage } from './checkout-coverage.ts';
import { type PythonValue, readSphinxConfig, type SphinxConfig, stringListSetting } from './sphinx-config.ts';
import { compileGlobs, findSphinxProject, joinDocname, type SphinxProject } from './sphinx-project.ts';

// Pages Sphinx's HTML builder writes itself (StandardDomain._virtual_doc_names).
const generatedDocuments = new Set(['genindex', 'modindex', 'py-modindex', 'search']);
// Extensions that write documents at build time, and the setting naming their folder (its default).
const documentWriters: Record<string, { setting: string; folder: string | null }> = {
  'sphinx_gallery.gen_gallery': { setting: 'sphinx_gallery_conf', folder: null },
  'autoapi.extension': { setting: 'autoapi_root', folder: 'autoapi' },
  'sphinxcontrib.apidoc': { setting: 'apidoc_output_dir', folder: 'api' },
  'sphinx_automodapi.automodapi': { setting: 'automodapi_toctreedirnm', folder: 'api' },
  autodoc2: { setting: 'autodoc2_output_dir', folder: 'apidocs' },
};
// Extensions that define labels this model does not see (gallery and notebook pages).
const labelWriters = new Set(['sphinx_gallery.gen_gallery', 'nbsphinx', 'myst_nb', 'jupyter_sphinx']);
const rolePattern = /^(?::(doc|ref|numref|download):|\{(doc|ref|numref|download)\})`([\s\S]*)`$/;
const explicitTitlePattern = /^(.+?)\s*<([^<]*?)>$/s;
const maximumIncludeDepth = 4;

/**
 * Sphinx (https://www.sphinx-doc.org/en/master/usage/restructuredtext/): `conf.py` (read, never run)
 * names the source suffixes, the root document and what is excluded; every source file is a document
 * named by its path without the suffix, served by the HTML builder at `name.html`. Navigation is the
 * `toctree` directives of every document (a document in none gets a warning unless `:orphan:`);
 * `:doc:` names a document relative to the page's folder (`/` for the source folder), `:ref:` a label
 * (`.. _label:` before a section, `(label)=` in MyST; section titles with `autosectionlabel`) from any
 * document; images, includes and `:download:` files are paths from the page's folder.
 */
export const buildSphinxSite: SiteModelBuilder = async (source, siteRoot) => {
  const files = source.files;
  const configFile = siteRoot === '' ? 'conf.py' : `${siteRoot}/conf.py`;
  const configText = (await files.read(configFile)) ?? '';
  const config = readSphinxConfig(configText, configFile);
  const writesFiles = /\.write(_text|_bytes)?\(|\bopen\([^)]*["'][wa]/.test(configText);
  const unsupported: string[] = [];
  const project = findSphinxProject(files, config, sourceFolder(config, siteRoot, unsupported));
  const { documents, docnames, extensions, srcDir } = project;
  // sphinx-jinja-style hooks rewrite every page's text before Sphinx parses it.
  if (/\bconnect\(\s*["']source-read["']/.test(configText))
    unsupported.push(
      `${configFile} rewrites pages before Sphinx reads them (a \`source-read\` hook); links written with template placeholders are unchecked`,
    );
  if (config.dynamic)
    unsupported.push(
      `${configFile} takes settings from code (\`globals().update\`, a star import): documents and labels it may add are unchecked`,
    );
  if (project.computed.length > 0)
    unsupported.push(
      `${configFile}: ${project.computed.map((name) => `\`${name}\``).join(', ')} computed or set conditionally; read for what the file itself says`,
    );

  const pages = new Map<string, string[]>();
  const facts = new Map<string, SphinxPageFacts>();
  for (const [docname, file] of documents) {
    pages.set(file, [normalizeRoute(`${docname}.html`)]);
    if (file.endsWith('.ipynb')) continue;
    const read = (await source.pageFacts(file))?.sphinx;
    if (read !== undefined) facts.set(file, read);
  }

  const generatedFolders = findGeneratedFolders(config, project, facts);
  if (generatedFolders === 'all')
    unsupported.push(
      'an extension writes documents to folders set in code; references to missing documents are unchecked',
    );
  const labelGenerators = [...extensions].filter((name) => labelWriters.has(name));
  if (labelGenerators.length > 0)
    unsupported.push(
      `${labelGenerators.join(', ')} define${labelGenerators.length === 1 ? 's' : ''} labels at build time; \`:ref:\` references are unchecked`,
    );
  const labels = await collectLabels(
    source,
    project,
    facts,
    config.values.get('autosectionlabel_prefix_document') === true,
  );
  const isGitIgnored = await readGitIgnored(files);
  const isExpected = createCheckoutCoverage(files.paths);
  const intersphinx = config.values.get('intersphinx_mapping');
  // Unknown (null) when computed or set under a condition: any prefix may name an inventory.
  const inventories =
    intersphinx instanceof Map && !config.conditional.has('intersphinx_mapping')
      ? new Set(intersphinx.keys())
      : null;
  // Another extension may load intersphinx for the project (sphinx-scrapy): its settings say it is used.
  const usesIntersphinx =
    extensions.has('sphinx.ext.intersphinx') ||
    [...config.values.keys()].some((name) => name.startsWith('intersphinx_'));
  // Intersphinx resolves what the project does not define from every inventory, but the kinds disabled.
  const disabledReftypes = new Set(stringListSetting(config, 'intersphinx_disabled_reftypes') ?? ['std:doc']);
  const resolvedElsewhere = (reftype: string) =>
    config.dynamic ||
    (usesIntersphinx && !['*', 'std:*', `std:${reftype}`].some((name) => disabledReftypes.has(name)));
  const labelsUnchecked = labelGenerators.length > 0 || resolvedElsewhere('ref');
  const hasNotebooks = [...documents.values()].some((file) => file.endsWith('.ipynb'));

  const documentFile = (docname: string | null): string | null =>
    docname === null ? null : (documents.get(docname) ?? null);
  /** Why a missing document may still exist when Sphinx runs, or null when it cannot. */
  const missingDocumentReason = (docname: string): string | null => {
    const candidate = joinInside(srcDir, `${docname}${project.suffixes[0] ?? '.rst'}`);
    if (candidate !== null && isGitIgnored(candidate))
      return 'a document generated at build time (ignored by Git)';
    if (generatedFolders === 'all' || generatedFolders.some((folder) => isWithin(folder, docname)))
      return 'a document an extension writes at build time';
    // A file conf.py names and writes (sphinx-book-theme's downloads `content/pydata-content-blocks.md`).
    const sources = [...project.suffixes, '.md', '.rst'];
    const named = (before: string) =>
      sources.some((suffix) => configText.includes(`${before}${docname}${suffix}`));
    if (writesFiles && ['"', "'", '/'].some(named)) return `a document ${configFile} writes`;
    // A file of that name whose suffix only an extension this model does not know registers.
    const prefix = joinInside(srcDir, `${docname}.`);
    if (
      prefix !== null &&
      files.paths.some(
        (path) =>
          path.startsWith(prefix) &&
          !path.slice(prefix.length).includes('/') &&
          !project.suffixes.some((suffix) => path.endsWith(suffix)),
      )
    )
      return 'a file of that name that an extension may read';
    return null;
  };

  const navigation: NavigationEntry[] = [];
  for (const [file, page] of facts) {
    const docname = docnames.get(file) ?? '';
    for (const toctree of page.toctrees) {
      // A glob takes the documents this toctree has not listed yet (TocTree.parse_content).
      const listed = new Set<string>();
      for (const entry of toctree.entries) {
        const explicit = explicitTitlePattern.exec(entry.reference);
        const reference = (explicit?.[2] ?? entry.reference).trim();
        if (/^.+:\/\//.test(reference) || reference === 'self' || reference === '') continue;
        const base = { reference: entry.reference, file, line: entry.line, groups: [] };
        if (toctree.glob && explicit === null && /[*?[]/.test(reference)) {
          const pattern = joinDocname(docname, reference);
          const matcher = pattern === null ? null : compileGlobs([pattern])[0];
          const matched = [...documents.keys()].filter(
            (name) => name !== docname && matcher?.matches(name) === true && !listed.has(name),
          );
          for (const name of matched.sort()) listed.add(name);
          // A pattern over a folder the build fills (generated index pages, ignored by Git).
          if (
            matched.length === 0 &&
            pattern !== null &&
            missingDocumentReason(pattern.replace(/[*?]|\[[^\]]*\]/g, 'x')) !== null
          )
            continue;
          if (matched.length === 0) navigation.push({ ...base, target: null });
          for (const name of matched) navigation.push({ ...base, target: documents.get(name) ?? null });
          continue;
        }
        const suffix = project.suffixes.find((candidate) => reference.endsWith(candidate));
        const target = joinDocname(
          docname,
          suffix === undefined ? reference : reference.slice(0, -suffix.length),
        );
        if (target !== null && generatedDocuments.has(target)) continue;
        if (target !== null) listed.add(target);
        const found = documentFile(target);
        // An entry for a document written at build time (API pages) lists no page of the repository.
        if (found === null && target !== null && missingDocumentReason(target) !== null) continue;
        navigation.push({ ...base, target: found });
      }
    }
  }

  const staticFolders = [...(stringListSetting(config, 'html_extra_path') ?? [])]
    .map((folder) => joinInside(srcDir, folder))
    .filter((folder): folder is string => folder !== null);
  const staticFolder = (stringListSetting(config, 'html_static_path') ?? [])
    .map((folder) => joinInside(srcDir, folder))
    .filter((folder): folder is string => folder !== null);

  // `html_additional_pages`: pages rendered from templates, by name.
  const additional = config.values.get('html_additional_pages');
  const additionalPages = new Set(additional instanceof Map ? additional.keys() : []);

  /** A path written in a page (an image, an include, a download): from the page's folder, `/` for the source folder. */
  const fileFrom = (from: string, path: string): string | null =>
    path.startsWith('/') ? joinInside(srcDir, path.slice(1)) : joinInside(folderOf(from), path);

  const resolveRole = (from: string, role: string, written: string): LinkTarget => {
    const docname = docnames.get(from) ?? relativeTo(srcDir, from).replace(/\.[^./]+$/, '');
    const explicit = explicitTitlePattern.exec(written);
    const target = (explicit?.[2] ?? written).trim();
    // Written with a template's placeholders, for an extension that renders pages first (Jinja).
    if (/\{\{|\{%/.test(target)) return { kind: 'unchecked', reason: 'a template placeholder' };
    const prefix = /^([\w.-]+):(.+)$/.exec(target);
    if (role === 'download') {
      if (isExternalUrl(target)) return { kind: 'external' };
      const file = fileFrom(from, target);
      if (file !== null && files.has(file)) return { kind: 'file', file };
      return file !== null && !isExpected(file)
        ? { kind: 'unchecked', reason: 'this checkout may not hold such files' }
        : { kind: 'broken', reason: `no file ${file ?? target} to download` };
    }
    if (role === 'doc') {
      const file = documentFile(joinDocname(docname, target));
      if (file !== null) return { kind: 'file', file };
      if (prefix !== null && usesIntersphinx && (inventories === null || inventories.has(prefix[1] ?? '')))
        return { kind: 'external' };
      const name = joinDocname(docname, target);
      if (name !== null && generatedDocuments.has(name))
        return { kind: 'served', reason: 'a page Sphinx generates' };
      const reason = name === null ? null : missingDocumentReason(name);
      if (reason !== null) return { kind: 'unchecked', reason };
      if (resolvedElsewhere('doc'))
        return { kind: 'unchecked', reason: 'intersphinx may find it in another project' };
      return { kind: 'broken', reason: `unknown document ${name ?? target}` };
    }
    const label = normalizeLabel(target);
    if (labels.has(label)) return { kind: 'served', reason: 'a label' };
    if (prefix !== null && (inventories === null || inventories.has(prefix[1] ?? '')) && usesIntersphinx)
      return { kind: 'external' };
    if (labelsUnchecked || hasNotebooks)
      return { kind: 'unchecked', reason: 'labels may come from another project or a generated page' };
    return { kind: 'broken', reason: `undefined label ${label}` };
  };

  /**
   * A MyST link that is no file (myst_parser/sphinx_ext/myst_refs.py): a reference every domain is
   * asked to resolve (a document relative to the page, a label, an object), then intersphinx.
   */
  const resolveMystReference = (from: string, path: string): LinkTarget => {
    const docname = docnames.get(from) ?? '';
    const document = documentFile(joinDocname(docname, path));
    if (document !== null) return { kind: 'file', file: document };
    if (labels.has(normalizeLabel(path))) return { kind: 'served', reason: 'a label' };
    if (project.suffixes.some((suffix) => path.endsWith(suffix)))
      return { kind: 'broken', reason: `no document ${joinInside(folderOf(from), path) ?? path}` };
    return { kind: 'unchecked', reason: 'MyST asks every domain (objects too) and intersphinx for it' };
  };

  const resolveLink = (from: string, url: string, link?: Pick<PageLink, 'kind' | 'title'>): LinkTarget => {
    const role = rolePattern.exec(url);
    if (role !== null) return resolveRole(from, role[1] ?? role[2] ?? '', role[3] ?? '');
    if (isExternalUrl(url)) return { kind: 'external' };
    const { path } = splitUrl(url);
    if (path === '') return { kind: 'external' };
    if (link?.kind === 'image' || link?.kind === 'import') {
      const file = fileFrom(from, path);
      if (file === null) return { kind: 'unchecked', reason: 'the path leaves the repository' };
      if (files.has(file)) return { kind: 'file', file };
      // `image.*`: Sphinx picks the best of the files with that name.
      if (file.endsWith('.*') && files.paths.some((candidate) => candidate.startsWith(file.slice(0, -1))))
        return { kind: 'served', reason: 'a file of that name' };
      if (link.kind === 'image' && !isExpected(file))
        return { kind: 'unchecked', reason: 'this checkout may not hold such files' };
      if (isGitIgnored(file))
        return { kind: 'unchecked', reason: 'a file generated at build time (ignored by Git)' };
      return { kind: 'broken', reason: `no file ${file}` };
    }
    if (path.startsWith('/'))
      return { kind: 'unchecked', reason: 'an absolute URL depends on where the site is served' };
    const target = joinInside(folderOf(from), path);
    if (target === null) return { kind: 'unchecked', reason: 'the link leaves the repository' };
    if (files.has(target)) return { kind: 'file', file: target };
    if (/\.(md|markdown)$/i.test(from)) return resolveMystReference(from, path);
    if (target.endsWith('.html')) {
      const file = documentFile(relativeTo(srcDir, target).slice(0, -'.html'.length));
      if (file !== null) return { kind: 'file', file };
      const relative = relativeTo(srcDir, target);
      if (
        generatedDocuments.has(relative.slice(0, -'.html'.length)) ||
        additionalPages.has(relative.slice(0, -'.html'.length))
      )
        return { kind: 'served', reason: 'a page Sphinx generates' };
      if (staticFolders.some((folder) => files.has(`${folder}/${relative}`)))
        return { kind: 'served', reason: 'a file of html_extra_path' };
      if (/\.(md|markdown)$/i.test(from))
        return { kind: 'unchecked', reason: 'MyST may read it as a reference' };
      return { kind: 'broken', reason: `no document renders ${relative}` };
    }
    const relative = relativeTo(srcDir, target);
    if (
      relative.startsWith('_static/') &&
      staticFolder.some((folder) => files.has(`${folder}/${relative.slice(8)}`))
    )
      return { kind: 'served', reason: 'a file of html_static_path' };
    return { kind: 'unchecked', reason: 'Sphinx does not check this link' };
  };

  const orphans = new Set([...facts].filter(([, page]) => page.orphan).map(([file]) => file));
  const rootFile = documents.get(project.rootDoc) ?? null;
  return {
    framework: 'sphinx',
    siteRoot,
    configFiles: [configFile],
    pages,
    partials: new Set(),
    navigation,
    needsNavigationEntry: (file) => docnames.has(file) && file !== rootFile && !orphans.has(file),
    navigationFileFor: (file) => navigationFileFor(file, project, facts) ?? rootFile ?? configFile,
    resolveLink,
    configurationProblems: [],
    unsupported,
    conventions: [
      `Pages are ${project.suffixes.map((suffix) => `\`${suffix}\``).join(', ')} files under \`${srcDir === '' ? '.' : srcDir}/\`; each is a document named by its path without the suffix.`,
      "In reStructuredText, link a page with :doc:`path`, the path without its suffix, relative to the linking page's folder or starting with `/` from the source folder; link a section with :ref:`label`, defining the label with `.. _label:` on its own line before the section title.",
      ...(project.suffixes.includes('.md')
        ? [
            'In MyST Markdown pages, {doc}`path` and {ref}`label` work the same, a label is `(label)=` on its own line, and a Markdown link to another page names its file with the suffix (`[Setup](setup.md)`).',
          ]
        : []),
      'A new page must be listed in a `toctree` directive (usually in the index page of its folder), by its path without the suffix, or Sphinx warns that it is in no toctree.',
    ],
  };
};

/**
 * The source folder: the configuration's, but with sphinx-multiproject
 * (https://sphinx-multiproject.readthedocs.io/) each project's own folder (`path`, or its name), the
 * `PROJECT` environment variable choosing one at build time. The first project is the one checked.
 */
function sourceFolder(config: SphinxConfig, siteRoot: string, unsupported: string[]): string {
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

/**
 * The folders (document names) extensions write documents to: autosummary's `:toctree:` folders,
 * each relative to its page; a gallery's, API generator's or `autoapi`'s from `conf.py`. 'all' when
 * a writer's folder cannot be read.
 */
function findGeneratedFolders(
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
  return folders.map((folder) => folder.replace(/^\.?\/+|\/+$/g, ''));
}

/** Every label of the project: explicit targets of each document and of the files it includes. */
async function collectLabels(
  source: Parameters<SiteModelBuilder>[0],
  project: SphinxProject,
  facts: ReadonlyMap<string, SphinxPageFacts>,
  prefixDocument: boolean,
): Promise<Set<string>> {
  const labels = new Set(['genindex', 'modindex', 'search']);
  const autosection = project.extensions.has('sphinx.ext.autosectionlabel');
  const readIncluded = async (file: string, docname: string, depth: number, seen: Set<string>) => {
    const page = await source.pageFacts(file);
    if (page === null) return;
    for (const label of page.sphinx?.labels ?? []) labels.add(label);
    if (autosection)
      for (const section of page.sphinx?.sections ?? [])
        labels.add(normalizeLabel(prefixDocument ? `${docname}:${section}` : section));
    if (depth >= maximumIncludeDepth) return;
    for (const link of page.links) {
      if (link.kind !== 'import') continue;
      const included = link.url.startsWith('/')
        ? joinInside(project.srcDir, link.url.slice(1))
        : joinInside(folderOf(file), link.url);
      // `literalinclude` and code includes are text to show, not reStructuredText.
      if (included === null || seen.has(included) || !/\.(rst|rest|txt|inc|md)$/i.test(included)) continue;
      if (!source.files.has(included)) continue;
      seen.add(included);
      await readIncluded(included, docname, depth + 1, seen);
    }
  };
  for (const file of facts.keys())
    await readIncluded(file, project.docnames.get(file) ?? '', 0, new Set([file]));
  return labels;
}

/** The document whose toctree a new page at `file` belongs in: its folder's index, or the nearest above. */
function navigationFileFor(
  file: string,
  project: SphinxProject,
  facts: ReadonlyMap<string, SphinxPageFacts>,
): string | null {
  const docname = project.docnames.get(file) ?? relativeTo(project.srcDir, file).replace(/\.[^./]+$/, '');
  let folder = docname.includes('/') ? docname.slice(0, docname.lastIndexOf('/')) : '';
  for (;;) {
    const index = project.documents.get(folder === '' ? 'index' : `${folder}/index`);
    if (index !== undefined && index !== file && (facts.get(index)?.toctrees.length ?? 0) > 0) return index;
    if (folder === '') return project.documents.get(project.rootDoc) ?? null;
    folder = folder.includes('/') ? folder.slice(0, folder.lastIndexOf('/')) : '';
  }
}
