import type { DocsFramework, SiteModelBuilder } from '../site-model.ts';
import { buildAntoraSite } from './antora.ts';
import { buildDocfxSite } from './docfx.ts';
import { buildDocsifySite } from './docsify.ts';
import { buildDocusaurusSite } from './docusaurus.ts';
import { buildDumiSite } from './dumi.ts';
import { buildEleventySite } from './eleventy.ts';
import { buildFernSite } from './fern.ts';
import { buildFumadocsSite } from './fumadocs.ts';
import { buildGitBookSite } from './gitbook.ts';
import { buildHexoSite } from './hexo.ts';
import { buildHugoSite } from './hugo.ts';
import { buildJekyllSite } from './jekyll.ts';
import { buildMarkdownSite } from './markdown.ts';
import { buildMdBookSite } from './mdbook.ts';
import { buildMintlifySite } from './mintlify.ts';
import { buildMkDocsSite, buildZensicalSite } from './mkdocs.ts';
import { buildMystSite } from './myst.ts';
import { buildNextraSite } from './nextra.ts';
import { buildNuxtContentSite } from './nuxt-content.ts';
import { buildQuartoSite } from './quarto.ts';
import { buildReadmeSite } from './readme.ts';
import { buildRedoclySite } from './redocly.ts';
import { buildRetypeSite } from './retype.ts';
import { buildRspressSite } from './rspress.ts';
import { buildSphinxSite } from './sphinx.ts';
import { buildStarlightSite } from './starlight.ts';
import { buildVitePressSite } from './vitepress.ts';
import { buildVocsSite } from './vocs.ts';
import { buildVuePressSite } from './vuepress.ts';
import { buildWritersideSite } from './writerside.ts';
import { buildZolaSite } from './zola.ts';

/** The site model builder of each framework. */
export const siteModelBuilders: Readonly<Record<DocsFramework, SiteModelBuilder>> = {
  mintlify: buildMintlifySite,
  docusaurus: buildDocusaurusSite,
  mkdocs: buildMkDocsSite,
  zensical: buildZensicalSite,
  mdbook: buildMdBookSite,
  gitbook: buildGitBookSite,
  fumadocs: buildFumadocsSite,
  nextra: buildNextraSite,
  starlight: buildStarlightSite,
  vitepress: buildVitePressSite,
  rspress: buildRspressSite,
  vuepress: buildVuePressSite,
  docsify: buildDocsifySite,
  jekyll: buildJekyllSite,
  hugo: buildHugoSite,
  sphinx: buildSphinxSite,
  antora: buildAntoraSite,
  quarto: buildQuartoSite,
  myst: buildMystSite,
  docfx: buildDocfxSite,
  vocs: buildVocsSite,
  retype: buildRetypeSite,
  writerside: buildWritersideSite,
  'nuxt-content': buildNuxtContentSite,
  dumi: buildDumiSite,
  zola: buildZolaSite,
  hexo: buildHexoSite,
  eleventy: buildEleventySite,
  fern: buildFernSite,
  redocly: buildRedoclySite,
  readme: buildReadmeSite,
  markdown: buildMarkdownSite,
};
