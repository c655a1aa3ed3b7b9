/** `buildX(database, overrides)` factories for tests. */
import type { Scope } from '../src/auth/api-key.ts';
import { insertApiKey } from '../src/auth/api-key-store.ts';
import type { Queryable } from '../src/db/database.ts';
import type { Project } from '../src/projects/project.ts';
import { insertProject, type NewProject } from '../src/projects/project-store.ts';

export function buildProject(db: Queryable, overrides: Partial<NewProject> = {}): Promise<Project> {
  return insertProject(db, { name: 'Docs', repository: null, ref: 'main', codeHost: 'local', ...overrides });
}

/** A project and a key for it; returns the key's secret as `key`. */
export async function buildProjectWithKey(
  db: Queryable,
  options: { scopes?: Scope[]; project?: Partial<NewProject> } = {},
): Promise<{ project: Project; key: string; keyId: string }> {
  const project = await buildProject(db, options.project);
  const { key, secret } = await insertApiKey(db, {
    projectId: project.id,
    name: 'test',
    scopes: options.scopes ?? ['read', 'write'],
  });
  return { project, key: secret, keyId: key.id };
}

export function bearer(key: string): { authorization: string } {
  return { authorization: `Bearer ${key}` };
}
