import { readGitIgnored } from '../git-ignored.ts';
import { normalizeRoute, relativeTo } from '../link-urls.ts';
import { readReadTheDocsConfig } from '../read-the-docs.ts';
import { splitExplicitTitle } from '../rst-facts.ts';
import type { NavigationEntry, SiteModelBuilder, SphinxPageFacts } from '../site-model.ts';
import { readSphinxConfig } from './sphinx-config.ts';
import { createMissingDocumentReason, findGeneratedFolders, labelWriters } from './sphinx-generated.ts';
import { collectLabels, createSphinxLinkResolver, generatedDocuments } from './sphinx-links.ts';
import {
  compileGlobs,
  findSphinxProject,
  joinDocname,
  type SphinxProject,
  sourceFolder,
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
  const configFile = siteRoot === '' ? 'conf.py' : `${siteRoot}/conf.py`;
  const configText = (await files.read(configFile)) ?? '';
  const config = readSphinxConfig(configText, configFile);
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

  const orphans = new Set([...facts].filter(([, page]) => page.orphan).map(([file]) => file));
  const rootFile = documents.get(project.rootDoc) ?? null;
  return {
    framework: 'sphinx',
    siteRoot,
    configFiles: hosted === null ? [configFile] : [configFile, hosted.file],
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
