// A project and an API key for a benchmark, made straight in its database.
import type { Scope } from '../src/auth/api-key.ts';
import { insertApiKey } from '../src/auth/api-key-store.ts';
import type { Queryable } from '../src/db/database.ts';
import { insertProject } from '../src/projects/project-store.ts';

export async function createBenchProject(
  db: Queryable,
  name: string,
  scopes: Scope[],
  repository: string | null = null,
): Promise<{ id: string; key: string }> {
  const project = await insertProject(db, { name, repository, ref: 'main', codeHost: 'local' });
  const { secret } = await insertApiKey(db, { projectId: project.id, name: 'bench', scopes });
  return { id: project.id, key: secret };
}
