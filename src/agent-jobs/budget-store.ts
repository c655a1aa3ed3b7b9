/** What budgets are checked against: one SQL statement per function. */
import type { Queryable } from '../db/database.ts';
import type { RunUsage } from './run-usage.ts';

/** The first instant of the calendar month (UTC) that `now` falls in: monthly budgets reset then. */
export function monthStart(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
}

export function nextMonthStart(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
}

export interface MonthlySpend {
  /** The project's `monthlyBudgetUsd` setting; null when it has none. */
  budgetUsd: number | null;
  /** Estimated cost of the project's runs since `monthStart`, in US dollars. */
  spentUsd: number;
}

/** The project's monthly budget and what its runs cost since `since`; null when there is no such project. */
export async function findMonthlySpend(
  db: Queryable,
  projectId: string,
  since: Date,
): Promise<MonthlySpend | null> {
  const result = await db.query<{ budget: string | null; spent: string }>({
    name: 'find-monthly-spend',
    text: `SELECT CASE WHEN jsonb_typeof(settings->'monthlyBudgetUsd') = 'number'
                  THEN (settings->>'monthlyBudgetUsd')::numeric END AS budget,
                  (SELECT coalesce(sum(estimated_cost), 0) FROM agent_run_usage
                   WHERE project_id = $1 AND created_at >= $2) AS spent
           FROM projects WHERE id = $1`,
    values: [projectId, since],
  });
  const row = result.rows[0];
  if (row === undefined) return null;
  return { budgetUsd: row.budget === null ? null : Number(row.budget), spentUsd: Number(row.spent) };
}

export interface JobBudgetFacts extends MonthlySpend {
  /** Tokens the job's earlier runs used. */
  jobTokens: number;
  /** The token budget per job of the job's automation, if it has one. */
  automationMaxTokens: number | null;
}

/** A job's budgets and what was spent against them, in one statement; null when the job is gone. */
export async function findJobBudgetFacts(
  db: Queryable,
  jobId: string,
  since: Date,
): Promise<JobBudgetFacts | null> {
  const result = await db.query<{
    budget: string | null;
    spent: string;
    job_tokens: string;
    automation_max_tokens: string | null;
  }>(
    `SELECT CASE WHEN jsonb_typeof(projects.settings->'monthlyBudgetUsd') = 'number'
              THEN (projects.settings->>'monthlyBudgetUsd')::numeric END AS budget,
            (SELECT coalesce(sum(estimated_cost), 0) FROM agent_run_usage
             WHERE project_id = projects.id AND created_at >= $2) AS spent,
            agent_jobs.input_tokens + agent_jobs.output_tokens AS job_tokens,
            CASE WHEN jsonb_typeof(automations.limits->'maxTokensPerJob') = 'number'
              THEN (automations.limits->>'maxTokensPerJob')::numeric END AS automation_max_tokens
     FROM agent_jobs
     JOIN projects ON projects.id = agent_jobs.project_id
     LEFT JOIN automations ON automations.id = agent_jobs.automation_id
     WHERE agent_jobs.id = $1`,
    [jobId, since],
  );
  const row = result.rows[0];
  if (row === undefined) return null;
  return {
    budgetUsd: row.budget === null ? null : Number(row.budget),
    spentUsd: Number(row.spent),
    jobTokens: Number(row.job_tokens),
    automationMaxTokens: row.automation_max_tokens === null ? null : Number(row.automation_max_tokens),
  };
}

/**
 * Adds a run's usage to its job and to the project's monthly ledger (whether the run succeeded
 * or stopped on a budget: both were billed).
 */
export async function recordRunUsage(
  db: Queryable,
  job: { id: string; projectId: string },
  usage: RunUsage,
  estimatedCost: number,
): Promise<void> {
  await db.query(
    `WITH job AS (
       UPDATE agent_jobs
       SET input_tokens = input_tokens + $3, output_tokens = output_tokens + $4,
           cache_read_tokens = cache_read_tokens + $5, cache_write_tokens = cache_write_tokens + $6,
           estimated_cost = estimated_cost + $7
       WHERE id = $1
     )
     INSERT INTO agent_run_usage (project_id, job_id, input_tokens, output_tokens,
       cache_read_tokens, cache_write_tokens, estimated_cost)
     VALUES ($2, $1, $3, $4, $5, $6, $7)`,
    [
      job.id,
      job.projectId,
      usage.inputTokens,
      usage.outputTokens,
      usage.cacheReadTokens,
      usage.cacheWriteTokens,
      estimatedCost,
    ],
  );
}
