import type { JobStatus } from './job-status.ts';

/** What started a job an automation started (null for jobs people started). */
export interface JobTrigger {
  type: 'merge' | 'schedule' | 'manual';
  automationId: string;
  /** The change: its URL, commit and title, each null when the trigger has none (a schedule). */
  source: { url: string | null; commit: string | null; title: string | null };
}

export interface AgentJob {
  id: string;
  projectId: string;
  status: JobStatus;
  repository: string | null;
  ref: string;
  model: string;
  branch: string | null;
  pullRequestUrl: string | null;
  error: string | null;
  history: unknown[];
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  /** US dollars, from the price table when each run ended. */
  estimatedCost: number;
  runFailures: number;
  automationId: string | null;
  trigger: JobTrigger | null;
  createdAt: Date;
  updatedAt: Date;
  archivedAt: Date | null;
}

export interface AgentJobRow {
  id: string;
  project_id: string;
  status: JobStatus;
  repository: string | null;
  ref: string;
  model: string;
  branch: string | null;
  pull_request_url: string | null;
  error: string | null;
  history: unknown[];
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens: number;
  cache_write_tokens: number;
  /** numeric: pg returns it as text. */
  estimated_cost: string;
  run_failures: number;
  automation_id: string | null;
  trigger: JobTrigger | null;
  created_at: Date;
  updated_at: Date;
  archived_at: Date | null;
}

/**
 * `AgentJobRow`'s columns, listed for named statements: a prepared statement's result must keep
 * its shape when a later migration adds a column, or PostgreSQL refuses to run it again on that
 * connection ("cached plan must not change result type") until the process restarts.
 */
export const agentJobColumns =
  'id, project_id, status, repository, ref, model, branch, pull_request_url, error, history, input_tokens, ' +
  'output_tokens, cache_read_tokens, cache_write_tokens, estimated_cost, run_failures, automation_id, ' +
  'trigger, created_at, updated_at, archived_at';

export function agentJobFromRow(row: AgentJobRow): AgentJob {
  return {
    id: row.id,
    projectId: row.project_id,
    status: row.status,
    repository: row.repository,
    ref: row.ref,
    model: row.model,
    branch: row.branch,
    pullRequestUrl: row.pull_request_url,
    error: row.error,
    history: row.history,
    inputTokens: row.input_tokens,
    outputTokens: row.output_tokens,
    cacheReadTokens: row.cache_read_tokens,
    cacheWriteTokens: row.cache_write_tokens,
    estimatedCost: Number(row.estimated_cost),
    runFailures: row.run_failures,
    automationId: row.automation_id,
    trigger: row.trigger,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    archivedAt: row.archived_at,
  };
}

/** Tokens a job's runs used so far, and their estimated cost in US dollars (src/agent-jobs/model-prices.json). */
export interface JobUsage {
  /** All input tokens, those read from the provider's prompt cache included. */
  inputTokens: number;
  outputTokens: number;
  /** Input tokens read from the provider's prompt cache (billed at a lower price). */
  cachedInputTokens: number;
  estimatedCost: number;
}

/** The public job object (SEED-SPEC "Agent job", plus `branch`, `error`, `updatedAt`, `trigger`, `usage`). */
export interface AgentJobResource {
  id: string;
  status: JobStatus;
  source: { repository: string; ref: string };
  model: string;
  prLink: string | null;
  createdAt: string;
  archivedAt: string | null;
  updatedAt: string;
  branch: string | null;
  error: string | null;
  trigger: JobTrigger | null;
  usage: JobUsage;
}

// Cached jobs are presented again at every poll; a job object never changes once read (a change
// is a new read), so its presentation is kept beside it.
const presented = new WeakMap<AgentJob, AgentJobResource>();

export function presentAgentJob(job: AgentJob): AgentJobResource {
  let resource = presented.get(job);
  if (resource === undefined) {
    resource = {
      id: job.id,
      status: job.status,
      source: { repository: job.repository ?? '', ref: job.ref },
      model: job.model,
      // The spec: null while the job is active, or when no file was changed.
      prLink: job.status === 'active' ? null : job.pullRequestUrl,
      createdAt: job.createdAt.toISOString(),
      archivedAt: job.archivedAt?.toISOString() ?? null,
      updatedAt: job.updatedAt.toISOString(),
      branch: job.branch,
      error: job.error,
      trigger: job.trigger,
      usage: {
        inputTokens: job.inputTokens,
        outputTokens: job.outputTokens,
        cachedInputTokens: job.cacheReadTokens,
        estimatedCost: job.estimatedCost,
      },
    };
    presented.set(job, resource);
  }
  return resource;
}
