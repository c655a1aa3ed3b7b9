import type { SiteModelBuilder } from '../site-model.ts';
import { buildMarkdownSite } from './markdown.ts';

// Placeholder until the MkDocs model lands: files as plain Markdown, and the run says so.
export const buildMkDocsSite: SiteModelBuilder = async (source, siteRoot) => {
  const model = await buildMarkdownSite(source, siteRoot);
  return {
    ...model,
    framework: 'mkdocs',
    siteRoot,
    unsupported: ['MkDocs navigation and routes are not read yet'],
  };
};
