/** Agent jobs and their messages: one SQL statement per function. */
import type { Queryable } from '../db/database.ts';
import { newId } from '../ids.ts';
import { agentRunInsertSql } from '../queue/queue.ts';
import {
  type AgentJob,
  type AgentJobRow,
  agentJobColumns,
  agentJobFromRow,
  type JobTrigger,
} from './agent-job.ts';
import type { JobStatus } from './job-status.ts';

export interface NewJob {
  projectId: string;
  prompt: string;
}

/**
 * Creates jobs, each from its project (repository, ref, model) with its first message, the first
 * two events and its queued run, all in one statement (atomic without a transaction: the hot path
 * of job creation saves BEGIN and COMMIT, and under load many creations share it). Returns one
 * entry per new job, in order: null when there is no such project. A project's `model` setting
 * wins over `defaultModel`.
 */
export async function insertQueuedJobs(
  db: Queryable,
  jobs: readonly NewJob[],
  defaultModel: string,
): Promise<Array<AgentJob | null>> {
  const jobIds = jobs.map(() => newId('job'));
  const result = await db.query<AgentJobRow>({
    name: 'insert-queued-jobs',
    text: `WITH input AS (
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) WITH ORDINALITY
           AS input (job_id, project_id, message_id, prompt, position)
       ), job AS (
         INSERT INTO agent_jobs (id, project_id, status, repository, ref, model)
         SELECT input.job_id, projects.id, 'active', projects.repository, projects.ref,
           coalesce(nullif(projects.settings->>'model', ''), $5)
         FROM input JOIN projects ON projects.id = input.project_id
         ORDER BY input.position
         RETURNING *
       ), message AS (
         INSERT INTO agent_job_messages (id, job_id, prompt)
         SELECT input.message_id, job.id, input.prompt FROM job JOIN input ON input.job_id = job.id
         ORDER BY input.position
         RETURNING id, job_id, prompt
       ), events AS (
         INSERT INTO agent_job_events (job_id, type, data)
         SELECT job.id, event.type, event.data
         FROM job JOIN input ON input.job_id = job.id JOIN message ON message.job_id = job.id,
           LATERAL (VALUES
             (1, 'job-create', jsonb_build_object('status', 'active', 'model', job.model)),
             (2, 'message-create', jsonb_build_object('messageId', message.id, 'prompt', message.prompt))
           ) AS event (position, type, data)
         ORDER BY input.position, event.position
       ), run AS (
         ${agentRunInsertSql('job', 'job.id')}
       )
       SELECT ${agentJobColumns} FROM job`,
    values: [
      jobIds,
      jobs.map((job) => job.projectId),
      jobs.map(() => newId('msg')),
      jobs.map((job) => job.prompt),
      defaultModel,
    ],
  });
  const created = new Map(result.rows.map((row) => [row.id, agentJobFromRow(row)]));
  return jobIds.map((id) => created.get(id) ?? null);
}

export async function findJob(db: Queryable, projectId: string, id: string): Promise<AgentJob | null> {
  const result = await db.query<AgentJobRow>({
    name: 'find-agent-job',
    text: `SELECT ${agentJobColumns} FROM agent_jobs WHERE id = $1 AND project_id = $2`,
    values: [id, projectId],
  });
  const row = result.rows[0];
  return row ? agentJobFromRow(row) : null;
}

/** The job by id alone, for the worker (the queue entry names no project). */
export async function findJobById(db: Queryable, id: string): Promise<AgentJob | null> {
  const result = await db.query<AgentJobRow>('SELECT * FROM agent_jobs WHERE id = $1', [id]);
  const row = result.rows[0];
  return row ? agentJobFromRow(row) : null;
}

/**
 * Reads the job and locks its row until the transaction ends: transitions are serialised per job.
 * NO KEY UPDATE, not UPDATE: inserting a message or an event checks its foreign key with a KEY
 * SHARE lock on this row, which FOR UPDATE would block (and, with the event lock, deadlock).
 */
export async function lockJob(db: Queryable, id: string): Promise<AgentJob | null> {
  const result = await db.query<AgentJobRow>('SELECT * FROM agent_jobs WHERE id = $1 FOR NO KEY UPDATE', [
    id,
  ]);
  const row = result.rows[0];
  return row ? agentJobFromRow(row) : null;
}

export interface JobPage {
  jobs: AgentJob[];
  /** Set when more jobs exist after this page. */
  next: { createdAt: Date; id: string } | null;
}

/** Newest first; `after` is the last job of the previous page. */
export async function listJobs(
  db: Queryable,
  projectId: string,
  options: { status: JobStatus | null; limit: number; after: { createdAt: Date; id: string } | null },
): Promise<JobPage> {
  const result = await db.query<AgentJobRow>(
    `SELECT * FROM agent_jobs
     WHERE project_id = $1
       AND ($2::text IS NULL OR status = $2)
       AND ($3::timestamptz IS NULL OR (created_at, id) < ($3, $4))
     ORDER BY created_at DESC, id DESC
     LIMIT $5`,
    [projectId, options.status, options.after?.createdAt ?? null, options.after?.id ?? '', options.limit + 1],
  );
  const jobs = result.rows.slice(0, options.limit).map(agentJobFromRow);
  const last = jobs.at(-1);
  return {
    jobs,
    next: result.rows.length > options.limit && last ? { createdAt: last.createdAt, id: last.id } : null,
  };
}

export async function setJobStatus(
  db: Queryable,
  id: string,
  status: JobStatus,
  fields: { error?: string | null } = {},
): Promise<AgentJob> {
  const result = await db.query<AgentJobRow>(
    `UPDATE agent_jobs
     SET status = $2,
         error = CASE WHEN $3 THEN $4 ELSE error END,
         archived_at = CASE WHEN $2 = 'archived' THEN coalesce(archived_at, now()) ELSE archived_at END,
         run_failures = CASE WHEN $2 = 'active' THEN run_failures ELSE 0 END,
         updated_at = now()
     WHERE id = $1
     RETURNING *`,
    [id, status, 'error' in fields, fields.error ?? null],
  );
  return agentJobFromRow(result.rows[0]!);
}

export interface RunResult {
  history: unknown[];
  branch: string | null;
  pullRequestUrl: string | null;
}

/** Records what a successful run produced and sets the job's next status (its usage: `recordRunUsage`). */
export async function recordRunResult(
  db: Queryable,
  id: string,
  status: JobStatus,
  run: RunResult,
): Promise<AgentJob> {
  const result = await db.query<AgentJobRow>(
    `UPDATE agent_jobs
     SET status = $2, history = $3::jsonb, branch = $4, pull_request_url = $5,
         error = NULL, run_failures = 0, updated_at = now()
     WHERE id = $1
     RETURNING *`,
    [id, status, JSON.stringify(run.history), run.branch, run.pullRequestUrl],
  );
  return agentJobFromRow(result.rows[0]!);
}

/** Counts a transient failure of the current run; returns how many there have been in a row. */
export async function countRunFailure(db: Queryable, id: string): Promise<number> {
  const result = await db.query<{ run_failures: number }>(
    'UPDATE agent_jobs SET run_failures = run_failures + 1, updated_at = now() WHERE id = $1 RETURNING run_failures',
    [id],
  );
  return result.rows[0]?.run_failures ?? 0;
}

export interface AgentJobMessage {
  id: string;
  jobId: string;
  prompt: string;
  createdAt: Date;
}

export async function insertMessage(db: Queryable, jobId: string, prompt: string): Promise<AgentJobMessage> {
  const result = await db.query<{ id: string; created_at: Date }>(
    'INSERT INTO agent_job_messages (id, job_id, prompt) VALUES ($1, $2, $3) RETURNING id, created_at',
    [newId('msg'), jobId, prompt],
  );
  const row = result.rows[0]!;
  return { id: row.id, jobId, prompt, createdAt: row.created_at };
}

export async function pendingMessages(db: Queryable, jobId: string): Promise<AgentJobMessage[]> {
  const result = await db.query<{ id: string; prompt: string; created_at: Date }>(
    `SELECT id, prompt, created_at FROM agent_job_messages
     WHERE job_id = $1 AND status = 'pending'
     ORDER BY sequence`,
    [jobId],
  );
  return result.rows.map((row) => ({ id: row.id, jobId, prompt: row.prompt, createdAt: row.created_at }));
}

export async function settleMessages(
  db: Queryable,
  ids: string[],
  status: 'processed' | 'failed' | 'cancelled',
): Promise<void> {
  await db.query(
    `UPDATE agent_job_messages SET status = $2, processed_at = now() WHERE id = ANY($1) AND status = 'pending'`,
    [ids, status],
  );
}

export async function cancelPendingMessages(db: Queryable, jobId: string): Promise<void> {
  await db.query(
    `UPDATE agent_job_messages SET status = 'cancelled', processed_at = now() WHERE job_id = $1 AND status = 'pending'`,
    [jobId],
  );
}

/** Each job's first instruction (its title in lists), for a page of jobs. */
export async function firstPrompts(db: Queryable, jobIds: string[]): Promise<Map<string, string>> {
  const result = await db.query<{ job_id: string; prompt: string }>(
    `SELECT DISTINCT ON (job_id) job_id, prompt FROM agent_job_messages
     WHERE job_id = ANY($1) ORDER BY job_id, sequence`,
    [jobIds],
  );
  return new Map(result.rows.map((row) => [row.job_id, row.prompt]));
}

/** Marks a job as started by an automation (in the transaction that created it). */
export async function setJobTrigger(
  db: Queryable,
  jobId: string,
  automationId: string,
  trigger: JobTrigger,
): Promise<AgentJob> {
  const result = await db.query<AgentJobRow>(
    'UPDATE agent_jobs SET automation_id = $2, trigger = $3::jsonb WHERE id = $1 RETURNING *',
    [jobId, automationId, JSON.stringify(trigger)],
  );
  return agentJobFromRow(result.rows[0]!);
}

/** An automation's jobs, newest first (its history). */
export async function listAutomationJobs(
  db: Queryable,
  automationId: string,
  limit: number,
): Promise<AgentJob[]> {
  const result = await db.query<AgentJobRow>(
    'SELECT * FROM agent_jobs WHERE automation_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2',
    [automationId, limit],
  );
  return result.rows.map(agentJobFromRow);
}
