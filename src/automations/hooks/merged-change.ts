import type { CodeChange } from '../code-change.ts';

/** A change merged into a branch, as a code host's webhook tells it. */
export interface MergedChange {
  /** Every name the code host gives the repository (owner/name, web URL, clone URLs), to match a trigger's. */
  repositoryNames: string[];
  branch: string;
  change: CodeChange;
  /** False when the payload does not list the changed files (a merge event): path filters cannot decide. */
  filesKnown: boolean;
}

/** `Acme/CLI`, `https://github.com/acme/cli.git/` and `https://github.com/acme/cli` all name one repository. */
export function normalizeRepositoryName(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/(?<!\/)\/+$/, '')
    .replace(/\.git$/, '');
}

export function textOf(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

export function objectOf(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

/** The distinct paths of push commits' `added`, `modified` and `removed` lists (GitHub and GitLab alike). */
export function filesOfCommits(commits: unknown): string[] {
  const files = new Set<string>();
  if (!Array.isArray(commits)) return [];
  for (const commit of commits) {
    const fields = objectOf(commit);
    for (const list of [fields.added, fields.modified, fields.removed]) {
      if (!Array.isArray(list)) continue;
      for (const file of list) if (typeof file === 'string') files.add(file);
    }
  }
  return [...files];
}

export function firstLine(text: string | null): string | null {
  return text === null ? null : (text.split('\n')[0] ?? '').trim() || null;
}
