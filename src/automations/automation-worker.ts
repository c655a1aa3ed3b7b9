/**
 * The automations' background work, in processes of the `worker` and `all` roles: stored code-host
 * webhooks processed from the queue.
 */
import type pg from 'pg';
import type { PgBoss } from 'pg-boss';
import { createRunAnnouncer, hookDeliveryQueue } from '../queue/queue.ts';
import type { HookDeliveryRequest } from './hooks/hook-service.ts';
import { processHookDelivery } from './hooks/process-hook-delivery.ts';

export interface AutomationWorkerOptions {
  pool: pg.Pool;
  boss: PgBoss;
  defaultModel: string | null;
  log: (message: string, error?: unknown) => void;
}

export interface AutomationWorker {
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
  return {
    async stop() {
      await boss.offWork(hookDeliveryQueue, { wait: true });
    },
  };
}
