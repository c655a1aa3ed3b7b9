import type { SiteModelBuilder } from '../site-model.ts';
import { buildMarkdownSite } from './markdown.ts';

// Placeholder until the Docusaurus model lands: files as plain Markdown, and the run says so.
export const buildDocusaurusSite: SiteModelBuilder = async (source, siteRoot) => {
  const model = await buildMarkdownSite(source, siteRoot);
  return {
    ...model,
    framework: 'docusaurus',
    siteRoot,
    unsupported: ['Docusaurus navigation and routes are not read yet'],
  };
};
