import { createSubmoduleTest, readSubmoduleFolders } from './git-ignored.ts';
import type { PageAnchors } from './heading-anchors.ts';
import { decodePath, folderOf, isExternalUrl, joinInside, splitUrl } from './link-urls.ts';
import { isUnchecked, type SiteModel, type SiteProblem, type SiteSource } from './site-model.ts';

/**
 * Every problem of the site as its model sees it: configuration errors, navigation entries that name
 * no page, and links the framework would not serve, each with its file and line. A whole
 * 2,500-page site takes well under a second once page facts are cached (they are, by content).
 */
export async function checkSite(
  model: SiteModel,
  source: SiteSource,
  options: { onlyPages?: ReadonlySet<string> } = {},
): Promise<SiteProblem[]> {
  const { onlyPages } = options;
  const problems: SiteProblem[] = onlyPages === undefined ? [...model.configurationProblems] : [];
  const inSubmodule = await createLinkSubmoduleTest(model, source);
  for (const entry of onlyPages === undefined ? model.navigation : []) {
    if (entry.target !== null || inSubmodule(entry.file, entry.reference)) continue;
    problems.push({
      file: entry.file,
      line: entry.line,
      message: `Navigation entry "${entry.reference}" names no page`,
      key: `navigation\0${entry.reference}`,
    });
  }
  // With `onlyPages`: the links of those pages only (the rest of the site is known unchanged).
  const checked =
    onlyPages === undefined
      ? [...model.pages.keys(), ...model.partials]
      : [...onlyPages].filter((file) => model.pages.has(file) || model.partials.has(file));
  const anchorsOf = createAnchorReader(model, source);
  for (const file of checked) {
    const facts = await source.pageFacts(file);
    if (facts === null) continue;
    for (const link of facts.links) {
      const target = model.resolveLink(file, link.url, link);
      const ownPage = link.url.startsWith('#') && model.fragmentsAreLocal !== false;
      if (link.kind === 'link' && (target.kind === 'file' || ownPage)) {
        const missing = await missingAnchor(anchorsOf, target.kind === 'file' ? target.file : file, link.url);
        if (missing !== null)
          problems.push({
            file,
            line: link.line,
            message: `Broken anchor "${link.url}": ${missing}`,
            key: `anchor\0${link.url}`,
          });
      }
      if (target.kind !== 'broken' || inSubmodule(file, link.url)) continue;
      problems.push({
        file,
        line: link.line,
        message: `Broken ${link.kind === 'image' ? 'image' : 'link'} "${link.url}": ${target.reason}`,
        key: `link\0${link.url}`,
      });
    }
  }
  return problems;
}

/** The anchors of a page as its framework knows them, read once per check; null when not checked. */
function createAnchorReader(
  model: SiteModel,
  source: SiteSource,
): (file: string) => Promise<PageAnchors | null> {
  const read = new Map<string, Promise<PageAnchors | null>>();
  return (file) => {
    let anchors = read.get(file);
    if (anchors === undefined) {
      anchors =
        model.pageAnchors === undefined || !model.pages.has(file)
          ? Promise.resolve(null)
          : source.files
              .read(file)
              .then((text) => (text === null ? null : (model.pageAnchors?.(file, text) ?? null)));
      read.set(file, anchors);
    }
    return anchors;
  };
}

/** Why a link's fragment names no anchor of its target page, or null when it does (or cannot be known). */
async function missingAnchor(
  anchorsOf: (file: string) => Promise<PageAnchors | null>,
  target: string,
  url: string,
): Promise<string | null> {
  // A text fragment (`#:~:text=...`) is the browser's, not an anchor of the page.
  const fragment = splitUrl(url).fragment?.split(':~:')[0] ?? null;
  if (fragment === null || fragment === '') return null;
  const anchors = await anchorsOf(target);
  if (anchors === null || !anchors.complete) return null;
  const decoded =
    anchors.trimsHashes === true ? decodePath(fragment).replace(/^#+/, '') : decodePath(fragment);
  if (decoded === '') return null;
  if (anchors.anchors.has(fragment) || anchors.anchors.has(decoded)) return null;
  if (anchors.caseInsensitive === true && anchors.anchors.has(decoded.toLowerCase())) return null;
  if (anchors.knownPrefixes?.some((prefix) => decoded.startsWith(prefix)) === true) return null;
  if (anchors.knownInfixes?.some((infix) => decoded.includes(infix)) === true) return null;
  return `${target} has no heading or element with the id "${decoded}"`;
}

/**
 * Whether a path written in `from` leads into a Git submodule (`.gitmodules`): a checkout without
 * `--recurse-submodules` holds its folder empty, while the site's build checks it out, so what is
 * missing there is unknown, not broken. The path is tried from the writing file's folder, the
 * site's root and the repository's.
 */
async function createLinkSubmoduleTest(
  model: SiteModel,
  source: SiteSource,
): Promise<(from: string, url: string) => boolean> {
  const folders = await readSubmoduleFolders(source.files);
  if (folders.length === 0) return () => false;
  const inSubmodule = createSubmoduleTest(folders);
  return (from, url) => {
    const { path } = splitUrl(url.trim());
    if (path === '' || isExternalUrl(path)) return false;
    const fromRoot = path.replace(/^\/+/, '');
    return [
      joinInside(folderOf(from), path),
      joinInside(model.siteRoot, fromRoot),
      joinInside('', fromRoot),
    ].some((candidate) => candidate !== null && inSubmodule(candidate));
  };
}

/** New pages that must be in navigation and are not: `created` are repository paths. */
export function pagesMissingFromNavigation(model: SiteModel, created: Iterable<string>): SiteProblem[] {
  const listed = new Set<string>();
  for (const entry of model.navigation) {
    if (typeof entry.target === 'string') listed.add(entry.target);
  }
  const unchecked = model.navigation.flatMap((entry) => (isUnchecked(entry.target) ? [entry.target] : []));
  const problems: SiteProblem[] = [];
  for (const file of created) {
    const isPage = model.pages.has(file) || model.builtOnlyWhenListed?.has(file) === true;
    if (!isPage || listed.has(file) || !model.needsNavigationEntry(file)) continue;
    // Navigation this model could not read might list it: say nothing rather than guess.
    if (unchecked.some((target) => target.onlyFiles === undefined || target.onlyFiles.includes(file)))
      continue;
    const where = model.navigationFileFor?.(file) ?? model.configFiles[0] ?? 'the navigation';
    problems.push({
      file,
      line: 1,
      message: `New page is missing from navigation; add it to ${where}`,
      key: 'navigation-missing',
    });
  }
  return problems;
}

/**
 * The problems of `current` that `base` did not have: compared by file and key, counted (two
 * identical broken links where the base had one is one new problem). `renamedFrom` maps a moved
 * file's new path to its base path, so a moved page's old problems are not new.
 */
export function introducedProblems(
  current: readonly SiteProblem[],
  base: readonly SiteProblem[],
  renamedFrom: ReadonlyMap<string, string> = new Map(),
): SiteProblem[] {
  const remaining = new Map<string, number>();
  for (const problem of base) {
    const identity = `${problem.file}\0${problem.key}`;
    remaining.set(identity, (remaining.get(identity) ?? 0) + 1);
  }
  const introduced: SiteProblem[] = [];
  for (const problem of current) {
    const identity = `${renamedFrom.get(problem.file) ?? problem.file}\0${problem.key}`;
    const count = remaining.get(identity) ?? 0;
    if (count > 0) remaining.set(identity, count - 1);
    else introduced.push(problem);
  }
  return introduced;
}
