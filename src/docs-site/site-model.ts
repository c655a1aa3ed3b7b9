import type { PageAnchors } from './heading-anchors.ts';
/**
 * What Quire knows about a documentation site, the way its build tool knows it: which files are
 * pages and at which routes they are served, the navigation, and where a link written in a page leads.
 * One builder per framework (`frameworks/`) makes a `SiteModel` from the repository's files; the
 * checks (`check-site.ts`) and the agent's tools only ever talk to this interface.
 */

export type DocsFramework =
  | 'mintlify'
  | 'docusaurus'
  | 'mkdocs'
  | 'zensical'
  | 'mdbook'
  | 'gitbook'
  | 'fumadocs'
  | 'nextra'
  | 'starlight'
  | 'vitepress'
  | 'rspress'
  | 'vuepress'
  | 'docsify'
  | 'jekyll'
  | 'hugo'
  | 'sphinx'
  | 'antora'
  | 'quarto'
  | 'myst'
  | 'docfx'
  | 'vocs'
  | 'retype'
  | 'writerside'
  | 'nuxt-content'
  | 'dumi'
  | 'zola'
  | 'hexo'
  | 'eleventy'
  | 'fern'
  | 'redocly'
  | 'readme'
  | 'markdown';

/** The repository's files as a model reads them (a worktree, a commit, or either with changes on top). */
export interface RepositoryFiles {
  /** Every file path, relative to the repository root with forward slashes, sorted by code point. */
  readonly paths: readonly string[];
  has(path: string): boolean;
  /** A file's text, or null when it is missing, binary, too large or not a regular file. */
  read(path: string): Promise<string | null>;
  /**
   * The start of a text file whatever its size (at most `bytes`): the front matter of a page too
   * large to read whole (Fern reads a page's URL from it). Null when the file cannot be read.
   */
  readHead?(path: string, bytes: number): Promise<string | null>;
}

/** A link written in a page, with the line it is on (1-based, counted in the whole file). */
export interface PageLink {
  url: string;
  line: number;
  /** `link`: Markdown link or definition; `image`; `html`: an `href`/`src` attribute; `import`: an MDX import. */
  kind: 'link' | 'image' | 'html' | 'import';
  /**
   * A Markdown link's or image's title, when it has one (Docsify's `':include'`, `':ignore'`); for
   * DocFX's `import` links, what names the file: `include` (`[!INCLUDE]`) or `code` (a code snippet).
   */
  title?: string;
  /** Written under an AsciiDoc preprocessor condition (`ifdef::`, `ifeval::`): rendered in some builds only. */
  conditional?: boolean;
  /** Written as an HTML attribute (`href`, `src`), which some builds leave as written (MkDocs). */
  attribute?: boolean;
}

/** What the checks need from one page: its front matter, title and links. Cached by content. */
export interface PageFacts {
  /** The front matter as an object; null when the page has none or it is not a YAML mapping. */
  frontMatter: Readonly<Record<string, unknown>> | null;
  /** The first level-1 heading's text, or null. */
  title: string | null;
  links: readonly PageLink[];
  /**
   * What the page's own parser warns about in its syntax, with its line: docutils for
   * reStructuredText (a title underline too short), Asciidoctor for AsciiDoc (an unterminated block).
   */
  warnings?: Array<{ line: number; message: string }>;
  /** What Sphinx reads besides links, for reStructuredText and MyST pages. */
  sphinx?: SphinxPageFacts;
}

/** A Sphinx page's toctrees, explicit targets, section titles and `:orphan:` flag. */
export interface SphinxPageFacts {
  /** `.. toctree::` directives: each entry as written (`install`, `Title <guide/setup>`), with its line. */
  toctrees: Array<{ line: number; glob: boolean; entries: Array<{ reference: string; line: number }> }>;
  /** Labels the page defines (`.. _label:`, `(label)=`, `:name:`), normalised as docutils does. */
  labels: string[];
  /** Section titles as written, in order (`sphinx.ext.autosectionlabel` makes labels of them). */
  sections: string[];
  /** `:orphan:` (MyST: `orphan: true`): the page need not be in any toctree. */
  orphan: boolean;
  /** Folders `autosummary` directives write pages to (their `:toctree:` option), as written. */
  generatedFolders: string[];
}

/** The files and the page facts a model is built from. */
export interface SiteSource {
  files: RepositoryFiles;
  /** Facts of a Markdown or MDX file, or null when it cannot be read. */
  pageFacts(path: string): Promise<PageFacts | null>;
}

/** Why a value could not be known (configuration computed by code, a plugin this model does not read). */
export interface Unchecked {
  unchecked: string;
  /** The only files an unchecked navigation entry can list, when known (a page a build step writes). */
  onlyFiles?: readonly string[];
}

export interface NavigationEntry {
  /** The reference exactly as written (`quickstart`, `guide/setup.md`, `api/intro`, a doc id). */
  reference: string;
  /** The navigation file it is written in, and its line there (1-based). */
  file: string;
  line: number;
  /** Titles from the top of the navigation down to this entry (languages, versions, tabs, groups). */
  groups: string[];
  /** The page file it names; null when no page serves it; `Unchecked` when this model cannot tell. */
  target: string | null | Unchecked;
}

/** Where a link leads. Only `broken` is ever reported: whatever a model cannot tell is `unchecked`. */
export type LinkTarget =
  | { kind: 'file'; file: string }
  | { kind: 'served'; reason: string }
  | { kind: 'external' }
  | { kind: 'unchecked'; reason: string }
  | { kind: 'broken'; reason: string };

/** A problem a check found, with the file and line it is in. */
export interface SiteProblem {
  file: string;
  line: number;
  column?: number;
  message: string;
  /**
   * The problem's identity without its file and position (edits above it move its line, a move changes
   * its file): the same file and key on the base commit means the problem was already there. Its kind
   * comes first, before a NUL: `link`, `navigation`, `redirect` (a redirect to no page; the agent's
   * move and delete tools look for these), `$ref`, `configuration`, ...
   */
  key: string;
}

export interface SiteModel {
  framework: DocsFramework;
  /** The folder of the site's configuration, relative to the repository root ('' for the root). */
  siteRoot: string;
  /** Every configuration and navigation file the model read; changing one means building it again. */
  configFiles: readonly string[];
  /** Each page (a file the framework renders) and the routes it is served at, the canonical one first. */
  pages: ReadonlyMap<string, readonly string[]>;
  /** Files whose links are checked but that are not pages themselves (Mintlify snippets, partials). */
  partials: ReadonlySet<string>;
  /** Navigation entries in order, from every navigation file, language and version. */
  navigation: readonly NavigationEntry[];
  /** Whether a page at `file` must be listed in navigation to be reachable (or built at all). */
  needsNavigationEntry(file: string): boolean;
  /**
   * The anchors the framework's build knows in a page (`text` is the page's), when it checks the
   * fragments of links to it: Docusaurus warns of a link to an anchor its target page lacks.
   */
  pageAnchors?(file: string, text: string): PageAnchors | null;
  /** False where a link that is only a fragment (`#x`) names a target anywhere (MyST in Sphinx), not in its page. */
  fragmentsAreLocal?: boolean;
  /** Files that would be pages but are built only when navigation lists them (Jupyter Book's `only_build_toc_files`). */
  builtOnlyWhenListed?: ReadonlySet<string>;
  /**
   * Navigation names a page by its file name alone, wherever it is (Writerside's trees): moving the
   * page to another folder leaves an entry as it is, and a rename changes only the name.
   */
  navigationByFileName?: boolean;
  /** The navigation file a new page at `file` belongs in, when it is not the first configuration file. */
  navigationFileFor?(file: string): string;
  /**
   * Where a link written in `from` (a page or partial) leads; `link` says how it is written when the
   * framework reads kinds apart (Docsify: images from the page's folder, links from the site's root).
   */
  resolveLink(
    from: string,
    url: string,
    link?: Pick<PageLink, 'kind' | 'title' | 'conditional' | 'attribute'> & Partial<Pick<PageLink, 'line'>>,
  ): LinkTarget;
  /** Problems in the configuration itself (a syntax error), with file and line. */
  configurationProblems: readonly SiteProblem[];
  /** What this model did not understand in this repository; the run says so instead of guessing. */
  unsupported: readonly string[];
  /** Sentences for the agent's instructions: how links are written here, where new pages belong. */
  conventions: readonly string[];
}

/** Builds the model of one framework from the files, for a site whose configuration is in `siteRoot`. */
export type SiteModelBuilder = (source: SiteSource, siteRoot: string) => Promise<SiteModel>;

/** What a navigation entry names, from where its link leads (`onlyFiles` for whatever is unchecked). */
export function navigationTarget(
  target: LinkTarget,
  onlyFiles?: readonly string[],
): NavigationEntry['target'] {
  if (target.kind === 'file') return target.file;
  if (target.kind === 'broken') return null;
  const unchecked = target.kind === 'external' ? 'external link' : target.reason;
  return onlyFiles === undefined ? { unchecked } : { unchecked, onlyFiles };
}

export function isUnchecked(value: unknown): value is Unchecked {
  return typeof value === 'object' && value !== null && typeof (value as Unchecked).unchecked === 'string';
}

export const pageExtensions = ['.mdx', '.md'] as const;

/** Markdown and MDX files (any case), the files a docs framework may render as pages. */
export function isPagePath(path: string): boolean {
  const lower = path.toLowerCase();
  return lower.endsWith('.md') || lower.endsWith('.mdx') || lower.endsWith('.markdown');
}
