/** Automations and the changes they fired for: one SQL statement per function. */
import type { Queryable } from '../db/database.ts';
import { newId } from '../ids.ts';
import {
  type Automation,
  type AutomationLimits,
  type AutomationMode,
  type AutomationRow,
  type AutomationTrigger,
  automationFromRow,
} from './automation.ts';

/** An automation before it is stored; `scheduleAfter`: for a schedule, slots after this instant fire. */
export type NewAutomation = Omit<Automation, 'id' | 'createdAt' | 'updatedAt'>;

/** Null when there is no such project. */
export async function insertAutomation(db: Queryable, automation: NewAutomation): Promise<Automation | null> {
  const result = await db.query<AutomationRow>(
    `INSERT INTO automations (id, project_id, name, enabled, trigger, prompt, mode, limits, schedule_after)
     SELECT $1, projects.id, $3, $4, $5::jsonb, $6, $7, $8::jsonb, $9 FROM projects WHERE projects.id = $2
     RETURNING *`,
    [
      newId('aut'),
      automation.projectId,
      automation.name,
      automation.enabled,
      JSON.stringify(automation.trigger),
      automation.prompt,
      automation.mode,
      JSON.stringify(automation.limits),
      automation.scheduleAfter,
    ],
  );
  const row = result.rows[0];
  return row ? automationFromRow(row) : null;
}

export async function findAutomation(
  db: Queryable,
  projectId: string,
  id: string,
): Promise<Automation | null> {
  const result = await db.query<AutomationRow>(
    'SELECT * FROM automations WHERE id = $1 AND project_id = $2',
    [id, projectId],
  );
  const row = result.rows[0];
  return row ? automationFromRow(row) : null;
}

/** Reads the automation and locks it to the end of the transaction: firings of one automation queue. */
export async function lockAutomation(db: Queryable, id: string): Promise<Automation | null> {
  const result = await db.query<AutomationRow>('SELECT * FROM automations WHERE id = $1 FOR UPDATE', [id]);
  const row = result.rows[0];
  return row ? automationFromRow(row) : null;
}

/** A project's automations, oldest first (a project has a handful, not thousands). */
export async function listAutomations(db: Queryable, projectId: string): Promise<Automation[]> {
  const result = await db.query<AutomationRow>(
    'SELECT * FROM automations WHERE project_id = $1 ORDER BY created_at, id LIMIT 500',
    [projectId],
  );
  return result.rows.map(automationFromRow);
}

/** The enabled automations of a project with this trigger type. */
export async function listEnabledAutomations(
  db: Queryable,
  projectId: string,
  type: AutomationTrigger['type'],
): Promise<Automation[]> {
  const result = await db.query<AutomationRow>(
    `SELECT * FROM automations WHERE project_id = $1 AND enabled AND trigger->>'type' = $2 ORDER BY created_at, id`,
    [projectId, type],
  );
  return result.rows.map(automationFromRow);
}

/** Every enabled schedule, across projects (the maintenance loop's work list). */
export async function listEnabledSchedules(db: Queryable): Promise<Automation[]> {
  const result = await db.query<AutomationRow>(
    `SELECT * FROM automations WHERE enabled AND trigger->>'type' = 'schedule' ORDER BY id`,
  );
  return result.rows.map(automationFromRow);
}

export interface AutomationChanges {
  name?: string;
  enabled?: boolean;
  trigger?: AutomationTrigger;
  prompt?: string;
  mode?: AutomationMode;
  limits?: AutomationLimits;
  /** Set when the trigger changes or a schedule is enabled again: no slot before it fires. */
  scheduleAfter?: Date | null;
}

export async function updateAutomation(
  db: Queryable,
  projectId: string,
  id: string,
  changes: AutomationChanges,
): Promise<Automation | null> {
  const result = await db.query<AutomationRow>(
    `UPDATE automations
     SET name = coalesce($3, name),
         enabled = coalesce($4, enabled),
         trigger = coalesce($5::jsonb, trigger),
         prompt = coalesce($6, prompt),
         mode = coalesce($7, mode),
         limits = coalesce($8::jsonb, limits),
         schedule_after = CASE WHEN $9 THEN $10 ELSE schedule_after END,
         updated_at = now()
     WHERE id = $1 AND project_id = $2
     RETURNING *`,
    [
      id,
      projectId,
      changes.name ?? null,
      changes.enabled ?? null,
      changes.trigger === undefined ? null : JSON.stringify(changes.trigger),
      changes.prompt ?? null,
      changes.mode ?? null,
      changes.limits === undefined ? null : JSON.stringify(changes.limits),
      'scheduleAfter' in changes,
      changes.scheduleAfter ?? null,
    ],
  );
  const row = result.rows[0];
  return row ? automationFromRow(row) : null;
}

export async function deleteAutomation(db: Queryable, projectId: string, id: string): Promise<boolean> {
  const result = await db.query('DELETE FROM automations WHERE id = $1 AND project_id = $2', [id, projectId]);
  return result.rowCount === 1;
}

/**
 * Claims a change for an automation; false when it was claimed before (a redelivered webhook, a
 * push beside its pull request's merge event, another process firing the same schedule slot).
 */
export async function claimChange(db: Queryable, automationId: string, changeKey: string): Promise<boolean> {
  const result = await db.query(
    `INSERT INTO automation_changes (automation_id, change_key) VALUES ($1, $2)
     ON CONFLICT DO NOTHING RETURNING 1`,
    [automationId, changeKey],
  );
  return result.rowCount === 1;
}

export async function recordChangeJob(
  db: Queryable,
  automationId: string,
  changeKey: string,
  jobId: string,
): Promise<void> {
  await db.query('UPDATE automation_changes SET job_id = $3 WHERE automation_id = $1 AND change_key = $2', [
    automationId,
    changeKey,
    jobId,
  ]);
}

/** Moves a schedule past the slot it fired, if no other process moved it further already. */
export async function advanceSchedule(db: Queryable, id: string, firedSlot: Date): Promise<void> {
  await db.query('UPDATE automations SET schedule_after = greatest(schedule_after, $2) WHERE id = $1', [
    id,
    firedSlot,
  ]);
}
