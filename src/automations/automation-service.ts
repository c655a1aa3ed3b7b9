/**
 * Automations as the edges (HTTP API, CLI through it, dashboard) use them: create, read, change,
 * delete, fire on demand, and each one's history of jobs.
 */
import type pg from 'pg';
import type { PgBoss } from 'pg-boss';
import { type AgentJob, presentAgentJob } from '../agent-jobs/agent-job.ts';
import {
  claimIdempotencyKey,
  type IdempotentRequest,
  storeIdempotentResponse,
} from '../agent-jobs/idempotency.ts';
import type { JobResponse } from '../agent-jobs/job-service.ts';
import { listAutomationJobs } from '../agent-jobs/job-store.ts';
import { assertWithinMonthlyBudget } from '../agent-jobs/monthly-budget.ts';
import type { CodeHost, CodeHostProject } from '../code-hosts/code-host.ts';
import { transaction } from '../db/database.ts';
import { ConflictError, NotFoundError } from '../errors.ts';
import { newId } from '../ids.ts';
import { createRunAnnouncer } from '../queue/queue.ts';
import type { Automation, AutomationLimits, AutomationMode, AutomationTrigger } from './automation.ts';
import { checkAutomationName, checkAutomationPrompt, checkTrigger } from './automation-checks.ts';
import {
  type AutomationChanges,
  deleteAutomation,
  findAutomation,
  insertAutomation,
  listAutomations,
  lockAutomation,
  updateAutomation,
} from './automation-store.ts';
import { fireAutomation } from './fire-automation.ts';

export interface AutomationInput {
  name: string;
  enabled?: boolean;
  trigger: AutomationTrigger;
  prompt: string;
  mode?: AutomationMode;
  limits?: Partial<AutomationLimits>;
}

export type AutomationPatch = Partial<AutomationInput>;

export interface AutomationServiceDependencies {
  pool: pg.Pool;
  boss: PgBoss;
  defaultModel: string | null;
  /** The code host of a project (continue-pull-request mode asks whether a pull request is open). */
  codeHostFor(project: CodeHostProject): CodeHost;
  /** The clock schedules start from; tests pass their own. */
  now?: () => Date;
}

export type AutomationService = ReturnType<typeof createAutomationService>;

function limitsOf(limits: Partial<AutomationLimits> | undefined): AutomationLimits {
  return { maxTokensPerJob: limits?.maxTokensPerJob ?? null };
}

export function createAutomationService({
  pool,
  boss,
  defaultModel,
  codeHostFor,
  now = () => new Date(),
}: AutomationServiceDependencies) {
  const announceRun = createRunAnnouncer(pool);

  async function get(projectId: string, id: string): Promise<Automation> {
    const automation = await findAutomation(pool, projectId, id);
    if (automation === null) throw new NotFoundError('Automation not found');
    return automation;
  }

  return {
    get,

    list: (projectId: string): Promise<Automation[]> => listAutomations(pool, projectId),

    async create(projectId: string, input: AutomationInput): Promise<Automation> {
      const trigger = checkTrigger(input.trigger);
      const created = await insertAutomation(pool, {
        projectId,
        name: checkAutomationName(input.name),
        enabled: input.enabled ?? true,
        trigger,
        prompt: checkAutomationPrompt(input.prompt),
        mode: input.mode ?? 'pull-request-per-change',
        limits: limitsOf(input.limits),
        scheduleAfter: trigger.type === 'schedule' ? now() : null,
      });
      if (created === null) throw new NotFoundError('Project not found');
      return created;
    },

    async update(projectId: string, id: string, patch: AutomationPatch): Promise<Automation> {
      const current = await get(projectId, id);
      const changes: AutomationChanges = {};
      if (patch.name !== undefined) changes.name = checkAutomationName(patch.name);
      if (patch.prompt !== undefined) changes.prompt = checkAutomationPrompt(patch.prompt);
      if (patch.mode !== undefined) changes.mode = patch.mode;
      if (patch.limits !== undefined) changes.limits = { ...current.limits, ...patch.limits };
      if (patch.enabled !== undefined) changes.enabled = patch.enabled;
      if (patch.trigger !== undefined) changes.trigger = checkTrigger(patch.trigger);
      // A schedule changed or switched back on counts from now: slots it missed while off do not fire.
      const trigger = changes.trigger ?? current.trigger;
      const switchedOn = patch.enabled === true && !current.enabled;
      if (trigger.type !== 'schedule') changes.scheduleAfter = null;
      else if (patch.trigger !== undefined || switchedOn || current.scheduleAfter === null)
        changes.scheduleAfter = now();
      const updated = await updateAutomation(pool, projectId, id, changes);
      if (updated === null) throw new NotFoundError('Automation not found');
      return updated;
    },

    async remove(projectId: string, id: string): Promise<void> {
      if (!(await deleteAutomation(pool, projectId, id))) throw new NotFoundError('Automation not found');
    },

    /** Fires the automation now (`POST .../automations/{id}/trigger`): 201 with the job it started or continued. */
    async trigger(
      projectId: string,
      id: string,
      idempotency: IdempotentRequest | null,
    ): Promise<JobResponse> {
      const response = await transaction(pool, async (client) => {
        if (idempotency) {
          const stored = await claimIdempotencyKey(client, idempotency);
          if (stored) return stored as JobResponse;
        }
        // After the key: a repeated request gets its first response, even past the budget.
        await assertWithinMonthlyBudget(client, projectId);
        const automation = await lockAutomation(client, id);
        if (automation === null || automation.projectId !== projectId) {
          throw new NotFoundError('Automation not found');
        }
        if (!automation.enabled) throw new ConflictError('This automation is disabled; enable it first');
        const fired = await fireAutomation(
          client,
          { boss, defaultModel: defaultModel ?? '', codeHostFor },
          automation,
          {
            type: 'manual',
            changeKey: `manual:${newId('run')}`,
            change: null,
            reason: 'Started by hand',
          },
        );
        if (fired === null) throw new Error('A fresh change key was already taken');
        const created: JobResponse = { status: 201, body: presentAgentJob(fired.job) };
        if (idempotency) await storeIdempotentResponse(client, idempotency, created);
        return created;
      });
      announceRun();
      return response;
    },

    /** The automation's jobs, newest first. */
    async history(projectId: string, id: string, limit = 50): Promise<AgentJob[]> {
      const automation = await get(projectId, id);
      return listAutomationJobs(pool, automation.id, limit);
    },
  };
}
