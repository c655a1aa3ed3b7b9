/**
 * A scripted Anthropic Messages API (`POST /v1/messages`, non-streaming) on 127.0.0.1 that reports
 * usage as Anthropic documents it for prompt caching:
 * https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching
 * - the prompt is read as blocks in the order `tools`, `system`, `messages`; a `cache_control`
 *   breakpoint caches the prefix up to and including its block (at most 4 per request);
 * - a request reads the longest cached prefix ending at a block boundary within 20 blocks before
 *   one of its breakpoints (`cache_read_input_tokens`), writes the prefixes of its breakpoints not
 *   cached yet (`cache_creation_input_tokens`: from the end of what it read to its last breakpoint),
 *   and is billed at the base price for the rest, after the last breakpoint (`input_tokens`);
 * - a prefix shorter than the model's minimum (1,024 tokens for Claude Sonnet and Opus) is not
 *   cached; an entry lives 5 minutes, refreshed each time it is read.
 * Tokens are estimated at 4 characters each (Anthropic's tokenizer is not public), the same for
 * every mode, so modes compare exactly. `honour` chooses which breakpoints count: all of them, the
 * system prompt's only, or none (a request without caching).
 */
import { createHash } from 'node:crypto';
import { startHttpDouble } from './http-double.ts';

export type AnthropicTurn =
  | { toolCalls: Array<{ name: string; input: Record<string, unknown> }>; outputTokens?: number }
  | { text: string; outputTokens?: number };

export interface AnthropicUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

type Block = Record<string, unknown> & { cache_control?: unknown };

interface MessagesRequest {
  model: string;
  system?: Block[] | string;
  messages: Array<{ role: string; content: Block[] | string }>;
  tools?: Block[];
}

const lookbackBlocks = 20;
const cacheLifetimeMilliseconds = 5 * 60_000;

export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

export async function startAnthropicMessagesServer(options: {
  apiKey: string;
  honour: 'all' | 'system-only' | 'none';
  minimumCacheableTokens?: number;
}) {
  const minimum = options.minimumCacheableTokens ?? 1024;
  const script: AnthropicTurn[] = [];
  const usages: AnthropicUsage[] = [];
  const cache = new Map<string, number>();
  let calls = 0;

  const double = await startHttpDouble((request) => {
    if (request.method !== 'POST' || request.path !== '/v1/messages')
      return {
        status: 404,
        body: { type: 'error', error: { type: 'not_found_error', message: 'Not found' } },
      };
    if (request.headers['x-api-key'] !== options.apiKey)
      return {
        status: 401,
        body: { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } },
      };
    const body = request.body as MessagesRequest;
    const turn = script.shift();
    if (turn === undefined)
      return {
        status: 500,
        body: { type: 'error', error: { type: 'api_error', message: 'The script ran out' } },
      };
    calls += 1;
    const usage = { ...accountCache(body), output_tokens: turn.outputTokens ?? 60 };
    usages.push(usage);
    const content =
      'toolCalls' in turn
        ? turn.toolCalls.map((call, position) => ({
            type: 'tool_use',
            id: `toolu_${calls}_${position}`,
            name: call.name,
            input: call.input,
          }))
        : [{ type: 'text', text: turn.text }];
    return {
      status: 200,
      body: {
        id: `msg_${calls}`,
        type: 'message',
        role: 'assistant',
        model: body.model,
        content,
        stop_reason: 'toolCalls' in turn ? 'tool_use' : 'end_turn',
        stop_sequence: null,
        usage,
      },
    };
  });

  /** Blocks in cache order, each with whether its breakpoint counts in this mode. */
  function blocksOf(body: MessagesRequest): Array<{ text: string; breakpoint: boolean }> {
    const list: Array<{ text: string; breakpoint: boolean; part: 'tools' | 'system' | 'messages' }> = [];
    const add = (block: Block, part: 'tools' | 'system' | 'messages') => {
      const { cache_control: marked, ...rest } = block;
      list.push({ text: JSON.stringify(rest), breakpoint: marked !== undefined, part });
    };
    for (const tool of body.tools ?? []) add(tool, 'tools');
    const system =
      typeof body.system === 'string' ? [{ type: 'text', text: body.system }] : (body.system ?? []);
    for (const block of system) add(block, 'system');
    for (const message of body.messages) {
      const content =
        typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
      for (const block of content) add({ ...block, role: message.role }, 'messages');
    }
    return list.map((block) => ({
      text: block.text,
      breakpoint:
        block.breakpoint &&
        (options.honour === 'all' || (options.honour === 'system-only' && block.part === 'system')),
    }));
  }

  function accountCache(body: MessagesRequest): Omit<AnthropicUsage, 'output_tokens'> {
    const blocks = blocksOf(body);
    const hashes: string[] = [];
    const prefixTokens: number[] = [];
    const hash = createHash('sha256');
    let tokens = 0;
    for (const block of blocks) {
      hash.update(block.text).update('\u0000');
      hashes.push(hash.copy().digest('hex'));
      tokens += estimateTokens(block.text);
      prefixTokens.push(tokens);
    }
    const now = Date.now();
    for (const [key, expires] of cache) if (expires <= now) cache.delete(key);
    const breakpoints = blocks.flatMap((block, index) => (block.breakpoint ? [index] : [])).slice(-4);
    let readEnd = -1;
    for (const breakpoint of breakpoints) {
      for (let index = breakpoint; index >= Math.max(0, breakpoint - lookbackBlocks + 1); index -= 1) {
        if (cache.has(hashes[index]!) && index > readEnd) {
          readEnd = index;
          break;
        }
      }
    }
    if (readEnd >= 0) cache.set(hashes[readEnd]!, now + cacheLifetimeMilliseconds);
    const read = readEnd >= 0 ? prefixTokens[readEnd]! : 0;
    let writeEnd = readEnd;
    for (const breakpoint of breakpoints) {
      if (breakpoint <= readEnd || prefixTokens[breakpoint]! < minimum) continue;
      cache.set(hashes[breakpoint]!, now + cacheLifetimeMilliseconds);
      writeEnd = Math.max(writeEnd, breakpoint);
    }
    const written = writeEnd > readEnd ? prefixTokens[writeEnd]! - read : 0;
    return {
      input_tokens: tokens - read - written,
      cache_creation_input_tokens: written,
      cache_read_input_tokens: read,
    };
  }

  return {
    ...double,
    /** Turns the next requests answer, in order. */
    script,
    /** The usage reported for each call, in order. */
    usages,
  };
}
