/**
 * Webhook events are queued in the transaction that changes the job, and delivered by workers
 * with retries and backoff (the queue's policy). A delivery is one signed POST of the job object.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { PgBoss } from 'pg-boss';
import type { Queryable } from '../db/database.ts';
import { publicOnlyLookup, refusePrivateLiteral } from '../net/safe-address.ts';
import { inTransaction, webhookQueue } from '../queue/queue.ts';
import type { SecretBox } from '../secrets/index.ts';
import { signWebhook } from './webhook-signature.ts';
import { findWebhook } from './webhook-store.ts';

export type WebhookEvent = 'agent_job.completed' | 'agent_job.failed' | 'agent_job.archived';

export interface WebhookDelivery {
  id: string;
  projectId: string;
  event: WebhookEvent;
  createdAt: string;
  data: unknown;
}

/** Queues a delivery if the project has a webhook; call inside the transaction that changed the job. */
export async function enqueueWebhook(
  boss: PgBoss,
  db: Queryable,
  projectId: string,
  event: WebhookEvent,
  data: unknown,
): Promise<void> {
  if ((await findWebhook(db, projectId)) === null) return;
  const delivery: WebhookDelivery = {
    id: `evt_${randomUUID()}`,
    projectId,
    event,
    createdAt: new Date().toISOString(),
    data,
  };
  await boss.send(webhookQueue, delivery, { db: inTransaction(db) });
}

export interface DeliveryOptions {
  allowPrivateTargets: boolean;
  /** Opens the stored (sealed) signing secret. */
  secrets: SecretBox;
  timeoutMilliseconds?: number;
}

/** Delivers one event; throws when the receiver did not answer 2xx, so the queue retries. */
export async function deliverWebhook(
  db: Queryable,
  delivery: WebhookDelivery,
  options: DeliveryOptions,
): Promise<void> {
  const webhook = await findWebhook(db, delivery.projectId);
  if (webhook === null) return; // removed since: nothing to deliver
  const body = JSON.stringify({
    id: delivery.id,
    type: delivery.event,
    createdAt: delivery.createdAt,
    data: delivery.data,
  });
  const timestamp = Math.floor(Date.now() / 1000);
  const url = new URL(webhook.url);
  if (!options.allowPrivateTargets) refusePrivateLiteral(url);
  const client = url.protocol === 'https:' ? https : http;
  const status = await new Promise<number>((resolve, reject) => {
    const request = client.request(
      url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Quire-Webhooks/1',
          'quire-event': delivery.event,
          'quire-delivery': delivery.id,
          'quire-signature': signWebhook(options.secrets.open(webhook.secret), body, timestamp),
        },
        timeout: options.timeoutMilliseconds ?? 10_000,
        ...(options.allowPrivateTargets ? {} : { lookup: publicOnlyLookup }),
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
        response.on('error', reject);
      },
    );
    request.on('timeout', () => request.destroy(new Error('The webhook receiver did not answer in time')));
    request.on('error', reject);
    request.end(body);
  });
  if (status < 200 || status >= 300) throw new Error(`The webhook receiver answered ${status}`);
}
