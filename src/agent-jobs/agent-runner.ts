/**
 * The seam between the job runner (this folder) and the agent (src/agent/).
 *
 * The runner owns the job's state, queue, retries and limits; the agent owns the work: "run this
 * job's pending messages, report events, return the outcome". An agent run is idempotent with
 * respect to publishing (it finds an existing branch and pull request before creating one), so
 * the runner may retry a run that failed with a transient error.
 *
 * Errors: throw `NonRetriableError` (src/errors.ts) for failures that retrying cannot fix (missing
 * model configuration, rejected credentials, a project without a repository); a run stopped by
 * `input.budget` throws `BudgetExceededError` (src/agent-jobs/run-budget.ts) with what it used.
 * Any other error is treated as transient and the run is retried with backoff.
 */

import type { Project } from '../projects/project.ts';
import type { RunBudget } from './run-budget.ts';
import type { RunUsage } from './run-usage.ts';

/** The project an agent runs on (src/projects/project.ts); settings never reach the model. */
export type AgentRunProject = Pick<Project, 'id' | 'name' | 'repository' | 'ref' | 'codeHost' | 'settings'>;

export interface AgentRunJob {
  id: string;
  projectId: string;
  /** `<provider>:<model-id>`, as shown in the job's `model` field. */
  model: string;
  /** The working branch, null until the first run has chosen it. */
  branch: string | null;
  /** The pull request of an earlier run of this job, if any. */
  prLink: string | null;
}

export interface AgentRunMessage {
  id: string;
  prompt: string;
  createdAt: Date;
}

/** One step of the run, appended to the job's event log (`GET .../job/{id}/events`). */
export interface AgentEvent {
  /** Noun-verb, such as `tool-call`, `tool-result`, `validation-end`, `commit-create`, `pull-request-open`. */
  type: string;
  data: Record<string, unknown>;
}

export interface AgentRunInput {
  job: AgentRunJob;
  project: AgentRunProject;
  /** The messages to carry out, oldest first; at least one. */
  messages: AgentRunMessage[];
  /** The conversation of earlier runs (as returned in `AgentRunOutcome.history`), empty at first. */
  history: unknown[];
  /** The job's and the project's budgets, asked after every model call. */
  budget: RunBudget;
  /** Aborted on archive, on the run's wall-clock limit and on shutdown. */
  signal: AbortSignal;
  emit(event: AgentEvent): Promise<void>;
}

export interface AgentRunOutcome {
  /** The whole conversation so far, persisted as JSON and handed back on the next run. */
  history: unknown[];
  branch: string | null;
  /** The pull request that holds the job's changes, null when no file ever changed. */
  prLink: string | null;
  /** The model's final answer for this run. */
  summary: string;
  usage: RunUsage;
}

export interface AgentRunner {
  run(input: AgentRunInput): Promise<AgentRunOutcome>;
}
