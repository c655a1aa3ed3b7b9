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
  RepositoryFiles,
  SiteModel,
  SiteModelBuilder,
  SiteProblem,
  SiteSource,
} from '../site-model.ts';
import { createCheckoutCoverage } from './checkout-coverage.ts';
import { readGitBookConfig, readGitBookSite } from './gitbook-config.ts';
import { markdownLinkExample } from './link-example.ts';
import { readSummary } from './mdbook-summary.ts';

/** GitBook's own folder in a space: uploaded files (`assets/`) and reusable content (`includes/`). */
const gitbookFolder = '.gitbook';

/**
 * GitBook spaces kept in Git with Git Sync
 * (https://gitbook.com/docs/getting-started/git-sync/content-configuration): `.gitbook.yaml`, when
 * there is one, names the space's root, first page, table of contents and redirects
 * (gitbook-config.ts); a site that syncs several spaces maps each to a folder in `docs.yaml`. With a
 * table of contents (`SUMMARY.md`), only the pages it lists are imported, each once; a Markdown file
 * it does not list is no page until it is (a link to one leads to the file in the repository).
 * Without one, GitBook builds the table of contents from the folders, so every Markdown file is a
 * page. A page's URL is its path without `.md`, a folder's `README.md` being the
 * folder's page. Links between pages are file paths relative to the linking page; GitBook writes
 * `broken-reference` where a link's page was gone when it last synced. Reusable content lives in
 * `.gitbook/includes/` and is pulled in with `{% include %}`.
 */
export const buildGitBookSite: SiteModelBuilder = async (source, siteRoot) => {
  const files = source.files;
  const site = await readGitBookSite(files, siteRoot);
  const pages = new Map<string, string[]>();
  const spaces: Space[] = [];
  const spaceFolders = site === null || site.spaces.length === 0 ? [siteRoot] : site.spaces;
  for (const folder of spaceFolders) spaces.push(await readSpace(files, folder, pages));
  // The deepest space first, for a space inside another's folder.
  spaces.sort((left, right) => right.root.length - left.root.length);
  const spaceOf = (path: string) => spaces.find((space) => isWithin(space.root, path));
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
    // A relative link may reach another space of the site: it is resolved in that space.
    const space = target === null ? undefined : spaceOf(target);
    if (target === null || space === undefined)
      return { kind: 'unchecked', reason: 'the link leaves the GitBook space' };
    const route = normalizeRoute(relativeTo(space.root, target).replace(/\.md$/i, ''));
    const redirected: LinkTarget = { kind: 'served', reason: `a redirect in ${space.configFile}` };
    if (isMarkdown(target)) {
      if (space.rendered.has(target) || space.partials.has(target)) return { kind: 'file', file: target };
      if (space.redirectSources.has(route)) return redirected;
      // An uploaded file, or a Markdown file the table of contents does not list: GitBook links to
      // the file in the repository (github.com/GitbookIO/gitbook/issues/3850), which is there.
      if (files.has(target))
        return space.isSpaceFile(target)
          ? {
              kind: 'served',
              reason: `${target} is not in ${space.summary}: GitBook links to the file in the repository`,
            }
          : { kind: 'file', file: target };
      return { kind: 'broken', reason: `no page ${target}` };
    }
    if (files.has(target)) return { kind: 'file', file: target };
    // A folder's page is its README.md; a path without `.md` may also name a page or a redirect.
    if (target === space.root || folders.has(target)) {
      const folderPage = target === space.root ? space.readme : `${target}/README.md`;
      if (space.rendered.has(folderPage)) return { kind: 'file', file: folderPage };
      if (space.redirectSources.has(route)) return redirected;
      return { kind: 'broken', reason: `no page ${folderPage} for the folder` };
    }
    const page = space.byRoute.get(route);
    if (page !== undefined) return { kind: 'file', file: page };
    if (space.redirectSources.has(route)) return redirected;
    const name = target.slice(target.lastIndexOf('/') + 1);
    if (/\.[a-z0-9]+$/i.test(name) && isExpected(target))
      return { kind: 'broken', reason: `no file ${target}` };
    return { kind: 'unchecked', reason: 'neither a page nor a file of this checkout' };
  };

  const model: SiteModel = {
    framework: 'gitbook',
    siteRoot,
    configFiles: [
      ...(site === null ? [] : [site.file]),
      ...spaces.flatMap((space) => (space.hasConfig ? [space.summary, space.configFile] : [space.summary])),
    ],
    pages,
    partials: new Set(spaces.flatMap((space) => [...space.partials])),
    navigation: spaces.flatMap((space) => space.navigation),
    navigationFileFor: (file) => spaceOf(file)?.summary ?? spaces[0]?.summary ?? 'SUMMARY.md',
    needsNavigationEntry: (file) => {
      const space = spaceOf(file);
      return (
        space?.hasSummary === true &&
        space.isSpaceFile(file) &&
        isMarkdown(file) &&
        file !== space.summary &&
        file !== space.readme
      );
    },
    resolveLink,
    configurationProblems: [...(site?.problems ?? []), ...spaces.flatMap((space) => space.problems)],
    unsupported: [],
    conventions: await describeConventions(source, spaces, resolveLink),
  };
  return model;
};

/** One space of the site: its folder's `.gitbook.yaml`, first page, table of contents and pages. */
interface Space {
  root: string;
  configFile: string;
  hasConfig: boolean;
  readme: string;
  summary: string;
  hasSummary: boolean;
  /** Pages GitBook imports (listed in the table of contents, or all without one). */
  rendered: Set<string>;
  byRoute: Map<string, string>;
  partials: Set<string>;
  redirectSources: Set<string>;
  navigation: NavigationEntry[];
  problems: SiteProblem[];
  /** Files of the space GitBook may import: not in `.gitbook/` or another dot folder. */
  isSpaceFile(path: string): boolean;
}

const isMarkdown = (path: string) => /\.md$/i.test(path);

/** Reads the space whose `.gitbook.yaml` (if any) is in `folder`, adding its pages to `pages`. */
async function readSpace(
  files: RepositoryFiles,
  folder: string,
  pages: Map<string, string[]>,
): Promise<Space> {
  const configFile = folder === '' ? '.gitbook.yaml' : `${folder}/.gitbook.yaml`;
  const configText = await files.read(configFile);
  const config = readGitBookConfig(configText, configFile, folder);
  const { root, readme } = config;
  const summaryText = await files.read(config.summary);
  const hasSummary = summaryText !== null;
  const summaryFolder = folderOf(config.summary);
  const isSpaceFile = (path: string) =>
    isWithin(root, path) &&
    !relativeTo(root, path)
      .split('/')
      .some((segment) => segment.startsWith('.'));
  const routeOf = (file: string) =>
    file === readme
      ? '/'
      : normalizeRoute(
          relativeTo(root, file)
            .replace(/(^|\/)README\.md$/i, '$1')
            .replace(/\.md$/i, ''),
        );

  const rendered = new Set<string>();
  const navigation: NavigationEntry[] = [];
  const problems: SiteProblem[] = [...config.problems];
  // A page is listed once: twice would give it two URLs, which GitBook refuses.
  const listedAt = new Map<string, number>();
  if (files.has(readme)) {
    pages.set(readme, ['/']);
    rendered.add(readme);
  }
  for (const chapter of readSummary(summaryText ?? '')) {
    if (chapter.path === '' || isExternalUrl(chapter.path)) continue;
    const file = joinInside(summaryFolder, splitUrl(chapter.path).path);
    const exists = file !== null && files.has(file) && isSpaceFile(file);
    if (exists && !rendered.has(file)) {
      pages.set(file, [routeOf(file)]);
      rendered.add(file);
    }
    // An entry to a section (`page.md#buttons`) links into a page listed elsewhere: no second import.
    const section = splitUrl(chapter.path).fragment !== null;
    const first = file === null || section ? undefined : listedAt.get(file);
    if (first !== undefined)
      problems.push({
        file: config.summary,
        line: chapter.line,
        message: `"${chapter.path}" is listed again (first at line ${first}); GitBook imports a page once`,
        key: `navigation\0${chapter.path}\0again`,
      });
    else if (file !== null && !section) listedAt.set(file, chapter.line);
    navigation.push({
      reference: chapter.path,
      file: config.summary,
      line: chapter.line,
      groups: chapter.groups,
      target: exists ? file : null,
    });
  }
  for (const path of files.paths) {
    if (!isSpaceFile(path) || !isMarkdown(path) || path === config.summary || rendered.has(path)) continue;
    // Not listed: imported once the table of contents lists it. Without one, every file is a page.
    if (hasSummary) {
      if (!pages.has(path)) pages.set(path, []);
    } else {
      pages.set(path, [routeOf(path)]);
      rendered.add(path);
    }
  }
  const byRoute = new Map<string, string>();
  for (const page of rendered) byRoute.set(routeOf(page), page);
  const includes = joinInside(root, `${gitbookFolder}/includes`) ?? `${gitbookFolder}/includes`;
  for (const redirect of config.redirects) {
    if (isExternalUrl(redirect.to) || !isMarkdown(splitUrl(redirect.to).path)) continue;
    const page = joinInside(root, splitUrl(redirect.to).path);
    if (page !== null && rendered.has(page)) continue;
    problems.push({
      file: configFile,
      line: redirect.line,
      message: `Redirect target "${redirect.to}" names no page of the space${page !== null && files.has(page) ? ` (${page} is not in ${config.summary})` : ''}`,
      key: `redirect\0${redirect.to}`,
    });
  }
  return {
    root,
    configFile,
    hasConfig: configText !== null,
    readme,
    summary: config.summary,
    hasSummary,
    rendered,
    byRoute,
    partials: new Set(files.paths.filter((path) => isWithin(includes, path) && isMarkdown(path))),
    redirectSources: new Set(config.redirects.map((redirect) => normalizeRoute(redirect.from))),
    navigation,
    problems,
    isSpaceFile,
  };
}

async function describeConventions(
  source: SiteSource,
  spaces: readonly Space[],
  resolveLink: (from: string, url: string) => LinkTarget,
): Promise<string[]> {
  const example = await markdownLinkExample(
    source,
    spaces.flatMap((space) => [...space.rendered]),
    resolveLink,
  );
  const where = spaces.map((space) => `\`${space.root === '' ? '.' : space.root}/\``).join(', ');
  const summaries = spaces.filter((space) => space.hasSummary).map((space) => `\`${space.summary}\``);
  return [
    `Links between pages are file paths relative to the linking page, to the \`.md\` file${example}; a folder's page is its \`README.md\`. Never write \`broken-reference\`: GitBook writes it for a link whose page is gone.`,
    summaries.length === 0
      ? `New pages go under ${where}; GitBook builds the table of contents from the folders.`
      : `New pages go under ${where} and are imported only once listed in their space's table of contents (${summaries.join(', ')}) as \`* [Title](path.md)\`, indented under their parent page; each page may be listed once.`,
    'GitBook blocks are Liquid-style tags that must stay paired: `{% hint style="info" %}` … `{% endhint %}`, `{% tabs %}`/`{% tab title="…" %}`, `{% stepper %}`/`{% step %}`, `{% code title="…" %}` around a fence; `{% content-ref url="page.md" %}` and `{% include "…" %}` name files like links do.',
  ];
}
