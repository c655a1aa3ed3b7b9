/**
 * One firing of an automation: exactly one job per change. In the caller's transaction it claims
 * the change's key (a second firing for the same change finds it taken and does nothing), then
 * starts a job whose first message is the prompt and the change, or, in `continue-pull-request`
 * mode, adds the change as a follow-up of the automation's open job, when the code host says that
 * job's pull request is still open.
 */
import type pg from 'pg';
import type { PgBoss } from 'pg-boss';
import type { AgentJob, JobTrigger } from '../agent-jobs/agent-job.ts';
import { appendJobEvent } from '../agent-jobs/job-events.ts';
import { addFollowUp } from '../agent-jobs/job-service.ts';
import { insertQueuedJobs, listAutomationJobs, lockJob, setJobTrigger } from '../agent-jobs/job-store.ts';
import type { CodeHost, CodeHostProject, PullRequestState } from '../code-hosts/code-host.ts';
import { errorMessage } from '../errors.ts';
import { findProject } from '../projects/project-store.ts';
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
  /** The code host of a project, asked whether an open job's pull request is still open. */
  codeHostFor(project: CodeHostProject): CodeHost;
}

/** How long a firing waits for the code host's answer (its transaction holds the automation's lock). */
const pullRequestCheckMilliseconds = 15_000;

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
  // In the new job's trigger event: the pull request it was not a follow-up of, and why.
  let ended: Record<string, unknown> = {};
  if (automation.mode === 'continue-pull-request') {
    const open = await openJobOf(client, automation.id);
    const check = open === null ? null : await checkPullRequest(client, dependencies, automation, open);
    if (open !== null && check !== null && check.state !== 'open') {
      ended = { previousPullRequest: { jobId: open.id, url: open.pullRequestUrl, state: check.state } };
    } else if (open !== null) {
      const continued = await addFollowUp(client, dependencies.boss, open, message);
      await appendJobEvent(client, open.id, 'trigger', {
        ...trigger,
        ...(check?.error === undefined ? {} : { pullRequestCheck: check.error }),
      });
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
  await appendJobEvent(client, job.id, 'trigger', { ...trigger, ...ended });
  await recordChangeJob(client, automation.id, firing.changeKey, job.id);
  return { job, followUp: false };
}

/**
 * The automation's latest job, locked, when it may still take follow-ups: it is not archived or
 * failed, and it is running or has a pull request (whose state `checkPullRequest` then asks).
 * Archiving the job makes the next change start a new one too.
 */
async function openJobOf(client: pg.PoolClient, automationId: string): Promise<AgentJob | null> {
  const [latest] = await listAutomationJobs(client, automationId, 1);
  if (latest === undefined) return null;
  const job = await lockJob(client, latest.id);
  if (job === null || job.status === 'archived' || job.status === 'failed') return null;
  return job.status === 'active' || job.pullRequestUrl !== null ? job : null;
}

/**
 * The state of the open job's pull request, as its code host tells it; null when the job has none
 * yet (a first run still under way: the change joins it). When the code host cannot answer (down,
 * credentials refused), the change still joins the job as before, with the reason recorded: the
 * follow-up run publishes through the same code host and fails visibly if it is still unreachable,
 * whereas a new job per change would open pull requests beside one that may be open.
 */
async function checkPullRequest(
  client: pg.PoolClient,
  dependencies: FireDependencies,
  automation: Automation,
  job: AgentJob,
): Promise<{ state: PullRequestState; error?: string } | null> {
  if (job.pullRequestUrl === null) return null;
  try {
    const project = await findProject(client, automation.projectId);
    if (project === null) throw new Error(`The project of automation ${automation.id} is gone`);
    const state = await dependencies.codeHostFor(project).pullRequestState({
      url: job.pullRequestUrl,
      signal: AbortSignal.timeout(pullRequestCheckMilliseconds),
    });
    return { state };
  } catch (error: unknown) {
    return {
      state: 'open',
      error: `the pull request's state is unknown: ${errorMessage(error).slice(0, 300)}`,
    };
  }
}
