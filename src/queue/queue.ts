/**
 * The durable queue (pg-boss, in the `pgboss` schema of the same database). Queue entries only
 * say "run job X" or "deliver this webhook"; the rows they point to are the source of truth.
 * Sending takes the caller's transaction, so an entry exists exactly when the work it announces
 * was committed.
 */
import type pg from 'pg';
import { type ConstructorOptions, PgBoss } from 'pg-boss';
import { type Queryable, quireTypeParsers } from '../db/database.ts';

export const agentRunQueue = 'agent-job-run';
export const webhookQueue = 'webhook-delivery';
/** Webhooks received from code hosts (src/automations/hooks/), each processed once after it was stored. */
export const hookDeliveryQueue = 'hook-delivery';

export interface AgentRunRequest {
  jobId: string;
}

export interface QueueOptions {
  connectionString: string;
  /** Workers supervise the queues (expiry, heartbeats); API-only processes just send. */
  supervise: boolean;
  /** How long a run may hold its queue entry before another worker takes it over. */
  runExpirySeconds: number;
}

/** pg-boss over our own transaction: `send(..., { db: inTransaction(client) })`. */
export function inTransaction(client: Queryable) {
  return {
    executeSql: async (text: string, values?: unknown[]) => {
      const result = await client.query(text, values);
      return { rows: result.rows };
    },
  };
}

export async function startQueue(options: QueueOptions): Promise<PgBoss> {
  const bossOptions: ConstructorOptions & Pick<pg.PoolConfig, 'types'> = {
    connectionString: options.connectionString,
    // pg-boss hands its options to pg.Pool: its connections parse types as ours do.
    types: quireTypeParsers(),
    application_name: 'quire queue',
    schema: 'pgboss',
    max: 4,
    supervise: options.supervise,
    schedule: false,
    // A dead worker's run is noticed within a heartbeat plus one supervision pass.
    superviseIntervalSeconds: 5,
    monitorIntervalSeconds: 10,
  };
  const boss = new PgBoss(bossOptions);
  // pg-boss reports connection trouble as events; it reconnects by itself.
  boss.on('error', () => {});
  boss.on('warning', () => {});
  await boss.start();
  await ensureQueue(boss, agentRunQueue, {
    // At most one run per job in flight and one waiting: a job's runs never overlap.
    policy: 'stately',
    // Not pg-boss's NOTIFY: a NOTIFY inside a transaction takes a database-wide lock until the
    // commit is flushed, which serialises every job creation. Workers are woken by
    // `announceAgentRun` after the commit instead (polling remains the backstop).
    notify: false,
    expireInSeconds: options.runExpirySeconds,
    heartbeatSeconds: 10,
    retryLimit: 20,
    retryDelay: 1,
    retryBackoff: true,
    retryDelayMax: 60,
  });
  await ensureQueue(boss, webhookQueue, {
    policy: 'standard',
    notify: false,
    expireInSeconds: 60,
    retryLimit: 10,
    retryDelay: 2,
    retryBackoff: true,
    retryDelayMax: 3600,
  });
  await ensureQueue(boss, hookDeliveryQueue, {
    policy: 'standard',
    notify: false,
    expireInSeconds: 120,
    retryLimit: 10,
    retryDelay: 2,
    retryBackoff: true,
    retryDelayMax: 600,
  });
  return boss;
}

async function ensureQueue(
  boss: PgBoss,
  name: string,
  options: Parameters<PgBoss['createQueue']>[1],
): Promise<void> {
  if (await boss.getQueue(name)) {
    const { policy: _policy, ...updatable } = options ?? {};
    const { heartbeatSeconds: _heartbeat, ...rest } = updatable;
    await boss.updateQueue(name, rest);
    return;
  }
  try {
    await boss.createQueue(name, options);
  } catch (error: unknown) {
    // Another process created it at the same moment.
    if (!(await boss.getQueue(name))) throw error;
  }
}

export const agentRunRequestedChannel = 'quire_agent_run_requested';

export type RunAnnouncer = () => void;

/**
 * Wakes idle workers at once; call after the transaction that enqueued a run has committed.
 * Announcements share notifications: those made in one tick share one, and those made while a
 * notification is on its way share the next, sent when it returns. A burst of creations costs a
 * notification per round trip to the database, not one each (workers fetch whatever is queued).
 */
export function createRunAnnouncer(db: Queryable): RunAnnouncer {
  let state: 'idle' | 'scheduled' | 'sending' = 'idle';
  let again = false;
  const send = () => {
    state = 'sending';
    db.query('SELECT pg_notify($1, $2)', [agentRunRequestedChannel, ''])
      .catch(() => {
        // Workers still poll; a lost wake-up only delays a run by one polling interval.
      })
      .finally(() => {
        if (again) {
          again = false;
          send();
        } else {
          state = 'idle';
        }
      });
  };
  return () => {
    if (state === 'idle') {
      state = 'scheduled';
      setImmediate(send);
    } else if (state === 'sending') {
      again = true;
    }
  };
}

/**
 * The queue entry `enqueueAgentRun` writes, as an `INSERT ... SELECT` to embed in a statement of
 * our own: one run per row of `source`, whose column `jobIdColumn` names the job. Job creation
 * uses it to write the job, its message, its events and its run in one statement, saving the
 * transaction's round trips on the hottest write path.
 *
 * This writes pg-boss's table directly, column for column what `boss.send` writes for the same
 * request (pg-boss 12's `insertJobs`, with the queue's settings); queue.test.ts compares the two
 * rows, so a pg-boss upgrade that changes them fails there first.
 */
export function agentRunInsertSql(source: string, jobIdColumn: string): string {
  return `INSERT INTO pgboss.job (
      id, name, data, priority, start_after, created_on, singleton_key, expire_seconds,
      deletion_seconds, keep_until, retry_limit, retry_delay, retry_backoff, retry_delay_max, policy,
      dead_letter, heartbeat_seconds
    )
    SELECT gen_random_uuid(), queue.name, jsonb_build_object('jobId', ${jobIdColumn}), 0, pgboss.job_now(),
      pgboss.job_now(), ${jobIdColumn}, queue.expire_seconds, queue.deletion_seconds,
      pgboss.job_now() + queue.retention_seconds * interval '1s', queue.retry_limit, queue.retry_delay,
      coalesce(queue.retry_backoff, false), queue.retry_delay_max, queue.policy, queue.dead_letter,
      queue.heartbeat_seconds
    FROM ${source} JOIN pgboss.queue ON queue.name = '${agentRunQueue}'
    ON CONFLICT DO NOTHING`;
}

export async function enqueueAgentRun(boss: PgBoss, db: Queryable, jobId: string): Promise<void> {
  await boss.send(agentRunQueue, { jobId } satisfies AgentRunRequest, {
    singletonKey: jobId,
    db: inTransaction(db),
  });
}
