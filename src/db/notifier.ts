/**
 * PostgreSQL LISTEN/NOTIFY on one dedicated connection, shared by everything in the process that
 * wants to hear about changes (live event streams, archive signals). It reconnects by itself after
 * the database restarts; subscribers are told so they can catch up on what they missed.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';

export type NotificationListener = (payload: string) => void;

export interface Notifier {
  /** Listens to `channel`; returns a function that stops listening. */
  subscribe(channel: string, listener: NotificationListener): Promise<() => void>;
  /** Called after every reconnection (notifications may have been missed meanwhile). */
  onReconnect(listener: () => void): () => void;
  /** True while the listening connection is up: only then can a cache trust that it hears of changes. */
  connected(): boolean;
  close(): Promise<void>;
}

export function createNotifier(connectionString: string): Notifier {
  const listeners = new Map<string, Set<NotificationListener>>();
  const reconnectListeners = new Set<() => void>();
  let client: pg.Client | null = null;
  let connecting: Promise<pg.Client> | null = null;
  let closed = false;

  async function connect(): Promise<pg.Client> {
    for (let attempt = 0; ; attempt += 1) {
      if (closed) throw new Error('The notifier is closed');
      const candidate = new pg.Client({ connectionString, application_name: 'quire notifier' });
      try {
        await candidate.connect();
        candidate.on('notification', (message) => {
          for (const listener of listeners.get(message.channel) ?? []) listener(message.payload ?? '');
        });
        candidate.on('error', () => reconnect(candidate));
        candidate.on('end', () => reconnect(candidate));
        for (const channel of listeners.keys())
          await candidate.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
        return candidate;
      } catch {
        await candidate.end().catch(() => {});
        await sleep(Math.min(5000, 100 * 2 ** attempt));
      }
    }
  }

  function reconnect(lost: pg.Client): void {
    if (closed || client !== lost) return;
    client = null;
    connecting = connect().then((fresh) => {
      client = fresh;
      connecting = null;
      for (const listener of reconnectListeners) listener();
      return fresh;
    });
    connecting.catch(() => {});
  }

  async function ready(): Promise<pg.Client> {
    if (client) return client;
    connecting ??= connect().then((fresh) => {
      client = fresh;
      connecting = null;
      return fresh;
    });
    return connecting;
  }

  return {
    async subscribe(channel, listener) {
      let set = listeners.get(channel);
      if (!set) {
        set = new Set();
        listeners.set(channel, set);
        const connection = await ready();
        await connection.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      }
      set.add(listener);
      return () => {
        set.delete(listener);
      };
    },
    connected() {
      return client !== null;
    },
    onReconnect(listener) {
      reconnectListeners.add(listener);
      return () => reconnectListeners.delete(listener);
    },
    async close() {
      closed = true;
      const current = client;
      client = null;
      await current?.end().catch(() => {});
    },
  };
}
