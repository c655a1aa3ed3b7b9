/**
 * The worker: takes agent runs and webhook deliveries from the queue. Each run gets its own abort
 * signal, fired when the job is archived (a notification from whichever process archived it) or
 * when the worker shuts down (the run is handed back to the queue for another worker).
 */
import type pg from 'pg';
import type { PgBoss } from 'pg-boss';
import type { Notifier } from '../db/notifier.ts';
import {
  type AgentRunRequest,
  agentRunQueue,
  agentRunRequestedChannel,
  webhookQueue,
} from '../queue/queue.ts';
import { deleteOldRateLimitCounters } from '../rate-limits/rate-limit.ts';
import type { SecretBox } from '../secrets/index.ts';
import { deliverWebhook, type WebhookDelivery } from '../webhooks/webhook-delivery.ts';
import type { AgentRunner } from './agent-runner.ts';
import { deleteExpiredIdempotencyKeys } from './idempotency.ts';
import { jobArchivedChannel } from './job-service.ts';
import { RunStoppedError, runAgentJob } from './run-job.ts';

export interface JobWorkerOptions {
  pool: pg.Pool;
  boss: PgBoss;
  notifier: Notifier;
  runner: AgentRunner;
  concurrency: number;
  timeoutSeconds: number;
  webhookAllowPrivate: boolean;
  /** Opens stored secrets (webhook signing secrets). */
  secrets: SecretBox;
  log: (message: string, fields?: Record<string, unknown>) => void;
}

export interface JobWorker {
  /** Stops taking work, aborts running agent runs (they go back to the queue) and waits for them. */
  stop(): Promise<void>;
}

export async function startJobWorker(options: JobWorkerOptions): Promise<JobWorker> {
  const running = new Map<string, AbortController>();
  const unsubscribe = await options.notifier.subscribe(jobArchivedChannel, (jobId) => {
    running.get(jobId)?.abort(new RunStoppedError('archived'));
  });
  const dependencies = {
    pool: options.pool,
    boss: options.boss,
    runner: options.runner,
    timeoutSeconds: options.timeoutSeconds,
    maximumRunFailures: 3,
  };

  // One pg-boss worker per concurrent run, so that a wake-up can reach every idle one.
  const runWorkerIds: string[] = [];
  const wakeRunWorkers = () => {
    for (const id of runWorkerIds) options.boss.notifyWorker(id);
  };
  for (let index = 0; index < options.concurrency; index += 1) {
    const id = await options.boss.work<AgentRunRequest>(
      agentRunQueue,
      { batchSize: 1, pollingIntervalSeconds: 2 },
      async ([queued]) => {
        if (!queued) return;
        const { jobId } = queued.data;
        const controller = new AbortController();
        const onQueueAbort = () => controller.abort(new RunStoppedError('shutdown'));
        queued.signal.addEventListener('abort', onQueueAbort, { once: true });
        running.set(jobId, controller);
        try {
          await runAgentJob(dependencies, jobId, controller.signal);
        } catch (error: unknown) {
          options.log('agent run failed; the queue will retry it', { jobId, error: String(error) });
          throw error;
        } finally {
          running.delete(jobId);
          queued.signal.removeEventListener('abort', onQueueAbort);
          // A follow-up queued during this run becomes fetchable once pg-boss settles this one.
          setTimeout(wakeRunWorkers, 25).unref();
        }
      },
    );
    runWorkerIds.push(id);
  }
  const stopListening = await options.notifier.subscribe(agentRunRequestedChannel, wakeRunWorkers);

  await options.boss.work<WebhookDelivery>(
    webhookQueue,
    { batchSize: 1, localConcurrency: 2, pollingIntervalSeconds: 2 },
    async ([queued]) => {
      if (queued)
        await deliverWebhook(options.pool, queued.data, {
          allowPrivateTargets: options.webhookAllowPrivate,
          secrets: options.secrets,
        });
    },
  );

  const housekeeping = setInterval(
    () => {
      deleteExpiredIdempotencyKeys(options.pool).catch(() => {});
      deleteOldRateLimitCounters(options.pool).catch(() => {});
    },
    60 * 60 * 1000,
  );
  housekeeping.unref();

  return {
    async stop() {
      clearInterval(housekeeping);
      unsubscribe();
      stopListening();
      for (const controller of running.values()) controller.abort(new RunStoppedError('shutdown'));
      await options.boss.offWork(agentRunQueue, { wait: true });
      await options.boss.offWork(webhookQueue, { wait: true });
    },
  };
}
