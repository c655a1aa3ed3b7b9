/** Pull-request conversations: comments that became follow-ups, and Quire's replies. One statement per function. */

import { type AgentJob, type AgentJobRow, agentJobFromRow } from '../../agent-jobs/agent-job.ts';
import type { Queryable } from '../../db/database.ts';

/** The project's job whose pull request is `url`, or whose branch is `branch`; the newest one. */
export async function findJobOfPullRequest(
  db: Queryable,
  projectId: string,
  url: string | null,
  branch: string | null,
): Promise<AgentJob | null> {
  const result = await db.query<AgentJobRow>(
    `SELECT * FROM agent_jobs
     WHERE project_id = $1 AND (pull_request_url = $2 OR branch = $3)
     ORDER BY created_at DESC, id DESC LIMIT 1`,
    [projectId, url, branch],
  );
  const row = result.rows[0];
  return row ? agentJobFromRow(row) : null;
}

/** Records that the job's newest message came from a comment on `pullRequestUrl`, to be answered there. */
export async function insertConversation(
  db: Queryable,
  jobId: string,
  pullRequestUrl: string,
): Promise<void> {
  await db.query(
    `INSERT INTO pull_request_conversations (message_id, job_id, pull_request_url)
     SELECT id, job_id, $2 FROM agent_job_messages WHERE job_id = $1
     ORDER BY created_at DESC, id DESC LIMIT 1`,
    [jobId, pullRequestUrl],
  );
}

export interface PendingReply {
  messageId: string;
  jobId: string;
  projectId: string;
  pullRequestUrl: string;
  jobStatus: string;
  jobError: string | null;
  /** The summary of the run that carried the message out; null when it failed or was cancelled. */
  summary: string | null;
}

/**
 * One conversation whose message was carried out (or failed) and whose job is not running, locked
 * for this transaction (others skip it), or null when none waits.
 */
export async function lockPendingReply(db: Queryable): Promise<PendingReply | null> {
  const result = await db.query<{
    message_id: string;
    job_id: string;
    project_id: string;
    pull_request_url: string;
    status: string;
    error: string | null;
    summary: string | null;
  }>(
    `SELECT conversation.message_id, conversation.job_id, agent_jobs.project_id,
            conversation.pull_request_url, agent_jobs.status, agent_jobs.error,
            -- The run that carried the message out: the last run-start naming it, and the run-end after it.
            (SELECT run_end.data->>'summary'
             FROM agent_job_events AS run_start
             JOIN agent_job_events AS run_end
               ON run_end.job_id = run_start.job_id AND run_end.type = 'run-end' AND run_end.id > run_start.id
             WHERE run_start.job_id = conversation.job_id AND run_start.type = 'run-start'
               AND run_start.data->'messageIds' ? conversation.message_id
             ORDER BY run_start.id DESC, run_end.id LIMIT 1) AS summary
     FROM pull_request_conversations AS conversation
     JOIN agent_job_messages AS message ON message.id = conversation.message_id
     JOIN agent_jobs ON agent_jobs.id = conversation.job_id
     WHERE conversation.replied_at IS NULL AND message.status <> 'pending' AND agent_jobs.status <> 'active'
     ORDER BY conversation.created_at
     LIMIT 1
     FOR UPDATE OF conversation SKIP LOCKED`,
  );
  const row = result.rows[0];
  if (row === undefined) return null;
  return {
    messageId: row.message_id,
    jobId: row.job_id,
    projectId: row.project_id,
    pullRequestUrl: row.pull_request_url,
    jobStatus: row.status,
    jobError: row.error,
    summary: row.summary,
  };
}

export async function markReplied(db: Queryable, messageId: string, outcome: string): Promise<void> {
  await db.query(
    'UPDATE pull_request_conversations SET replied_at = now(), outcome = $2 WHERE message_id = $1',
    [messageId, outcome],
  );
}
