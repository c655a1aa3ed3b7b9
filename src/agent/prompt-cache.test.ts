import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LanguageModelV3CallOptions } from '@ai-sdk/provider';
import { tool } from 'ai';
import { z } from 'zod';
import { scriptedModel } from '../../test/scripted-model.ts';
import { unlimitedBudget } from '../agent-jobs/run-budget.ts';
import { noUsage } from '../agent-jobs/run-usage.ts';
import { runToolLoop } from './run-tool-loop.ts';

const breakpoint = { anthropic: { cacheControl: { type: 'ephemeral' } } };

describe('prompt cache breakpoints', () => {
  it('marks the system prompt and only the newest message of every model call', async () => {
    const calls: LanguageModelV3CallOptions[] = [];
    const record = (turn: ReturnType<typeof answer>) => (call: LanguageModelV3CallOptions) => {
      calls.push(call);
      return turn;
    };
    const answer = (text: string) => ({ text });
    const model = scriptedModel([
      record({ toolCalls: [{ toolName: 'look', input: {} }] } as never),
      record({ toolCalls: [{ toolName: 'look', input: {} }] } as never),
      record(answer('done')),
    ]);
    const result = await runToolLoop({
      model,
      system: 'You edit documentation.',
      messages: [
        { role: 'user', content: 'Earlier instruction' },
        { role: 'assistant', content: 'Earlier answer' },
        { role: 'user', content: 'Fix the typo' },
      ],
      tools: { look: tool({ inputSchema: z.object({}), execute: async () => 'nothing here' }) },
      remainingSteps: 10,
      remainingTokens: 1_000_000,
      budget: unlimitedBudget,
      usageBefore: noUsage,
      modelRetries: 0,
      signal: new AbortController().signal,
      emit: async () => {},
    });
    assert.equal(result.answered, true);
    assert.equal(calls.length, 3);
    // Each step sends the conversation once: the three messages, then each tool call and its result.
    assert.deepEqual(
      calls.map((call) => call.prompt.length),
      [4, 6, 8],
    );
    for (const call of calls) {
      const [system, ...rest] = call.prompt;
      assert.equal(system?.role, 'system');
      assert.deepEqual(system?.providerOptions, breakpoint);
      const marked = rest.map((message) => message.providerOptions?.anthropic !== undefined);
      assert.deepEqual(
        marked,
        rest.map((_, index) => index === rest.length - 1),
        `only the newest of ${rest.length} messages carries a breakpoint`,
      );
    }
    // The conversation handed back to be stored carries no breakpoint.
    assert.ok(result.responseMessages.every((message) => message.providerOptions === undefined));
  });
});
