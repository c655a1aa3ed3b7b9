import type { SiteModelBuilder } from '../site-model.ts';
import { buildMarkdownSite } from './markdown.ts';

// Placeholder until the MdBook model lands: files as plain Markdown, and the run says so.
export const buildMdBookSite: SiteModelBuilder = async (source, siteRoot) => {
  const model = await buildMarkdownSite(source, siteRoot);
  return {
    ...model,
    framework: 'mdbook',
    siteRoot,
    unsupported: ['MdBook navigation and routes are not read yet'],
  };
};
