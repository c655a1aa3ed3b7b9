/**
 * Receiving code-host webhooks (`POST /v1/hooks/{projectId}/github|gitlab`): verify, store, queue.
 * A delivery is stored and its processing queued in one transaction before the 2xx goes out, so a
 * process killed after answering still starts its jobs; a redelivery (same delivery id) stores
 * nothing. Nothing is stored for a bad signature or an event we do not handle.
 */
import type pg from 'pg';
import type { PgBoss } from 'pg-boss';
import { transaction } from '../../db/database.ts';
import { InvalidInputError, UnauthorizedError } from '../../errors.ts';
import { newId } from '../../ids.ts';
import { findProject } from '../../projects/project-store.ts';
import { hookDeliveryQueue, inTransaction } from '../../queue/queue.ts';
import type { SecretBox } from '../../secrets/index.ts';
import { gitHubEvents, verifyGitHubSignature } from './github-hook.ts';
import { gitLabDeliveryId, gitLabEvents, verifyGitLabToken } from './gitlab-hook.ts';
import { insertHookDelivery } from './hook-delivery-store.ts';

export type HookProvider = 'github' | 'gitlab';

/** The project setting holding the secret both providers' hooks are verified with. */
const hookSecretSetting = 'hookSecret';

export interface ReceivedHook {
  provider: HookProvider;
  projectId: string;
  headers: Record<string, string | string[] | undefined>;
  rawBody: Buffer;
}

export interface HookReceipt {
  /** `stored`: new, queued; `duplicate`: this delivery was stored before; `ignored`: not an event we act on. */
  outcome: 'stored' | 'duplicate' | 'ignored';
}

export interface HookDeliveryRequest {
  deliveryId: string;
}

export type HookService = ReturnType<typeof createHookService>;

function header(headers: ReceivedHook['headers'], name: string): string | undefined {
  const value = headers[name];
  return typeof value === 'string' ? value : undefined;
}

/** JSON strings may hold \u0000, which PostgreSQL's jsonb refuses: such characters are dropped. */
function storable(text: string): Record<string, unknown> {
  let payload: unknown;
  try {
    payload = JSON.parse(text, (_key, value: unknown) =>
      typeof value === 'string' ? value.replaceAll('\u0000', '') : value,
    );
  } catch {
    throw new InvalidInputError('Request body is not valid JSON');
  }
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
    throw new InvalidInputError('Request body is not a JSON object');
  }
  return payload as Record<string, unknown>;
}

export function createHookService({
  pool,
  boss,
  secrets,
}: {
  pool: pg.Pool;
  boss: PgBoss;
  secrets: SecretBox;
}) {
  return {
    async receive(hook: ReceivedHook): Promise<HookReceipt> {
      const project = await findProject(pool, hook.projectId);
      const stored = project?.settings[hookSecretSetting];
      // The same answer for an unknown project and a wrong secret: nobody learns which projects exist.
      const refused = new UnauthorizedError('Missing or invalid webhook signature');
      if (typeof stored !== 'string' || stored === '') throw refused;
      // Stored sealed (src/secrets/): opened only here, where it is used.
      const secret = secrets.open(stored);
      let event: string | undefined;
      let deliveryId: string | undefined;
      if (hook.provider === 'github') {
        if (!verifyGitHubSignature(secret, hook.rawBody, header(hook.headers, 'x-hub-signature-256')))
          throw refused;
        event = header(hook.headers, 'x-github-event');
        deliveryId = header(hook.headers, 'x-github-delivery');
        if (!(gitHubEvents as readonly string[]).includes(event ?? '')) return { outcome: 'ignored' };
      } else {
        if (!verifyGitLabToken(secret, header(hook.headers, 'x-gitlab-token'))) throw refused;
        event = header(hook.headers, 'x-gitlab-event');
        deliveryId = gitLabDeliveryId(header(hook.headers, 'idempotency-key'), hook.rawBody);
        if (!(gitLabEvents as readonly string[]).includes(event ?? '')) return { outcome: 'ignored' };
      }
      if (deliveryId === undefined || deliveryId === '' || deliveryId.length > 200) {
        throw new InvalidInputError(
          `Missing or invalid ${hook.provider === 'github' ? 'X-GitHub-Delivery' : 'Idempotency-Key'} header`,
        );
      }
      const payload = storable(hook.rawBody.toString('utf8'));
      return transaction(pool, async (client) => {
        const stored = await insertHookDelivery(client, {
          id: newId('hook'),
          projectId: hook.projectId,
          provider: hook.provider,
          deliveryId,
          event: event ?? '',
          payload,
        });
        if (stored === null) return { outcome: 'duplicate' } as const;
        await boss.send(hookDeliveryQueue, { deliveryId: stored } satisfies HookDeliveryRequest, {
          db: inTransaction(client),
        });
        return { outcome: 'stored' } as const;
      });
    },
  };
}
