/** Where each local merge automation's watch has got to: one SQL statement per function. */
import type { Queryable } from '../../db/database.ts';
import { type Automation, type AutomationRow, automationFromRow } from '../automation.ts';

export interface RefWatch {
  repository: string;
  branch: string;
  lastCommit: string;
}

/** Enabled merge automations of projects whose code host is `local`, with the project's repository. */
export async function listLocalMergeAutomations(
  db: Queryable,
): Promise<Array<{ automation: Automation; projectRepository: string | null }>> {
  const result = await db.query<AutomationRow & { project_repository: string | null }>(
    `SELECT automations.*, projects.repository AS project_repository
     FROM automations JOIN projects ON projects.id = automations.project_id
     WHERE automations.enabled AND automations.trigger->>'type' = 'merge' AND projects.code_host = 'local'
     ORDER BY automations.id`,
  );
  return result.rows.map((row) => ({
    automation: automationFromRow(row),
    projectRepository: row.project_repository,
  }));
}

export async function findRefWatch(db: Queryable, automationId: string): Promise<RefWatch | null> {
  const result = await db.query<{ repository: string; branch: string; last_commit: string }>(
    'SELECT repository, branch, last_commit FROM automation_ref_watches WHERE automation_id = $1',
    [automationId],
  );
  const row = result.rows[0];
  return row ? { repository: row.repository, branch: row.branch, lastCommit: row.last_commit } : null;
}

export async function saveRefWatch(db: Queryable, automationId: string, watch: RefWatch): Promise<void> {
  await db.query(
    `INSERT INTO automation_ref_watches (automation_id, repository, branch, last_commit)
     VALUES ($1, $2, $3, $4)
     ON CONFLICT (automation_id) DO UPDATE
       SET repository = $2, branch = $3, last_commit = $4, updated_at = now()`,
    [automationId, watch.repository, watch.branch, watch.lastCommit],
  );
}
