import type { CodeHostKind } from '../code-hosts/code-host.ts';

export interface Project {
  id: string;
  name: string;
  /** A URL or a local path; null when the project has no repository (analytics only). */
  repository: string | null;
  /** The base ref jobs start from, such as `main`. */
  ref: string;
  codeHost: CodeHostKind;
  /** Per-project settings (model override, code-host credentials, ...); may hold secrets. */
  settings: Record<string, unknown>;
  createdAt: Date;
  updatedAt: Date;
}

export interface ProjectRow {
  id: string;
  name: string;
  repository: string | null;
  ref: string;
  code_host: CodeHostKind;
  settings: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
}

export function projectFromRow(row: ProjectRow): Project {
  return {
    id: row.id,
    name: row.name,
    repository: row.repository,
    ref: row.ref,
    codeHost: row.code_host,
    settings: row.settings,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The public shape of a project (CLI `--json`); settings may hold secrets and are left out. */
export function presentProject(project: Project) {
  return {
    id: project.id,
    name: project.name,
    repository: project.repository,
    ref: project.ref,
    codeHost: project.codeHost,
    createdAt: project.createdAt.toISOString(),
  };
}
