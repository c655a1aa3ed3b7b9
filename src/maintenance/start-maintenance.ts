/**
 * Periodic maintenance of the database, run by the processes of the `all` and `worker` roles (an
 * `api` process serves requests only; every deployment has at least one worker for agent jobs):
 * - analytics retention: drops raw page-view partitions older than the configured months (daily);
 * - rollup packing: packs the page rollups of closed buckets (rollups/rollup-packer.ts);
 * - visitors: folds the visitor marks writers append into the day sketches (every few seconds),
 *   compacts the marks of hours that are over and packs the counts of days that are over (every
 *   minute);
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
import {
  compactAndPackVisitors,
  createVisitorIdentity,
  foldAllVisitorMarks,
} from '../analytics/visitors/index.ts';

const pruningIntervalMilliseconds = 3_600_000;
/**
 * An export folds what is pending for its project first, so this only keeps that work small; each
 * fold rewrites the day sketches it touches, so folding more often costs ingestion more.
 */
const foldingIntervalMilliseconds = 10_000;
const visitorPackingIntervalMilliseconds = 60_000;

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
  const stopping = new AbortController();
  /** One run of a task at a time; a tick while it runs is skipped. */
  const serial = (task: () => Promise<unknown>, failure: string) => {
    let running: Promise<void> | null = null;
    return {
      run() {
        running ??= task()
          .then(
            () => {},
            (error: unknown) => log(failure, error),
          )
          .finally(() => {
            running = null;
          });
      },
      finished: () => running ?? Promise.resolve(),
    };
  };
  const folding = serial(() => foldAllVisitorMarks(pool), 'folding visitor marks failed');
  const visitorPacking = serial(
    () => compactAndPackVisitors(pool, { signal: stopping.signal }),
    'compacting and packing visitors failed',
  );
  const foldingTimer = setInterval(folding.run, foldingIntervalMilliseconds);
  foldingTimer.unref();
  const visitorPackingTimer = setInterval(visitorPacking.run, visitorPackingIntervalMilliseconds);
  visitorPackingTimer.unref();
  return {
    async stop() {
      clearInterval(pruning);
      clearInterval(foldingTimer);
      clearInterval(visitorPackingTimer);
      stopping.abort();
      await folding.finished();
      await visitorPacking.finished();
      retention.stop();
      await packing.stop();
    },
  };
}
