/**
 * On the first start with an empty database, a default project and an admin key are created so
 * that a newcomer can call the API at once. The key's secret is returned to be printed once.
 */
import type pg from 'pg';
import { insertApiKey } from '../auth/api-key-store.ts';
import { advisoryLockKeys } from '../db/advisory-locks.ts';
import { transaction } from '../db/database.ts';
import type { Project } from './project.ts';
import { countProjects, insertProject } from './project-store.ts';

export interface FirstStart {
  project: Project;
  keySecret: string;
}

export async function createDefaultProjectIfEmpty(pool: pg.Pool): Promise<FirstStart | null> {
  return transaction(pool, async (client) => {
    // Several processes may start at once on a new database; one creates, the others see it.
    await client.query('SELECT pg_advisory_xact_lock($1)', [advisoryLockKeys.firstStart]);
    if ((await countProjects(client)) > 0) return null;
    const project = await insertProject(client, {
      name: 'Default project',
      repository: null,
      ref: 'main',
      codeHost: 'local',
    });
    const { secret } = await insertApiKey(client, {
      projectId: project.id,
      name: 'admin',
      scopes: ['read', 'write'],
    });
    return { project, keySecret: secret };
  });
}
