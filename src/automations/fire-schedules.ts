/**
 * Firing due schedules, called by the automation worker's loop with its clock. Each automation is
 * locked while its slot is decided, the slot's key (`schedule:<ISO instant>`) is claimed once, and
 * `schedule_after` moves to now: several worker processes never fire one slot twice, and slots
 * missed while no worker ran collapse into one firing.
 */
import type pg from 'pg';
import { transaction } from '../db/database.ts';
import { advanceSchedule, listEnabledSchedules, lockAutomation } from './automation-store.ts';
import { type FireDependencies, fireAutomation } from './fire-automation.ts';
import { dueSlot } from './schedule.ts';

/** Fires every schedule due at `now`; returns how many jobs were started or continued. */
export async function fireDueSchedules(
  pool: pg.Pool,
  dependencies: FireDependencies,
  now: Date,
): Promise<number> {
  let fired = 0;
  for (const candidate of await listEnabledSchedules(pool)) {
    if (candidate.trigger.type !== 'schedule' || candidate.scheduleAfter === null) continue;
    if (dueSlot(candidate.trigger.cron, candidate.trigger.timeZone, candidate.scheduleAfter, now) === null)
      continue;
    const started = await transaction(pool, async (client) => {
      const automation = await lockAutomation(client, candidate.id);
      if (automation === null || !automation.enabled || automation.trigger.type !== 'schedule') return false;
      if (automation.scheduleAfter === null) return false;
      const { cron, timeZone } = automation.trigger;
      const slot = dueSlot(cron, timeZone, automation.scheduleAfter, now);
      if (slot === null) return false; // another process fired it meanwhile
      const result = await fireAutomation(client, dependencies, automation, {
        type: 'schedule',
        changeKey: `schedule:${slot.toISOString()}`,
        change: null,
        reason: `Started by the schedule "${cron}" (${timeZone}) for ${slot.toISOString()}`,
      });
      await advanceSchedule(client, automation.id, now);
      return result !== null;
    });
    if (started) fired += 1;
  }
  return fired;
}
