/**
 * The automations' background work, in processes of the `worker` and `all` roles: stored code-host
 * webhooks processed from the queue, and schedules checked every `scheduleIntervalMilliseconds`
 * against the clock (injected by tests).
 */
import type pg from 'pg';
import type { PgBoss } from 'pg-boss';
import { createRunAnnouncer, hookDeliveryQueue } from '../queue/queue.ts';
import { fireDueSchedules } from './fire-schedules.ts';
import type { HookDeliveryRequest } from './hooks/hook-service.ts';
import { processHookDelivery } from './hooks/process-hook-delivery.ts';

export interface AutomationWorkerOptions {
  pool: pg.Pool;
  boss: PgBoss;
  defaultModel: string | null;
  log: (message: string, error?: unknown) => void;
  now?: () => Date;
  /** How often schedules are checked; default 15 seconds (a slot fires at most that late). */
  scheduleIntervalMilliseconds?: number;
}

export interface AutomationWorker {
  /** Checks the schedules now (the loop does it by itself; tests call it after moving their clock). */
  checkSchedules(): Promise<number>;
  stop(): Promise<void>;
}

export async function startAutomationWorker(options: AutomationWorkerOptions): Promise<AutomationWorker> {
  const { pool, boss } = options;
  const announceRun = createRunAnnouncer(pool);
  const fire = { boss, defaultModel: options.defaultModel ?? '' };
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
  return {
    checkSchedules,
    async stop() {
      clearInterval(timer);
      await checking?.catch(() => 0);
      await boss.offWork(hookDeliveryQueue, { wait: true });
    },
  };
}
