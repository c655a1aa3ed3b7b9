import { isDeepStrictEqual } from 'node:util';
import { checkSite } from './check-site.ts';
import type { RepositoryFiles, SiteModel, SiteProblem, SiteSource } from './site-model.ts';
import { createSiteSource, type PageFactsCache } from './site-source.ts';

/**
 * Models that read more of a page than its facts (mdBook's `{{#include}}` directives, VitePress's
 * `{target=...}` link attributes): any edit to a page may change them, so they are always rebuilt.
 */
const modelsReadingPageText = new Set(['mdbook', 'vitepress']);

/**
 * The problems of a site after edits to existing pages, when the edits change nothing the model is
 * built from: no file created, removed or moved, no configuration or navigation file touched, and
 * each edited page's front matter, title, imports (Sphinx toctrees and labels, and anchors where the
 * framework checks them) as they were. Then routes, navigation and every
 * other page's links are as before, so only the edited pages' links are checked again: a validation
 * after a typical edit costs the edited pages, not the site. Null when the model must be rebuilt.
 */
export async function problemsAfterPageEdits(options: {
  model: SiteModel;
  /** The source the model was built from, and its problems. */
  before: SiteSource;
  problemsBefore: readonly SiteProblem[];
  files: RepositoryFiles;
  cache: PageFactsCache;
  edited: ReadonlySet<string>;
}): Promise<{ problems: SiteProblem[]; source: SiteSource } | null> {
  const { model, before, edited } = options;
  if (modelsReadingPageText.has(model.framework)) return null;
  const configuration = new Set(model.configFiles);
  const source = createSiteSource(options.files, model.framework, options.cache);
  for (const path of edited) {
    if (configuration.has(path) || !(model.pages.has(path) || model.partials.has(path))) return null;
    if (!options.files.has(path)) return null;
    const [earlier, now] = await Promise.all([before.pageFacts(path), source.pageFacts(path)]);
    if (earlier === null || now === null) return null;
    const imports = (facts: typeof now) =>
      facts.links.filter((link) => link.kind === 'import').map((link) => link.url);
    if (
      earlier.title !== now.title ||
      !isDeepStrictEqual(earlier.frontMatter, now.frontMatter) ||
      !isDeepStrictEqual(imports(earlier), imports(now)) ||
      // Sphinx's toctrees and labels are navigation and link targets of the whole site.
      !isDeepStrictEqual(earlier.sphinx, now.sphinx)
    ) {
      return null;
    }
    // A renamed heading may break another page's link to its anchor: that page is checked again too.
    if (model.pageAnchors !== undefined) {
      const [earlierText, nowText] = await Promise.all([before.files.read(path), options.files.read(path)]);
      const anchors = (text: string | null) => (text === null ? null : model.pageAnchors?.(path, text));
      if (!isDeepStrictEqual(anchors(earlierText), anchors(nowText))) return null;
    }
  }
  const kept = options.problemsBefore.filter(
    (problem) => !(edited.has(problem.file) && /^(link|anchor)\0/.test(problem.key)),
  );
  const rechecked = await checkSite(model, source, { onlyPages: edited });
  return { problems: [...kept, ...rechecked], source };
}
