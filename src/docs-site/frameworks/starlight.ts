import type { SiteModelBuilder } from '../site-model.ts';
import { buildMarkdownSite } from './markdown.ts';

// Placeholder until the Starlight model lands: files as plain Markdown, and the run says so.
export const buildStarlightSite: SiteModelBuilder = async (source, siteRoot) => {
  const model = await buildMarkdownSite(source, siteRoot);
  return {
    ...model,
    framework: 'starlight',
    siteRoot,
    unsupported: ['Starlight navigation and routes are not read yet'],
  };
};
