/** A project's webhook as the dashboard manages it, bound to the pool. */
import type { Queryable } from '../db/database.ts';
import {
  deleteWebhook,
  findWebhook,
  generateWebhookSecret,
  upsertWebhook,
  type Webhook,
} from './webhook-store.ts';

export interface WebhookService {
  find(projectId: string): Promise<Webhook | null>;
  /** Sets (or replaces) the project's webhook with a new secret. */
  set(projectId: string, url: string): Promise<Webhook>;
  /** True when there was one to delete. */
  delete(projectId: string): Promise<boolean>;
}

export function createWebhookService(db: Queryable): WebhookService {
  return {
    find: (projectId) => findWebhook(db, projectId),
    set: (projectId, url) => upsertWebhook(db, projectId, url, generateWebhookSecret()),
    delete: (projectId) => deleteWebhook(db, projectId),
  };
}
