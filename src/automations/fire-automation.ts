/**
 * One firing of an automation: exactly one job per change. In the caller's transaction it claims
 * the change's key (a second firing for the same change finds it taken and does nothing), then
 * starts a job whose first message is the prompt and the change, or, in `continue-pull-request`
 * mode, adds the change as a follow-up of the automation's open job.
 */
import type pg from 'pg';
import type { PgBoss } from 'pg-boss';
import type { AgentJob, JobTrigger } from '../agent-jobs/agent-job.ts';
import { appendJobEvent } from '../agent-jobs/job-events.ts';
import { addFollowUp } from '../agent-jobs/job-service.ts';
import { insertQueuedJobs, listAutomationJobs, lockJob, setJobTrigger } from '../agent-jobs/job-store.ts';
import type { Automation } from './automation.ts';
import { claimChange, recordChangeJob } from './automation-store.ts';
import { type CodeChange, firstMessageOf } from './code-change.ts';

export interface Firing {
  type: JobTrigger['type'];
  /** What makes two firings the same change: `commit:<sha>`, `schedule:<slot>`, `manual:<id>`. */
  changeKey: string;
  change: CodeChange | null;
  /** One sentence for the agent: why this run started ("A change was merged into main"). */
  reason: string;
}

export interface FireDependencies {
  boss: PgBoss;
  /** `QUIRE_MODEL`; a project's `model` setting overrides it. */
  defaultModel: string;
}

export interface Fired {
  job: AgentJob;
  /** True when the change became a follow-up of the automation's open job. */
  followUp: boolean;
}

/** The started (or continued) job; null when this change was already fired for. */
export async function fireAutomation(
  client: pg.PoolClient,
  dependencies: FireDependencies,
  automation: Automation,
  firing: Firing,
): Promise<Fired | null> {
  if (!(await claimChange(client, automation.id, firing.changeKey))) return null;
  const message = firstMessageOf(automation.prompt, firing.change, firing.reason);
  const trigger: JobTrigger = {
    type: firing.type,
    automationId: automation.id,
    source: {
      url: firing.change?.url ?? null,
      commit: firing.change?.commit ?? null,
      title: firing.change?.title ?? null,
    },
  };
  if (automation.mode === 'continue-pull-request') {
    const open = await openJobOf(client, automation.id);
    if (open !== null) {
      const continued = await addFollowUp(client, dependencies.boss, open, message);
      await appendJobEvent(client, open.id, 'trigger', { ...trigger });
      await recordChangeJob(client, automation.id, firing.changeKey, open.id);
      return { job: continued, followUp: true };
    }
  }
  const [created] = await insertQueuedJobs(
    client,
    [{ projectId: automation.projectId, prompt: message }],
    dependencies.defaultModel,
  );
  if (!created) throw new Error(`The project of automation ${automation.id} is gone`);
  const job = await setJobTrigger(client, created.id, automation.id, trigger);
  await appendJobEvent(client, job.id, 'trigger', { ...trigger });
  await recordChangeJob(client, automation.id, firing.changeKey, job.id);
  return { job, followUp: false };
}

/**
 * The automation's latest job, locked, when its pull request is taken to be still open: it is not
 * archived or failed, and it is running or has a pull request. Archiving the job (or merging its
 * pull request and archiving it) makes the next change start a new one.
 */
async function openJobOf(client: pg.PoolClient, automationId: string): Promise<AgentJob | null> {
  const [latest] = await listAutomationJobs(client, automationId, 1);
  if (latest === undefined) return null;
  const job = await lockJob(client, latest.id);
  if (job === null || job.status === 'archived' || job.status === 'failed') return null;
  return job.status === 'active' || job.pullRequestUrl !== null ? job : null;
}
