/**
 * A PostgreSQL server of a test's own, to serve as an external database (`DATABASE_URL`) that the
 * test stops and starts as its operator would, without touching the machine's shared server. It
 * is a cluster of the embedded binaries in a temporary directory, on a free port, that nothing
 * supervises: the embedded setup initialises it, then lets go of it. When the test file ends it
 * is stopped and its directory removed (test/processes.ts), whatever state the test left it in.
 */
import path from 'node:path';
import { acquireEmbeddedPostgres, runEmbeddedPgCtl } from '../src/db/embedded-postgres.ts';
import { temporaryDirectory } from './processes.ts';

export interface PostgresServer {
  /** `postgres://...`, a database that the role owns. */
  url: string;
  /** `pg_ctl stop`: `fast` disconnects every session and shuts down cleanly; `immediate` is a crash. */
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  start(): Promise<void>;
}

export async function startPostgresServer(): Promise<PostgresServer> {
  const dataDirectory = path.join(await temporaryDirectory('quire-postgres-'), 'data');
  const embedded = await acquireEmbeddedPostgres({ dataDirectory, role: 'test-setup' });
  // Leaving stops it (nobody else uses it); from now on only the test starts and stops it.
  await embedded.release();
  const pgData = path.join(dataDirectory, 'postgres');
  const server: PostgresServer = {
    url: embedded.connectionString,
    stop: (mode = 'fast') => runEmbeddedPgCtl(['stop', '-D', pgData, '-m', mode, '-w', '-t', '30']),
    start: () =>
      runEmbeddedPgCtl(['start', '-D', pgData, '-w', '-t', '30', '-l', path.join(pgData, 'startup.log')]),
  };
  await server.start();
  return server;
}
