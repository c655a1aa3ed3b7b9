/**
 * Running processes learn of a key rotation without a restart: `quire secrets rotate` announces the
 * new key's id on a PostgreSQL channel once the key file holds it, and every server process reads
 * its keys again, sealing under the new key from then on. A process whose notification connection
 * was down reads them again when it comes back (it may have missed an announcement); one that never
 * hears still opens values sealed under a key it does not know by reading the keys then.
 */
import type { Queryable } from '../db/database.ts';
import type { Notifier } from '../db/notifier.ts';
import type { SecretBox } from './secret-box.ts';

const secretKeyChangedChannel = 'quire_secret_key_changed';

/** Tells running processes that secrets are now sealed under `keyId` (an id, never a key). */
export async function announceSecretKey(db: Queryable, keyId: string): Promise<void> {
  await db.query('SELECT pg_notify($1, $2)', [secretKeyChangedChannel, keyId]);
}

/** Refreshes `box` on every announcement and after every reconnection; returns a function that stops. */
export async function followSecretKeyChanges(
  notifier: Notifier,
  box: SecretBox,
  log: (message: string) => void,
): Promise<() => void> {
  const refresh = (announced: string | null) => {
    const before = box.keyId;
    let now: string;
    try {
      now = box.refresh();
    } catch (error: unknown) {
      log(`could not read the secret keys again: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    if (now !== before) log(`secrets are sealed under key ${now} from now on (was ${before})`);
    if (announced !== null && announced !== now) {
      // QUIRE_SECRET_KEY comes from the environment, read at start: only a restart changes it.
      log(
        `secrets were resealed under key ${announced}, but this process seals under key ${now} (QUIRE_SECRET_KEY, or another data directory's key file); restart it with the new key`,
      );
    }
  };
  const unsubscribe = await notifier.subscribe(secretKeyChangedChannel, (keyId) => refresh(keyId));
  const stopReconnect = notifier.onReconnect(() => refresh(null));
  return () => {
    unsubscribe();
    stopReconnect();
  };
}
