import { RE2JS } from 're2js';
import { parseDocument } from 'yaml';
import { readGitIgnored } from '../git-ignored.ts';
import {
  folderOf,
  isExternalUrl,
  isWithin,
  joinInside,
  listFolders,
  normalizeRoute,
  relativeTo,
  resolveFromPageUrl,
  splitUrl,
} from '../link-urls.ts';
import type { LinkTarget, NavigationEntry, PageLink, SiteModel, SiteModelBuilder } from '../site-model.ts';
import { createCheckoutCoverage } from './checkout-coverage.ts';
import { readNetlifyRedirects } from './netlify-redirects.ts';
import { isRecord, stringList as strings, yamlProblems, yamlValue } from './yaml-problems.ts';

// What Quarto renders (its execution engines' extensions) and never renders
// (quarto-cli src/project/project-context.ts, projectHiddenIgnoreGlob).
const inputExtension = /\.(qmd|md|ipynb|rmd|rmarkdown)$/i;
const ignoredName = /^(README\.[rq]?md|CLAUDE(\.local)?\.md|AGENTS(\.local)?\.md|.*\.llms\.md)$/i;
const ignoredFolders = new Set(['node_modules', 'renv', 'packrat', 'env', 'venv', 'site_libs']);
const maximumPatterns = 200;

/**
 * Quarto (https://quarto.org/docs/projects/quarto-projects.html, /websites/, /books/): `_quarto.yml`
 * makes the folder a project; every `.qmd`, `.md`, `.ipynb` and `.Rmd` file in it is rendered to
 * `.html` beside its path, but files and folders starting with `_` or `.`, READMEs and the output
 * folder (or only what `project.render` lists). A website's navigation is its sidebar and navbar, a
 * book's its chapters; a link to an input file that is not rendered is what Quarto warns about
 * ("Unable to resolve link target").
 */
export const buildQuartoSite: SiteModelBuilder = async (source, siteRoot) => {
  const files = source.files;
  const configFile =
    ['_quarto.yml', '_quarto.yaml']
      .map((name) => (siteRoot === '' ? name : `${siteRoot}/${name}`))
      .find((path) => files.has(path)) ?? (siteRoot === '' ? '_quarto.yml' : `${siteRoot}/_quarto.yml`);
  const document = parseDocument((await files.read(configFile)) ?? '', {
    logLevel: 'silent',
    uniqueKeys: false,
  });
  const read = yamlValue(document, configFile);
  const raw: unknown = read.value;
  const config = isRecord(raw) ? raw : {};
  const project = isRecord(config.project) ? config.project : {};
  const unsupported: string[] = [];
  const outputDir =
    typeof project['output-dir'] === 'string' ? joinInside(siteRoot, project['output-dir']) : null;
  const render = strings(project.render);
  const included = compileGlobs(render.filter((pattern) => !pattern.startsWith('!')));
  const excluded = compileGlobs(
    render.filter((pattern) => pattern.startsWith('!')).map((pattern) => pattern.slice(1)),
  );
  const isInput = (path: string): boolean => {
    if (!isWithin(siteRoot, path) || !inputExtension.test(path)) return false;
    if (outputDir !== null && isWithin(outputDir, path)) return false;
    const relative = relativeTo(siteRoot, path);
    const segments = relative.split('/');
    if (segments.some((segment) => /^[_.]/.test(segment) || ignoredFolders.has(segment))) return false;
    if (ignoredName.test(segments.at(-1) ?? '')) return false;
    if (render.length === 0) return true;
    return included.some((matches) => matches(relative)) && !excluded.some((matches) => matches(relative));
  };
  if (files.paths.some((path) => /(^|\/)_quarto-[\w-]+\.ya?ml$/.test(path)))
    unsupported.push(
      `${configFile}: profiles (\`_quarto-<name>.yml\`) may change what is rendered; the default profile is read`,
    );

  const isGitIgnored = await readGitIgnored(files);
  // nbdev (https://nbdev.fast.ai) renders a notebook to its name in lower case without a numeric
  // prefix (`api/09_migrate.ipynb` to `api/migrate.html`): its processor sets the copy's `output-file`
  // (nbdev/config.py, nbpath2html). It writes the `nbdev.yml` metadata file the project reads.
  const isNbdev = strings(config['metadata-files']).includes('nbdev.yml');
  const pages = new Map<string, string[]>();
  const byOutput = new Map<string, string>();
  for (const path of files.paths) {
    if (!isInput(path)) continue;
    const name = path.slice(path.lastIndexOf('/') + 1);
    // `output-file` in the page's front matter names its output (Quarto's formatOutputFile).
    const written = (await source.pageFacts(path))?.frontMatter?.['output-file'];
    const outputName =
      typeof written === 'string' && /^[^/\\]+$/.test(written)
        ? written.includes('.')
          ? written
          : `${written}.html`
        : isNbdev && /\.ipynb$/i.test(name)
          ? name
              .toLowerCase()
              .replace(/^\d+[a-z0-9]*_/, '')
              .replace(inputExtension, '.html')
          : name.replace(inputExtension, '.html');
    const folder = relativeTo(siteRoot, folderOf(path));
    const output = folder === '' ? outputName : `${folder}/${outputName}`;
    pages.set(path, [normalizeRoute(output)]);
    byOutput.set(output, path);
  }

  // `metadata-files` are merged into the configuration (nbdev keeps its sidebar in `sidebar.yml`).
  const website: Record<string, unknown> = isRecord(config.website) ? { ...config.website } : {};
  const configFiles = [configFile];
  // Which file writes each part of `website` (the navbar, the sidebar), for problems with a line.
  const writtenIn = new Map<string, string>(Object.keys(website).map((key) => [key, configFile]));
  const texts = new Map<string, string>([[configFile, (await files.read(configFile)) ?? '']]);
  for (const name of strings(config['metadata-files'])) {
    const path = joinInside(siteRoot, name);
    const text = path === null ? null : await files.read(path);
    if (path === null || text === null) continue;
    configFiles.push(path);
    texts.set(path, text);
    const merged = yamlValue(parseDocument(text, { logLevel: 'silent', uniqueKeys: false }), path).value;
    if (isRecord(merged) && isRecord(merged.website)) {
      Object.assign(website, merged.website);
      for (const key of Object.keys(merged.website)) writtenIn.set(key, path);
    }
  }
  const book = isRecord(config.book) ? config.book : {};
  const isBook = project.type === 'book';
  const navigation: NavigationEntry[] = [];
  let automatic = false;
  // The first line of `file` that writes a reference as a whole YAML value.
  // Each file's values by their first line, indexed once: a sidebar of 40,000 entries looked each up
  // by scanning the whole file.
  const valueLines = new Map<string, Map<string, number>>();
  const lineOf = (file: string, reference: string): number => {
    let lines = valueLines.get(file);
    if (lines === undefined) {
      lines = new Map();
      for (const [index, line] of (texts.get(file) ?? '').split(/\r?\n/).entries()) {
        // A list item or a `key: value`, quoted or not.
        const value = /^\s*(?:-\s+)?(?:[\w-]+:\s*)?["']?([^"'#]*)["']?\s*$/.exec(line)?.[1]?.trim();
        if (value !== undefined && value !== '' && !lines.has(value)) lines.set(value, index + 1);
      }
      valueLines.set(file, lines);
    }
    return lines.get(reference) ?? 1;
  };
  const addEntry = (reference: string, groups: string[], writtenFile: string) => {
    if (reference === 'auto' || /[*?[]/.test(reference)) {
      automatic = true;
      return;
    }
    if (isExternalUrl(reference) || reference === '---' || reference.trim() === '') return;
    // A folder (`docs/guide/`) names its index page.
    const path = splitUrl(reference).path.replace(/^\/+/, '');
    const file = joinInside(siteRoot, path.endsWith('/') || path === '' ? `${path}index.html` : path);
    const found =
      file === null ? null : pages.has(file) ? file : (byOutput.get(relativeTo(siteRoot, file)) ?? null);
    // A listing's feed (`index.xml`) and pages a build step writes (ignored by Git) exist only in
    // the build: they list no page of the repository.
    if (found === null && file !== null && (file.endsWith('.xml') || isGitIgnored(file))) return;
    const target: string | null = found;
    navigation.push({ reference, file: writtenFile, line: lineOf(writtenFile, reference), groups, target });
  };
  const walk = (items: unknown, groups: string[], depth: number, writtenFile: string) => {
    if (depth > 16) return;
    for (const item of Array.isArray(items) ? items : [items]) {
      if (typeof item === 'string') addEntry(item, groups, writtenFile);
      else if (isRecord(item)) {
        const title =
          typeof item.text === 'string' ? item.text : typeof item.section === 'string' ? item.section : '';
        // `file` is Quarto's other name for `href`.
        if (typeof item.href === 'string') addEntry(item.href, groups, writtenFile);
        if (typeof item.file === 'string') addEntry(item.file, groups, writtenFile);
        if (typeof item.section === 'string' && inputExtension.test(item.section))
          addEntry(item.section, groups, writtenFile);
        if (typeof item.part === 'string' && inputExtension.test(item.part))
          addEntry(item.part, groups, writtenFile);
        if (item.contents === 'auto' || item.auto !== undefined) automatic = true;
        for (const key of ['contents', 'menu', 'chapters'] as const)
          if (item[key] !== undefined)
            walk(item[key], title === '' ? groups : [...groups, title], depth + 1, writtenFile);
      }
    }
  };
  const navbar = isRecord(website.navbar) ? website.navbar : {};
  walk(navbar.left ?? [], ['navbar'], 0, writtenIn.get('navbar') ?? configFile);
  walk(navbar.right ?? [], ['navbar'], 0, writtenIn.get('navbar') ?? configFile);
  for (const sidebar of Array.isArray(website.sidebar) ? website.sidebar : [website.sidebar]) {
    if (!isRecord(sidebar)) continue;
    if (sidebar.contents === 'auto') automatic = true;
    else walk(sidebar.contents ?? [], ['sidebar'], 0, writtenIn.get('sidebar') ?? configFile);
  }
  walk(book.chapters ?? [], ['chapters'], 0, configFile);
  walk(book.appendices ?? [], ['appendices'], 0, configFile);
  const hasNavigation = navigation.length > 0 && !automatic;

  const isExpected = createCheckoutCoverage(files.paths);
  const folders = listFolders(files.paths);
  // Every file by its name up to its first dot (`nbs/renderscript` for `nbs/renderscript.qmd.py`).
  const byName = new Set(files.paths.map((path) => path.replace(/(^|\/)([^/.]*)\.[^/]*$/, '$1$2')));
  // `aliases` in a page's front matter: old URLs, relative to the page, that redirect to it.
  const aliases = new Set<string>();
  for (const [page, [route = '/']] of pages) {
    for (const alias of strings((await source.pageFacts(page))?.frontMatter?.aliases)) {
      const base = route.endsWith('.html')
        ? route.slice(0, route.lastIndexOf('/') + 1)
        : `${route.replace(/\/$/, '')}/`;
      aliases.add(alias.startsWith('/') ? alias : resolveFromPageUrl(base, alias));
    }
  }
  // A `_redirects` file the site publishes (Netlify), and `netlify.toml`.
  const inSite = (path: string) => (siteRoot === '' ? path : `${siteRoot}/${path}`);
  const isNetlifyRedirect = await readNetlifyRedirects(files, {
    toml: [inSite('netlify.toml')].filter((path) => files.has(path)),
    rules: [inSite('_redirects')].filter((path) => files.has(path)),
  });
  // Files made for `{{< include >}}`: their links are checked, in the including page's terms.
  const partials = new Set(
    files.paths.filter((path) => isWithin(siteRoot, path) && /(^|\/)_[^/]*\.(qmd|md)$/i.test(path)),
  );
  /** Where a link leads; a partial's links are read in the page that includes it, so never broken here. */
  const resolveLink = (from: string, url: string, link?: Pick<PageLink, 'kind'>): LinkTarget => {
    const target = resolveAnyLink(from, url, link);
    return target.kind === 'broken' && partials.has(from)
      ? { kind: 'unchecked', reason: `resolved in the page that includes it (${target.reason})` }
      : target;
  };
  const resolveAnyLink = (from: string, url: string, link?: Pick<PageLink, 'kind'>): LinkTarget => {
    if (isExternalUrl(url)) return { kind: 'external' };
    const { path } = splitUrl(url);
    if (path === '') return { kind: 'external' };
    const target = path.startsWith('/')
      ? joinInside(siteRoot, path.slice(1))
      : joinInside(folderOf(from), path);
    if (target === null || !isWithin(siteRoot, target))
      return { kind: 'unchecked', reason: 'the link leaves the project' };
    // A file a build step writes (quartodoc's `reference/`, its `_sidebar.yml`), ignored by Git.
    if (!files.has(target) && isGitIgnored(target))
      return { kind: 'unchecked', reason: 'a file generated at build time (ignored by Git)' };
    // `{{< include >}}` reads any file, rendered or not (`_` files are made for it).
    if (link?.kind === 'import')
      return files.has(target)
        ? { kind: 'file', file: target }
        : { kind: 'broken', reason: `no file ${target} to include` };
    if (pages.has(target)) return { kind: 'file', file: target };
    const output = byOutput.get(relativeTo(siteRoot, target));
    if (output !== undefined) return { kind: 'file', file: output };
    if (files.has(target)) return { kind: 'file', file: target };
    const publishedUrl = `/${relativeTo(siteRoot, target)}`;
    if (aliases.has(publishedUrl)) return { kind: 'served', reason: 'a page alias' };
    if (isNetlifyRedirect(publishedUrl)) return { kind: 'served', reason: 'a Netlify redirect' };
    // An embedded notebook's preview (`penguins-preview.html`, `penguins-qmd.embed-preview.html`).
    const previewOf = /^(.*?)(?:\.embed)?-preview\.html$/.exec(target)?.[1];
    const previewed = previewOf === undefined ? [] : [previewOf, previewOf.replace(/-(qmd|ipynb)$/, '.$1')];
    if (previewed.some((name) => files.has(name) || byName.has(name)))
      return { kind: 'served', reason: 'a notebook preview Quarto writes' };
    if (inputExtension.test(target) || target.endsWith('.html')) {
      // A page rendered from a script (`renderscript.qmd.py`): a file of that name, other extensions.
      if (byName.has(target.replace(/\.[^./]+$/, '')))
        return {
          kind: 'unchecked',
          reason: 'rendered from a file of that name by an engine this model does not read',
        };
      return { kind: 'broken', reason: `unable to resolve link target: no page ${target}` };
    }
    if (folders.has(target)) return { kind: 'unchecked', reason: 'a folder' };
    return isExpected(target)
      ? { kind: 'broken', reason: `no file ${target}` }
      : { kind: 'unchecked', reason: 'this checkout may not hold such files' };
  };

  const model: SiteModel = {
    framework: 'quarto',
    siteRoot,
    configFiles,
    pages,
    partials,
    navigation,
    // A book renders only its chapters; a website with a hand-written sidebar shows only what it lists.
    needsNavigationEntry: (file) => pages.has(file) && (isBook || hasNavigation),
    navigationFileFor: () =>
      isBook ? configFile : (writtenIn.get('sidebar') ?? writtenIn.get('navbar') ?? configFile),
    resolveLink,
    configurationProblems: [...yamlProblems(document, configFile), ...read.problems],
    unsupported,
    conventions: [
      `Pages are \`.qmd\` (or \`.md\`, \`.ipynb\`) files under \`${siteRoot === '' ? '.' : siteRoot}/\`, rendered to \`.html\` at their path; files and folders starting with \`_\` are not pages (use them for includes).`,
      "Link another page by its source file, relative to the linking page (`[Setup](setup.qmd)`); Quarto rewrites it to the page's `.html`. Include shared text with `{{< include _part.qmd >}}`.",
      isBook
        ? `A new chapter goes into \`book.chapters\` in \`${configFile}\`.`
        : `A new page goes into the website's sidebar (or navbar) \`contents\` in \`${configFile}\`, unless the sidebar is \`auto\`.`,
    ],
  };
  return model;
};

/** Quarto's render globs (`*` within a folder, `**` across), for RE2. */
function compileGlobs(patterns: readonly string[]): Array<(path: string) => boolean> {
  return patterns.slice(0, maximumPatterns).map((pattern) => {
    if (pattern.length > 1024) return () => false;
    const expression = pattern
      .replace(/^\.?\//, '')
      .split('**')
      .map((part) =>
        part
          .split('*')
          .map((piece) => piece.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
          .join('[^/]*'),
      )
      .join('.*');
    try {
      const compiled = RE2JS.compile(`^${expression}(/.*)?$`);
      return (path: string) => compiled.matches(path);
    } catch {
      return () => false;
    }
  });
}
