/**
 * Schedule triggers: cron expressions read in an IANA time zone by croner
 * (https://github.com/hexagon/croner#pattern: five fields, or six with seconds first; `L`, `W`, `#`
 * and names of months and weekdays are allowed).
 */
import { Cron } from 'croner';
import { InvalidInputError } from '../errors.ts';

/** Runs cost model tokens: a schedule fires at most once a minute. */
const minimumIntervalMilliseconds = 60_000;

function cronOf(expression: string, timeZone: string): Cron {
  return new Cron(expression, { timezone: timeZone, paused: true });
}

function checkTimeZone(timeZone: string): string {
  try {
    new Intl.DateTimeFormat('en', { timeZone });
  } catch {
    throw new InvalidInputError(
      `Unknown time zone "${timeZone}"; use an IANA name such as Europe/Berlin or UTC`,
    );
  }
  return timeZone;
}

/** Throws `InvalidInputError` for a cron expression croner cannot read or one firing more than once a minute. */
export function checkSchedule(expression: string, timeZone: string): void {
  checkTimeZone(timeZone);
  let cron: Cron;
  try {
    cron = cronOf(expression, timeZone);
  } catch (error: unknown) {
    throw new InvalidInputError(
      `Invalid cron expression: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const [first, second] = cron.nextRuns(2, new Date());
  if (first === undefined) throw new InvalidInputError('This cron expression never fires');
  if (second !== undefined && second.getTime() - first.getTime() < minimumIntervalMilliseconds) {
    throw new InvalidInputError('A schedule fires at most once a minute');
  }
}

/**
 * The slot to fire now: the first one after `after` if it is not later than `now`, else null.
 * Slots missed while no worker ran collapse into this one (the caller moves `after` to `now`).
 */
export function dueSlot(expression: string, timeZone: string, after: Date, now: Date): Date | null {
  const next = cronOf(expression, timeZone).nextRun(after);
  return next !== null && next.getTime() <= now.getTime() ? next : null;
}
