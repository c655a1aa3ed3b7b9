/**
 * The docs site: what a documentation repository's build tool knows about it (pages, routes,
 * navigation, links), and the checks that find what a change broke. The agent's tools and
 * validation use only this entry file.
 */
import { detectSite } from './detect-site.ts';
import { siteModelBuilders } from './frameworks/index.ts';
import type { RepositoryFiles, SiteModel, SiteSource } from './site-model.ts';
import { createSiteSource, type PageFactsCache, preparePageFacts } from './site-source.ts';

export { checkSite, introducedProblems, pagesMissingFromNavigation } from './check-site.ts';
export { type DetectedSite, detectSite } from './detect-site.ts';
export {
  CommitFiles,
  DirectoryFiles,
  isBinary,
  memoryFiles,
  OverlayFiles,
  WorktreeFiles,
  walkFiles,
} from './repository-files.ts';
export type {
  DocsFramework,
  LinkTarget,
  NavigationEntry,
  PageFacts,
  RepositoryFiles,
  SiteModel,
  SiteProblem,
  SiteSource,
} from './site-model.ts';
export { isPagePath, isUnchecked } from './site-model.ts';
export { PageFactsCache } from './site-source.ts';

export interface AnalyzedSite {
  model: SiteModel;
  source: SiteSource;
}

/** Detects the framework and builds its model of the site from `files`. */
export async function analyzeSite(files: RepositoryFiles, cache: PageFactsCache): Promise<AnalyzedSite> {
  const detected = await detectSite(files);
  await preparePageFacts(files, detected.framework, cache);
  const source = createSiteSource(files, detected.framework, cache);
  const model = await siteModelBuilders[detected.framework](source, detected.siteRoot);
  return { model, source };
}
export { checkPageSyntax } from './check-syntax.ts';
export { problemsAfterPageEdits } from './reanalyze-site.ts';
export { splitExplicitTitle } from './rst-facts.ts';
