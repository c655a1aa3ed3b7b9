// A benchmark's own data directory with its embedded PostgreSQL, migrated: what a `quire serve`
// child started on `dataDirectory` uses too. `close()` stops PostgreSQL and removes the directory,
// unless it was `keep` (a directory to look into afterwards, or to run again on).
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { quireTypeParsers } from '../src/db/database.ts';
import { acquireEmbeddedPostgres } from '../src/db/embedded-postgres.ts';
import { migrate } from '../src/db/migrator.ts';

export async function openBenchDatabase(options: { keep?: string | undefined; connections?: number } = {}) {
  const directory = options.keep ?? (await fs.mkdtemp(path.join(os.tmpdir(), 'quire-bench-')));
  await fs.mkdir(directory, { recursive: true });
  await fs.chmod(directory, 0o755);
  const dataDirectory = path.join(directory, 'data');
  const embedded = await acquireEmbeddedPostgres({ dataDirectory, role: 'bench' });
  const pool = new pg.Pool({
    connectionString: embedded.connectionString,
    max: options.connections ?? 4,
    types: quireTypeParsers(),
  });
  await migrate(pool);
  return {
    directory,
    dataDirectory,
    pool,
    async close() {
      await pool.end();
      await embedded.release();
      if (options.keep === undefined) await fs.rm(directory, { recursive: true, force: true });
    },
  };
}
