/**
 * An automation: an instruction the agent carries out whenever its trigger fires (a change merged
 * into a branch, a schedule, or a person asking). Each firing starts an ordinary agent job whose
 * `trigger` field says what started it.
 */

/** A change merged into `branch` of `repository`; with `paths`, only when a changed file matches one. */
export interface MergeTrigger {
  type: 'merge';
  /** How the code host names the repository: `owner/name`, its URL, or a path on this machine. */
  repository: string;
  branch: string;
  /** Globs on the changed files' paths (`path.matchesGlob`); empty or absent: any change. */
  paths?: string[];
}

/** A cron expression (five fields, or six with seconds) read in an IANA time zone. */
export interface ScheduleTrigger {
  type: 'schedule';
  cron: string;
  timeZone: string;
}

export interface ManualTrigger {
  type: 'manual';
}

export type AutomationTrigger = MergeTrigger | ScheduleTrigger | ManualTrigger;
export type AutomationTriggerType = AutomationTrigger['type'];

/**
 * `pull-request-per-change`: every firing is a new job with its own pull request.
 * `continue-pull-request`: while the automation's latest job still has its pull request open, a later
 * firing becomes a follow-up of that job, on its branch.
 */
export type AutomationMode = 'pull-request-per-change' | 'continue-pull-request';
export const automationModes: readonly AutomationMode[] = [
  'pull-request-per-change',
  'continue-pull-request',
];

export interface AutomationLimits {
  /** Input plus output tokens one job of this automation may spend; null: no limit of its own. */
  maxTokensPerJob: number | null;
}

export interface Automation {
  id: string;
  projectId: string;
  name: string;
  enabled: boolean;
  trigger: AutomationTrigger;
  prompt: string;
  mode: AutomationMode;
  limits: AutomationLimits;
  scheduleAfter: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface AutomationRow {
  id: string;
  project_id: string;
  name: string;
  enabled: boolean;
  trigger: AutomationTrigger;
  prompt: string;
  mode: AutomationMode;
  limits: Partial<AutomationLimits>;
  schedule_after: Date | null;
  created_at: Date;
  updated_at: Date;
}

export function automationFromRow(row: AutomationRow): Automation {
  return {
    id: row.id,
    projectId: row.project_id,
    name: row.name,
    enabled: row.enabled,
    trigger: row.trigger,
    prompt: row.prompt,
    mode: row.mode,
    limits: { maxTokensPerJob: row.limits.maxTokensPerJob ?? null },
    scheduleAfter: row.schedule_after,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The public automation object (`GET /v2/agent/{projectId}/automations/{id}`). */
export interface AutomationResource {
  id: string;
  name: string;
  enabled: boolean;
  trigger: AutomationTrigger;
  prompt: string;
  mode: AutomationMode;
  limits: AutomationLimits;
  createdAt: string;
  updatedAt: string;
}

export function presentAutomation(automation: Automation): AutomationResource {
  return {
    id: automation.id,
    name: automation.name,
    enabled: automation.enabled,
    trigger: automation.trigger,
    prompt: automation.prompt,
    mode: automation.mode,
    limits: automation.limits,
    createdAt: automation.createdAt.toISOString(),
    updatedAt: automation.updatedAt.toISOString(),
  };
}
