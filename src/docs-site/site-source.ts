import { type MarkdownDialect, readPageFacts } from './page-facts.ts';
import { readManyPageFacts } from './page-facts-pool.ts';
import {
  type DocsFramework,
  isPagePath,
  type PageFacts,
  type RepositoryFiles,
  type SiteSource,
} from './site-model.ts';

/**
 * Page facts by content, shared by every check in the process: the base commit's check and each
 * validation of a run read the same unchanged pages, so each is parsed once. Keyed by the text
 * itself: V8 keeps a string's hash with the string, so a page read once from a commit is looked up
 * again without hashing its content (a SHA-1 per page per check cost more than the rest of a check).
 * Bounded by the characters it holds; the oldest entries go first.
 */
export class PageFactsCache {
  readonly #entries = new Map<MarkdownDialect, Map<string, PageFacts>>();
  /** Insertion order, for eviction; `#oldest` is the first entry not evicted yet. */
  #order: Array<[MarkdownDialect, string]> = [];
  #oldest = 0;
  readonly #maximumCharacters: number;
  #characters = 0;

  constructor(maximumCharacters = 128 * 1024 * 1024) {
    this.#maximumCharacters = maximumCharacters;
  }

  facts(text: string, dialect: MarkdownDialect): PageFacts {
    const cached = this.#entries.get(dialect)?.get(text);
    if (cached !== undefined) return cached;
    const facts = readPageFacts(text, dialect);
    this.#remember(text, dialect, facts);
    return facts;
  }

  /** Reads every page not cached yet, on worker threads when there are many (a site's first check). */
  async fill(items: ReadonlyArray<{ text: string; dialect: MarkdownDialect }>): Promise<void> {
    const missing = items.filter((item) => this.#entries.get(item.dialect)?.has(item.text) !== true);
    if (missing.length === 0) return;
    const facts = await readManyPageFacts(missing, readPageFacts);
    for (const [index, item] of missing.entries()) {
      const read = facts[index];
      if (read !== undefined && this.#entries.get(item.dialect)?.has(item.text) !== true) {
        this.#remember(item.text, item.dialect, read);
      }
    }
  }

  #remember(text: string, dialect: MarkdownDialect, facts: PageFacts): void {
    let entries = this.#entries.get(dialect);
    if (entries === undefined) {
      entries = new Map();
      this.#entries.set(dialect, entries);
    }
    entries.set(text, facts);
    this.#order.push([dialect, text]);
    this.#characters += text.length;
    while (this.#characters > this.#maximumCharacters && this.#oldest < this.#order.length - 1) {
      const [oldestDialect, oldestText] = this.#order[this.#oldest] ?? [];
      this.#oldest += 1;
      if (oldestDialect === undefined || oldestText === undefined) break;
      if (this.#entries.get(oldestDialect)?.delete(oldestText) === true)
        this.#characters -= oldestText.length;
    }
    // Compacted now and then, so the order list does not grow without bound.
    if (this.#oldest > 4096 && this.#oldest * 2 > this.#order.length) {
      this.#order = this.#order.slice(this.#oldest);
      this.#oldest = 0;
    }
  }
}

/** How a framework's pages are read: MkDocs is Python-Markdown; `.mdx` files are MDX everywhere. */
function dialectFor(framework: DocsFramework, path: string): MarkdownDialect {
  if (path.toLowerCase().endsWith('.mdx')) return 'mdx';
  // Fern and ReadMe compile `.md` pages as MDX too.
  if (framework === 'fern' || framework === 'readme') return 'mdx';
  // Notebooks are JSON: their Markdown cells are read.
  if (/\.ipynb$/i.test(path) && (framework === 'sphinx' || framework === 'quarto' || framework === 'myst'))
    return `${framework === 'quarto' ? 'quarto' : 'myst'}-notebook`;
  // Sphinx reads every source suffix but Markdown's as reStructuredText (`.rst`, `.txt`, `.inc`).
  if (framework === 'sphinx') return /\.(md|markdown|rmd)$/i.test(path) ? 'myst' : 'rst';
  if (framework === 'antora') return 'asciidoc';
  if (framework === 'quarto') return 'quarto';
  if (framework === 'myst') return 'myst';
  if (framework === 'docfx') return 'docfx';
  if (framework === 'retype') return 'retype';
  if (framework === 'nuxt-content') return 'mdc';
  if (framework === 'hexo') return 'hexo';
  if (framework === 'eleventy') return 'eleventy';
  if (framework === 'redocly') return 'markdoc';
  if (framework === 'writerside') return /\.topic$/i.test(path) ? 'writerside-topic' : 'writerside';
  if (framework === 'mkdocs' || framework === 'zensical') return 'python-markdown';
  if (framework === 'jekyll' || framework === 'hugo') return framework;
  return framework === 'gitbook' ? 'gitbook' : 'commonmark';
}

/** Fills the cache with the facts of every page of `files`, before a model reads them one by one. */
export async function preparePageFacts(
  files: RepositoryFiles,
  framework: DocsFramework,
  cache: PageFactsCache,
): Promise<void> {
  const pages = files.paths.filter(
    (path) =>
      isPagePath(path) ||
      (framework === 'sphinx' && path.toLowerCase().endsWith('.rst')) ||
      (framework === 'antora' && path.toLowerCase().endsWith('.adoc')) ||
      (framework === 'quarto' && /\.(qmd|rmd)$/i.test(path)) ||
      (framework === 'writerside' && /\.topic$/i.test(path)) ||
      ((framework === 'sphinx' || framework === 'quarto' || framework === 'myst') && /\.ipynb$/i.test(path)),
  );
  const texts = await Promise.all(pages.map((path) => files.read(path)));
  const items: Array<{ text: string; dialect: MarkdownDialect }> = [];
  for (const [index, text] of texts.entries()) {
    const path = pages[index];
    if (text !== null && path !== undefined) items.push({ text, dialect: dialectFor(framework, path) });
  }
  await cache.fill(items);
}

export function createSiteSource(
  files: RepositoryFiles,
  framework: DocsFramework,
  cache: PageFactsCache,
): SiteSource {
  return {
    files,
    async pageFacts(path) {
      // Notebooks Sphinx reads through Jupytext (`.pct.py`, `.R`, `.jl` scripts) are not reStructuredText.
      if (framework === 'sphinx' && /\.(py|r|jl)$/i.test(path)) return null;
      const text = await files.read(path);
      return text === null ? null : cache.facts(text, dialectFor(framework, path));
    },
  };
}
