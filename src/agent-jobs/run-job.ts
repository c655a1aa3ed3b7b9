/**
 * One run of an agent job, as the queue hands it to a worker: take the job's pending messages,
 * let the agent carry them out, and record the outcome. A run ends the job `completed` (or keeps
 * it `active` when more messages arrived meanwhile), `failed` for errors that retrying cannot fix,
 * or throws so that the queue retries it with backoff.
 */
import type pg from 'pg';
import type { PgBoss } from 'pg-boss';
import { transaction } from '../db/database.ts';
import { errorMessage, isQuireError } from '../errors.ts';
import { findProject } from '../projects/project-store.ts';
import { enqueueAgentRun } from '../queue/queue.ts';
import { enqueueWebhook } from '../webhooks/webhook-delivery.ts';
import { presentAgentJob } from './agent-job.ts';
import type { AgentRunner, AgentRunOutcome } from './agent-runner.ts';
import { findJobBudgetFacts, monthStart, recordRunUsage } from './budget-store.ts';
import { appendJobEvent } from './job-events.ts';
import { nextStatus } from './job-status.ts';
import {
  type AgentJobMessage,
  countRunFailure,
  findJobById,
  lockJob,
  pendingMessages,
  recordRunResult,
  setJobStatus,
  settleMessages,
} from './job-store.ts';
import { createRunBudget, isBudgetExceededError, type RunBudget, tokenLimitOf } from './run-budget.ts';
import { estimateCost, priceOf, projectPricesOf, type RunUsage } from './run-usage.ts';

export interface RunJobDependencies {
  pool: pg.Pool;
  boss: PgBoss;
  runner: AgentRunner;
  timeoutSeconds: number;
  /** Transient failures in a row after which the job fails for good. */
  maximumRunFailures: number;
  /** The clock monthly budgets are read with (tests move it). */
  now?: () => Date;
}

/** Why a run was stopped from outside. */
export type StopReason = 'archived' | 'shutdown' | 'timeout';

export class RunStoppedError extends Error {
  readonly reason: StopReason;
  constructor(reason: StopReason) {
    super(`The run was stopped: ${reason}`);
    this.name = 'RunStoppedError';
    this.reason = reason;
  }
}

export async function runAgentJob(
  dependencies: RunJobDependencies,
  jobId: string,
  stop: AbortSignal,
): Promise<void> {
  const { pool } = dependencies;
  const job = await findJobById(pool, jobId);
  if (job === null || job.status !== 'active') return; // archived, settled, or gone: nothing to do
  const messages = await pendingMessages(pool, jobId);
  if (messages.length === 0) return finishRun(dependencies, jobId, [], null);

  const project = await findProject(pool, job.projectId);
  if (job.model === '') {
    return failJob(
      dependencies,
      jobId,
      'No model is configured: set QUIRE_MODEL (for example anthropic:claude-sonnet-4-5) and the provider key, or the project model setting',
    );
  }
  if (project === null || project.repository === null) {
    return failJob(
      dependencies,
      jobId,
      'This project has no repository: set one with `quire project update <id> --repository <url-or-path>`',
    );
  }

  const price = priceOf(job.model, projectPricesOf(project.settings));
  const budget = await runBudgetOf(dependencies, job, project.settings, price);
  const costOf = (usage: RunUsage) => estimateCost(usage, price);
  // A project already past a budget does not start another model call.
  const before = budget.exceeded({
    inputTokens: 0,
    outputTokens: 0,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
  });
  if (before !== null) return failJob(dependencies, jobId, before);

  const timeout = AbortSignal.timeout(dependencies.timeoutSeconds * 1000);
  const signal = AbortSignal.any([stop, timeout]);
  await appendJobEvent(pool, jobId, 'run-start', { messageIds: messages.map((message) => message.id) });
  let outcome: AgentRunOutcome;
  try {
    outcome = await dependencies.runner.run({
      job: {
        id: job.id,
        projectId: job.projectId,
        model: job.model,
        branch: job.branch,
        prLink: job.pullRequestUrl,
      },
      project: {
        id: project.id,
        name: project.name,
        repository: project.repository,
        ref: job.ref,
        codeHost: project.codeHost,
        settings: project.settings,
      },
      messages: messages.map((message) => ({
        id: message.id,
        prompt: message.prompt,
        createdAt: message.createdAt,
      })),
      history: job.history,
      budget,
      signal,
      emit: (event) => appendJobEvent(pool, jobId, event.type, event.data),
    });
  } catch (error: unknown) {
    const reason = stopReason(stop, timeout);
    if (reason === 'archived') return;
    if (reason === 'shutdown') throw new RunStoppedError('shutdown'); // handed back to the queue
    if (reason === 'timeout') {
      return failJob(
        dependencies,
        jobId,
        `The run exceeded its time limit of ${dependencies.timeoutSeconds} seconds`,
      );
    }
    if (isBudgetExceededError(error)) {
      await recordRunUsage(pool, job, error.usage, costOf(error.usage));
      return failJob(dependencies, jobId, error.message);
    }
    if (isQuireError(error) && error.code === 'non_retriable')
      return failJob(dependencies, jobId, error.message);
    const failures = await countRunFailure(pool, jobId);
    await appendJobEvent(pool, jobId, 'run-error', { message: errorMessage(error), failures });
    if (failures >= dependencies.maximumRunFailures) {
      return failJob(
        dependencies,
        jobId,
        `The agent failed ${failures} times in a row; last error: ${errorMessage(error)}`,
      );
    }
    throw error;
  }
  await finishRun(dependencies, jobId, messages, outcome, costOf(outcome.usage));
}

async function runBudgetOf(
  dependencies: RunJobDependencies,
  job: { id: string; projectId: string; automationId: string | null },
  settings: Record<string, unknown>,
  price: ReturnType<typeof priceOf>,
): Promise<RunBudget> {
  const now = dependencies.now?.() ?? new Date();
  const facts = await findJobBudgetFacts(dependencies.pool, job.id, monthStart(now));
  return createRunBudget({
    projectId: job.projectId,
    automationId: job.automationId,
    jobTokens: facts?.jobTokens ?? 0,
    automationMaxTokens: tokenLimitOf(facts?.automationMaxTokens),
    projectMaxTokens: tokenLimitOf(settings.maxTokensPerJob),
    monthlyBudgetUsd: facts?.budgetUsd ?? null,
    spentThisMonthUsd: facts?.spentUsd ?? 0,
    price,
  });
}

function stopReason(stop: AbortSignal, timeout: AbortSignal): StopReason | null {
  if (stop.aborted) return stop.reason instanceof RunStoppedError ? stop.reason.reason : 'shutdown';
  if (timeout.aborted) return 'timeout';
  return null;
}

async function finishRun(
  dependencies: RunJobDependencies,
  jobId: string,
  messages: AgentJobMessage[],
  outcome: AgentRunOutcome | null,
  estimatedCost = 0,
): Promise<void> {
  await transaction(dependencies.pool, async (client) => {
    const job = await lockJob(client, jobId);
    if (job === null) return;
    if (outcome) await recordRunUsage(client, job, outcome.usage, estimatedCost);
    await settleMessages(
      client,
      messages.map((message) => message.id),
      'processed',
    );
    if (job.status !== 'active') return; // archived during the run: the result is not published
    const morePending = (await pendingMessages(client, jobId)).length > 0;
    const status = nextStatus(job.status, { type: 'run-succeed', morePending });
    const finished = await recordRunResult(client, jobId, status, {
      history: outcome?.history ?? job.history,
      branch: outcome?.branch ?? job.branch,
      pullRequestUrl: outcome ? (outcome.prLink ?? job.pullRequestUrl) : job.pullRequestUrl,
    });
    if (outcome) {
      await appendJobEvent(client, jobId, 'run-end', {
        summary: outcome.summary,
        prLink: finished.pullRequestUrl,
        usage: { ...outcome.usage, estimatedCost },
      });
    }
    if (morePending) {
      await enqueueAgentRun(dependencies.boss, client, jobId);
      return;
    }
    await appendJobEvent(client, jobId, 'status-change', { from: 'active', to: status });
    await enqueueWebhook(
      dependencies.boss,
      client,
      job.projectId,
      'agent_job.completed',
      presentAgentJob(finished),
    );
  });
}

async function failJob(dependencies: RunJobDependencies, jobId: string, message: string): Promise<void> {
  await transaction(dependencies.pool, async (client) => {
    const job = await lockJob(client, jobId);
    if (job === null || job.status !== 'active') return;
    const failedMessages = await pendingMessages(client, jobId);
    await settleMessages(
      client,
      failedMessages.map((pending) => pending.id),
      'failed',
    );
    const failed = await setJobStatus(client, jobId, nextStatus(job.status, { type: 'run-fail' }), {
      error: message,
    });
    await appendJobEvent(client, jobId, 'status-change', { from: 'active', to: 'failed', error: message });
    await enqueueWebhook(
      dependencies.boss,
      client,
      job.projectId,
      'agent_job.failed',
      presentAgentJob(failed),
    );
  });
}
