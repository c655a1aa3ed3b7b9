/** Projects as the edges (HTTP API, dashboard) use them: the store's queries, bound to the pool. */
import type { Queryable } from '../db/database.ts';
import { type SecretBox, sealSettingsPatch } from '../secrets/index.ts';
import type { Project } from './project.ts';
import {
  findProject,
  listProjects,
  type ProjectChanges,
  updateProject,
  updateProjectSettings,
} from './project-store.ts';

export interface ProjectService {
  find(id: string): Promise<Project | null>;
  list(): Promise<Project[]>;
  /** Changes the given fields, leaves the others; null when there is no such project. */
  update(id: string, changes: ProjectChanges): Promise<Project | null>;
  /** Merges `patch` into the project's settings (a null value removes a setting). */
  updateSettings(id: string, patch: Record<string, unknown>): Promise<Project | null>;
  /** The clear value of a secret setting (stored sealed), for the one place that uses it. */
  openSecret(stored: string): string;
}

/** Secrets in a settings patch (src/secrets/project-secrets.ts) are sealed before they are stored. */
export function createProjectService(db: Queryable, secrets: SecretBox): ProjectService {
  return {
    find: (id) => findProject(db, id),
    list: () => listProjects(db),
    update: (id, changes) => updateProject(db, id, changes),
    updateSettings: (id, patch) => updateProjectSettings(db, id, sealSettingsPatch(patch, secrets)),
    openSecret: (stored) => secrets.open(stored),
  };
}
