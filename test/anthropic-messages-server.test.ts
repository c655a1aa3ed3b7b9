// The scripted Anthropic Messages API's prompt-cache accounting (the bench's ground truth), by
// Anthropic's rules: a breakpoint writes its prefix, the next request reads it and writes what is
// new up to its own last breakpoint, the part after the last breakpoint is billed at the base
// price, prefixes under the minimum are not cached, and without breakpoints nothing is.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  type AnthropicUsage,
  estimateTokens,
  startAnthropicMessagesServer,
} from './anthropic-messages-server.ts';

const marked = { cache_control: { type: 'ephemeral' } };
const system = 'You edit documentation. '.repeat(200); // 4,800 characters: 1,200 tokens

async function usagesOf(
  honour: 'all' | 'system-only' | 'none',
  requests: Array<Record<string, unknown>>,
): Promise<AnthropicUsage[]> {
  const server = await startAnthropicMessagesServer({ apiKey: 'sk-test', honour });
  try {
    for (const body of requests) {
      server.script.push({ text: 'ok', outputTokens: 5 });
      const response = await fetch(`${server.url}/v1/messages`, {
        method: 'POST',
        headers: { 'x-api-key': 'sk-test', 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 100, ...body }),
      });
      assert.equal(response.status, 200);
      const answer = (await response.json()) as { usage: AnthropicUsage; content: unknown[] };
      assert.deepEqual(answer.content, [{ type: 'text', text: 'ok' }]);
    }
    return server.usages;
  } finally {
    await server.close();
  }
}

const first = { type: 'text', text: 'Fix the typo in the quickstart, please.' };
const answer = { type: 'text', text: 'Which quickstart?' };
const second = { type: 'text', text: 'The one in docs/quickstart.md.' };
const conversation = [
  {
    system: [{ type: 'text', text: system, ...marked }],
    messages: [{ role: 'user', content: [{ ...first, ...marked }] }],
  },
  {
    system: [{ type: 'text', text: system, ...marked }],
    messages: [
      { role: 'user', content: [first] },
      { role: 'assistant', content: [answer] },
      { role: 'user', content: [{ ...second, ...marked }] },
    ],
  },
];
const block = (value: Record<string, unknown>, role: string) =>
  estimateTokens(JSON.stringify({ ...value, role }));
const systemTokens = estimateTokens(JSON.stringify({ type: 'text', text: system }));

describe('scripted Anthropic Messages API: prompt-cache usage', () => {
  it('writes the prefix up to the last breakpoint, then reads it and writes only what is new', async () => {
    const [one, two] = await usagesOf('all', conversation);
    const firstPrefix = systemTokens + block(first, 'user');
    assert.deepEqual(one, {
      input_tokens: 0,
      cache_creation_input_tokens: firstPrefix,
      cache_read_input_tokens: 0,
      output_tokens: 5,
    });
    assert.deepEqual(two, {
      input_tokens: 0,
      cache_creation_input_tokens: block(answer, 'assistant') + block(second, 'user'),
      cache_read_input_tokens: firstPrefix,
      output_tokens: 5,
    });
  });

  it('bills what follows the last breakpoint at the base price, and caches nothing without breakpoints', async () => {
    const systemOnly = await usagesOf('system-only', conversation);
    assert.deepEqual(
      systemOnly.map((usage) => [
        usage.cache_read_input_tokens,
        usage.cache_creation_input_tokens,
        usage.input_tokens,
      ]),
      [
        [0, systemTokens, block(first, 'user')],
        [systemTokens, 0, block(first, 'user') + block(answer, 'assistant') + block(second, 'user')],
      ],
    );
    const none = await usagesOf('none', conversation);
    assert.ok(
      none.every((usage) => usage.cache_read_input_tokens === 0 && usage.cache_creation_input_tokens === 0),
    );
  });

  it('does not cache a prefix under the minimum length', async () => {
    const short = [
      {
        system: [{ type: 'text', text: 'Be brief.', ...marked }],
        messages: [{ role: 'user', content: [{ ...first, ...marked }] }],
      },
    ];
    const [once, again] = await usagesOf('all', [...short, ...short]);
    assert.equal(once?.cache_creation_input_tokens, 0);
    assert.equal(again?.cache_read_input_tokens, 0);
    assert.ok((again?.input_tokens ?? 0) > 0);
  });
});
