/**
 * Page paths as small integers, per project (`analytics_paths`): rollup rows and packed rows refer
 * to pages by id. The writer gives a path its id before it stores a view of it, in a transaction of
 * its own that commits first, so every stored path has one. Ids are dense per project, given under
 * a per-project lock in the order they commit, and never change: each process keeps those it has
 * seen, shared by the writer and the export of the same pool.
 */
import type pg from 'pg';
import { advisoryLockKeys } from '../../db/advisory-locks.ts';
import { transaction } from '../../db/database.ts';

export interface PathDictionary {
  /** Index = path id; id 0 is never given. Holes are ids this process has not seen yet. */
  paths: string[];
  ids: Map<string, number>;
  /** Every id up to this one is in `paths`. */
  complete: number;
}

const dictionaries = new WeakMap<object, Map<string, PathDictionary>>();

/** This process's dictionary of a project's paths, for one pool (or connection). */
export function pathDictionary(db: object, projectId: string): PathDictionary {
  let projects = dictionaries.get(db);
  if (projects === undefined) {
    projects = new Map();
    dictionaries.set(db, projects);
  }
  let dictionary = projects.get(projectId);
  if (dictionary === undefined) {
    dictionary = { paths: [''], ids: new Map(), complete: 0 };
    projects.set(projectId, dictionary);
  }
  return dictionary;
}

function learnPath(dictionary: PathDictionary, id: number, path: string): void {
  dictionary.paths[id] = path;
  dictionary.ids.set(path, id);
}

/**
 * Records ids read as "every id above `dictionary.complete`" in one snapshot: since ids commit in
 * order, the dictionary is then complete up to the highest of them.
 */
export function learnNewerPaths(
  dictionary: PathDictionary,
  rows: Iterable<{ id: number; path: string }>,
): void {
  for (const { id, path } of rows) {
    learnPath(dictionary, id, path);
    if (id > dictionary.complete) dictionary.complete = id;
  }
}

/** Makes sure every path has an id; returns the project's dictionary, which now holds them. */
export async function assignPathIds(
  pool: pg.Pool,
  projectId: string,
  paths: Iterable<string>,
): Promise<PathDictionary> {
  const dictionary = pathDictionary(pool, projectId);
  const unknown = new Set<string>();
  for (const path of paths) if (!dictionary.ids.has(path)) unknown.add(path);
  if (unknown.size === 0) return dictionary;
  const wanted = [...unknown];
  // Most paths this process has not seen have ids already (given by another process, or before a
  // restart): look them up without the lock.
  const known = await pool.query<{ id: number; path: string }>({
    name: 'analytics-path-ids',
    text: 'SELECT id, path FROM analytics_paths WHERE project_id = $1 AND path = ANY($2::text[])',
    values: [projectId, wanted],
  });
  for (const row of known.rows) learnPath(dictionary, row.id, row.path);
  const missing = wanted.filter((path) => !dictionary.ids.has(path));
  if (missing.length === 0) return dictionary;
  const given = await transaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [
      advisoryLockKeys.pathAssignment,
      projectId,
    ]);
    // A statement after the lock: its snapshot sees every id given before.
    return client.query<{ id: number; path: string }>(
      `WITH missing AS (
         SELECT path FROM unnest($2::text[]) AS wanted (path)
         WHERE NOT EXISTS (SELECT FROM analytics_paths AS known WHERE known.project_id = $1 AND known.path = wanted.path)
       ), inserted AS (
         INSERT INTO analytics_paths (project_id, id, path)
         SELECT $1, (SELECT coalesce(max(id), 0) FROM analytics_paths WHERE project_id = $1) + row_number() OVER (), path
         FROM missing
         RETURNING id, path
       )
       SELECT id, path FROM inserted
       UNION ALL
       SELECT id, path FROM analytics_paths WHERE project_id = $1 AND path = ANY($2::text[])`,
      [projectId, missing],
    );
  });
  for (const row of given.rows) learnPath(dictionary, row.id, row.path);
  return dictionary;
}
