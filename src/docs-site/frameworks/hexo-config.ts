import { parseDocument } from 'yaml';
import { isPlainRecord } from '../javascript-config.ts';
import { folderOf } from '../link-urls.ts';
import { packageManifests } from '../package-dependencies.ts';
import type { RepositoryFiles, SiteProblem } from '../site-model.ts';
import { compileDocfxGlobs } from './docfx-config.ts';
import { stringList, yamlProblems, yamlValue } from './yaml-problems.ts';

/**
 * A Hexo site's configuration as hexojs/hexo v8.1.2 reads it (lib/hexo/default_config.ts,
 * load_config.ts): `_config.yml` over the defaults, the theme's `_config.yml` under
 * `_config.<theme>.yml` and `theme_config`, and the plugins `package.json` loads (every `hexo-*`
 * dependency). What a Markdown renderer makes of headings and images depends on which one is
 * installed, and on its version.
 */
export interface HexoConfig {
  file: string;
  problems: SiteProblem[];
  /** `root`, with one `/` at each end (`/`, `/docs/`). */
  root: string;
  sourceDir: string;
  permalink: string;
  newPostName: string;
  postAssetFolder: boolean;
  renderDrafts: boolean;
  /** `skip_render`, `include` and `exclude` (micromatch globs on paths under the source folder). */
  skipRender: (path: string) => boolean;
  include: (path: string) => boolean;
  exclude: (path: string) => boolean;
  /** Folders of the generators' pages (`tags/`, `categories/`, `archives/`, `page/`). */
  generatedFolders: string[];
  /** `alias`/`aliases` of the configuration (hexo-generator-alias): old paths. */
  aliases: string[];
  theme: string | null;
  /** The theme's settings: its `_config.yml`, then `_config.<theme>.yml`, then `theme_config`. */
  themeConfig: Record<string, unknown>;
  themeConfigFiles: string[];
  /** The Markdown renderer and its settings. */
  renderer: HexoRenderer;
  /** Extensions Hexo renders (by its own renderers and the installed ones), and what they become. */
  outputExtensions: ReadonlyMap<string, string>;
  /** Hexo's major version, when `package.json` names one. */
  hexoMajor: number | null;
  dependencies: ReadonlySet<string>;
  /** The site's and the theme's `scripts/` files. */
  scripts: string[];
  values: Record<string, unknown>;
}

export type HexoRenderer =
  | {
      kind: 'marked';
      /** Which heading ids the installed versions make: entity names kept (below 6.1.1), unescaped, or either. */
      ids: 'escaped' | 'unescaped' | 'either';
      headerIds: boolean;
      /** `modifyAnchors`: 0 keeps case, 1 lower, 2 upper. */
      transform: 0 | 1 | 2;
      smartypants: boolean;
      /** Images' paths go through `url_for` (from the site's root), not from the page: 5.0 and later, or either. */
      prependRoot: 'yes' | 'no' | 'either';
    }
  | {
      kind: 'markdown-it';
      level: number;
      transform: 0 | 1 | 2;
      separator: string;
      collisionSuffix: string;
      prependRoot: boolean;
      /** markdown-it-footnote among `markdown.plugins` (`fn1`, `fnref1`). */
      footnotes: boolean;
    }
  | { kind: 'other'; name: string }
  | { kind: 'none' };

/** Settings only Hexo's configuration has (Jekyll's `_config.yml` shares the name). */
export const hexoSettings =
  /^(new_post_name|source_dir|public_dir|permalink_defaults|render_drafts|post_asset_folder|i18n_dir|tag_dir|category_dir|archive_dir|pagination_dir)[ \t]*:/m;

const defaultOutputs: Array<[string, string]> = [
  ['html', 'html'],
  ['htm', 'html'],
  ['css', 'css'],
  ['js', 'js'],
  ['json', 'json'],
  ['yml', 'json'],
  ['yaml', 'json'],
];
/** What installed renderer packages add (each package's `index.js`). */
const pluginOutputs: Record<string, Array<[string, string]>> = {
  'hexo-renderer-ejs': [['ejs', 'html']],
  'hexo-renderer-pug': [
    ['pug', 'html'],
    ['jade', 'html'],
  ],
  'hexo-renderer-jade': [['jade', 'html']],
  'hexo-renderer-stylus': [
    ['styl', 'css'],
    ['stylus', 'css'],
  ],
  'hexo-renderer-less': [['less', 'css']],
  'hexo-renderer-sass': [
    ['sass', 'css'],
    ['scss', 'css'],
  ],
  'hexo-renderer-dartsass': [
    ['sass', 'css'],
    ['scss', 'css'],
  ],
  'hexo-renderer-swig': [['swig', 'html']],
  'hexo-renderer-nunjucks': [
    ['njk', 'html'],
    ['j2', 'html'],
  ],
};
const markdownExtensions = ['md', 'markdown', 'mkd', 'mkdn', 'mdwn', 'mdtxt', 'mdtext'];
const markdownRenderers = [
  'hexo-renderer-marked',
  'hexo-renderer-markdown-it',
  'hexo-renderer-markdown-it-plus',
  'hexo-renderer-kramed',
  'hexo-renderer-pandoc',
  'hexo-renderer-mdx',
  '@upupming/hexo-renderer-markdown-it-plus',
];

export async function readHexoConfig(files: RepositoryFiles, siteRoot: string): Promise<HexoConfig> {
  const inRoot = (path: string) => (siteRoot === '' ? path : `${siteRoot}/${path}`);
  // `_config.yml`, or a site that writes it at build time from another (aframe's
  // `_config.prod.yml`, named with `--config`): the one with Hexo's settings.
  let file = ['_config.yml', '_config.yaml', '_config.json'].map(inRoot).find((path) => files.has(path));
  for (const path of files.paths) {
    if (file !== undefined) break;
    if (folderOf(path) === siteRoot && /(^|\/)_config\.[\w-]+\.ya?ml$/.test(path))
      if (hexoSettings.test((await files.read(path)) ?? '')) file = path;
  }
  file ??= inRoot('_config.yml');
  const { values, problems } = await readYaml(files, file);
  const text = (value: unknown, fallback: string) =>
    typeof value === 'string' && value.trim() !== '' ? value.trim() : fallback;

  let manifest: Record<string, unknown> = {};
  for await (const candidate of packageManifests(files, siteRoot)) {
    manifest = candidate;
    break;
  }
  const versions = new Map<string, string>();
  for (const field of ['dependencies', 'devDependencies']) {
    const dependencies = manifest[field];
    if (isPlainRecord(dependencies))
      for (const [name, range] of Object.entries(dependencies))
        if (typeof range === 'string') versions.set(name, range);
  }
  const hexoRange =
    versions.get('hexo') ?? (isPlainRecord(manifest.hexo) ? String(manifest.hexo.version ?? '') : '');
  const hexoMajor = /(\d+)\./.exec(hexoRange)?.[1];

  // The root: as written, else (Hexo 6 and later) the `url`'s path; one `/` at each end.
  let root = typeof values.root === 'string' ? values.root : '/';
  if (typeof values.root !== 'string' && (hexoMajor === undefined || Number(hexoMajor) >= 6))
    try {
      root = new URL(text(values.url, 'http://example.com')).pathname;
    } catch {
      root = '/';
    }
  root = `/${root.replace(/^\/+|\/+$/g, '')}/`.replace(/^\/\/$/, '/');

  const theme = typeof values.theme === 'string' && values.theme !== '' ? values.theme : null;
  const themeConfig: Record<string, unknown> = {};
  const themeConfigFiles: string[] = [];
  if (theme !== null)
    for (const path of [inRoot(`themes/${theme}/_config.yml`), inRoot(`_config.${theme}.yml`)]) {
      if (!files.has(path)) continue;
      const read = await readYaml(files, path);
      Object.assign(themeConfig, read.values);
      themeConfigFiles.push(path);
    }
  if (isPlainRecord(values.theme_config)) Object.assign(themeConfig, values.theme_config);

  const globs = (value: unknown) => compileDocfxGlobs(stringList(value), { dot: true, caseSensitive: true });
  const outputs = new Map<string, string>(defaultOutputs);
  // Hexo 5 made Nunjucks its own and left Swig to a plugin.
  if (hexoMajor !== undefined && Number(hexoMajor) <= 4) outputs.set('swig', 'html');
  else {
    outputs.set('njk', 'html');
    outputs.set('j2', 'html');
  }
  for (const [name, extensions] of Object.entries(pluginOutputs))
    if (versions.has(name)) for (const [extension, output] of extensions) outputs.set(extension, output);
  const renderer = readRenderer(values, versions);
  if (renderer.kind !== 'none') for (const extension of markdownExtensions) outputs.set(extension, 'html');

  const scripts = files.paths.filter(
    (path) =>
      /\.(c|m)?js$/.test(path) &&
      (path.startsWith(inRoot('scripts/')) ||
        (theme !== null && path.startsWith(inRoot(`themes/${theme}/scripts/`)))),
  );
  const folder = (value: unknown, fallback: string) => text(value, fallback).replace(/^\/+|\/+$/g, '');
  const aliases = isPlainRecord(values.alias)
    ? Object.keys(values.alias)
    : isPlainRecord(values.aliases)
      ? Object.keys(values.aliases)
      : [];
  return {
    file,
    problems,
    root,
    sourceDir: inRoot(folder(values.source_dir, 'source')),
    permalink: text(values.permalink, ':year/:month/:day/:title/'),
    newPostName: text(values.new_post_name, ':title.md'),
    postAssetFolder: values.post_asset_folder === true,
    renderDrafts: values.render_drafts === true,
    skipRender: globs(values.skip_render),
    include: globs(values.include),
    exclude: globs(values.exclude),
    generatedFolders: [
      folder(values.tag_dir, 'tags'),
      folder(values.category_dir, 'categories'),
      folder(values.archive_dir, 'archives'),
      folder(values.pagination_dir, 'page'),
    ],
    aliases,
    theme,
    themeConfig,
    themeConfigFiles,
    renderer,
    outputExtensions: outputs,
    hexoMajor: hexoMajor === undefined ? null : Number(hexoMajor),
    dependencies: new Set(versions.keys()),
    scripts,
    values,
  };
}

/**
 * The Markdown renderer `package.json` installs, and what its settings make of headings and images:
 * hexo-renderer-marked (`marked:` settings; heading ids kept entity names before 6.1.1, images
 * are read from the root from 5.0) or hexo-renderer-markdown-it (`markdown.anchors`).
 */
function readRenderer(values: Record<string, unknown>, versions: ReadonlyMap<string, string>): HexoRenderer {
  const name = markdownRenderers.find((candidate) => versions.has(candidate));
  if (name === undefined) return { kind: 'none' };
  const transform = (value: unknown): 0 | 1 | 2 => (value === 1 || value === 2 ? value : 0);
  if (name === 'hexo-renderer-marked') {
    const marked = isPlainRecord(values.marked) ? values.marked : {};
    const range = versions.get(name) ?? '';
    const lowest = versionOf(range);
    const upperBound = highestAllowed(range);
    const unescapedFrom = [6, 1, 1];
    const ids =
      lowest !== null && compare(lowest, unescapedFrom) >= 0
        ? 'unescaped'
        : upperBound !== null && compare(upperBound, unescapedFrom) < 0
          ? 'escaped'
          : 'either';
    const prepend = ((): 'yes' | 'no' | 'either' => {
      if (marked.prependRoot === false) return 'no';
      if (marked.prependRoot === true) return 'yes';
      if ((lowest?.[0] ?? 0) >= 5) return 'yes';
      if (upperBound !== null && (upperBound[0] ?? 0) < 5) return 'no';
      return 'either';
    })();
    return {
      kind: 'marked',
      ids,
      headerIds: marked.headerIds !== false,
      transform: transform(marked.modifyAnchors),
      smartypants: marked.smartypants !== false,
      prependRoot: prepend,
    };
  }
  if (name === 'hexo-renderer-markdown-it') {
    const markdown = isPlainRecord(values.markdown) ? values.markdown : {};
    const anchors = isPlainRecord(markdown.anchors) ? markdown.anchors : {};
    const images = isPlainRecord(markdown.images) ? markdown.images : {};
    const range = versions.get(name) ?? '';
    const old = (versionOf(range)?.[0] ?? 7) < 4;
    return {
      kind: 'markdown-it',
      level: typeof anchors.level === 'number' ? anchors.level : 2,
      transform: transform(anchors.case),
      separator: typeof anchors.separator === 'string' && anchors.separator !== '' ? anchors.separator : '-',
      collisionSuffix: typeof anchors.collisionSuffix === 'string' ? anchors.collisionSuffix : old ? 'v' : '',
      prependRoot: images.prepend_root === true,
      footnotes: JSON.stringify(markdown.plugins ?? []).includes('footnote'),
    };
  }
  return { kind: 'other', name };
}

/** The lowest version a range allows (`^0.3.2` is 0.3.2), or null (a git URL, `*`, `latest`). */
function versionOf(range: string): number[] | null {
  const match = /^[\^~>=v\s]*(\d+)(?:\.(\d+))?(?:\.(\d+))?/.exec(range.trim());
  return match === null ? null : [Number(match[1]), Number(match[2] ?? 0), Number(match[3] ?? 0)];
}

/** Below which version a range stays (`^0.3.2` below 0.4.0, `^6.0.0` below 7.0.0, `6.0.0` exactly); null when open. */
function highestAllowed(range: string): number[] | null {
  const trimmed = range.trim();
  const version = versionOf(trimmed);
  if (version === null || /[<>|*x]|\s-\s/.test(trimmed)) return null;
  const [major = 0, minor = 0, patch = 0] = version;
  if (trimmed.startsWith('^'))
    return major > 0 ? [major, 99, 99] : minor > 0 ? [0, minor, 99] : [0, 0, patch];
  if (trimmed.startsWith('~')) return [major, minor, 99];
  return version;
}

function compare(left: readonly number[], right: readonly number[]): number {
  for (let index = 0; index < 3; index++) {
    const difference = (left[index] ?? 0) - (right[index] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}

async function readYaml(
  files: RepositoryFiles,
  file: string,
): Promise<{ values: Record<string, unknown>; problems: SiteProblem[] }> {
  const document = parseDocument((await files.read(file)) ?? '', {
    logLevel: 'silent',
    strict: false,
    uniqueKeys: false,
  });
  const read = yamlValue(document, file);
  return {
    values: isPlainRecord(read.value) ? read.value : {},
    problems: [...yamlProblems(document, file), ...read.problems],
  };
}
