// A database outage answers 503 with Retry-After (not 500), and the pool recovers by itself when
// the database is back: with DATABASE_URL nothing else supervises it.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import pg from 'pg';
import { buildTestApp } from '../../test/app.ts';
import { createTestDatabase } from '../../test/database.ts';
import { bearer, buildProjectWithKey } from '../../test/factories.ts';
import { createDatabase } from '../db/database.ts';

const database = await createTestDatabase();
// Nothing listens on port 1: every query is refused, as when the server is down.
const unreachable = createDatabase({
  connectionString: 'postgres://quire@127.0.0.1:1/quire',
  applicationName: 'test',
});
after(() => unreachable.close());
const app = await buildTestApp(database, {
  extraRoutes: [
    (routes) => {
      routes.get('/test/unreachable', async () => (await unreachable.pool.query('SELECT 1')).rows);
      // A transaction whose connection is terminated between two statements (57P01 on a checked-out client).
      routes.get('/test/terminated', async () => {
        const client = await database.pool.connect();
        try {
          await client.query('BEGIN');
          const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
          const admin = new pg.Client({ connectionString: database.connectionString });
          await admin.connect();
          await admin.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]);
          await admin.end();
          await new Promise((resolve) => setTimeout(resolve, 100));
          await client.query('SELECT 1');
          return { survived: true };
        } finally {
          client.release(true);
        }
      });
    },
  ],
});
const { project, key } = await buildProjectWithKey(database.pool);

test('an unreachable database is 503 with Retry-After and {error}, never 500', async () => {
  const response = await app.inject({ method: 'GET', url: '/test/unreachable' });
  assert.equal(response.statusCode, 503);
  assert.equal(response.headers['retry-after'], '5');
  assert.deepEqual(response.json(), { error: 'The database is unavailable; try again shortly' });
});

test('a connection terminated under a request is 503; the process lives and the next request succeeds', async () => {
  const response = await app.inject({ method: 'GET', url: '/test/terminated' });
  assert.equal(response.statusCode, 503, response.body);
  const next = await app.inject({ method: 'GET', url: `/v1/projects/${project.id}`, headers: bearer(key) });
  assert.equal(next.statusCode, 200);
});
