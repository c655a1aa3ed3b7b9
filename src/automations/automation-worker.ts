/**
 * The automations' background work, in processes of the `worker` and `all` roles: stored code-host
 * webhooks processed from the queue, schedules checked every `scheduleIntervalMilliseconds`
 * against the clock (injected by tests), and the branches of local repositories polled every
 * `localRepositoryIntervalMilliseconds` for merges.
 */
import type pg from 'pg';
import type { PgBoss } from 'pg-boss';
import type { CodeHost, CodeHostProject } from '../code-hosts/code-host.ts';
import { createRunAnnouncer, hookDeliveryQueue } from '../queue/queue.ts';
import { replyToConversations } from './conversations/reply-to-conversations.ts';
import { fireDueSchedules } from './fire-schedules.ts';
import type { HookDeliveryRequest } from './hooks/hook-service.ts';
import { processHookDelivery } from './hooks/process-hook-delivery.ts';
import { fireLocalMerges } from './local/fire-local-merges.ts';

export interface AutomationWorkerOptions {
  pool: pg.Pool;
  boss: PgBoss;
  defaultModel: string | null;
  log: (message: string, error?: unknown) => void;
  now?: () => Date;
  /** How often schedules are checked; default 15 seconds (a slot fires at most that late). */
  scheduleIntervalMilliseconds?: number;
  /** The code host of a project: to answer pull-request conversations in, and to ask whether a pull request is open. */
  codeHostFor: (project: CodeHostProject) => CodeHost;
  /** How often ended conversations are answered; default 5 seconds. */
  replyIntervalMilliseconds?: number;
  /** How often local repositories' watched branches are read; default 10 seconds. */
  localRepositoryIntervalMilliseconds?: number;
}

export interface AutomationWorker {
  /** Checks the schedules now (the loop does it by itself; tests call it after moving their clock). */
  checkSchedules(): Promise<number>;
  /** Reads the watched branches of local repositories now and fires for new merges. */
  checkLocalRepositories(): Promise<number>;
  /** Answers the pull-request conversations whose runs have ended. */
  replyToConversations(): Promise<number>;
  stop(): Promise<void>;
}

export async function startAutomationWorker(options: AutomationWorkerOptions): Promise<AutomationWorker> {
  const { pool, boss } = options;
  const announceRun = createRunAnnouncer(pool);
  const fire = { boss, defaultModel: options.defaultModel ?? '', codeHostFor: options.codeHostFor };
  await boss.work<HookDeliveryRequest>(
    hookDeliveryQueue,
    { batchSize: 1, localConcurrency: 2, pollingIntervalSeconds: 1 },
    async ([queued]) => {
      if (!queued) return;
      try {
        if ((await processHookDelivery(pool, fire, queued.data.deliveryId)) > 0) announceRun();
      } catch (error: unknown) {
        options.log('processing a code-host webhook failed; the queue will retry it', error);
        throw error;
      }
    },
  );
  const now = options.now ?? (() => new Date());
  let checking: Promise<number> | null = null;
  const checkSchedules = async (): Promise<number> => {
    // One check at a time in a process; other processes are kept apart by the automation's row lock.
    while (checking) await checking.catch(() => 0);
    checking = fireDueSchedules(pool, fire, now());
    try {
      const fired = await checking;
      if (fired > 0) announceRun();
      return fired;
    } finally {
      checking = null;
    }
  };
  const timer = setInterval(() => {
    checkSchedules().catch((error: unknown) => options.log('checking automation schedules failed', error));
  }, options.scheduleIntervalMilliseconds ?? 15_000);
  timer.unref();
  let watching: Promise<number> | null = null;
  const checkLocalRepositories = async (): Promise<number> => {
    while (watching) await watching.catch(() => 0);
    watching = fireLocalMerges(pool, fire, options.log);
    try {
      const fired = await watching;
      if (fired > 0) announceRun();
      return fired;
    } finally {
      watching = null;
    }
  };
  const localTimer = setInterval(() => {
    checkLocalRepositories().catch((error: unknown) =>
      options.log('checking local repositories for merges failed', error),
    );
  }, options.localRepositoryIntervalMilliseconds ?? 10_000);
  localTimer.unref();
  let replying: Promise<number> | null = null;
  const reply = async (): Promise<number> => {
    while (replying) await replying.catch(() => 0);
    replying = replyToConversations(pool, { codeHostFor: options.codeHostFor, log: options.log });
    try {
      return await replying;
    } finally {
      replying = null;
    }
  };
  const replyTimer = setInterval(() => {
    reply().catch((error: unknown) => options.log('answering pull-request conversations failed', error));
  }, options.replyIntervalMilliseconds ?? 5_000);
  replyTimer.unref();
  return {
    replyToConversations: reply,
    checkSchedules,
    checkLocalRepositories,
    async stop() {
      clearInterval(timer);
      clearInterval(localTimer);
      clearInterval(replyTimer);
      await replying?.catch(() => 0);
      await checking?.catch(() => 0);
      await watching?.catch(() => 0);
      await boss.offWork(hookDeliveryQueue, { wait: true });
    },
  };
}
