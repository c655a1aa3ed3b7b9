import type { CodeHostKind } from '../code-hosts/code-host.ts';
import type { Queryable } from '../db/database.ts';
import { newId } from '../ids.ts';
import { type Project, type ProjectRow, projectFromRow } from './project.ts';

export interface NewProject {
  name: string;
  repository: string | null;
  ref: string;
  codeHost: CodeHostKind;
}

export async function insertProject(db: Queryable, project: NewProject): Promise<Project> {
  const result = await db.query<ProjectRow>(
    `INSERT INTO projects (id, name, repository, ref, code_host)
     VALUES ($1, $2, $3, $4, $5)
     RETURNING *`,
    [newId('prj'), project.name, project.repository, project.ref, project.codeHost],
  );
  return projectFromRow(result.rows[0]!);
}

/**
 * `ProjectRow`'s columns, listed: a prepared statement's result must keep its shape when a later
 * migration adds a column, or PostgreSQL refuses to run it again on that connection.
 */
const projectColumns = 'id, name, repository, ref, code_host, settings, created_at, updated_at';

export async function findProject(db: Queryable, id: string): Promise<Project | null> {
  // Named: parsed and planned once per connection, since hot paths read their project (a Vercel
  // drain, on every delivery).
  const result = await db.query<ProjectRow>({
    name: 'find-project',
    text: `SELECT ${projectColumns} FROM projects WHERE id = $1`,
    values: [id],
  });
  const row = result.rows[0];
  return row ? projectFromRow(row) : null;
}

export async function listProjects(db: Queryable): Promise<Project[]> {
  const result = await db.query<ProjectRow>('SELECT * FROM projects ORDER BY created_at, id');
  return result.rows.map(projectFromRow);
}

export async function countProjects(db: Queryable): Promise<number> {
  const result = await db.query<{ count: number }>('SELECT count(*) AS count FROM projects');
  return result.rows[0]?.count ?? 0;
}

/** Merges `patch` into the project's settings (a null value removes a setting). */
export async function updateProjectSettings(
  db: Queryable,
  id: string,
  patch: Record<string, unknown>,
): Promise<Project | null> {
  const result = await db.query<ProjectRow>(
    `UPDATE projects
     SET settings = jsonb_strip_nulls(settings || $2::jsonb), updated_at = now()
     WHERE id = $1
     RETURNING *`,
    [id, JSON.stringify(patch)],
  );
  const row = result.rows[0];
  return row ? projectFromRow(row) : null;
}

export interface ProjectChanges {
  name?: string;
  /** null removes the repository. */
  repository?: string | null;
  ref?: string;
  codeHost?: CodeHostKind;
}

/** Changes the given fields, leaves the others; returns null when there is no such project. */
export async function updateProject(
  db: Queryable,
  id: string,
  changes: ProjectChanges,
): Promise<Project | null> {
  const result = await db.query<ProjectRow>(
    `UPDATE projects
     SET name = coalesce($2, name),
         repository = CASE WHEN $3 THEN $4 ELSE repository END,
         ref = coalesce($5, ref),
         code_host = coalesce($6, code_host),
         updated_at = now()
     WHERE id = $1
     RETURNING *`,
    [
      id,
      changes.name ?? null,
      'repository' in changes,
      changes.repository ?? null,
      changes.ref ?? null,
      changes.codeHost ?? null,
    ],
  );
  const row = result.rows[0];
  return row ? projectFromRow(row) : null;
}
