/**
 * Classifies one page view as human, AI (assistant, search, training) or another bot
 * (DESIGN.md §4), from its User-Agent, whether it asked for Markdown, its Web Bot Auth
 * `Signature-Agent`, the AI-agent table and the reviewed corrections to `isbot`.
 * docs/analytics.md explains every rule with its reason.
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
import { botUserAgents, firstMatch, humanUserAgents } from './reviewed-user-agents.ts';
import { knownSigningAgents, signatureAgentHost } from './signature-agent.ts';
import type { TrafficCategory } from './traffic-category.ts';

/**
 * Bump when the rules in this file, or the review applied to the agent table without a new upstream
 * commit (ai-agent-review.ts), change, so that `quire analytics reclassify` redoes history.
 * 3: Google-GeminiNotebook added.
 * 4: bots that `isbot` knows only by their contact URL are named by their product, feature phones and
 *    Midori are people, Yahoo! Slurp is a bot (a real access log, test/fixtures/access-logs/).
 */
const rulesRevision = 4;

/** Longest agent name stored; user agents are hostile and unbounded. */
const maximumAgentLength = 64;

/** The agent name of a Markdown fetch whose user agent is a browser's: an agent hiding behind it. */
export const browserLikeAgent = 'unknown (browser user agent)';

export interface ClassifyInput {
  /** `undefined`: the ingesting client did not say; `''`: the visitor sent no User-Agent. */
  userAgent: string | undefined;
  /** The request fetched a `.md` page, or its Accept ranks `text/markdown` above `text/html`. */
  markdown: boolean;
  /** The request's `Signature-Agent` header (Web Bot Auth), when it sent one. */
  signatureAgent?: string | undefined;
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
    classify({ userAgent, markdown, signatureAgent }) {
      const kind = userAgent === undefined ? undefined : kindOf(userAgent);
      // An agent that names itself in its user agent is that agent, signed or not.
      if (kind?.kind === 'ai') {
        return { category: kind.agent.category, agent: kind.agent.reportedAs ?? kind.agent.token };
      }
      // A signed request is the signer's, never a person's, whatever user agent it sends.
      const signer = signatureAgentHost(signatureAgent);
      if (signer !== undefined) {
        const known = knownSigningAgents[signer];
        if (known !== undefined) return { category: known.category, agent: known.agent };
        return markdown ? unknownAssistant(signer) : { category: 'bot', agent: signer };
      }
      if (kind === undefined)
        return markdown ? unknownAssistant('unknown') : { category: 'human', agent: null };
      switch (kind.kind) {
        case 'crawler':
          // A crawler indexing a Markdown page is still a crawler.
          return { category: 'bot', agent: kind.name };
        case 'client':
          return markdown ? unknownAssistant(kind.name) : { category: 'bot', agent: kind.name };
        case 'empty':
          return markdown ? unknownAssistant('unknown') : { category: 'bot', agent: 'no user agent' };
        case 'browser':
          // No browser asks for Markdown over HTML or opens a `.md` page on its own: agents that send a
          // browser's user agent do (the hosted service counts every Markdown page view as an agent's).
          return markdown ? unknownAssistant(browserLikeAgent) : { category: 'human', agent: null };
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
  let trimmed = userAgent.trim();
  if (trimmed === '' || trimmed === '-') return { kind: 'empty' };
  // IIS and some proxies log spaces as `+` (`Mozilla/5.0+(Windows+NT+10.0;...)`).
  if (!trimmed.includes(' ') && trimmed.includes('+(')) trimmed = trimmed.replaceAll('+', ' ');
  const agent = matcher.match(trimmed);
  if (agent !== undefined) return { kind: 'ai', agent };
  const reviewedBot = firstMatch(botUserAgents, trimmed);
  if (reviewedBot !== undefined) return { kind: 'crawler', name: reviewedBot.name ?? 'unknown' };
  // Apps, in-app and text browsers, feature phones: people, even where `isbot` or the `Mozilla/` test
  // disagree, unless the same user agent also calls itself a bot or gives a contact URL (crawlers
  // that send a phone's user agent: goo's ichiro, ips-agent).
  if (
    firstMatch(humanUserAgents, trimmed) !== undefined &&
    !/bot\b|crawl|spider|slurp|https?:\/\/|\bips-agent\b/i.test(trimmed)
  ) {
    return { kind: 'browser' };
  }
  const botMatch = isbotMatch(trimmed);
  if (botMatch !== null) {
    const name = genericMatch.test(botMatch) ? botName(trimmed, botMatch) : productName(trimmed, botMatch);
    return selfDeclaredCrawler(trimmed) ? { kind: 'crawler', name } : { kind: 'client', name };
  }
  // Browsers all announce themselves as Mozilla-compatible (any case); anything else is a program.
  if (/^mozilla\/\d/i.test(trimmed)) return { kind: 'browser' };
  return { kind: 'client', name: productName(trimmed, trimmed.split(/[\s/;(]/, 1)[0] ?? '') };
}
/** Crawlers identify themselves with a contact URL or a bot/crawler/spider name; HTTP libraries do not. */
function selfDeclaredCrawler(userAgent: string): boolean {
  return /\+?https?:\/\/|bot\b|crawl|spider|slurp|@/i.test(userAgent);
}

/**
 * `isbot` matches that say a user agent is a program without naming it: a contact URL, a domain,
 * the word "bot". Named after them, Yahoo! Slurp, YandexDirect and a dozen crawlers in a real access
 * log were all reported as "http".
 */
const genericMatch = /^(?:https?|https?:\/\/|\.com|bots?|www)$/i;

/** Product tokens of browsers and their engines, which bots that imitate a browser carry too. */
const browserProduct =
  /^(?:Mozilla|AppleWebKit|WebKit|KHTML|Gecko|Chrome|Chromium|Safari|Version|Firefox|MSIE|Trident|Opera|Presto|Mobile|Edge?|OPR|Build|CriOS|FxiOS|SamsungBrowser|YaBrowser|UCBrowser|Silk)$/i;

/**
 * A bot's name when `isbot` matched no name: its leading product when it does not pretend to be a
 * browser (`Liferea/1.8.3`), else its first product token that is not a browser's
 * (`SiteExplorer/1.0b`), else what follows `compatible;` (`Yahoo! Slurp`), else the host of its
 * contact URL (`spinn3r.com`), else the token around the match.
 */
function botName(userAgent: string, matched: string): string {
  // A user agent that does not pretend to be a browser starts with its product (`LiveJournal.com (...)`).
  const leading = /^([A-Za-z0-9][A-Za-z0-9._!-]*)/.exec(userAgent)?.[1];
  if (leading !== undefined && /[A-Za-z]/.test(leading) && !browserProduct.test(leading))
    return safeName(leading);
  // Paths in URLs look like product tokens (`help.yahoo.com/help`).
  const withoutUrls = userAgent.replace(/\+?https?:\/\/[^\s;)]*/gi, ' ');
  for (const [, product = ''] of withoutUrls.matchAll(/([A-Za-z0-9][A-Za-z0-9._!-]*)\/[A-Za-z0-9]/g)) {
    if (/[A-Za-z]/.test(product) && !browserProduct.test(product)) return safeName(product);
  }
  const compatible = /\bcompatible;\s*([^;()]+?)\s*[;)]/i.exec(withoutUrls)?.[1];
  if (
    compatible !== undefined &&
    !/^(?:MSIE|Windows|https?:)/i.test(compatible) &&
    /[A-Za-z]/.test(compatible)
  )
    return safeName(compatible);
  const host = /https?:\/\/([A-Za-z0-9.-]+)/i.exec(userAgent)?.[1];
  if (host !== undefined) return safeName(host);
  return productName(userAgent, matched);
}

/** The product token (`Googlebot`, `360Spider`, `curl`) around the part that matched, cut to a safe length. */
function productName(userAgent: string, matched: string): string {
  const needle = (matched.split(/[/\s;]/, 1)[0] ?? matched).toLowerCase();
  const tokens = userAgent.match(/[A-Za-z0-9][A-Za-z0-9._-]*/g) ?? [];
  const product = tokens.find((token) => token.toLowerCase().includes(needle) && token.length <= 64);
  return safeName(product ?? matched);
}

/** Printable ASCII only, at most `maximumAgentLength` characters; `unknown` when nothing is left. */
function safeName(name: string): string {
  const safe = name
    .replace(/[^\x20-\x7e]/g, '')
    .slice(0, maximumAgentLength)
    .trim();
  return safe === '' ? 'unknown' : safe;
}
