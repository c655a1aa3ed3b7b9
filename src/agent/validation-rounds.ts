import type { LanguageModel, ModelMessage, ToolSet } from 'ai';
import type { AgentEvent } from '../agent-jobs/agent-runner.ts';
import type { SiteProblem } from '../docs-site/index.ts';
import type { AgentLimits } from './agent-limits.ts';
import { runToolLoop, type ToolLoopUsage } from './run-tool-loop.ts';
import { formatValidation, type SiteValidation } from './site-session.ts';

/** How the rounds ended. Only `answered` leads to a pull request; the runner decides what the others mean. */
export type RoundsEnding =
  | { kind: 'answered'; summary: string; problems: SiteProblem[] }
  | { kind: 'token-budget-used'; used: number }
  | { kind: 'step-budget-used' };

export interface RoundsOutcome {
  ending: RoundsEnding;
  steps: number;
  usage: ToolLoopUsage;
}

export interface RoundsRequest {
  model: LanguageModel;
  system: string;
  /** The conversation so far; the rounds append to it. */
  messages: ModelMessage[];
  tools: ToolSet;
  limits: AgentLimits;
  signal: AbortSignal;
  emit(event: AgentEvent): Promise<void>;
  /** Whether the run changed any file (nothing to validate otherwise). */
  changedFiles(): boolean;
  validate(): Promise<SiteValidation>;
}

/**
 * The tool loop in validation rounds: when the model answers after changing files, validation runs,
 * and its problems go back to the model, a bounded number of times. Model errors are thrown as they
 * come (the runner classifies them); everything else ends as data.
 */
export async function runValidationRounds(request: RoundsRequest): Promise<RoundsOutcome> {
  const { limits, messages } = request;
  const usage = { inputTokens: 0, outputTokens: 0 };
  let steps = 0;
  for (let round = 0; ; round += 1) {
    const result = await runToolLoop({
      model: request.model,
      system: request.system,
      messages,
      tools: request.tools,
      remainingSteps: limits.maximumSteps - steps,
      remainingTokens: limits.maximumTokens - usage.inputTokens - usage.outputTokens,
      modelRetries: limits.modelRetries,
      signal: request.signal,
      emit: request.emit,
    });
    messages.push(...result.responseMessages);
    steps += result.steps;
    usage.inputTokens += result.usage.inputTokens;
    usage.outputTokens += result.usage.outputTokens;
    if (!result.answered) {
      const used = usage.inputTokens + usage.outputTokens;
      const ending: RoundsEnding =
        used >= limits.maximumTokens ? { kind: 'token-budget-used', used } : { kind: 'step-budget-used' };
      return { ending, steps, usage };
    }
    if (!request.changedFiles())
      return { ending: { kind: 'answered', summary: result.text, problems: [] }, steps, usage };
    const validation = await request.validate();
    const lastRound = round >= limits.maximumValidationRounds || steps >= limits.maximumSteps;
    if (validation.problems.length === 0 || lastRound) {
      return {
        ending: { kind: 'answered', summary: result.text, problems: validation.problems },
        steps,
        usage,
      };
    }
    messages.push({
      role: 'user',
      content: `Validation found problems in your changes. Fix them, then answer with your summary again.\n\n${formatValidation(validation)}`,
    });
  }
}
