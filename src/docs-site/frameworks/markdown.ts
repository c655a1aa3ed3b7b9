import { folderOf, isExternalUrl, joinInside, listFolders, splitUrl } from '../link-urls.ts';
import { isPagePath, type LinkTarget, type SiteModel, type SiteModelBuilder } from '../site-model.ts';

/**
 * A repository of Markdown files with no site generator (rendered as the code host renders them):
 * every Markdown file is a page, links are file paths relative to the linking file (or to the
 * repository root with a leading slash, as GitHub reads them), and there is no navigation.
 */
export const buildMarkdownSite: SiteModelBuilder = async (source) => {
  const pages = new Map<string, string[]>();
  for (const path of source.files.paths) {
    if (isPagePath(path)) pages.set(path, [`/${path}`]);
  }
  const folders = listFolders(source.files.paths);
  const resolveLink = (from: string, url: string): LinkTarget => {
    if (isExternalUrl(url)) return { kind: 'external' };
    const { path } = splitUrl(url);
    if (path === '') return { kind: 'external' };
    const target = path.startsWith('/') ? joinInside('', path.slice(1)) : joinInside(folderOf(from), path);
    if (target === null) return { kind: 'unchecked', reason: 'the link leaves the repository' };
    if (target === '' || source.files.has(target)) return { kind: 'file', file: target };
    // A folder: the code host shows its README.
    if (folders.has(target)) return { kind: 'file', file: target };
    return { kind: 'broken', reason: `no file ${target}` };
  };
  const model: SiteModel = {
    framework: 'markdown',
    siteRoot: '',
    configFiles: [],
    pages,
    partials: new Set(),
    navigation: [],
    needsNavigationEntry: () => false,
    resolveLink,
    configurationProblems: [],
    unsupported: [],
    conventions: ['Links are file paths relative to the linking file, such as `../guides/setup.md`.'],
  };
  return model;
};
