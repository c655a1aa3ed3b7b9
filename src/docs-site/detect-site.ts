import { isDocsifyPage } from './frameworks/docsify.ts';
import { hexoSettings } from './frameworks/hexo-config.ts';
import { nearestDependencies } from './package-dependencies.ts';
import { readReadTheDocsConfig } from './read-the-docs.ts';
import type { DocsFramework, RepositoryFiles } from './site-model.ts';

export interface DetectedSite {
  framework: DocsFramework;
  /** The folder of the configuration ('' for the root). */
  siteRoot: string;
  /** The configuration file that identified the framework; null for plain Markdown. */
  configFile: string | null;
}

interface Signature {
  framework: DocsFramework;
  /** The configuration file's name (the last path segment), or the last two for VitePress. */
  pattern: RegExp;
  /** The site root for a matching file. */
  siteRoot(file: string): string;
  /** A check of the file's text, for names other tools use too (`docs.json`, `astro.config.mjs`). */
  confirm?(text: string): boolean;
  /**
   * A check of the other files, for a name without content of its own to tell (`SUMMARY.md`): when it
   * holds, the text need not be checked; when it fails, the text check (if any) decides.
   */
  confirmFiles?(paths: readonly string[], siteRoot: string): boolean;
  /** Taken only when no other framework's configuration is found, at any depth (`_config.yml`). */
  fallback?: boolean;
  /** A dependency of the site's nearest `package.json` that confirms it (Hexo's `_config.yml`, a name Jekyll shares). */
  confirmDependencies?: readonly string[];
  /** Found in a monorepo's package too (`packages/x/.dumirc.ts`): a name only a site's configuration has. */
  inPackages?: boolean;
}

/** The packages of Redocly's site products (legacy portals are `@redocly/developer-portal`). */
const redoclyPackages = ['@redocly/realm', '@redocly/redoc-revel', '@redocly/redoc-reef'];

const folderOfFile = (file: string) => (file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : '');

const signatures: Signature[] = [
  {
    framework: 'mintlify',
    pattern: /(^|\/)(docs|mint)\.json$/,
    siteRoot: folderOfFile,
    confirm: (text) => /"navigation"|"tabs"|"anchors"|mintlify/.test(text),
  },
  // Fern (https://buildwithfern.com/learn/docs/getting-started/project-structure): `docs.yml` in the
  // `fern` folder beside `fern.config.json`, or naming its instances and navigation.
  {
    framework: 'fern',
    pattern: /(^|\/)docs\.yml$/,
    siteRoot: folderOfFile,
    confirmFiles: (paths, siteRoot) =>
      paths.includes(siteRoot === '' ? 'fern.config.json' : `${siteRoot}/fern.config.json`),
    confirm: (text) => /^instances:/m.test(text) && /^(navigation|versions|products):/m.test(text),
  },
  // Redocly Realm, Revel and Reef (https://redocly.com/docs/realm/content/project-structure):
  // `redocly.yaml` configuring a site (its navigation, sidebars, translations), not only API linting,
  // and not a legacy developer portal (`siteConfig.yaml`).
  {
    framework: 'redocly',
    pattern: /(^|\/)redocly\.yaml$/,
    siteRoot: folderOfFile,
    confirmFiles: (paths, siteRoot) => {
      const prefix = siteRoot === '' ? '' : `${siteRoot}/`;
      if (paths.includes(`${prefix}siteConfig.yaml`)) return false;
      return paths.some(
        (path) =>
          path.startsWith(prefix) &&
          /^(?:(?:.*\/)?sidebars\.yaml|@l10n\/.+)$/.test(path.slice(prefix.length)),
      );
    },
    confirm: (text) =>
      /^(navbar|footer|sidebar|seo|redirects|l10n|logo|markdown|products|navigation|breadcrumbs|colorMode|userMenu|versionPicker|sso|rbac|requiresLogin|aiAssistant|banner|editPage|removeAttribution|links|scripts)[ \t]*:/m.test(
        text,
      ),
    confirmDependencies: redoclyPackages,
  },
  // ReadMe Refactored's Git sync (https://docs.readme.com/main/docs/documentation-structure): the
  // repository is the project, `docs/` and `reference/` hold a folder per category and an
  // `_order.yaml` each.
  {
    framework: 'readme',
    pattern: /^(docs|reference)\/_order\.yaml$/,
    siteRoot: () => '',
    confirmFiles: (paths) => !paths.some((path) => /^docs\/[^/]+\.mdx?$/i.test(path)),
  },
  // A Realm project needs no `redocly.yaml`: its package then names Realm, Revel or Reef.
  {
    framework: 'redocly',
    pattern: /(^|\/)package\.json$/,
    siteRoot: folderOfFile,
    fallback: true,
    confirm: (text) => new RegExp(`"(?:${redoclyPackages.join('|')})"\\s*:`).test(text),
  },
  {
    framework: 'docusaurus',
    pattern: /(^|\/)docusaurus\.config\.(js|cjs|mjs|ts|cts|mts)$/,
    siteRoot: folderOfFile,
  },
  // Zensical's `build` takes `zensical.toml` before a `mkdocs.yml` beside it (zensical/main.py).
  {
    framework: 'zensical',
    pattern: /(^|\/)zensical\.toml$/,
    siteRoot: folderOfFile,
    confirm: (text) => /^[ \t]*(\[project\]|site_name[ \t]*=)/m.test(text),
  },
  { framework: 'mkdocs', pattern: /(^|\/)mkdocs\.ya?ml$/, siteRoot: folderOfFile },
  { framework: 'mdbook', pattern: /(^|\/)book\.toml$/, siteRoot: folderOfFile },
  // Retype (https://retype.com/configuration/reserved_words/#project-config): its own file names, in
  // any case; before GitBook's, which a project that moved to Retype often keeps.
  { framework: 'retype', pattern: /(^|\/)retype\.(yml|yaml|json)$/i, siteRoot: folderOfFile },
  { framework: 'gitbook', pattern: /(^|\/)\.gitbook\.yaml$/, siteRoot: folderOfFile },
  // A GitBook site that syncs several spaces from one repository.
  {
    framework: 'gitbook',
    pattern: /(^|\/)(gitbook-)?docs\.yaml$/,
    siteRoot: folderOfFile,
    confirm: (text) => /GitSyncSiteConfig|gitbook-docs\.yaml/.test(text),
  },
  // A GitBook space synced without `.gitbook.yaml`: its table of contents beside GitBook's own folder.
  {
    framework: 'gitbook',
    pattern: /(^|\/)SUMMARY\.md$/,
    siteRoot: folderOfFile,
    confirmFiles: (paths, siteRoot) => {
      const prefix = siteRoot === '' ? '.gitbook/' : `${siteRoot}/.gitbook/`;
      return paths.some((path) => path.startsWith(prefix));
    },
  },
  {
    framework: 'starlight',
    pattern: /(^|\/)astro\.config\.(js|cjs|mjs|ts|cts|mts)$/,
    siteRoot: folderOfFile,
    confirm: (text) => text.includes('starlight'),
  },
  {
    framework: 'fumadocs',
    pattern: /(^|\/)source\.config\.(ts|mts|js|mjs)$/,
    siteRoot: folderOfFile,
    confirm: (text) => text.includes('fumadocs-mdx'),
  },
  {
    framework: 'nextra',
    pattern: /(^|\/)next\.config\.(js|mjs|cjs|ts|mts)$/,
    siteRoot: folderOfFile,
    confirm: (text) => /\bnextra\b/.test(text),
    // Wrappers such as The Guild's `withGuildDocs` do not name Nextra: its `_meta` files do.
    confirmFiles: (paths, siteRoot) => {
      const prefix = siteRoot === '' ? '' : `${siteRoot}/`;
      return paths.some(
        (path) =>
          path.startsWith(prefix) &&
          /^(src\/)?(content|pages|app)\/(.*\/)?_meta\.(json|js|jsx|ts|tsx|mjs)$/.test(
            path.slice(prefix.length),
          ),
      );
    },
  },
  {
    framework: 'vitepress',
    pattern: /(^|\/)\.vitepress\/config\.(js|cjs|mjs|ts|cts|mts)$/,
    siteRoot: (file) => folderOfFile(folderOfFile(file)),
  },
  {
    framework: 'vuepress',
    pattern: /(^|\/)\.vuepress\/config\.(js|cjs|mjs|ts|cts|mts|ya?ml|toml)$/,
    siteRoot: (file) => folderOfFile(folderOfFile(file)),
  },
  {
    framework: 'rspress',
    pattern: /(^|\/)rspress\.config\.(js|cjs|mjs|ts|cts|mts)$/,
    siteRoot: folderOfFile,
  },
  // Vocs (https://vocs.dev/docs/api/config): its own configuration file name.
  {
    framework: 'vocs',
    pattern: /(^|\/)vocs\.config\.(js|jsx|ts|tsx|mjs|mts)$/,
    siteRoot: folderOfFile,
  },
  // Rstack (rsbuild's and rspack's sites): Rspress configured by `define.doc({...})`, built by `rs doc build`.
  {
    framework: 'rspress',
    pattern: /(^|\/)rstack\.config\.(js|cjs|mjs|ts|cts|mts)$/,
    siteRoot: folderOfFile,
    confirm: (text) => /\bdefine\.doc\s*\(/.test(text),
  },
  // Zola (https://www.getzola.org/documentation/getting-started/configuration/): `zola.toml` (0.22.1)
  // or a `config.toml` with Zola's own snake-case `base_url` (Hugo's is `baseURL`).
  { framework: 'zola', pattern: /(^|\/)zola\.toml$/, siteRoot: folderOfFile },
  {
    framework: 'zola',
    pattern: /(^|\/)config\.toml$/,
    siteRoot: folderOfFile,
    confirm: (text) => /^[ \t]*base_url[ \t]*=/m.test(text),
  },
  { framework: 'hugo', pattern: /(^|\/)hugo\.(toml|ya?ml|json)$/, siteRoot: folderOfFile },
  {
    framework: 'hugo',
    pattern: /(^|\/)config\/_default\/(hugo|config)\.(toml|ya?ml|json)$/,
    siteRoot: (file) => folderOfFile(folderOfFile(folderOfFile(file))),
  },
  // `config.*` is a name many tools use: Hugo's has its keys.
  {
    framework: 'hugo',
    pattern: /(^|\/)config\.(toml|ya?ml)$/,
    siteRoot: folderOfFile,
    confirm: (text) =>
      /^\s*base_?url\s*[:=]/im.test(text) &&
      /^\s*(title|languageCode|theme|contentDir|defaultContentLanguage|module)\s*[:=]/im.test(text),
  },
  // Sphinx: `conf.py` is a common name; Sphinx's sets the settings only it reads, or takes them
  // from a Sphinx package (`from sphinx_celery import conf`).
  {
    framework: 'sphinx',
    pattern: /(^|\/)conf\.py$/,
    siteRoot: folderOfFile,
    confirm: (text) =>
      /^(extensions|html_theme|master_doc|root_doc|source_suffix|exclude_patterns|templates_path)\s*[+]?=/m.test(
        text,
      ) || /^[ \t]*(from|import)[ \t]+sphinx/m.test(text),
  },
  // MyST (mystmd, Jupyter Book 2; https://mystmd.org/guide/frontmatter): `myst.yml` with a project.
  {
    framework: 'myst',
    pattern: /(^|\/)myst\.yml$/,
    siteRoot: folderOfFile,
    confirm: (text) => /^(project|extends?)[ \t]*:/m.test(text),
  },
  // Jupyter Book 1 (https://jupyterbook.org/en/stable/): a `_toc.yml` with its `root`, beside the
  // `_config.yml` Jekyll would otherwise claim; Sphinx builds it.
  {
    framework: 'sphinx',
    pattern: /(^|\/)_toc\.yml$/,
    siteRoot: folderOfFile,
    confirm: (text) => /^root[ \t]*:/m.test(text),
  },
  // Quarto: `_quarto.yml` is its own name (https://quarto.org/docs/projects/quarto-projects.html).
  { framework: 'quarto', pattern: /(^|\/)_quarto\.ya?ml$/, siteRoot: folderOfFile },
  // Antora: a component descriptor names its component (https://docs.antora.org/antora/latest/component-version-descriptor/).
  {
    framework: 'antora',
    pattern: /(^|\/)antora\.ya?ml$/,
    siteRoot: folderOfFile,
    confirm: (text) => /^name[ \t]*:/m.test(text),
  },
  // DocFX (https://dotnet.github.io/docfx/reference/docfx-json-reference.html): `docfx.json` with a
  // `build` or `metadata` section.
  {
    framework: 'docfx',
    pattern: /(^|\/)docfx\.json$/,
    siteRoot: folderOfFile,
    confirm: (text) => /"(build|metadata)"\s*:/.test(text),
  },
  // Writerside (https://www.jetbrains.com/help/writerside/writerside-cfg.html): a help module's
  // `writerside.cfg` (`project.ihp` in older ones), an `<ihp>` document.
  {
    framework: 'writerside',
    pattern: /(^|\/)(writerside\.cfg|project\.ihp)$/,
    siteRoot: folderOfFile,
    confirm: (text) => /<ihp[\s>]/.test(text),
  },
  // Nuxt Content (https://content.nuxt.com/docs/getting-started/installation), Docus
  // (https://docus.dev) among its sites: a Nuxt configuration that extends Docus or loads the
  // module, or Nuxt Content 3's own collections file.
  {
    framework: 'nuxt-content',
    pattern: /(^|\/)nuxt\.config\.(ts|js|mjs|mts)$/,
    siteRoot: folderOfFile,
    confirm: (text) => /@nuxt\/content|@nuxt-themes\/docus|["']docus["']/.test(text),
  },
  {
    framework: 'nuxt-content',
    pattern: /(^|\/)content\.config\.(ts|js|mjs|mts)$/,
    siteRoot: folderOfFile,
    confirm: (text) => /\bdefine(ContentConfig|Collection)\b/.test(text),
  },
  // dumi (https://d.umijs.org/config): dumi 2 reads `.dumirc.ts` only; dumi 1 umi 3's files, in
  // `site` or `doc` mode or importing dumi's `defineConfig`.
  { framework: 'dumi', pattern: /(^|\/)\.dumirc\.(ts|js)$/, siteRoot: folderOfFile, inPackages: true },
  {
    framework: 'dumi',
    pattern: /(^|\/)(\.umirc|config\/config)\.(ts|js)$/,
    siteRoot: (file) =>
      /(^|\/)config\/config\.(ts|js)$/.test(file) ? folderOfFile(folderOfFile(file)) : folderOfFile(file),
    confirm: (text) => /\bmode\s*:\s*['"](site|doc)['"]|from\s+['"]dumi['"]/.test(text),
  },
  // Eleventy (https://www.11ty.dev/docs/config/): its configuration's names, in the order it tries them.
  {
    framework: 'eleventy',
    pattern: /(^|\/)(\.eleventy\.js|eleventy\.config\.(js|mjs|cjs))$/,
    siteRoot: folderOfFile,
    inPackages: true,
  },
  // Hexo (https://hexo.io/docs/configuration): a `_config.yml` with settings only Hexo reads, or
  // beside a `package.json` that installs Hexo; before Jekyll, which takes the same name.
  {
    framework: 'hexo',
    pattern: /(^|\/)_config\.ya?ml$/,
    siteRoot: folderOfFile,
    confirm: (text) => hexoSettings.test(text),
    confirmDependencies: ['hexo'],
  },
  // A Hexo site that writes `_config.yml` at build time from another file (`--config _config.prod.yml`).
  {
    framework: 'hexo',
    pattern: /(^|\/)_config\.[\w-]+\.ya?ml$/,
    siteRoot: folderOfFile,
    confirm: (text) => hexoSettings.test(text),
  },
  // Jekyll (GitHub Pages): many repositories carry a `_config.yml` for a theme beside another site.
  {
    framework: 'jekyll',
    pattern: /(^|\/)_config\.ya?ml$/,
    siteRoot: folderOfFile,
    confirm: (text) => !/^(new_post_name|source_dir|public_dir)\s*:/m.test(text),
    fallback: true,
  },
  // Docsify has no configuration file: the page that loads it configures it.
  {
    framework: 'docsify',
    pattern: /(^|\/)(index|docs?)\.html$/,
    siteRoot: folderOfFile,
    confirm: isDocsifyPage,
  },
];

/**
 * Folders whose configuration files are examples, templates, tests or a module's playground (a
 * Nuxt module's `playground/nuxt.config.ts` loads it, Nuxt Content too), never the site itself.
 */
const ignoredSegments =
  /^(node_modules|examples?|templates?|fixtures?|__tests__|tests?|packages|vendor|playgrounds?)$/i;
/** A monorepo's package that is its documentation site (`packages/docs`, `packages/document`). */
const sitePackage = /^(docs?|documents?|documentation|website|site|[\w-]*-(docs?|site|website))$/i;
const maximumDepth = 3;

/**
 * Finds the documentation framework by its configuration file, at the root or in a subfolder
 * (`website/`, `docs/`, `docs/en/`): the shallowest configuration wins, so a Docusaurus site in
 * `website/` is found and the templates in `examples/` are not. Plain Markdown otherwise.
 */
export async function detectSite(files: RepositoryFiles): Promise<DetectedSite> {
  // What Read the Docs builds is the site, whatever other configuration the repository holds.
  const hosted = await readReadTheDocsConfig(files);
  for (const framework of ['sphinx', 'mkdocs'] as const) {
    const configFile = hosted?.[framework]?.configuration;
    if (configFile === undefined) continue;
    const siteRoot = folderOfFile(configFile);
    return { framework: await zensicalOr(framework, files, siteRoot), siteRoot, configFile };
  }
  const candidates: Array<{ signature: Signature; file: string; depth: number; order: number }> = [];
  for (const file of files.paths) {
    const segments = file.split('/');
    // A site root at most three folders deep (a configuration in `.vuepress/` or `.vitepress/` one more).
    if (segments.length > maximumDepth + 2) continue;
    // A package of a monorepo is no site (its examples, its fixtures), but a docs package is.
    const inPackage =
      segments.length > 2 && segments[0] === 'packages' && !sitePackage.test(segments[1] ?? '');
    const ignored = segments
      .slice(0, -1)
      .some((segment, index) => ignoredSegments.test(segment) && !(segment === 'packages' && index === 0));
    if (ignored) continue;
    for (const [order, signature] of signatures.entries()) {
      if (!signature.pattern.test(file) || (inPackage && signature.inPackages !== true)) continue;
      const siteRoot = signature.siteRoot(file);
      if (siteRoot.split('/').length > maximumDepth) continue;
      candidates.push({ signature, file, depth: siteRoot === '' ? 0 : siteRoot.split('/').length, order });
    }
  }
  candidates.sort(
    (left, right) =>
      Number(left.signature.fallback === true) - Number(right.signature.fallback === true) ||
      left.depth - right.depth ||
      left.order - right.order,
  );
  for (const candidate of candidates) {
    const siteRoot = candidate.signature.siteRoot(candidate.file);
    const filesConfirm = candidate.signature.confirmFiles?.(files.paths, siteRoot);
    if (filesConfirm === false && candidate.signature.confirm === undefined) continue;
    const dependencies = candidate.signature.confirmDependencies;
    const dependencyConfirms =
      dependencies !== undefined && (await nearestDependencies(files, siteRoot, dependencies)).length > 0;
    if (filesConfirm !== true && !dependencyConfirms && candidate.signature.confirm !== undefined) {
      const text = await files.read(candidate.file);
      if (text === null || !candidate.signature.confirm(text)) continue;
    }
    return {
      framework: await zensicalOr(candidate.signature.framework, files, siteRoot),
      siteRoot,
      configFile: candidate.file,
    };
  }
  return { framework: 'markdown', siteRoot: '', configFile: null };
}

const buildFiles =
  /^(\.github\/workflows\/[^/]+\.ya?ml|\.gitlab-ci\.yml|pyproject\.toml|(docs\/)?requirements[^/]*\.txt|Makefile|[Jj]ustfile|tox\.ini|noxfile\.py|netlify\.toml|\.readthedocs\.ya?ml)$/;
// Zensical run (`zensical build`, `python -m zensical`), installed (`pip install ... zensical`) or
// required (`zensical>=0.0.23`, `"zensical[...]"`, `- zensical`); MkDocs run. Tried line by line.
const zensicalRun = /\bzensical[ \t]+(?:build|serve)\b|-m[ \t]+zensical\b/;
const zensicalNamed = /[\s"'=]zensical(?![\w.-])/;
const zensicalRequired =
  /["']zensical(?:[ \t]*[<>=~!;[]|["'])|^[ \t]*(?:-[ \t]+)?zensical(?:[ \t]*[<>=~!;[]|[ \t]*$)/;
const mkdocsRun = /\bmkdocs[ \t]+(?:build|serve|gh-deploy)\b/;

/** How a build file uses Zensical and MkDocs, comment lines left out. */
function buildToolsOf(text: string): { required: boolean; zensical: boolean; mkdocs: boolean } {
  const tools = { required: false, zensical: false, mkdocs: false };
  for (const line of text.split('\n').slice(0, 5_000)) {
    if (/^[ \t]*#/.test(line) || line.length > 2_000) continue;
    tools.mkdocs ||= mkdocsRun.test(line);
    if (!line.includes('zensical')) continue;
    tools.required ||= zensicalRequired.test(line);
    tools.zensical ||= zensicalRun.test(line) || (/\binstall\b/.test(line) && zensicalNamed.test(line));
  }
  return tools;
}

/** `zensical` for an MkDocs configuration that Zensical builds, else the framework found. */
async function zensicalOr(
  framework: DocsFramework,
  files: RepositoryFiles,
  siteRoot: string,
): Promise<DocsFramework> {
  return framework === 'mkdocs' && (await buildsWithZensical(files, siteRoot)) ? 'zensical' : framework;
}

/**
 * Whether a `mkdocs.yml` is built by Zensical, which reads it natively
 * (https://zensical.org/docs/setup/basics/#transition-from-mkdocs): the project requires `zensical`
 * in its Python requirements or `pyproject.toml`, or runs or installs it in its CI workflows or task
 * files and runs no `mkdocs build` there; at the root, in `docs/` or beside the configuration.
 */
async function buildsWithZensical(files: RepositoryFiles, siteRoot: string): Promise<boolean> {
  const prefix = siteRoot === '' ? '' : `${siteRoot}/`;
  const candidates = files.paths
    .filter(
      (path) =>
        buildFiles.test(path) ||
        (prefix !== '' && path.startsWith(prefix) && buildFiles.test(path.slice(prefix.length))),
    )
    .slice(0, 40);
  let required = false;
  let run = false;
  let mkdocs = false;
  for (const path of candidates) {
    const text = await files.read(path);
    if (text === null) continue;
    const tools = buildToolsOf(text);
    required ||= tools.required;
    run ||= tools.zensical;
    mkdocs ||= tools.mkdocs;
  }
  // A declared dependency decides (haeo falls back to `mkdocs build` for old tags); otherwise a
  // project that also runs `mkdocs build` is read as MkDocs', whose reading reports less.
  return required || (run && !mkdocs);
}
