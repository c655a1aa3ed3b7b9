import { createSubmoduleTest, readGitIgnored, readSubmoduleFolders } from '../git-ignored.ts';
import { readMystAnchors } from '../heading-anchors.ts';
import { joinInside, normalizeRoute, relativeTo } from '../link-urls.ts';
import { readReadTheDocsConfig } from '../read-the-docs.ts';
import { splitExplicitTitle } from '../rst-facts.ts';
import type { NavigationEntry, SiteModelBuilder, SiteProblem, SphinxPageFacts } from '../site-model.ts';
import { readSphinxConfig, type SphinxConfig, stringListSetting, stringSetting } from './sphinx-config.ts';
import { type ExternalToc, readExternalToc, readJupyterBookConfig } from './sphinx-external-toc.ts';
import { createMissingDocumentReason, findGeneratedFolders, labelWriters } from './sphinx-generated.ts';
import { collectLabels, createSphinxLinkResolver, generatedDocuments } from './sphinx-links.ts';
import {
  compileGlobs,
  findSphinxProject,
  joinDocname,
  type SphinxProject,
  sourceFolder,
  withoutSourceSuffix,
} from './sphinx-project.ts';

// Toctree globs matched against every document, at most (each costs a pass over the documents).
const maximumGlobs = 500;

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
  const inSite = (name: string) => (siteRoot === '' ? name : `${siteRoot}/${name}`);
  // Jupyter Book 1 writes the Sphinx configuration from `_config.yml` at build time.
  const jupyterBook = !files.has(inSite('conf.py')) && files.has(inSite('_toc.yml'));
  const configFile = inSite(jupyterBook ? '_config.yml' : 'conf.py');
  const configText = (await files.read(configFile)) ?? '';
  const configurationProblems: SiteProblem[] = [];
  let config: SphinxConfig;
  if (jupyterBook) {
    const read = readJupyterBookConfig(configText, configFile);
    config = read.config;
    configurationProblems.push(...read.problems);
  } else config = readSphinxConfig(configText, configFile);
  const unsupported: string[] = [];
  const srcDir = sourceFolder(config, siteRoot, unsupported);
  // sphinx-external-toc: the table of contents is a YAML file, and its root the root document.
  const tocFile =
    config.values.has('external_toc_path') ||
    (stringListSetting(config, 'extensions') ?? []).includes('sphinx_external_toc')
      ? joinInside(srcDir, stringSetting(config, 'external_toc_path') ?? '_toc.yml')
      : null;
  const toc = tocFile === null ? null : readExternalToc((await files.read(tocFile)) ?? '', tocFile);
  if (toc !== null) configurationProblems.push(...toc.problems);
  if (toc?.root != null)
    config = {
      ...config,
      values: new Map([...config.values, ['root_doc', withoutSourceSuffix(toc.root.value)]]),
    };
  const project = findSphinxProject(files, config, srcDir);
  const { documents, docnames, extensions } = project;
  const tocExcluded = toc === null ? new Set<string>() : excludeMissingFromToc(project, config, toc);
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

  // Read the Docs' `sphinx.builder: dirhtml` serves `guide/install` at `/guide/install/`.
  const hosted = await readReadTheDocsConfig(files);
  if (project.convertedSuffixes.some((suffix) => !/^\.(md|markdown|rmd)$/i.test(suffix)))
    unsupported.push(
      `notebooks in other formats (${project.convertedSuffixes.join(', ')}, converted by Jupytext) are documents, but their links are not read`,
    );
  const dirhtml =
    hosted?.sphinx?.builder === 'dirhtml' &&
    (hosted.sphinx.configuration === undefined || hosted.sphinx.configuration === configFile);
  const pages = new Map<string, string[]>();
  const facts = new Map<string, SphinxPageFacts>();
  for (const [docname, file] of documents) {
    const output = dirhtml && !/(^|\/)index$/.test(docname) ? `${docname}/index.html` : `${docname}.html`;
    pages.set(file, [normalizeRoute(output)]);
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
  const isGitIgnored = await readGitIgnored(files);
  const documentFile = (docname: string | null): string | null =>
    docname === null ? null : (documents.get(docname) ?? null);
  const missingDocumentReason = createMissingDocumentReason({
    project,
    configFile,
    configText,
    generatedFolders,
    isGitIgnored,
    inSubmodule: createSubmoduleTest(await readSubmoduleFolders(files)),
  });
  const navigation: NavigationEntry[] = [];
  let globsRead = 0;
  for (const [file, page] of facts) {
    const docname = docnames.get(file) ?? '';
    for (const toctree of page.toctrees) {
      // A glob takes the documents this toctree has not listed yet (TocTree.parse_content).
      const listed = new Set<string>();
      for (const entry of toctree.entries) {
        const explicit = splitExplicitTitle(entry.reference);
        const reference = (explicit?.target ?? entry.reference).trim();
        if (/^.+:\/\//.test(reference) || reference === 'self' || reference === '') continue;
        const base = { reference: entry.reference, file, line: entry.line, groups: [] };
        // Each glob is matched against every document: past a few hundred, globs are left unread.
        if (toctree.glob && explicit === null && /[*?[]/.test(reference)) {
          globsRead += 1;
          if (globsRead > maximumGlobs) continue;
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
            missingDocumentReason(pattern.replace(/[*?]|\[[^\][]*\]/g, 'x')) !== null
          )
            continue;
          if (matched.length === 0) navigation.push({ ...base, target: null });
          for (const name of matched) navigation.push({ ...base, target: documents.get(name) ?? null });
          continue;
        }
        const target = joinDocname(docname, withoutSourceSuffix(reference, project.suffixes));
        if (target !== null && generatedDocuments.has(target)) continue;
        if (target !== null) listed.add(target);
        const found = documentFile(target);
        // An entry for a document written at build time (API pages) lists no page of the repository.
        if (found === null && target !== null && missingDocumentReason(target) !== null) continue;
        navigation.push({ ...base, target: found });
      }
    }
  }
  // The external table of contents: document names from the source folder (sphinx_external_toc/events.py).
  if (toc !== null && tocFile !== null) {
    const entries = toc.root === null ? toc.items : [{ kind: 'file' as const, ...toc.root }, ...toc.items];
    for (const item of entries) {
      const base = { reference: item.value, file: tocFile, line: item.line, groups: [] };
      const name = withoutSourceSuffix(item.value.replace(/^\/+/, ''), project.suffixes);
      if (item.kind === 'glob') {
        globsRead += 1;
        if (globsRead > maximumGlobs) continue;
        const matcher = compileGlobs([name])[0];
        const matched = [...documents.keys()].filter((docname) => matcher?.matches(docname) === true).sort();
        if (matched.length === 0 && missingDocumentReason(name.replace(/[*?]|\[[^\][]*\]/g, 'x')) === null)
          navigation.push({ ...base, target: null });
        for (const docname of matched) navigation.push({ ...base, target: documents.get(docname) ?? null });
        continue;
      }
      const found = documentFile(name);
      if (found === null && missingDocumentReason(name) !== null) continue;
      navigation.push({ ...base, target: found });
    }
  }

  const hasNotebooks = [...documents.values()].some((file) => file.endsWith('.ipynb'));
  const resolveLink = createSphinxLinkResolver({
    files,
    project,
    config,
    labels: await collectLabels(
      source,
      project,
      facts,
      config.values.get('autosectionlabel_prefix_document') === true,
    ),
    labelsFromExtensions: labelGenerators.length > 0 || hasNotebooks,
    missingDocumentReason,
    isGitIgnored,
  });

  // `myst_heading_anchors = N` gives MyST headings up to level N anchors; a slug function of the
  // project's own makes them unknown.
  const anchorLevels = config.values.get('myst_heading_anchors');
  const headingAnchors =
    typeof anchorLevels === 'number' &&
    anchorLevels > 0 &&
    !config.values.has('myst_heading_slug_func') &&
    !config.dynamic &&
    (extensions.has('myst_parser') || extensions.has('myst_nb'))
      ? anchorLevels
      : null;
  const orphans = new Set([...facts].filter(([, page]) => page.orphan).map(([file]) => file));
  const rootFile = documents.get(project.rootDoc) ?? null;
  return {
    framework: 'sphinx',
    siteRoot,
    configFiles: [
      configFile,
      ...(tocFile === null ? [] : [tocFile]),
      ...(hosted === null ? [] : [hosted.file]),
    ],
    pages,
    partials: new Set(),
    navigation,
    // With only the listed documents built, a page the table of contents does not list is not published.
    needsNavigationEntry: (file) =>
      (docnames.has(file) || tocExcluded.has(file)) && file !== rootFile && !orphans.has(file),
    builtOnlyWhenListed: tocExcluded,
    navigationFileFor: (file) => tocFile ?? navigationFileFor(file, project, facts) ?? rootFile ?? configFile,
    resolveLink,
    ...(headingAnchors === null
      ? {}
      : {
          // MyST warns of a link to an anchor its page lacks (myst.xref_missing); `[text](#x)` alone
          // names a target anywhere in the project, which is not this check's.
          fragmentsAreLocal: false,
          pageAnchors: (file: string, text: string) =>
            docnames.has(file) && /\.md$/i.test(file)
              ? readMystAnchors(text, headingAnchors, facts.get(file)?.labels ?? [])
              : null,
        }),
    configurationProblems,
    unsupported,
    conventions: [
      `Pages are ${project.suffixes.map((suffix) => `\`${suffix}\``).join(', ')} files under \`${srcDir === '' ? '.' : srcDir}/\`; each is a document named by its path without the suffix.`,
      "In reStructuredText, link a page with :doc:`path`, the path without its suffix, relative to the linking page's folder or starting with `/` from the source folder; link a section with :ref:`label`, defining the label with `.. _label:` on its own line before the section title.",
      ...(project.suffixes.includes('.md')
        ? [
            'In MyST Markdown pages, {doc}`path` and {ref}`label` work the same, a label is `(label)=` on its own line, and a Markdown link to another page names its file with the suffix (`[Setup](setup.md)`).',
          ]
        : []),
      ...(jupyterBook
        ? [
            `This is a Jupyter Book (version 1): Sphinx underneath, configured by \`${configFile}\` (its \`sphinx.config\` holds Sphinx settings). Pages are MyST Markdown (\`.md\`) and notebooks (\`.ipynb\`, whose Markdown cells are read; edit a notebook as JSON and keep it valid).`,
          ]
        : []),
      tocFile === null
        ? 'A new page must be listed in a `toctree` directive (usually in the index page of its folder), by its path without the suffix, or Sphinx warns that it is in no toctree.'
        : `A new page must be listed in \`${tocFile}\` (\`- file: path/without-suffix\`, from \`${srcDir === '' ? '.' : srcDir}/\`, under the chapter or section where it belongs), not in a \`toctree\` directive${config.values.get('external_toc_exclude_missing') === true ? '; a page it does not list is not built at all' : ''}.`,
    ],
  };
};

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

/**
 * With `external_toc_exclude_missing` (Jupyter Book's `only_build_toc_files`), the documents the table
 * of contents neither lists nor matches with a glob are excluded: they leave the project, and are returned.
 */
function excludeMissingFromToc(project: SphinxProject, config: SphinxConfig, toc: ExternalToc): Set<string> {
  const excluded = new Set<string>();
  if (config.values.get('external_toc_exclude_missing') !== true) return excluded;
  const listed = new Set(
    [...(toc.root === null ? [] : [toc.root]), ...toc.items.filter((item) => item.kind === 'file')].map(
      (item) => withoutSourceSuffix(item.value.replace(/^\/+/, ''), project.suffixes),
    ),
  );
  const globs = compileGlobs(toc.items.filter((item) => item.kind === 'glob').map((item) => item.value));
  for (const [docname, file] of [...project.documents]) {
    if (listed.has(docname) || globs.some((glob) => glob.matches(docname))) continue;
    project.documents.delete(docname);
    project.docnames.delete(file);
    excluded.add(file);
  }
  return excluded;
}
