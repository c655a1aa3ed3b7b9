/**
 * Finds the AI agent named in a User-Agent header, using the generated table
 * (`data/ai-agents.json`). One precompiled regular expression, longest tokens first, so
 * `GoogleOther-Image` wins over `GoogleOther` and `Brightbot 1.0` over `Brightbot`.
 */
import type { AiAgentEntry, AiAgentTable } from './ai-agent-table-builder.ts';

export interface AiAgentMatcher {
  match(userAgent: string): AiAgentEntry | undefined;
}

export function createAiAgentMatcher(table: AiAgentTable): AiAgentMatcher {
  const byToken = new Map<string, AiAgentEntry>();
  for (const agent of table.agents) byToken.set(agent.token.toLowerCase(), agent);
  const alternatives = [...table.agents]
    .sort((left, right) => right.token.length - left.token.length)
    .map((agent) => {
      const escaped = agent.token.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
      // A separator must follow; a product-only token must be followed by its version slash.
      return agent.match === 'product' ? `${escaped}(?=/)` : `${escaped}(?![A-Za-z0-9_-])`;
    });
  const pattern = new RegExp(`(?<![A-Za-z0-9_-])(?:${alternatives.join('|')})`, 'i');
  return {
    match(userAgent) {
      const found = pattern.exec(userAgent);
      return found === null ? undefined : byToken.get(found[0].toLowerCase());
    },
  };
}
