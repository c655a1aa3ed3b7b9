import {
  folderOf,
  isExternalUrl,
  isWithin,
  joinInside,
  listFolders,
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
import { readGitBookConfig } from './gitbook-config.ts';
import { markdownLinkExample } from './link-example.ts';
import { readSummary } from './mdbook-summary.ts';

/** GitBook's own folder in a space: uploaded files (`assets/`) and reusable content (`includes/`). */
const gitbookFolder = '.gitbook';

/**
 * A GitBook space kept in Git with Git Sync
 * (https://gitbook.com/docs/getting-started/git-sync/content-configuration): `.gitbook.yaml`, when
 * there is one, names the space's root, first page, table of contents and redirects
 * (gitbook-config.ts). With a table of contents (`SUMMARY.md`), only the pages it lists are imported,
 * each once; a Markdown file it does not list is no page until it is, and a link to one is broken in
 * the published space. Without one, GitBook builds the table of contents from the folders, so every
 * Markdown file is a page. A page's URL is its path without `.md`, a folder's `README.md` being the
 * folder's page. Links between pages are file paths relative to the linking page; GitBook writes
 * `broken-reference` where a link's page was gone when it last synced. Reusable content lives in
 * `.gitbook/includes/` and is pulled in with `{% include %}`.
 */
export const buildGitBookSite: SiteModelBuilder = async (source, siteRoot) => {
  const files = source.files;
  const configFile = siteRoot === '' ? '.gitbook.yaml' : `${siteRoot}/.gitbook.yaml`;
  const configText = await files.read(configFile);
  const config = readGitBookConfig(configText, configFile, siteRoot);
  const { root, readme } = config;
  const summaryText = await files.read(config.summary);
  const hasSummary = summaryText !== null;
  const summaryFolder = folderOf(config.summary);
  const unsupported: string[] = [];
  if (files.has(siteRoot === '' ? 'docs.yaml' : `${siteRoot}/docs.yaml`))
    unsupported.push(
      'docs.yaml describes a GitBook site of several spaces; each space is checked as files under this root, its own table of contents is not read',
    );

  // Files GitBook keeps for itself (`.gitbook/`), and other dot folders (`.github/`), are no pages.
  const isSpaceFile = (path: string) =>
    isWithin(root, path) &&
    !relativeTo(root, path)
      .split('/')
      .some((segment) => segment.startsWith('.'));
  const isMarkdown = (path: string) => /\.md$/i.test(path);
  const routeOf = (file: string) =>
    file === readme
      ? '/'
      : normalizeRoute(
          relativeTo(root, file)
            .replace(/(^|\/)README\.md$/i, '$1')
            .replace(/\.md$/i, ''),
        );

  const pages = new Map<string, string[]>();
  const navigation: NavigationEntry[] = [];
  const configurationProblems: SiteProblem[] = [...config.problems];
  // A page is listed once: twice would give it two URLs, which GitBook refuses.
  const listedAt = new Map<string, number>();
  if (files.has(readme)) pages.set(readme, ['/']);
  for (const chapter of readSummary(summaryText ?? '')) {
    if (chapter.path === '' || isExternalUrl(chapter.path)) continue;
    const file = joinInside(summaryFolder, splitUrl(chapter.path).path);
    const exists = file !== null && files.has(file) && isSpaceFile(file);
    if (exists && !pages.has(file)) pages.set(file, [routeOf(file)]);
    const first = file === null ? undefined : listedAt.get(file);
    if (first !== undefined)
      configurationProblems.push({
        file: config.summary,
        line: chapter.line,
        message: `"${chapter.path}" is listed again (first at line ${first}); GitBook imports a page once`,
        key: `navigation\0${chapter.path}\0again`,
      });
    else if (file !== null) listedAt.set(file, chapter.line);
    navigation.push({
      reference: chapter.path,
      file: config.summary,
      line: chapter.line,
      groups: chapter.groups,
      target: exists ? file : null,
    });
  }
  const rendered = new Set(pages.keys());
  const byRoute = new Map<string, string>();
  for (const path of files.paths) {
    if (!isSpaceFile(path) || !isMarkdown(path) || path === config.summary || pages.has(path)) continue;
    if (hasSummary) {
      // Not listed: imported once the table of contents lists it.
      pages.set(path, []);
    } else {
      pages.set(path, [routeOf(path)]);
      rendered.add(path);
    }
  }
  for (const page of rendered) byRoute.set(routeOf(page), page);
  const includes = joinInside(root, `${gitbookFolder}/includes`) ?? `${gitbookFolder}/includes`;
  const partials = new Set(files.paths.filter((path) => isWithin(includes, path) && isMarkdown(path)));
  const redirectSources = new Set(config.redirects.map((redirect) => normalizeRoute(redirect.from)));
  const isExpected = createCheckoutCoverage(files.paths);
  const folders = listFolders(files.paths);

  const resolveLink = (from: string, url: string): LinkTarget => {
    if (isExternalUrl(url)) return { kind: 'external' };
    const { path } = splitUrl(url);
    if (path === '') return { kind: 'external' };
    if (path.startsWith('/'))
      return { kind: 'unchecked', reason: 'a path on the published site, not a file in the space' };
    if (/^broken-reference\/?$/.test(path))
      return { kind: 'broken', reason: 'GitBook found no page for this link when it last synced' };
    const target = joinInside(folderOf(from), path);
    if (target === null || !isWithin(root, target))
      return { kind: 'unchecked', reason: 'the link leaves the GitBook space' };
    const route = normalizeRoute(relativeTo(root, target).replace(/\.md$/i, ''));
    if (isMarkdown(target)) {
      if (rendered.has(target) || partials.has(target)) return { kind: 'file', file: target };
      if (redirectSources.has(route)) return { kind: 'served', reason: `a redirect in ${configFile}` };
      // An uploaded file, or a Markdown file the table of contents does not list: GitBook links to
      // the file in the repository (github.com/GitbookIO/gitbook/issues/3850), which is there.
      if (files.has(target))
        return isSpaceFile(target)
          ? {
              kind: 'served',
              reason: `${target} is not in ${config.summary}: GitBook links to the file in the repository`,
            }
          : { kind: 'file', file: target };
      return { kind: 'broken', reason: `no page ${target}` };
    }
    if (files.has(target)) return { kind: 'file', file: target };
    // A folder's page is its README.md; a path without `.md` may also name a page or a redirect.
    if (target === root || folders.has(target)) {
      const folderPage = target === root ? readme : `${target}/README.md`;
      if (rendered.has(folderPage)) return { kind: 'file', file: folderPage };
      if (redirectSources.has(route)) return { kind: 'served', reason: `a redirect in ${configFile}` };
      return { kind: 'broken', reason: `no page ${folderPage} for the folder` };
    }
    const page = byRoute.get(route);
    if (page !== undefined) return { kind: 'file', file: page };
    if (redirectSources.has(route)) return { kind: 'served', reason: `a redirect in ${configFile}` };
    const name = target.slice(target.lastIndexOf('/') + 1);
    if (/\.[a-z0-9]+$/i.test(name) && isExpected(target))
      return { kind: 'broken', reason: `no file ${target}` };
    return { kind: 'unchecked', reason: 'neither a page nor a file of this checkout' };
  };

  for (const redirect of config.redirects) {
    if (isExternalUrl(redirect.to) || !isMarkdown(splitUrl(redirect.to).path)) continue;
    const page = joinInside(root, splitUrl(redirect.to).path);
    if (page !== null && rendered.has(page)) continue;
    configurationProblems.push({
      file: configFile,
      line: redirect.line,
      message: `Redirect target "${redirect.to}" names no page of the space${page !== null && files.has(page) ? ` (${page} is not in ${config.summary})` : ''}`,
      key: `redirect\0${redirect.to}`,
    });
  }

  const model: SiteModel = {
    framework: 'gitbook',
    siteRoot,
    configFiles: configText === null ? [config.summary] : [config.summary, configFile],
    pages,
    partials,
    navigation,
    needsNavigationEntry: (file) =>
      hasSummary && isSpaceFile(file) && isMarkdown(file) && file !== config.summary && file !== readme,
    resolveLink,
    configurationProblems,
    unsupported,
    conventions: await describeConventions(
      source,
      rendered,
      resolveLink,
      root,
      hasSummary ? config.summary : null,
    ),
  };
  return model;
};

async function describeConventions(
  source: SiteSource,
  pages: ReadonlySet<string>,
  resolveLink: (from: string, url: string) => LinkTarget,
  root: string,
  summary: string | null,
): Promise<string[]> {
  const example = await markdownLinkExample(source, pages, resolveLink);
  const folder = root === '' ? '.' : root;
  return [
    `Links between pages are file paths relative to the linking page, to the \`.md\` file${example}; a folder's page is its \`README.md\`. Never write \`broken-reference\`: GitBook writes it for a link whose page is gone.`,
    summary === null
      ? `New pages go under \`${folder}/\`; GitBook builds the table of contents from the folders.`
      : `New pages go under \`${folder}/\` and are imported only once listed in \`${summary}\` as \`* [Title](path.md)\`, indented under their parent page; each page may be listed once.`,
    'GitBook blocks are Liquid-style tags that must stay paired: `{% hint style="info" %}` … `{% endhint %}`, `{% tabs %}`/`{% tab title="…" %}`, `{% stepper %}`/`{% step %}`, `{% code title="…" %}` around a fence; `{% content-ref url="page.md" %}` and `{% include "…" %}` name files like links do.',
  ];
}
