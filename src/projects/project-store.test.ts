import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createTestDatabase } from '../../test/database.ts';
import { findProject, insertProject } from './project-store.ts';

const database = await createTestDatabase();

test('findProject keeps working on a connection after a migration adds a column to projects', async () => {
  const client = await database.pool.connect();
  try {
    const project = await insertProject(client, {
      name: 'Docs',
      repository: null,
      ref: 'main',
      codeHost: 'github',
    });
    assert.equal((await findProject(client, project.id))?.name, 'Docs');
    // A newer version's migration, run while this process keeps its prepared statement.
    await client.query('ALTER TABLE projects ADD COLUMN added_later text');
    assert.equal((await findProject(client, project.id))?.name, 'Docs');
    assert.equal(await findProject(client, 'prj_missing'), null);
  } finally {
    client.release();
  }
});
