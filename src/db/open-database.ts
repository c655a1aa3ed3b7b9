import type { Config } from '../config.ts';
import { createDatabase, type Database } from './database.ts';
import { acquireEmbeddedPostgres } from './embedded-postgres.ts';

export interface OpenedDatabase {
  database: Database;
  /** True when Quire runs the PostgreSQL itself. */
  embedded: boolean;
  /** False once the supervised embedded PostgreSQL could not be restarted (always true otherwise). */
  isAlive(): boolean;
  /** Closes the pool and, for the embedded database, leaves it (stopping it when unused). */
  close(): Promise<void>;
}

/**
 * The external PostgreSQL at `DATABASE_URL`, or the embedded one under the data directory.
 * `role` names this process to other Quire processes sharing the embedded database.
 */
export async function openDatabase(
  config: Pick<Config, 'databaseUrl' | 'dataDirectory' | 'embeddedRecoverySeconds'>,
  role: 'server' | 'cli',
  log?: (message: string) => void,
): Promise<OpenedDatabase> {
  const applicationName = `quire ${role}`;
  if (config.databaseUrl !== null) {
    const database = createDatabase({ connectionString: config.databaseUrl, applicationName });
    // An external database is someone else's to restart: an outage is 503 until it is back.
    return { database, embedded: false, isAlive: () => true, close: () => database.close() };
  }
  const embedded = await acquireEmbeddedPostgres({
    dataDirectory: config.dataDirectory,
    role,
    recoverySeconds: config.embeddedRecoverySeconds,
    ...(log ? { log } : {}),
  });
  const database = createDatabase({ connectionString: embedded.connectionString, applicationName });
  return {
    database,
    embedded: true,
    isAlive: () => embedded.health() !== 'failed',
    async close() {
      await database.close();
      await embedded.release();
    },
  };
}
