/**
 * The budgets a run is held to: the job's token budget (its automation's `limits.maxTokensPerJob`,
 * else the project's `maxTokensPerJob` setting) and the project's monthly budget in US dollars
 * (`monthlyBudgetUsd`). The agent asks `exceeded` after every model call and stops the run on the
 * first answer that is not null; the answer says which budget and how to raise it.
 */
import { NonRetriableError } from '../errors.ts';
import { estimateCost, type ModelPrice, type RunUsage, totalTokens } from './run-usage.ts';

export interface RunBudget {
  /** Why the run must stop after using `usage` (this run's alone), or null while it may go on. */
  exceeded(usage: RunUsage): string | null;
}

export const unlimitedBudget: RunBudget = Object.freeze({ exceeded: () => null });

/** A run stopped on a budget: non-retriable, and it carries what the run used (it was billed). */
export class BudgetExceededError extends NonRetriableError {
  readonly usage: RunUsage;
  constructor(message: string, usage: RunUsage) {
    super(message);
    this.usage = usage;
  }
}

export function isBudgetExceededError(error: unknown): error is BudgetExceededError {
  return error instanceof BudgetExceededError;
}

export interface RunBudgetFacts {
  projectId: string;
  automationId: string | null;
  /** Tokens the job's earlier runs used. */
  jobTokens: number;
  automationMaxTokens: number | null;
  projectMaxTokens: number | null;
  monthlyBudgetUsd: number | null;
  spentThisMonthUsd: number;
  price: ModelPrice | null;
}

export function createRunBudget(facts: RunBudgetFacts): RunBudget {
  const jobLimit = facts.automationMaxTokens ?? facts.projectMaxTokens;
  return {
    exceeded(usage) {
      if (jobLimit !== null) {
        const used = facts.jobTokens + totalTokens(usage);
        if (used >= jobLimit) {
          const raise =
            facts.automationMaxTokens !== null
              ? `raise the automation's limits.maxTokensPerJob (PATCH /v2/agent/${facts.projectId}/automations/${facts.automationId}, or \`quire automation update\`)`
              : `raise it with \`quire project update ${facts.projectId} --max-tokens-per-job <tokens>\` or on the dashboard's settings page`;
          return `The job's token budget of ${jobLimit} tokens is used up (${used} used); ${raise}, then send a follow-up message to continue`;
        }
      }
      if (facts.monthlyBudgetUsd !== null) {
        const spent = facts.spentThisMonthUsd + estimateCost(usage, facts.price);
        if (spent >= facts.monthlyBudgetUsd) {
          return `The project's monthly budget of $${facts.monthlyBudgetUsd.toFixed(2)} is used up ($${spent.toFixed(2)} estimated this month); raise it with \`quire project update ${facts.projectId} --monthly-budget <usd>\` or on the dashboard's settings page`;
        }
      }
      return null;
    },
  };
}

/** A positive whole number of tokens from a setting; null for anything else (no limit). */
export function tokenLimitOf(value: unknown): number | null {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : null;
}
