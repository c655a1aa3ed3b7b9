import type { SiteModelBuilder } from '../site-model.ts';
import { buildMarkdownSite } from './markdown.ts';

// Placeholder until the Mintlify model lands: files as plain Markdown, and the run says so.
export const buildMintlifySite: SiteModelBuilder = async (source, siteRoot) => {
  const model = await buildMarkdownSite(source, siteRoot);
  return {
    ...model,
    framework: 'mintlify',
    siteRoot,
    unsupported: ['Mintlify navigation and routes are not read yet'],
  };
};
