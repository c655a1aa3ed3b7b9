import type { SiteModelBuilder } from '../site-model.ts';
import { buildMarkdownSite } from './markdown.ts';

// Placeholder until the VitePress model lands: files as plain Markdown, and the run says so.
export const buildVitePressSite: SiteModelBuilder = async (source, siteRoot) => {
  const model = await buildMarkdownSite(source, siteRoot);
  return {
    ...model,
    framework: 'vitepress',
    siteRoot,
    unsupported: ['VitePress navigation and routes are not read yet'],
  };
};
