import {
  folderOf,
  isExternalUrl,
  isWithin,
  joinInside,
  normalizeRoute,
  relativeTo,
  splitUrl,
} from '../link-urls.ts';
import type {
  LinkTarget,
  NavigationEntry,
  SiteModel,
  SiteModelBuilder,
  SiteProblem,
  SiteSource,
} from '../site-model.ts';
import { createCheckoutCoverage } from './checkout-coverage.ts';
import { markdownLinkExample } from './link-example.ts';
import { readBookToml } from './mdbook-config.ts';
import { findMissingIncludes } from './mdbook-includes.ts';
import { readSummary } from './mdbook-summary.ts';

// Preprocessors mdBook runs itself; any other one may change chapters in ways this model does not see.
const builtInPreprocessors = new Set(['links', 'index', 'anchors']);
// Pages the HTML renderer writes besides the chapters.
const generatedPages = new Set(['print.html', 'toc.html', '404.html', 'index.html']);

/**
 * mdBook (https://rust-lang.github.io/mdBook/format/summary.html, format/configuration/): `book.toml`
 * names the source folder (`[book] src`, default `src`), and only the chapters `src/SUMMARY.md`
 * lists are rendered, each at its path with `.html` (a `README.md` chapter becomes its folder's
 * `index.html`). Other files in src are copied as they are; Markdown files that are not chapters
 * are not, so a link to one is broken in the built book (mdBook itself builds without a warning).
 */
export const buildMdBookSite: SiteModelBuilder = async (source, siteRoot) => {
  const files = source.files;
  const bookFile = siteRoot === '' ? 'book.toml' : `${siteRoot}/book.toml`;
  const book = readBookToml((await files.read(bookFile)) ?? '', bookFile);
  const srcValue = book.tables.get('book')?.get('src')?.value ?? 'src';
  const srcDir = joinInside(siteRoot, srcValue) ?? siteRoot;
  const summaryFile = srcDir === '' ? 'SUMMARY.md' : `${srcDir}/SUMMARY.md`;
  const unsupported: string[] = [];
  const summaryText = await files.read(summaryFile);
  if (summaryText === null) unsupported.push(`${summaryFile} is missing: no chapter is rendered`);
  const chapters = readSummary(summaryText ?? '');

  const pages = new Map<string, string[]>();
  // `README.md` chapters become their folder's `index.html` (the built-in index preprocessor).
  const htmlOf = (file: string) =>
    relativeTo(srcDir, file)
      .replace(/(^|\/)README\.md$/i, '$1index.md')
      .replace(/\.md$/i, '.html');
  const routeOf = (file: string) => normalizeRoute(htmlOf(file));
  const navigation: NavigationEntry[] = [];
  for (const chapter of chapters) {
    // A draft chapter has no file yet and is rendered as a title only.
    if (chapter.path === '' || isExternalUrl(chapter.path)) continue;
    const reference = splitUrl(chapter.path).path;
    const file = joinInside(srcDir, reference);
    const exists = file !== null && files.has(file);
    if (exists && !pages.has(file)) pages.set(file, [routeOf(file)]);
    navigation.push({
      reference: chapter.path,
      file: summaryFile,
      line: chapter.line,
      groups: chapter.groups,
      target: exists ? file : null,
    });
  }
  const input404 = book.tables.get('output.html')?.get('input-404')?.value ?? '404.md';
  const notFoundPage = joinInside(srcDir, input404);
  if (notFoundPage !== null && files.has(notFoundPage)) pages.set(notFoundPage, ['/404.html']);
  const rendered = new Set(pages.keys());
  const htmlToChapter = new Map<string, string>();
  for (const page of rendered) {
    htmlToChapter.set(relativeTo(srcDir, page).replace(/\.md$/i, '.html'), page);
    htmlToChapter.set(htmlOf(page), page);
  }
  // Markdown files SUMMARY.md does not list are pages mdBook does not build until they are listed:
  // no route, but `needsNavigationEntry` says they must be added to it.
  for (const path of files.paths) {
    if (isWithin(srcDir, path) && /\.md$/i.test(path) && path !== summaryFile && !pages.has(path))
      pages.set(path, []);
  }
  // `[output.html.redirect]`: old page → new location, keys relative to the book's root.
  const redirects = new Set(
    [...(book.tables.get('output.html.redirect')?.keys() ?? [])].map((key) => key.replace(/^\/+/, '')),
  );
  for (const [table] of book.tables) {
    const name = /^preprocessor\.(.+)$/.exec(table)?.[1];
    if (name !== undefined && !builtInPreprocessors.has(name))
      unsupported.push(
        `${bookFile}: the \`${name}\` preprocessor is not run; what it changes in chapters is not checked`,
      );
  }
  const isExpected = createCheckoutCoverage(files.paths);

  const resolveLink = (from: string, url: string): LinkTarget => {
    if (isExternalUrl(url)) return { kind: 'external' };
    const { path } = splitUrl(url);
    if (path === '') return { kind: 'external' };
    if (path.startsWith('/')) return { kind: 'unchecked', reason: 'mdBook does not check absolute links' };
    const target = joinInside(folderOf(from), path);
    if (target === null || !isWithin(srcDir, target))
      return { kind: 'unchecked', reason: 'the link leaves the book source folder' };
    const relative = relativeTo(srcDir, target);
    const lower = target.toLowerCase();
    if (lower.endsWith('.md')) {
      if (rendered.has(target)) return { kind: 'file', file: target };
      if (redirects.has(relative.replace(/\.md$/i, '.html')))
        return { kind: 'served', reason: 'a redirect in book.toml' };
      if (files.has(target))
        return { kind: 'broken', reason: `${target} is not in ${summaryFile}, so mdBook does not render it` };
      return { kind: 'broken', reason: `no chapter ${target}` };
    }
    if (lower.endsWith('.html')) {
      const chapter = htmlToChapter.get(relative);
      if (chapter !== undefined) return { kind: 'file', file: chapter };
      if (redirects.has(relative)) return { kind: 'served', reason: 'a redirect in book.toml' };
      if (files.has(target)) return { kind: 'file', file: target };
      if (generatedPages.has(relative)) return { kind: 'served', reason: 'a page mdBook generates' };
      return { kind: 'broken', reason: `no chapter renders ${relative}` };
    }
    if (files.has(target)) return { kind: 'file', file: target };
    const index = htmlToChapter.get(relative === '' ? 'index.html' : `${relative}/index.html`);
    if (index !== undefined) return { kind: 'file', file: index };
    const name = target.slice(target.lastIndexOf('/') + 1);
    // A missing image or file, unless this checkout may not hold files of its kind at all.
    if (/\.[a-z0-9]+$/i.test(name) && isExpected(target))
      return { kind: 'broken', reason: `no file ${target}` };
    return { kind: 'unchecked', reason: 'mdBook does not check links that are not files' };
  };

  const includes = await findMissingIncludes(source, [...rendered], isExpected);
  if (includes.uncheckedFolders > 0)
    unsupported.push(
      `${includes.uncheckedFolders} included files are missing where this checkout may not hold such files (no folder, or no file of that type); those includes are unchecked`,
    );
  const configurationProblems: SiteProblem[] = [...book.problems, ...includes.problems];

  const model: SiteModel = {
    framework: 'mdbook',
    siteRoot,
    configFiles: [bookFile, summaryFile],
    pages,
    partials: new Set(),
    navigation,
    needsNavigationEntry: (file) =>
      isWithin(srcDir, file) && /\.md$/i.test(file) && file !== summaryFile && file !== notFoundPage,
    resolveLink,
    configurationProblems,
    unsupported,
    conventions: await describeConventions(source, pages, resolveLink, srcDir, summaryFile),
  };
  return model;
};

async function describeConventions(
  source: SiteSource,
  pages: ReadonlyMap<string, readonly string[]>,
  resolveLink: (from: string, url: string) => LinkTarget,
  srcDir: string,
  summaryFile: string,
): Promise<string[]> {
  const example = await markdownLinkExample(source, pages.keys(), resolveLink);
  return [
    `Links between chapters are file paths relative to the linking chapter, to the \`.md\` file${example}; mdBook rewrites them to \`.html\`.`,
    `New chapters go under \`${srcDir === '' ? '.' : srcDir}/\` and are rendered only once listed in \`${summaryFile}\` as \`- [Title](path.md)\`, indented under their parent chapter.`,
  ];
}
