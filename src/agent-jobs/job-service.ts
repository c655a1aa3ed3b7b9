/**
 * The agent job use cases behind the HTTP routes: create, follow up, archive, read. Each change is
 * one transaction that updates the job, records its events, and queues the work it implies (a
 * run, a webhook), so a crash never leaves a job that says one thing and a queue that says another.
 */
import type pg from 'pg';
import type { PgBoss } from 'pg-boss';
import { transaction } from '../db/database.ts';
import { createGroupCommit } from '../db/group-commit.ts';
import { createNotifiedCache, type NotifiedCache } from '../db/notified-cache.ts';
import type { Notifier } from '../db/notifier.ts';
import { NotFoundError } from '../errors.ts';
import { createRunAnnouncer, enqueueAgentRun } from '../queue/queue.ts';
import { enqueueWebhook } from '../webhooks/webhook-delivery.ts';
import { type AgentJob, type AgentJobResource, presentAgentJob } from './agent-job.ts';
import { findMonthlySpend, type MonthlySpend, monthStart } from './budget-store.ts';
import { claimIdempotencyKey, type IdempotentRequest, storeIdempotentResponse } from './idempotency.ts';
import { appendJobEvent } from './job-events.ts';
import { type JobStatus, nextStatus } from './job-status.ts';
import {
  cancelPendingMessages,
  findJob,
  firstPrompts,
  insertMessage,
  insertQueuedJobs,
  type JobPage,
  listJobs,
  lockJob,
  type NewJob,
  setJobStatus,
} from './job-store.ts';
import { assertWithinMonthlyBudget, NoBudgetMemory } from './monthly-budget.ts';
import { checkPrompt } from './prompt.ts';

export const jobArchivedChannel = 'quire_agent_job_archived';
/** Notified on commit by a trigger whenever a job row changes (migration 0006). */
const jobChangedChannel = 'quire_agent_job_changed';

export interface JobServiceDependencies {
  pool: pg.Pool;
  boss: PgBoss;
  /** `QUIRE_MODEL`; a project's `model` setting overrides it. */
  defaultModel: string | null;
  /**
   * Recently read jobs, for polling clients; evicted here on this process's own changes and by
   * `jobChangedChannel` on everyone's. Null to read every job from the database.
   */
  cache?: NotifiedCache<AgentJob> | null;
}

/** A job cache for `createJobService`, evicted by the database's change notifications. */
export async function createJobCache(notifier: Notifier): Promise<NotifiedCache<AgentJob>> {
  const cache = createNotifiedCache<AgentJob>(notifier, { ttlMilliseconds: 60_000, maximumEntries: 50_000 });
  await notifier.subscribe(jobChangedChannel, (jobId) => cache.evict(jobId));
  return cache;
}

/**
 * Adds a follow-up message to a job locked by the caller's transaction (`lockJob`), makes it
 * active and queues its run; an archived job is a 409 (`nextStatus`). Automations use it too.
 */
export async function addFollowUp(
  client: pg.PoolClient,
  boss: PgBoss,
  job: AgentJob,
  prompt: string,
): Promise<AgentJob> {
  const status = nextStatus(job.status, { type: 'message' });
  const message = await insertMessage(client, job.id, prompt);
  await appendJobEvent(client, job.id, 'message-create', { messageId: message.id, prompt });
  let updated = job;
  if (status !== job.status) {
    await appendJobEvent(client, job.id, 'status-change', { from: job.status, to: status });
    updated = await setJobStatus(client, job.id, status, { error: null });
  }
  await enqueueAgentRun(boss, client, job.id);
  return updated;
}

export interface JobResponse {
  status: number;
  body: AgentJobResource;
}

export type JobService = ReturnType<typeof createJobService>;

export function createJobService({ pool, boss, defaultModel, cache = null }: JobServiceDependencies) {
  const announceRun = createRunAnnouncer(pool);
  const model = defaultModel ?? '';
  // Group commit: while a few creations are in flight, the next ones queue and go in one statement.
  const creations = createGroupCommit<NewJob, AgentJob | null>({
    commit: (jobs) => insertQueuedJobs(pool, jobs, model),
    concurrency: 2,
    maximumGroupSize: 100,
  });
  function created(job: AgentJob | null): JobResponse {
    if (job === null) throw new NotFoundError('Project not found');
    return { status: 201, body: presentAgentJob(job) };
  }
  async function idempotent(
    client: pg.PoolClient,
    request: IdempotentRequest | null,
    work: () => Promise<JobResponse>,
  ): Promise<JobResponse> {
    if (request) {
      const stored = await claimIdempotencyKey(client, request);
      if (stored) return stored as JobResponse;
    }
    const response = await work();
    if (request) await storeIdempotentResponse(client, request, response);
    return response;
  }

  const noBudget = new NoBudgetMemory();
  return {
    async create(
      projectId: string,
      prompt: string,
      idempotency: IdempotentRequest | null = null,
    ): Promise<JobResponse> {
      checkPrompt(prompt);
      // An Idempotency-Key needs a transaction around the creation; without one, creations
      // arriving together share a statement. The budget is checked only when something is created:
      // a repeated request still gets its first response.
      let response: JobResponse;
      if (idempotency) {
        response = await transaction(pool, (client) =>
          idempotent(client, idempotency, async () => {
            await assertWithinMonthlyBudget(client, projectId);
            return created((await insertQueuedJobs(client, [{ projectId, prompt }], model))[0] ?? null);
          }),
        );
      } else {
        await assertWithinMonthlyBudget(pool, projectId, new Date(), noBudget);
        response = created(await creations.submit({ projectId, prompt }));
      }
      announceRun();
      return response;
    },

    async message(
      projectId: string,
      id: string,
      prompt: string,
      idempotency: IdempotentRequest | null = null,
    ): Promise<JobResponse> {
      checkPrompt(prompt);
      const response = await transaction(pool, (client) =>
        idempotent(client, idempotency, async () => {
          await assertWithinMonthlyBudget(client, projectId);
          const job = await lockJob(client, id);
          if (job === null || job.projectId !== projectId) throw new NotFoundError('Agent job not found');
          return { status: 200, body: presentAgentJob(await addFollowUp(client, boss, job, prompt)) };
        }),
      );
      cache?.evict(id);
      announceRun();
      return response;
    },

    /** Archives the job and stops its running work; archiving twice changes nothing. */
    async archive(projectId: string, id: string): Promise<AgentJob> {
      const archived = await transaction(pool, async (client) => {
        const job = await lockJob(client, id);
        if (job === null || job.projectId !== projectId) throw new NotFoundError('Agent job not found');
        if (job.status === 'archived') return job;
        const archived = await setJobStatus(client, job.id, nextStatus(job.status, { type: 'archive' }));
        await cancelPendingMessages(client, job.id);
        await appendJobEvent(client, job.id, 'status-change', { from: job.status, to: archived.status });
        await enqueueWebhook(boss, client, projectId, 'agent_job.archived', presentAgentJob(archived));
        // Delivered on commit to every worker; the one running this job aborts it.
        await client.query('SELECT pg_notify($1, $2)', [jobArchivedChannel, job.id]);
        return archived;
      });
      cache?.evict(id);
      return archived;
    },

    async get(projectId: string, id: string): Promise<AgentJob> {
      const cached = cache?.get(id);
      if (cached && cached.projectId === projectId) return cached;
      const generation = cache?.generation() ?? 0;
      const job = await findJob(pool, projectId, id);
      if (job === null) throw new NotFoundError('Agent job not found');
      cache?.set(id, job, generation);
      return job;
    },

    list(
      projectId: string,
      options: { status: JobStatus | null; limit: number; after: { createdAt: Date; id: string } | null },
    ): Promise<JobPage> {
      return listJobs(pool, projectId, options);
    },

    /** The project's monthly budget and its runs' estimated cost this calendar month (UTC). */
    async monthlySpend(projectId: string): Promise<MonthlySpend> {
      return (
        (await findMonthlySpend(pool, projectId, monthStart(new Date()))) ?? { budgetUsd: null, spentUsd: 0 }
      );
    },

    /** The first prompt of each job, by job id (a job list's titles). */
    firstPrompts(jobIds: string[]): Promise<Map<string, string>> {
      return firstPrompts(pool, jobIds);
    },
  };
}
