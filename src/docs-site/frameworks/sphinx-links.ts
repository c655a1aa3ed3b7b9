import { folderOf, isExternalUrl, isWithin, joinInside, relativeTo, splitUrl } from '../link-urls.ts';
import { normalizeLabel, splitExplicitTitle } from '../rst-facts.ts';
import type { LinkTarget, PageLink, RepositoryFiles, SiteSource, SphinxPageFacts } from '../site-model.ts';
import { createCheckoutCoverage } from './checkout-coverage.ts';
import { type SphinxConfig, stringListSetting } from './sphinx-config.ts';
import { joinDocname, type SphinxProject, sourceSuffixOf, withoutSourceSuffix } from './sphinx-project.ts';

// Pages Sphinx's HTML builder writes itself (StandardDomain._virtual_doc_names).
export const generatedDocuments = new Set(['genindex', 'modindex', 'py-modindex', 'search']);
const rolePattern = /^(?::(doc|ref|numref|download):|\{(doc|ref|numref|download)\})`([\s\S]*)`$/;
const maximumIncludeDepth = 4;

export interface SphinxLinkContext {
  files: RepositoryFiles;
  project: SphinxProject;
  config: SphinxConfig;
  /** Every label of the project (`collectLabels`). */
  labels: ReadonlySet<string>;
  /** Whether extensions or notebooks define labels this model does not see. */
  labelsFromExtensions: boolean;
  missingDocumentReason(docname: string): string | null;
  isGitIgnored(path: string): boolean;
}

/**
 * Where a link in a Sphinx page leads, as Sphinx resolves it (sphinx/domains/std, sphinx/roles.py,
 * sphinx/ext/intersphinx, myst_parser/sphinx_ext/myst_refs.py): `:doc:` names a document relative
 * to the page's folder (`/` for the source folder), `:ref:` a label of any document, `:download:`,
 * images and includes a file from the page's folder; a hyperlink leads where the browser takes it
 * from the page's `.html` file. What intersphinx may find in another project is unchecked.
 */
export function createSphinxLinkResolver(
  context: SphinxLinkContext,
): (from: string, url: string, link?: Pick<PageLink, 'kind' | 'title'>) => LinkTarget {
  const { files, project, config, labels } = context;
  const { docnames, srcDir } = project;
  const isExpected = createCheckoutCoverage(files.paths);
  const intersphinx = config.values.get('intersphinx_mapping');
  // Unknown (null) when computed or set under a condition: any prefix may name an inventory.
  const inventories =
    intersphinx instanceof Map && !config.conditional.has('intersphinx_mapping')
      ? new Set(intersphinx.keys())
      : null;
  // Another extension may load intersphinx for the project (sphinx-scrapy): its settings say it is used.
  const usesIntersphinx =
    project.extensions.has('sphinx.ext.intersphinx') ||
    [...config.values.keys()].some((name) => name.startsWith('intersphinx_'));
  // Intersphinx resolves what the project does not define from every inventory, but the kinds disabled.
  const disabledReftypes = new Set(stringListSetting(config, 'intersphinx_disabled_reftypes') ?? ['std:doc']);
  const resolvedElsewhere = (reftype: string) =>
    config.dynamic ||
    (usesIntersphinx && !['*', 'std:*', `std:${reftype}`].some((name) => disabledReftypes.has(name)));
  const labelsUnchecked = context.labelsFromExtensions || resolvedElsewhere('ref');

  const isExpectedMissing = (docname: string) =>
    context.missingDocumentReason(docname) !== null || generatedDocuments.has(docname);
  const documentFile = (docname: string | null): string | null =>
    docname === null ? null : (project.documents.get(docname) ?? null);
  const extraFolders = (stringListSetting(config, 'html_extra_path') ?? [])
    .map((folder) => joinInside(srcDir, folder))
    .filter((folder): folder is string => folder !== null);
  const staticFolders = (stringListSetting(config, 'html_static_path') ?? [])
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
    const target = (splitExplicitTitle(written)?.target ?? written).trim();
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
      const name = joinDocname(docname, target);
      const file = documentFile(name);
      if (file !== null) return { kind: 'file', file };
      if (prefix !== null && usesIntersphinx && (inventories === null || inventories.has(prefix[1] ?? '')))
        return { kind: 'external' };
      if (name !== null && generatedDocuments.has(name))
        return { kind: 'served', reason: 'a page Sphinx generates' };
      const reason = name === null ? null : context.missingDocumentReason(name);
      if (reason !== null) return { kind: 'unchecked', reason };
      if (resolvedElsewhere('doc'))
        return { kind: 'unchecked', reason: 'intersphinx may find it in another project' };
      return { kind: 'broken', reason: `unknown document ${name ?? target}` };
    }
    const label = normalizeLabel(target);
    if (labels.has(label)) return { kind: 'served', reason: 'a label' };
    if (prefix !== null && (inventories === null || inventories.has(prefix[1] ?? '')) && usesIntersphinx)
      return { kind: 'external' };
    if (labelsUnchecked)
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
    const suffix = sourceSuffixOf(path, project.suffixes);
    const named =
      suffix === undefined ? null : joinDocname(docname, withoutSourceSuffix(path, project.suffixes));
    const reason = named === null ? null : context.missingDocumentReason(named);
    if (reason !== null) return { kind: 'unchecked', reason };
    if (suffix !== undefined)
      return { kind: 'broken', reason: `no document ${joinInside(folderOf(from), path) ?? path}` };
    return { kind: 'unchecked', reason: 'MyST asks every domain (objects too) and intersphinx for it' };
  };

  return (from: string, url: string, link?: Pick<PageLink, 'kind' | 'title'>): LinkTarget => {
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
      if (file.endsWith('.*') && project.filesByStem.has(file.slice(0, -2)))
        return { kind: 'served', reason: 'a file of that name' };
      if (link.kind === 'image' && !isExpected(file))
        return { kind: 'unchecked', reason: 'this checkout may not hold such files' };
      if (context.isGitIgnored(file))
        return { kind: 'unchecked', reason: 'a file generated at build time (ignored by Git)' };
      return { kind: 'broken', reason: `no file ${file}` };
    }
    if (path.startsWith('/'))
      return { kind: 'unchecked', reason: 'an absolute URL depends on where the site is served' };
    const target = joinInside(folderOf(from), path);
    if (target === null) return { kind: 'unchecked', reason: 'the link leaves the repository' };
    if (files.has(target)) return { kind: 'file', file: target };
    // nbsphinx makes a link to any source file a link to the document of that name, whatever its
    // suffix (`index.ipynb` leads to the page of `index.rst`; nbsphinx ProcessLocalLinks).
    if (project.extensions.has('nbsphinx')) {
      const suffix = project.suffixes.find((candidate) =>
        path.toLowerCase().endsWith(candidate.toLowerCase()),
      );
      const name =
        suffix === undefined ? null : joinDocname(docnames.get(from) ?? '', path.slice(0, -suffix.length));
      const document = documentFile(name);
      if (document !== null) return { kind: 'file', file: document };
      // No such document: nbsphinx leaves the link to a file the build does not publish.
      if (name !== null && !isExpectedMissing(name))
        return {
          kind: 'broken',
          reason: `no document ${name} (nbsphinx links documents by their source files)`,
        };
    }
    // Notebooks' Markdown cells resolve links as MyST does (myst-nb), or the same way for nbsphinx's
    // links to documents (https://nbsphinx.readthedocs.io/en/latest/markdown-cells.html#Links-to-Other-Notebooks).
    if (/\.(md|markdown|ipynb|rmd)$/i.test(from)) return resolveMystReference(from, path);
    // Above the source folder is outside the built site (`../README.html` from `docs/index.rst`).
    if (!isWithin(srcDir, target)) return { kind: 'unchecked', reason: 'the link leaves the site' };
    if (target.endsWith('.html')) {
      const file = documentFile(relativeTo(srcDir, target).slice(0, -'.html'.length));
      if (file !== null) return { kind: 'file', file };
      const relative = relativeTo(srcDir, target);
      if (
        generatedDocuments.has(relative.slice(0, -'.html'.length)) ||
        additionalPages.has(relative.slice(0, -'.html'.length))
      )
        return { kind: 'served', reason: 'a page Sphinx generates' };
      if (extraFolders.some((folder) => files.has(`${folder}/${relative}`)))
        return { kind: 'served', reason: 'a file of html_extra_path' };
      return { kind: 'broken', reason: `no document renders ${relative}` };
    }
    const relative = relativeTo(srcDir, target);
    if (
      relative.startsWith('_static/') &&
      staticFolders.some((folder) => files.has(`${folder}/${relative.slice(8)}`))
    )
      return { kind: 'served', reason: 'a file of html_static_path' };
    return { kind: 'unchecked', reason: 'Sphinx does not check this link' };
  };
}

/** Every label of the project: explicit targets of each document and of the files it includes. */
export async function collectLabels(
  source: SiteSource,
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
