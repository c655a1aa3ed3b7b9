/** A project's webhook as the dashboard manages it, bound to the pool. */
import type { Queryable } from '../db/database.ts';
import type { SecretBox } from '../secrets/index.ts';
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

/** Signing secrets are stored sealed; `set` returns the new one in clear, to be shown once. */
export function createWebhookService(db: Queryable, secrets: SecretBox): WebhookService {
  return {
    find: (projectId) => findWebhook(db, projectId),
    async set(projectId, url) {
      const secret = generateWebhookSecret();
      const saved = await upsertWebhook(db, projectId, url, secrets.seal(secret));
      return { ...saved, secret };
    },
    delete: (projectId) => deleteWebhook(db, projectId),
  };
}
