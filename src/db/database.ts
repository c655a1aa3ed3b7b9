/**
 * The database seam: a `pg` pool, and a transaction helper. SQL lives in small named functions
 * beside the code that needs it; each takes a `Queryable`, so the same function runs inside or
 * outside a transaction.
 */
import pg from 'pg';

export type Queryable = Pick<pg.Pool | pg.PoolClient, 'query'>;

export interface Database {
  pool: pg.Pool;
  connectionString: string;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  connectionString: string;
  /** Shown in `pg_stat_activity`. */
  applicationName: string;
  max?: number;
}

/**
 * The type parsers of every Quire pool and client, given as pg's `types` option
 * (https://node-postgres.com/apis/client#new-client) rather than set on pg's global registry, so
 * that no other pg user in the process is changed: dates stay `Date`, bigint counts become numbers
 * (counts here never approach 2^53).
 */
export function quireTypeParsers(): pg.CustomTypesConfig {
  const types = new pg.TypeOverrides();
  types.setTypeParser(pg.types.builtins.INT8, (value: string) => Number(value));
  return types;
}

export function createDatabase(options: DatabaseOptions): Database {
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    application_name: options.applicationName,
    types: quireTypeParsers(),
    max: options.max ?? 20,
    connectionTimeoutMillis: 10_000,
    idleTimeoutMillis: 30_000,
  });
  // An idle client losing its connection (a database restart) must not crash the process;
  // the pool drops it and the next query opens a new one.
  pool.on('error', () => {});
  // A client checked out of the pool has no listener of the pool's: when the server dies between
  // two statements of a transaction (a killed postmaster sends FATAL 57P01 to every connection),
  // the unhandled 'error' event would end the process. The next statement on it fails instead, and
  // the request answers 503.
  pool.on('connect', (client) => {
    client.on('error', () => {});
  });
  let closing: Promise<void> | null = null;
  return {
    pool,
    connectionString: options.connectionString,
    close() {
      closing ??= pool.end();
      return closing;
    },
  };
}

/** Runs `work` in one transaction: committed if it returns, rolled back if it throws. */
export async function transaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error: unknown) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}
