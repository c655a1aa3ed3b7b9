import { splitUrl } from '../link-urls.ts';
import type { LinkTarget, SiteSource } from '../site-model.ts';

/**
 * For a convention sentence: ` (for example \`a.md\` links to \`../b.md\`)`, the first link between
 * Markdown pages written as a path to the `.md` file among the first 200 pages, or '' when none is.
 */
export async function markdownLinkExample(
  source: SiteSource,
  pages: Iterable<string>,
  resolveLink: (from: string, url: string) => LinkTarget,
): Promise<string> {
  let checked = 0;
  for (const page of pages) {
    if (checked > 200) break;
    checked += 1;
    for (const link of (await source.pageFacts(page))?.links ?? []) {
      const target = resolveLink(page, link.url);
      if (target.kind === 'file' && /\.md$/i.test(target.file) && /\.md$/i.test(splitUrl(link.url).path))
        return ` (for example \`${page}\` links to \`${link.url}\`)`;
    }
  }
  return '';
}
