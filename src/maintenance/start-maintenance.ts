/**
 * Periodic maintenance of the database, run by the processes of the `all` and `worker` roles (an
 * `api` process serves requests only; every deployment has at least one worker for agent jobs):
 * - analytics retention: drops raw page-view partitions older than the configured months (daily);
 * - rollup packing: packs the page rollups of closed buckets (rollups/rollup-packer.ts);
 * - visitor folding: folds the visitor marks writers append into the sketches (every few seconds);
 * - pruning: deletes expired dashboard sessions, sign-in failures older than the lockout window and
 *   visitor salts of days before yesterday (hourly; writers also delete those when a day begins,
 *   but a project may receive no view for days).
 * Every task is idempotent, so several workers may run them at once.
 */
import type pg from 'pg';
import { deleteExpiredSessions } from '../accounts/session-store.ts';
import { defaultLockoutPolicy } from '../accounts/sign-in.ts';
import { deleteOldSignInFailures } from '../accounts/sign-in-failures.ts';
import { startRetention, startRollupPacking } from '../analytics/rollups/index.ts';
import { createVisitorIdentity, foldVisitorMarks } from '../analytics/visitors/index.ts';

const pruningIntervalMilliseconds = 3_600_000;
/** Pending marks cost every export that reads them; a few seconds keeps them few. */
const foldingIntervalMilliseconds = 3_000;

export interface Maintenance {
  stop(): Promise<void>;
}

export function startMaintenance(options: {
  pool: pg.Pool;
  retentionMonths: number;
  log: (message: string, error?: unknown) => void;
}): Maintenance {
  const { pool, log } = options;
  const retention = startRetention({ pool, months: options.retentionMonths, log });
  const packing = startRollupPacking({ pool, log });
  const visitorIdentity = createVisitorIdentity({ db: pool });
  const prune = () => {
    visitorIdentity.forgetOldSalts().catch((error: unknown) => log('forgetting visitor salts failed', error));
    deleteExpiredSessions(pool).catch((error: unknown) => log('pruning expired sessions failed', error));
    deleteOldSignInFailures(pool, defaultLockoutPolicy.windowSeconds).catch((error: unknown) =>
      log('pruning old sign-in failures failed', error),
    );
  };
  prune();
  const pruning = setInterval(prune, pruningIntervalMilliseconds);
  pruning.unref();
  let folding: Promise<void> = Promise.resolve();
  let foldingBusy = false;
  const fold = () => {
    if (foldingBusy) return;
    foldingBusy = true;
    folding = (async () => {
      // A bounded number of rounds per tick, so that stopping never waits long.
      for (let round = 0; round < 20 && (await foldVisitorMarks(pool)) > 0; round += 1);
    })()
      .catch((error: unknown) => log('folding visitor marks failed', error))
      .finally(() => {
        foldingBusy = false;
      });
  };
  const foldingTimer = setInterval(fold, foldingIntervalMilliseconds);
  foldingTimer.unref();
  return {
    async stop() {
      clearInterval(pruning);
      clearInterval(foldingTimer);
      await folding;
      retention.stop();
      await packing.stop();
    },
  };
}
