/**
 * A fresh, migrated database for one test file, cloned from the template that `npm test` makes
 * (scripts/test.ts); dropped when the file's tests end.
 */
import { randomBytes } from 'node:crypto';
import { after } from 'node:test';
import { setTimeout } from 'node:timers/promises';
import pg from 'pg';
import { createDatabase, type Database, quireTypeParsers } from '../src/db/database.ts';
import { migrate } from '../src/db/migrator.ts';

function adminUrl(): string {
  const url = process.env.QUIRE_TEST_ADMIN_URL ?? process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('No test database: run the tests with `npm test` (or set TEST_DATABASE_URL)');
  return url;
}

function databaseUrl(name: string): string {
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

async function withAdmin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl() });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Creates an empty migrated database and returns its URL; dropped after the test file. */
export async function createTestDatabaseUrl(): Promise<string> {
  const name = `quire_test_${randomBytes(6).toString('hex')}`;
  const template = process.env.QUIRE_TEST_TEMPLATE;
  await withAdmin((client) =>
    client.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`),
  );
  after(() =>
    withAdmin(async (client) => {
      // A closed pool's connections end a moment after `pool.end()` resolves; dropping WITH (FORCE)
      // within that moment made the server report an error on them, which failed whichever test
      // was running. Wait for them first (a second at most).
      for (let attempt = 0; attempt < 50; attempt += 1) {
        const open = await client.query<{ count: number }>(
          'SELECT count(*)::integer AS count FROM pg_stat_activity WHERE datname = $1',
          [name],
        );
        if (open.rows[0]?.count === 0) break;
        await setTimeout(20);
      }
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    }),
  );
  const url = databaseUrl(name);
  if (!template) {
    const pool = new pg.Pool({ connectionString: url, types: quireTypeParsers() });
    await migrate(pool);
    await pool.end();
  }
  return url;
}

/** A migrated database of this test file's own, with a pool closed after the file's tests. */
export async function createTestDatabase(): Promise<Database> {
  const database = createDatabase({
    connectionString: await createTestDatabaseUrl(),
    applicationName: 'quire test',
  });
  after(() => database.close());
  return database;
}
