import { createHash } from 'node:crypto';
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
 * validation of a run read the same unchanged pages, so each is parsed once. Bounded: the oldest
 * entries go first.
 */
export class PageFactsCache {
  readonly #entries = new Map<string, PageFacts>();
  readonly #maximumEntries: number;

  constructor(maximumEntries = 200_000) {
    this.#maximumEntries = maximumEntries;
  }

  facts(text: string, dialect: MarkdownDialect): PageFacts {
    const key = cacheKey(text, dialect);
    const cached = this.#entries.get(key);
    if (cached !== undefined) return cached;
    const facts = readPageFacts(text, dialect);
    this.#remember(key, facts);
    return facts;
  }

  /** Reads every page not cached yet, on worker threads when there are many (a site's first check). */
  async fill(items: ReadonlyArray<{ text: string; dialect: MarkdownDialect }>): Promise<void> {
    const missing = new Map<string, { text: string; dialect: MarkdownDialect }>();
    for (const item of items) {
      const key = cacheKey(item.text, item.dialect);
      if (!this.#entries.has(key)) missing.set(key, item);
    }
    if (missing.size === 0) return;
    const facts = await readManyPageFacts([...missing.values()], readPageFacts);
    for (const [index, key] of [...missing.keys()].entries()) {
      const read = facts[index];
      if (read !== undefined) this.#remember(key, read);
    }
  }

  #remember(key: string, facts: PageFacts): void {
    if (this.#entries.size >= this.#maximumEntries) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
    this.#entries.set(key, facts);
  }
}

function cacheKey(text: string, dialect: MarkdownDialect): string {
  return `${dialect}:${createHash('sha1').update(text).digest('base64')}`;
}

/** Fills the cache with the facts of every page of `files`, before a model reads them one by one. */
export async function preparePageFacts(
  files: RepositoryFiles,
  framework: DocsFramework,
  cache: PageFactsCache,
): Promise<void> {
  const pages = files.paths.filter(isPagePath);
  const texts = await Promise.all(pages.map((path) => files.read(path)));
  const items: Array<{ text: string; dialect: MarkdownDialect }> = [];
  for (const [index, text] of texts.entries()) {
    const path = pages[index];
    if (text !== null && path !== undefined) items.push({ text, dialect: dialectFor(framework, path) });
  }
  await cache.fill(items);
}

/** How a framework's pages are read: MkDocs is Python-Markdown; `.mdx` files are MDX everywhere. */
export function dialectFor(framework: DocsFramework, path: string): MarkdownDialect {
  if (path.toLowerCase().endsWith('.mdx')) return 'mdx';
  return framework === 'mkdocs' ? 'python-markdown' : 'commonmark';
}

export function createSiteSource(
  files: RepositoryFiles,
  framework: DocsFramework,
  cache: PageFactsCache,
): SiteSource {
  return {
    files,
    async pageFacts(path) {
      const text = await files.read(path);
      return text === null ? null : cache.facts(text, dialectFor(framework, path));
    },
  };
}
