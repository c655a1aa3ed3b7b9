import { createHash } from 'node:crypto';
import { type MarkdownDialect, readPageFacts } from './page-facts.ts';
import type { DocsFramework, PageFacts, RepositoryFiles, SiteSource } from './site-model.ts';

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
    const key = `${dialect}:${createHash('sha1').update(text).digest('base64')}`;
    const cached = this.#entries.get(key);
    if (cached !== undefined) return cached;
    const facts = readPageFacts(text, dialect);
    if (this.#entries.size >= this.#maximumEntries) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
    this.#entries.set(key, facts);
    return facts;
  }
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
