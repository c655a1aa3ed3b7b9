/**
 * Classifies one page view as human, AI (assistant, search, training) or another bot
 * (DESIGN.md §4), from its User-Agent, whether it fetched Markdown, and the AI-agent table.
 *
 *   const classifier = createClassifier();
 *   classifier.classify({ userAgent: 'Mozilla/5.0 ... ChatGPT-User/1.0', markdown: false });
 *   // { category: 'ai_assistant', agent: 'ChatGPT-User' }
 */

import { isbotMatch } from 'isbot';
import isbotPackage from 'isbot/package.json' with { type: 'json' };
import { assertNever } from '../../assert-never.ts';
import { createAiAgentMatcher } from './ai-agent-matcher.ts';
import type { AiAgentEntry, AiAgentTable } from './ai-agent-table-builder.ts';
import defaultTable from './data/ai-agents.json' with { type: 'json' };
import type { TrafficCategory } from './traffic-category.ts';

/** Bump when the rules in this file change, so that `quire analytics reclassify` redoes history. */
const rulesRevision = 1;

/** Longest agent name stored; user agents are hostile and unbounded. */
const maximumAgentLength = 64;

export interface ClassifyInput {
  /** `undefined`: the ingesting client did not say; `''`: the visitor sent no User-Agent. */
  userAgent: string | undefined;
  /** The request fetched Markdown: a `.md` path or `Accept: text/markdown`. */
  markdown: boolean;
}

export interface Classification {
  category: TrafficCategory;
  /** The agent or bot name (`GPTBot`, `Googlebot`, `curl`); null for people. */
  agent: string | null;
}

export interface Classifier {
  /** Identifies the table and rules; stored with every event. */
  readonly version: string;
  classify(input: ClassifyInput): Classification;
}

type UserAgentKind =
  | { kind: 'ai'; agent: AiAgentEntry }
  | { kind: 'crawler'; name: string }
  | { kind: 'client'; name: string }
  | { kind: 'browser' }
  | { kind: 'empty' };

export function createClassifier(options: { table?: AiAgentTable; cacheSize?: number } = {}): Classifier {
  const table = options.table ?? (defaultTable as AiAgentTable);
  const matcher = createAiAgentMatcher(table);
  const cacheSize = options.cacheSize ?? 5_000;
  // User agents repeat heavily; the regular expressions are the cost of ingestion, so remember them.
  const cache = new Map<string, UserAgentKind>();

  function kindOf(userAgent: string): UserAgentKind {
    const cached = cache.get(userAgent);
    if (cached !== undefined) return cached;
    const kind = analyseUserAgent(userAgent, matcher);
    if (cache.size >= cacheSize) cache.delete(cache.keys().next().value as string);
    cache.set(userAgent, kind);
    return kind;
  }

  return {
    version: `${table.source.commit.slice(0, 12)}.r${rulesRevision}.isbot-${isbotPackage.version}`,
    classify({ userAgent, markdown }) {
      if (userAgent === undefined)
        return markdown ? unknownAssistant('unknown') : { category: 'human', agent: null };
      const kind = kindOf(userAgent);
      switch (kind.kind) {
        case 'ai':
          return { category: kind.agent.category, agent: kind.agent.token };
        case 'crawler':
          return { category: 'bot', agent: kind.name };
        case 'client':
          // A Markdown fetch by a non-browser that is no known agent is an assistant at work (§4).
          return markdown ? unknownAssistant(kind.name) : { category: 'bot', agent: kind.name };
        case 'empty':
          return markdown ? unknownAssistant('unknown') : { category: 'bot', agent: 'no user agent' };
        case 'browser':
          return { category: 'human', agent: null };
        default:
          return assertNever(kind, 'user-agent kind');
      }
    },
  };
}

function unknownAssistant(agent: string): Classification {
  return { category: 'ai_assistant', agent };
}

function analyseUserAgent(
  userAgent: string,
  matcher: ReturnType<typeof createAiAgentMatcher>,
): UserAgentKind {
  const trimmed = userAgent.trim();
  if (trimmed === '' || trimmed === '-') return { kind: 'empty' };
  const agent = matcher.match(trimmed);
  if (agent !== undefined) return { kind: 'ai', agent };
  const botMatch = isbotMatch(trimmed);
  if (botMatch !== null) {
    const name = productName(trimmed, botMatch);
    return selfDeclaredCrawler(trimmed) ? { kind: 'crawler', name } : { kind: 'client', name };
  }
  // Browsers all announce themselves as Mozilla-compatible; anything else is a program.
  if (/^Mozilla\/\d/.test(trimmed) || /^Opera\/\d/.test(trimmed)) return { kind: 'browser' };
  return { kind: 'client', name: productName(trimmed, trimmed.split(/[\s/;(]/, 1)[0] ?? '') };
}

/** Crawlers identify themselves with a contact URL or a bot/crawler/spider name; HTTP libraries do not. */
function selfDeclaredCrawler(userAgent: string): boolean {
  return /\+?https?:\/\/|bot\b|crawl|spider|slurp|@/i.test(userAgent);
}

/** The product token (`Googlebot`, `curl`) around the part that matched, cut to a safe length. */
function productName(userAgent: string, matched: string): string {
  const needle = (matched.split(/[/\s;]/, 1)[0] ?? matched).toLowerCase();
  const tokens = userAgent.match(/[A-Za-z][A-Za-z0-9._-]*/g) ?? [];
  const product = tokens.find((token) => token.toLowerCase().includes(needle) && token.length <= 64);
  const name = (product ?? matched).replace(/[^\x20-\x7e]/g, '').slice(0, maximumAgentLength);
  return name === '' ? 'unknown' : name;
}
