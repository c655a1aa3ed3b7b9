import assert from 'node:assert/strict';
import { test } from 'node:test';
import pg from 'pg';
import { createTestDatabaseUrl } from '../../test/database.ts';
import { quireTypeParsers } from './database.ts';
import { isMigrated, type Migration, migrate, readMigrations } from './migrator.ts';

test('migrations are numbered, ordered and unique', async () => {
  const migrations = await readMigrations();
  assert.ok(migrations.length > 0);
  const ids = migrations.map((migration) => migration.id);
  // Branches reserve numbers (analytics holds 0004 while the dashboard uses 0005), so a gap is
  // allowed; the migrator applies whatever is missing, in order.
  assert.equal(ids[0], 1);
  assert.deepEqual(
    ids,
    [...new Set(ids)].sort((a, b) => a - b),
  );
});

test('several processes migrating at once apply each migration once', async () => {
  const url = await createTestDatabaseUrl();
  const pools = Array.from(
    { length: 4 },
    () => new pg.Pool({ connectionString: url, max: 2, types: quireTypeParsers() }),
  );
  try {
    // A fresh schema, so the migrations really run here.
    await pools[0]!.query('DROP SCHEMA public CASCADE; CREATE SCHEMA public');
    const mark: Migration = {
      id: 9999,
      name: 'count',
      sql: 'CREATE TABLE counter (n int); INSERT INTO counter VALUES (1)',
    };
    const all = [...(await readMigrations()), mark];
    const applied = await Promise.all(pools.map((pool) => migrate(pool, all)));
    assert.equal(applied.flat().filter((migration) => migration.id === 9999).length, 1);
    assert.equal((await pools[0]!.query('SELECT count(*)::int AS n FROM counter')).rows[0].n, 1);
    assert.ok(await isMigrated(pools[0]!));
  } finally {
    await Promise.all(pools.map((pool) => pool.end()));
  }
});

test('a failing migration is rolled back and reported by name', async () => {
  const url = await createTestDatabaseUrl();
  const pool = new pg.Pool({ connectionString: url, types: quireTypeParsers() });
  try {
    const broken: Migration = {
      id: 9998,
      name: 'broken',
      sql: 'CREATE TABLE half (n int); SELECT * FROM missing_table',
    };
    await assert.rejects(migrate(pool, [broken]), /Migration 9998 \(broken\) failed/);
    assert.equal((await pool.query("SELECT to_regclass('half') AS t")).rows[0].t, null);
  } finally {
    await pool.end();
  }
});
