import {
  generateText,
  type LanguageModel,
  type LanguageModelUsage,
  type ModelMessage,
  type StepResult,
  stepCountIs,
  type ToolSet,
} from 'ai';
import type { AgentEvent } from '../agent-jobs/agent-runner.ts';
import type { RunBudget } from '../agent-jobs/run-budget.ts';
import { addUsage, type RunUsage } from '../agent-jobs/run-usage.ts';
import { withCacheBreakpoints } from './prompt-cache.ts';

export type ToolLoopUsage = RunUsage;

export interface ToolLoopRequest {
  model: LanguageModel;
  system: string;
  messages: ModelMessage[];
  tools: ToolSet;
  /** Steps and tokens still available to this run (a run may call the loop more than once). */
  remainingSteps: number;
  remainingTokens: number;
  /** The job's and project's budgets, asked with the run's usage (`usageBefore` plus this loop's). */
  budget: RunBudget;
  usageBefore: RunUsage;
  modelRetries: number;
  signal: AbortSignal;
  emit(event: AgentEvent): Promise<void>;
}

export interface ToolLoopResult {
  /** The messages the model and the tools added, to append to the conversation. */
  responseMessages: ModelMessage[];
  /** The final answer; empty when the loop stopped on a budget instead. */
  text: string;
  /** Why a budget stopped the loop before the model answered (from `RunBudget.exceeded`), null otherwise. */
  budgetExceeded: string | null;
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
  let usage: RunUsage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };
  let budgetExceeded: string | null = null;
  let toolCalls = 0;
  const toolErrors: ToolLoopResult['toolErrors'] = [];
  const cached = withCacheBreakpoints(request.system, request.messages);
  const result = await generateText({
    model: request.model,
    instructions: cached.instructions,
    messages: cached.messages,
    // Each step moves the conversation's cache breakpoint to its newest message.
    prepareStep: ({ messages }) => ({ messages: withCacheBreakpoints(request.system, messages).messages }),
    tools: request.tools,
    abortSignal: request.signal,
    maxRetries: request.modelRetries,
    // Edits to one worktree are applied in the order the model asked for them.
    toolCallConcurrency: 1,
    stopWhen: [
      stepCountIs(request.remainingSteps),
      () => usage.inputTokens + usage.outputTokens >= request.remainingTokens,
      () => budgetExceeded !== null,
    ],
    onStepEnd: async (step: StepResult<ToolSet>) => {
      stepOffset += 1;
      const stepUsage = runUsageOf(step.usage);
      usage = addUsage(usage, stepUsage);
      budgetExceeded = request.budget.exceeded(addUsage(request.usageBefore, usage));
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
          usage: stepUsage,
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
    // A model that answered on the last affordable call finished its work: only a run cut short failed.
    budgetExceeded: answered ? null : budgetExceeded,
    steps: result.steps.length,
    usage,
    toolCalls,
    toolErrors,
  };
}

/** The AI SDK's usage of one model call, with cache reads and writes kept apart from the rest of the input. */
function runUsageOf(usage: LanguageModelUsage): RunUsage {
  return {
    inputTokens: usage.inputTokens ?? 0,
    outputTokens: usage.outputTokens ?? 0,
    cacheReadTokens: usage.inputTokenDetails?.cacheReadTokens ?? 0,
    cacheWriteTokens: usage.inputTokenDetails?.cacheWriteTokens ?? 0,
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
