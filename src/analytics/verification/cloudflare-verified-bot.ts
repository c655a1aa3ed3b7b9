/**
 * Cloudflare's own verification of a request. Its HTTP request logs carry `VerifiedBotCategory`
 * (https://developers.cloudflare.com/logs/reference/log-fields/zone/http_requests/): the category of
 * the verified bot Cloudflare matched the request to, empty for any other request. Cloudflare verifies
 * a bot by its user agent together with its published addresses, reverse DNS or Web Bot Auth
 * signature (https://developers.cloudflare.com/bots/concepts/bot/verified-bots/); the categories are
 * listed at https://developers.cloudflare.com/bots/reference/verified-bot-categories/ (`Search Engine
 * Crawler`, `Page Preview`, ...) and, for AI operators, at
 * https://developers.cloudflare.com/ai-crawl-control/reference/bots/ (`AI Crawler`, `AI Search`,
 * `AI Assistant`).
 *
 * The category names a kind of bot, not the bot. A view counts as verified by it when Cloudflare and
 * the classifier agree on the kind: an AI category for a view classified as any AI agent, any other
 * category for a plain `bot`. The AI kinds are not matched one to one because the two taxonomies
 * draw the line between crawling for search and for training differently for some agents, while
 * Cloudflare's match on the user agent already ties the verdict to the agent the classifier names.
 * A view classified as a person is never verified: a verified bot that sends a browser's user agent
 * and nothing else identifying is an unnamed agent, which Quire does not invent.
 */
import { assertNever } from '../../assert-never.ts';
import type { TrafficCategory } from '../classification/index.ts';

export function agreesWithVerifiedBotCategory(
  category: TrafficCategory,
  verifiedBotCategory: string | undefined,
): boolean {
  if (verifiedBotCategory === undefined) return false;
  const kind = verifiedBotCategory.trim().toLowerCase();
  if (kind === '') return false;
  const artificial = /^ai\b/.test(kind);
  switch (category) {
    case 'ai_assistant':
    case 'ai_search':
    case 'ai_training':
      return artificial;
    case 'bot':
      return !artificial;
    case 'human':
      return false;
    default:
      return assertNever(category, 'traffic category');
  }
}
