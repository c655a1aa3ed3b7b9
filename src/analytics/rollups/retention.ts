/**
 * Raw-event retention: drops the monthly partitions older than the configured number of months,
 * at start and then daily, in every API process (dropping is idempotent). Rollups are kept.
 */
import type pg from 'pg';
import { dropMonthPartitionsBefore } from '../storage/index.ts';

const dayMilliseconds = 86_400_000;

/** The first instant of the month `months` before the month of `now`, UTC. */
export function retentionCutoff(now: number, months: number): number {
  const date = new Date(now);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() - months, 1);
}

export function startRetention(options: {
  pool: pg.Pool;
  months: number;
  log: (message: string, error?: unknown) => void;
}): { stop(): void } {
  const run = () => {
    dropMonthPartitionsBefore(options.pool, retentionCutoff(Date.now(), options.months)).then(
      (dropped) => {
        if (dropped.length > 0) options.log(`analytics retention dropped ${dropped.join(', ')}`);
      },
      (error: unknown) => options.log('analytics retention failed', error),
    );
  };
  run();
  const timer = setInterval(run, dayMilliseconds);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
