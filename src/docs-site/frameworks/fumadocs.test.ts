import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkFiles as check, problemLines as messages } from '../../../test/site-check.ts';
import { pagesMissingFromNavigation } from '../index.ts';

// The shape of better-auth's `docs/` and 29next/developer-docs: `source.config.ts` with two
// `defineDocs` collections, `lib/source.ts` serving them under `/docs` and `/docs/beta`, a Next.js
// redirect from `/docs`, `meta.json` files (a root folder, a rest item, a stale entry, an extracted
// folder), a route group, `public/` images, a component imported by a page, and API reference
// pages generated into a folder `.gitignore` keeps out of Git.
const siteShape = {
  'docs/source.config.ts': [
    "import { defineDocs, defineConfig } from 'fumadocs-mdx/config';",
    "export const docs = defineDocs({ dir: './content/docs' });",
    "export const docsBeta = defineDocs({ dir: './content/docs-beta' });",
    'export default defineConfig();',
    '',
  ].join('\n'),
  'docs/lib/source.ts': [
    "import { loader } from 'fumadocs-core/source';",
    "import { docs, docsBeta } from '@/.source/server';",
    "export const source = loader({ baseUrl: '/docs', source: docs.toFumadocsSource() });",
    "export const sourceBeta = loader({ baseUrl: '/docs/beta', source: docsBeta.toFumadocsSource() });",
    '',
  ].join('\n'),
  'docs/next.config.js': [
    'export default {',
    '  async redirects() {',
    "    return [{ source: '/docs', destination: '/docs/introduction', permanent: false }];",
    '  },',
    '};',
    '',
  ].join('\n'),
  'docs/.gitignore': '.next\n/content/docs/api/reference/\n',
  'docs/content/docs/meta.json': JSON.stringify(
    {
      title: 'guide',
      root: true,
      pages: ['introduction', 'installation', 'email-password/sign-in', 'plugins'],
    },
    null,
    2,
  ),
  'docs/content/docs/introduction.mdx': [
    '---',
    'title: Introduction',
    '---',
    '',
    'Start with [installation](/docs/installation) or [the docs](/docs).',
    '',
    '![diagram](/images/diagram.png) and ![gone](/images/gone.png)',
    '',
  ].join('\n'),
  'docs/content/docs/installation.mdx': [
    '---',
    'title: Installation',
    '---',
    '',
    "import { Tabs } from './tabs.client';",
    '',
    'See [plugins](./plugins/admin), [the API](/docs/api/reference/users/create) and [old](/docs/setup).',
    '',
    '[Blog](/blog/launch) and [the beta](/docs/beta/intro).',
    '',
  ].join('\n'),
  'docs/content/docs/tabs.client.tsx': 'export function Tabs() { return null; }\n',
  'docs/content/docs/plugins/meta.json': JSON.stringify(
    { title: 'Plugins', pages: ['admin', '...'] },
    null,
    2,
  ),
  'docs/content/docs/plugins/admin.mdx': '---\ntitle: Admin\n---\n\nBack to [plugins](..).\n',
  'docs/content/docs/plugins/(extra)/sso.mdx': '---\ntitle: SSO\n---\n\n[Admin](/docs/plugins/admin)\n',
  'docs/content/docs/api/meta.json': JSON.stringify(
    { title: 'API', pages: ['index', 'reference', '...(generated)'] },
    null,
    2,
  ),
  'docs/content/docs/api/index.mdx': '---\ntitle: API\n---\n',
  'docs/content/docs-beta/intro.mdx': '---\ntitle: Beta\n---\n',
  'docs/public/images/diagram.png': '',
};

describe('Fumadocs site model', () => {
  it('reads the collections, their base URLs, and the URL of every page', async () => {
    const { model } = await check(siteShape);
    assert.equal(model.framework, 'fumadocs');
    assert.equal(model.siteRoot, 'docs');
    assert.deepEqual(model.pages.get('docs/content/docs/introduction.mdx'), ['/docs/introduction']);
    assert.deepEqual(model.pages.get('docs/content/docs/api/index.mdx'), ['/docs/api']);
    // A folder in parentheses leaves the URL alone.
    assert.deepEqual(model.pages.get('docs/content/docs/plugins/(extra)/sso.mdx'), ['/docs/plugins/sso']);
    assert.deepEqual(model.pages.get('docs/content/docs-beta/intro.mdx'), ['/docs/beta/intro']);
    assert.deepEqual(model.unsupported, []);
  });

  it('reports stale meta.json entries, broken routes and missing public files, and nothing generated', async () => {
    const { problems } = await check(siteShape);
    assert.deepEqual(messages(problems), [
      'docs/content/docs/meta.json:7: Navigation entry "email-password/sign-in" names no page',
      'docs/content/docs/installation.mdx:7: Broken link "/docs/setup": no page of docs/content/docs is served at /docs/setup',
      'docs/content/docs/introduction.mdx:7: Broken image "/images/gone.png": no file docs/public/images/gone.png',
    ]);
  });

  it('resolves links as the browser and Next.js do', async () => {
    const { model } = await check(siteShape);
    const from = 'docs/content/docs/installation.mdx';
    assert.deepEqual(model.resolveLink(from, './plugins/admin'), {
      kind: 'file',
      file: 'docs/content/docs/plugins/admin.mdx',
    });
    assert.deepEqual(model.resolveLink(from, './tabs.client'), {
      kind: 'file',
      file: 'docs/content/docs/tabs.client.tsx',
    });
    assert.equal(model.resolveLink('docs/content/docs/introduction.mdx', '/docs').kind, 'served');
    assert.equal(model.resolveLink(from, '/docs/api/reference/users/create').kind, 'unchecked');
    assert.equal(model.resolveLink(from, '/blog/launch').kind, 'unchecked');
    // Relative to the page's URL (/docs/plugins/admin): `..` is /docs, redirected.
    assert.equal(model.resolveLink('docs/content/docs/plugins/admin.mdx', '..').kind, 'served');
    assert.deepEqual(model.resolveLink(from, '/docs/beta/intro'), {
      kind: 'file',
      file: 'docs/content/docs-beta/intro.mdx',
    });
  });

  it('asks for a sidebar entry only where meta.json lists pages without a rest item', async () => {
    const { model } = await check(siteShape);
    assert.equal(model.needsNavigationEntry('docs/content/docs/new.mdx'), false);
    const created = await check({ ...siteShape, 'docs/content/docs/new.mdx': '---\ntitle: New\n---\n' });
    assert.deepEqual(messages(pagesMissingFromNavigation(created.model, ['docs/content/docs/new.mdx'])), [
      'docs/content/docs/new.mdx:1: New page is missing from navigation; add it to docs/content/docs/meta.json',
    ]);
    // `plugins/meta.json` ends with `...`: a new page there is in the sidebar already.
    const plugin = await check({
      ...siteShape,
      'docs/content/docs/plugins/jwt.mdx': '---\ntitle: JWT\n---\n',
    });
    assert.deepEqual(pagesMissingFromNavigation(plugin.model, ['docs/content/docs/plugins/jwt.mdx']), []);
  });

  it('serves translations in language folders (the dir parser), falling back to the default language', async () => {
    // The shape of simstudioai/sim and LuggaPugga/better-captcha: `defineI18n({ parser: 'dir' })` in
    // lib/i18n.ts (imported by a path alias), `content/docs/<lang>/`, the default language without a
    // prefix, redirects in a module next.config imports, a rewrite for `.mdx` URLs, pages that
    // fumadocs-openapi builds from a document, and a video component that loads its own files.
    const files = {
      'source.config.ts':
        "import { defineDocs } from 'fumadocs-mdx/config';\nexport const docs = defineDocs({ dir: 'content/docs' });\n",
      'src/lib/i18n.ts':
        "import { defineI18n } from 'fumadocs-core/i18n';\nexport const i18n = defineI18n({ defaultLanguage: 'en', languages: ['en', 'cn'], hideLocale: 'default-locale', parser: 'dir' });\n",
      'src/lib/source.ts': [
        "import { loader, multiple } from 'fumadocs-core/source';",
        "import { i18n } from '@/lib/i18n';",
        'export const source = loader(',
        "  multiple({ docs: docs.toFumadocsSource(), openapi: await openapiSource(api, { baseDir: 'en/reference/(generated)' }) }),",
        "  { baseUrl: '/', i18n },",
        ');',
        '',
      ].join('\n'),
      'next.config.ts':
        "import { REDIRECTS } from './lib/redirects';\nexport default { redirects: async () => REDIRECTS, rewrites: async () => [{ source: '/:path*.mdx', destination: '/llms.mdx/:path*' }] };\n",
      'lib/redirects.ts':
        "export const REDIRECTS = [{ source: '/old/:path*', destination: '/guide/:path*', permanent: true }];\n",
      'content/docs/en/index.mdx':
        '---\ntitle: Home\n---\n[Guide](/guide) · [Old](/old/setup) · [As Markdown](/guide.mdx) · [Endpoint](/reference/users)\n',
      'content/docs/en/guide.mdx': '---\ntitle: Guide\n---\n<Video src="intro.mp4" />\n',
      'content/docs/en/reference/meta.json': JSON.stringify({ pages: ['(generated)/users'] }),
      'content/docs/cn/index.mdx':
        '---\ntitle: 首页\n---\n[指南](/cn/guide) · [English](/guide) · [Gone](/cn/gone)\n',
      'content/docs/cn/meta.json': JSON.stringify({ pages: ['index', 'guide', 'missing'] }),
    };
    const { model, problems } = await check(files);
    assert.deepEqual(model.pages.get('content/docs/cn/index.mdx'), ['/cn']);
    assert.deepEqual(model.pages.get('content/docs/en/guide.mdx'), ['/guide', '/en/guide']);
    assert.deepEqual(messages(problems), [
      'content/docs/cn/meta.json:1: Navigation entry "missing" names no page',
      'content/docs/cn/index.mdx:4: Broken link "/cn/gone": no page of content/docs is served at /gone',
    ]);
  });

  it('serves translations beside their page under their language, falling back to the page', async () => {
    // The shape of vercel/swr-site: `lib/geistdocs/source.ts` with `loader(source, { i18n, baseUrl })`
    // (Fumadocs 16), translations as `page.cn.mdx` (the default `dot` parser).
    const files = {
      'source.config.ts':
        "import { defineDocs } from 'fumadocs-mdx/config';\nexport const docs = defineDocs({ dir: 'content/docs' });\n",
      'lib/geistdocs/source.ts':
        "import { loader } from 'fumadocs-core/source';\nimport { i18n } from './i18n';\nexport const source = loader(docs.toFumadocsSource(), { i18n, baseUrl: '/guide' });\n",
      'content/docs/meta.json': JSON.stringify({ pages: ['index', 'api'] }),
      'content/docs/index.mdx': '---\ntitle: Home\n---\n',
      'content/docs/api.mdx': '---\ntitle: API\n---\n',
      'content/docs/api.cn.mdx': '---\ntitle: API\n---\n\n[首页](/cn/guide), [选项](/guide/options)\n',
      'content/docs/release.v2.mdx': '---\ntitle: Release 2\n---\n',
    };
    const { model, problems } = await check(files);
    assert.deepEqual(model.pages.get('content/docs/api.cn.mdx'), ['/cn/guide/api']);
    assert.deepEqual(model.pages.get('content/docs/api.mdx'), ['/guide/api']);
    // No untranslated `release.mdx`: a page whose name has a dot, not a translation.
    assert.deepEqual(model.pages.get('content/docs/release.v2.mdx'), ['/guide/release.v2']);
    assert.deepEqual(model.resolveLink('content/docs/api.cn.mdx', '/cn/guide'), {
      kind: 'file',
      file: 'content/docs/index.mdx',
    });
    assert.deepEqual(messages(problems), [
      'content/docs/api.cn.mdx:5: Broken link "/guide/options": no page of content/docs is served at /guide/options',
    ]);
    // A translation is listed through its page's entry; the page with a dot is not listed.
    assert.deepEqual(
      messages(pagesMissingFromNavigation(model, ['content/docs/api.cn.mdx', 'content/docs/release.v2.mdx'])),
      [
        'content/docs/release.v2.mdx:1: New page is missing from navigation; add it to content/docs/meta.json',
      ],
    );
  });

  it('defaults to content/docs under /docs, and needs fumadocs-mdx to be taken', async () => {
    const { model } = await check({
      'source.config.ts':
        "import { defineConfig } from 'fumadocs-mdx/config';\nexport default defineConfig();\n",
      'content/docs/index.mdx': '---\ntitle: Home\n---\n',
    });
    assert.equal(model.framework, 'fumadocs');
    assert.deepEqual(model.pages.get('content/docs/index.mdx'), ['/docs']);
    assert.match(model.unsupported[0] ?? '', /loader serving the `docs` collection/);
    const other = await check({ 'source.config.ts': 'export default {};\n', 'README.md': '# Hi\n' });
    assert.equal(other.model.framework, 'markdown');
  });
});
