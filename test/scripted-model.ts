import type {
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3GenerateResult,
} from '@ai-sdk/provider';
import { MockLanguageModelV3 } from 'ai/test';

/** One scripted model turn: tool calls to make, or a final answer. */
export type ScriptedTurn =
  | { toolCalls: Array<{ toolName: string; input: Record<string, unknown> }>; text?: string }
  | { text: string }
  | { error: Error };

/** A turn, or a function that decides the turn from what the model was sent (the prompt so far). */
export type ScriptedStep = ScriptedTurn | ((call: LanguageModelV3CallOptions) => ScriptedTurn);

const usage = (input: number, output: number) => ({
  inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: output, text: output, reasoning: undefined },
});

/**
 * A model that plays a script, one turn per model call, through the AI SDK's `MockLanguageModelV3`.
 * Each turn reports 100 input and 20 output tokens. Running past the end of the script throws.
 */
export function scriptedModel(steps: ScriptedStep[]): MockLanguageModelV3 {
  let index = 0;
  let callNumber = 0;
  return new MockLanguageModelV3({
    provider: 'scripted',
    modelId: 'scripted-model',
    doGenerate: async (call): Promise<LanguageModelV3GenerateResult> => {
      const step = steps[index];
      index += 1;
      if (step === undefined) throw new Error(`The scripted model has no turn ${index}`);
      const turn = typeof step === 'function' ? step(call) : step;
      if ('error' in turn) throw turn.error;
      const content: LanguageModelV3Content[] = [];
      if (turn.text !== undefined && turn.text !== '') content.push({ type: 'text', text: turn.text });
      const toolCalls = 'toolCalls' in turn ? turn.toolCalls : [];
      for (const toolCall of toolCalls) {
        callNumber += 1;
        content.push({
          type: 'tool-call',
          toolCallId: `call-${callNumber}`,
          toolName: toolCall.toolName,
          input: JSON.stringify(toolCall.input),
        });
      }
      return {
        content,
        finishReason: { unified: toolCalls.length > 0 ? 'tool-calls' : 'stop', raw: undefined },
        usage: usage(100, 20),
        warnings: [],
      };
    },
  });
}

/** Every text part of the prompt the model was sent, joined, for assertions. */
export function promptText(call: LanguageModelV3CallOptions): string {
  const parts: string[] = [];
  for (const message of call.prompt) {
    if (typeof message.content === 'string') parts.push(message.content);
    else for (const part of message.content) parts.push(JSON.stringify(part));
  }
  return parts.join('\n');
}
