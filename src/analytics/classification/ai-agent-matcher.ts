/**
 * Finds the AI agent named in a User-Agent header, using the generated table
 * (`data/ai-agents.json`). One precompiled regular expression, longest tokens first, so
 * `GoogleOther-Image` wins over `GoogleOther`.
 *
 * Tokens are matched as product tokens (RFC 9110 §10.1.5), never inside another word, a URL or an
 * e-mail address: a crawler's contact URL (`+http://example.com/spider/`) names no agent. Ordinary
 * words (`Spider`, `Code`) count only as a versioned product in a product list (`Spider/1.0`,
 * `(compatible; Spider/1.0)`, `(KHTML, like Gecko) Code/1.115.0`), never after a bare word, so
 * `Sogou web spider/4.0` and `Screaming Frog SEO Spider/19.4` are not the `Spider` AI scraper.
 */
import type { AiAgentEntry, AiAgentTable } from './ai-agent-table-builder.ts';

export interface AiAgentMatcher {
  match(userAgent: string): AiAgentEntry | undefined;
}

export function createAiAgentMatcher(table: AiAgentTable): AiAgentMatcher {
  const byToken = new Map<string, AiAgentEntry>();
  for (const agent of table.agents) byToken.set(agent.token.toLowerCase(), agent);
  const alternatives = table.agents
    .filter((agent) => agent.match === 'word')
    .sort((left, right) => right.token.length - left.token.length)
    .map((agent) => agent.token.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'));
  // Only fixed-length look-arounds: a user agent is hostile, and this runs on every new one.
  const wordPattern = new RegExp(`(?<![A-Za-z0-9_./@=-])(?:${alternatives.join('|')})(?![A-Za-z0-9_-])`, 'i');
  return {
    match(userAgent) {
      const text = withoutAddresses(userAgent);
      const found = wordPattern.exec(text);
      if (found !== null) return byToken.get(found[0].toLowerCase());
      return productTokenMatch(text, byToken);
    },
  };
}

/**
 * The first product-only token (`Spider/1.0`) that stands where a product stands: first, first in a
 * comment, or after a versioned product or a comment. Linear in the length of the user agent.
 */
function productTokenMatch(
  text: string,
  byToken: ReadonlyMap<string, AiAgentEntry>,
): AiAgentEntry | undefined {
  for (const candidate of text.matchAll(/(?<![A-Za-z0-9_.-])([A-Za-z][A-Za-z0-9_-]*)\//g)) {
    const entry = byToken.get((candidate[1] as string).toLowerCase());
    if (entry === undefined || entry.match !== 'product') continue;
    if (standsAsProduct(text, candidate.index)) return entry;
  }
  return undefined;
}

function standsAsProduct(text: string, start: number): boolean {
  let position = start - 1;
  while (position >= 0 && /\s/.test(text[position] as string)) position -= 1;
  if (position < 0 || '(;,)'.includes(text[position] as string)) return true;
  if (position === start - 1) return false; // glued to something other than a separator
  // The word before must be a versioned product (`Gecko/20100101 Spider/1.0`), not a bare word.
  while (position >= 0 && !/[\s;(),]/.test(text[position] as string)) {
    if (text[position] === '/') return true;
    position -= 1;
  }
  return false;
}

/** URLs and e-mail addresses (a crawler's contact details) blanked out, keeping the separators around them. */
function withoutAddresses(userAgent: string): string {
  return userAgent.replace(/[^\s;()<>,]+/g, (chunk) =>
    chunk.includes('://') || chunk.includes('@') ? ' ' : chunk,
  );
}
