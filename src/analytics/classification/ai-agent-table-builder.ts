/**
 * Turns the ai.robots.txt `robots.json` into our AI-agent table by applying the review in
 * `ai-agent-review.ts`. Pure: the refresh script does the file reading and writing.
 */
import {
  categoryFromFunctionText,
  categoryOverrides,
  excludedTokens,
  foldVersion,
  productTokenOnly,
  sameAgentAs,
  supplementalAgents,
} from './ai-agent-review.ts';
import type { AiCategory } from './traffic-category.ts';

export interface AiAgentEntry {
  /** The user-agent token as upstream spells it, e.g. `ChatGPT-User`. */
  token: string;
  category: AiCategory;
  operator: string;
  /** `word`: the token anywhere between separators; `product`: only as `token/version`. */
  match: 'word' | 'product';
  /** The agent name reported when it differs from the token (one agent spelled two ways). */
  reportedAs?: string;
}

export interface AiAgentTableSource {
  project: string;
  commit: string;
  date: string;
  license: string;
}

export interface AiAgentTable {
  source: AiAgentTableSource;
  agents: AiAgentEntry[];
}

export interface BuiltAiAgentTable {
  table: AiAgentTable;
  /** Tokens placed only by the free-text fallback: a human should read them once. */
  unreviewed: Array<{ token: string; category: AiCategory; functionText: string }>;
}

export function buildAiAgentTable(robots: unknown, source: AiAgentTableSource): BuiltAiAgentTable {
  if (typeof robots !== 'object' || robots === null || Array.isArray(robots)) {
    throw new TypeError('robots.json must be an object keyed by user-agent token');
  }
  const agents: AiAgentEntry[] = [];
  const unreviewed: BuiltAiAgentTable['unreviewed'] = [];
  const seen = new Set<string>();
  for (const [upstreamToken, value] of Object.entries(robots as Record<string, unknown>)) {
    const token = foldVersion(upstreamToken);
    const key = token.toLowerCase();
    if (key === '' || seen.has(key) || excludedTokens[key] !== undefined) continue;
    seen.add(key);
    const fields = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
    const functionText = typeof fields.function === 'string' ? fields.function : '';
    const override = categoryOverrides[key];
    const fromText = categoryFromFunctionText(functionText);
    const category = override?.category ?? fromText.category;
    if (override === undefined && !fromText.reviewed) unreviewed.push({ token, category, functionText });
    agents.push({
      token,
      category,
      operator: plainOperator(fields.operator),
      match: productTokenOnly.has(key) ? 'product' : 'word',
      ...(sameAgentAs[key] === undefined ? {} : { reportedAs: sameAgentAs[key] }),
    });
  }
  for (const supplement of supplementalAgents) {
    const key = supplement.token.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    agents.push({
      token: supplement.token,
      category: supplement.category,
      operator: supplement.operator,
      match: 'word',
      ...(supplement.reportedAs === undefined ? {} : { reportedAs: supplement.reportedAs }),
    });
  }
  agents.sort((left, right) => left.token.toLowerCase().localeCompare(right.token.toLowerCase()));
  return { table: { source, agents }, unreviewed };
}

/** Upstream operators are Markdown (`[OpenAI](https://openai.com)`); keep the name only. */
function plainOperator(operator: unknown): string {
  if (typeof operator !== 'string') return '';
  const text = operator.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').trim();
  return /^unclear at this time\.?$/i.test(text) || /^unknown$/i.test(text) ? '' : text.slice(0, 120);
}
