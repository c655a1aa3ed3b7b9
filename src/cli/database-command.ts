import { type Config, loadConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { migrate } from '../db/migrator.ts';
import { openDatabase } from '../db/open-database.ts';

/**
 * Runs `work` against the configured database, migrated. With the embedded database this works
 * whether or not a server is running on the same data directory.
 */
export async function withDatabase<T>(
  work: (database: Database, config: Readonly<Config>) => Promise<T>,
): Promise<T> {
  const config = loadConfig();
  const opened = await openDatabase(config, 'cli');
  try {
    await migrate(opened.database.pool);
    return await work(opened.database, config);
  } finally {
    await opened.close();
  }
}
