import {
  generateText,
  type LanguageModel,
  type ModelMessage,
  type StepResult,
  stepCountIs,
  type ToolSet,
} from 'ai';
import type { AgentEvent } from '../agent-jobs/agent-runner.ts';

export interface ToolLoopUsage {
  inputTokens: number;
  outputTokens: number;
}

export interface ToolLoopRequest {
  model: LanguageModel;
  system: string;
  messages: ModelMessage[];
  tools: ToolSet;
  /** Steps and tokens still available to this run (a run may call the loop more than once). */
  remainingSteps: number;
  remainingTokens: number;
  modelRetries: number;
  signal: AbortSignal;
  emit(event: AgentEvent): Promise<void>;
}

export interface ToolLoopResult {
  /** The messages the model and the tools added, to append to the conversation. */
  responseMessages: ModelMessage[];
  /** The final answer; empty when the loop stopped on a budget instead. */
  text: string;
  /** True when the model answered without calling a tool (the normal end). */
  answered: boolean;
  steps: number;
  usage: ToolLoopUsage;
  toolCalls: number;
  toolErrors: Array<{ toolName: string; message: string }>;
}

const maximumEventTextLength = 4000;

/**
 * One pass of the model with the tools, until it answers without a tool call or a budget runs out.
 * Every step is reported as a `step-end` event with its text, tool calls, results and errors.
 */
export async function runToolLoop(request: ToolLoopRequest): Promise<ToolLoopResult> {
  let stepOffset = 0;
  let tokensUsed = 0;
  let toolCalls = 0;
  const toolErrors: ToolLoopResult['toolErrors'] = [];
  const result = await generateText({
    model: request.model,
    system: request.system,
    messages: request.messages,
    tools: request.tools,
    abortSignal: request.signal,
    maxRetries: request.modelRetries,
    // Edits to one worktree are applied in the order the model asked for them.
    toolCallConcurrency: 1,
    stopWhen: [stepCountIs(request.remainingSteps), () => tokensUsed >= request.remainingTokens],
    onStepEnd: async (step: StepResult<ToolSet>) => {
      stepOffset += 1;
      tokensUsed += (step.usage.inputTokens ?? 0) + (step.usage.outputTokens ?? 0);
      const calls: Array<Record<string, unknown>> = [];
      for (const part of step.content) {
        if (part.type === 'tool-call') {
          toolCalls += 1;
          calls.push({
            type: 'call',
            toolName: part.toolName,
            toolCallId: part.toolCallId,
            input: truncateInput(part.input),
          });
        } else if (part.type === 'tool-result') {
          calls.push({
            type: 'result',
            toolName: part.toolName,
            toolCallId: part.toolCallId,
            output: truncate(String(part.output)),
          });
        } else if (part.type === 'tool-error') {
          const message = part.error instanceof Error ? part.error.message : String(part.error);
          toolErrors.push({ toolName: part.toolName, message });
          calls.push({
            type: 'error',
            toolName: part.toolName,
            toolCallId: part.toolCallId,
            error: truncate(message),
          });
        }
      }
      await request.emit({
        type: 'step-end',
        data: {
          step: stepOffset,
          text: truncate(step.text),
          tools: calls,
          finishReason: step.finishReason,
          usage: { inputTokens: step.usage.inputTokens ?? 0, outputTokens: step.usage.outputTokens ?? 0 },
        },
      });
    },
  });
  const lastStep = result.steps.at(-1);
  const answered = lastStep !== undefined && lastStep.toolCalls.length === 0;
  return {
    responseMessages: result.responseMessages as ModelMessage[],
    text: answered ? result.text : '',
    answered,
    steps: result.steps.length,
    usage: {
      inputTokens: result.totalUsage.inputTokens ?? 0,
      outputTokens: result.totalUsage.outputTokens ?? 0,
    },
    toolCalls,
    toolErrors,
  };
}

function truncate(text: string): string {
  return text.length > maximumEventTextLength
    ? `${text.slice(0, maximumEventTextLength)}… (${text.length} characters)`
    : text;
}

/** Tool inputs as recorded in events: long strings (a whole file for write_file) are cut. */
function truncateInput(input: unknown): unknown {
  if (typeof input !== 'object' || input === null) return input;
  const recorded: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input))
    recorded[key] = typeof value === 'string' ? truncate(value) : value;
  return recorded;
}
