/**
 * Prompt caching. Anthropic caches a prompt's prefix up to each `cache_control` breakpoint: one on
 * the system prompt (the same for every call of a run) and one on the newest message (so the next
 * step reads the whole conversation so far from the cache and pays full price only for what is
 * new). At most four breakpoints are allowed per request, so older messages carry none.
 * https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching
 * The AI SDK passes them as `providerOptions.anthropic.cacheControl` on a message:
 * https://ai-sdk.dev/providers/ai-sdk-providers/anthropic#cache-control
 * Other providers ignore options under `anthropic`; OpenAI caches long prefixes by itself.
 * https://platform.openai.com/docs/guides/prompt-caching
 */
import type { ModelMessage, SystemModelMessage } from 'ai';

const breakpoint = { anthropic: { cacheControl: { type: 'ephemeral' } } } as const;

export function withCacheBreakpoints(
  system: string,
  messages: ModelMessage[],
): { instructions: SystemModelMessage; messages: ModelMessage[] } {
  const last = messages.length - 1;
  return {
    instructions: { role: 'system', content: system, providerOptions: breakpoint },
    messages: messages.map((message, index) => (index === last ? marked(message) : unmarked(message))),
  };
}

function marked(message: ModelMessage): ModelMessage {
  return { ...message, providerOptions: { ...message.providerOptions, ...breakpoint } } as ModelMessage;
}

/** A message as it was before a breakpoint was added (earlier steps' overrides carry forward). */
function unmarked(message: ModelMessage): ModelMessage {
  const anthropic = message.providerOptions?.anthropic;
  if (anthropic === undefined || !('cacheControl' in anthropic)) return message;
  const { cacheControl: _removed, ...rest } = anthropic;
  const providerOptions = { ...message.providerOptions };
  if (Object.keys(rest).length > 0) providerOptions.anthropic = rest;
  else delete providerOptions.anthropic;
  return { ...message, providerOptions } as ModelMessage;
}
