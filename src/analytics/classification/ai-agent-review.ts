/**
 * Our reviewed reading of the ai.robots.txt agent list. Upstream `function` is free text (sometimes a
 * Known Agents category, sometimes a sentence), so each entry is mapped to a category here, with the
 * exceptions written down one by one. `scripts/refresh-ai-agents.ts` applies this review to a new
 * robots.json and prints the entries that only the fallback rule placed, so a human can look at them.
 */
import type { AiCategory } from './traffic-category.ts';

/** Upstream category names that map directly. Compared lowercased. */
const categoryByUpstreamFunction: Readonly<Record<string, AiCategory>> = {
  'ai assistants': 'ai_assistant',
  'ai agents': 'ai_assistant',
  'ai coding agents': 'ai_assistant',
  'ai search crawlers': 'ai_search',
  'ai data scrapers': 'ai_training',
  'ai data scraper': 'ai_training',
  'ai data providers': 'ai_training',
  'undocumented ai agents': 'ai_training',
};

/** Per-token decisions that the function text gets wrong. Keys are lowercased tokens. */
export const categoryOverrides: Readonly<Record<string, { category: AiCategory; reason: string }>> = {
  // Upstream lists `iaskspider` as an undocumented agent and `iaskspider/2.0` as a crawler answering
  // queries; both are one agent (versions are folded), iAsk's search index.
  iaskspider: { category: 'ai_search', reason: 'a crawler that indexes pages to answer queries later' },
  bravebot: { category: 'ai_search', reason: 'the Brave Search crawler' },
  'meta-webindexer': {
    category: 'ai_search',
    reason: 'an indexer for Meta AI search, not a per-request fetch',
  },
  petalbot: { category: 'ai_search', reason: 'the Huawei (Petal) search crawler' },
  amazonbot: { category: 'ai_search', reason: 'crawls ahead of time to answer Alexa questions' },
};

/**
 * Tokens left out of user-agent matching, with the reason. Classification falls back to `isbot`.
 */
export const excludedTokens: Readonly<Record<string, string>> = {
  'google-extended': 'a robots.txt token only; it never appears in a User-Agent',
  'applebot-extended': 'a robots.txt token only; it never appears in a User-Agent',
  facebookexternalhit: 'fetches link previews when a person shares a link; counted as an ordinary bot',
  // Exa's crawler is ExaSearchBot (kept). Matched case-insensitively, `ExaBot` is also Exalead's
  // long-standing web search crawler `Exabot/3.0` (http://www.exabot.com/go/robot), which is no AI agent.
  exabot: "the same token as Exalead's search crawler; Exa is recognised by ExaSearchBot",
};

/**
 * Upstream sometimes lists one agent twice, with and without its version (`MistralAI-User` and
 * `MistralAI-User/1.0`, `Brightbot 1.0`, `iaskspider/2.0`). The version is cut off so that both spellings
 * are one agent; the matcher still matches `MistralAI-User/1.0` in a user agent.
 */
export function foldVersion(token: string): string {
  return token.trim().replace(/(?:\/|\s+)v?\d+(?:\.\d+)*$/i, '');
}

/**
 * Tokens that are ordinary words ("Code", "Spider", "Operator"): they only match as a product token
 * (`Code/1.2`), so that a browser or crawler that merely contains the word is not misread.
 */
export const productTokenOnly: ReadonlySet<string> = new Set([
  'code',
  'cursor',
  'devin',
  'lcc',
  'newsai',
  'openai',
  'operator',
  'scrapy',
  'spider',
  'trae',
  'useai',
  'yak',
]);

/** Upstream tokens that are another token's agent under a second name: reported as that agent. */
export const sameAgentAs: Readonly<Record<string, string>> = {
  'panscient.com': 'Panscient',
};

/** Well-known agents missing from the upstream list. `reportedAs` names an agent spelled two ways. */
export const supplementalAgents: ReadonlyArray<{
  token: string;
  category: AiCategory;
  operator: string;
  reason: string;
  reportedAs?: string;
}> = [
  {
    token: 'codex_cli_rs',
    category: 'ai_assistant',
    operator: 'OpenAI',
    reason: 'the Codex CLI coding agent fetching pages for its user',
  },
  {
    token: 'xAI-Bot',
    category: 'ai_search',
    operator: 'xAI',
    reason: "xAI's crawler (Grok's web search); not in the upstream list",
  },
  {
    token: 'PerplexityUser',
    category: 'ai_assistant',
    operator: 'Perplexity',
    reason: 'Perplexity-User spelled without its hyphen, seen in access logs; one agent with it',
    reportedAs: 'Perplexity-User',
  },
  {
    token: 'Agent-NovaAct',
    category: 'ai_assistant',
    operator: 'Amazon',
    reason: "Amazon Nova Act's browser agent acting for its user (upstream has only `NovaAct`)",
    reportedAs: 'NovaAct',
  },
  {
    token: 'crawl4ai-adapter',
    category: 'ai_training',
    operator: '',
    reason: 'the Crawl4AI scraping library under the name its adapter sends',
    reportedAs: 'Crawl4AI',
  },
  {
    token: 'Google-GeminiNotebook',
    category: 'ai_assistant',
    operator: 'Google',
    reason:
      "Gemini Notebook fetching the pages its user adds as sources, as Google's list of user-triggered fetchers names it (https://developers.google.com/crawling/docs/crawlers-fetchers/google-user-triggered-fetchers); upstream has only its former name, NotebookLM",
  },
  {
    token: 'Windsurf',
    category: 'ai_assistant',
    operator: 'Windsurf (Codeium)',
    reason: "the Windsurf editor's coding agent fetching pages for its user",
  },
];

/** Free-text fallback, applied when neither the category names nor an override decide. */
export function categoryFromFunctionText(functionText: string): { category: AiCategory; reviewed: boolean } {
  const text = functionText.trim().toLowerCase();
  const direct = categoryByUpstreamFunction[text];
  if (direct !== undefined) return { category: direct, reviewed: true };
  if (/\bsearch\b/.test(text)) return { category: 'ai_search', reviewed: false };
  if (/user prompts|user queries|user-initiated|on behalf of/.test(text)) {
    return { category: 'ai_assistant', reviewed: false };
  }
  return { category: 'ai_training', reviewed: false };
}
