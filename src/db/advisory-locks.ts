/**
 * Every advisory lock Quire takes, in one place, so that no two features share a key by accident.
 * PostgreSQL has two key spaces (https://www.postgresql.org/docs/current/explicit-locking.html#ADVISORY-LOCKS):
 * one 64-bit key, or a pair of 32-bit keys. Quire uses both:
 * - single keys 7_301_190_00n for work done once across processes;
 * - pairs (730119 to 730122, `hashtext(project id)`) for one lock per project;
 * - `hashtextextended(job id, 7301190003)`: one single key per job, the number only a hash seed.
 * The numbers are shared with running processes and with SQL functions in migrations: changing one
 * would let an old and a new process hold "the same" lock at once.
 */
export const advisoryLockKeys = {
  /** Session lock while migrations run (migrator.ts). */
  migration: 7_301_190_001,
  /** The first `quire serve` creating the first project and key (projects/first-start.ts). */
  firstStart: 7_301_190_002,
  /**
   * Creating a month partition of the page views: taken inside the SQL functions of migrations
   * 0004 and 0010, listed here so that no other feature takes it.
   */
  monthPartitions: 7_301_190_003,
  /** The first dashboard user (accounts/first-user.ts). */
  firstUser: 7_301_190_005,
  /** With `hashtext(project id)`: writers shared, the packer and reclassification exclusive. */
  packing: 730_119,
  /** With `hashtext(project id)`: one transaction at a time gives a project's paths ids. */
  pathAssignment: 730_120,
  /** With `hashtext(project id)`: one transaction at a time folds or compacts its visitor marks. */
  visitorFolding: 730_121,
  /**
   * With `hashtext(project id)`: one transaction at a time reclassifies a project's views, so that
   * what a transaction reads of them is what it updates (rollups/reclassify.ts).
   */
  reclassification: 730_122,
} as const;

/** The seed of `hashtextextended(job id, seed)`: one lock per job for appending its events. */
export const jobEventsLockSeed = 7_301_190_003;

/** The SQL call that takes a project's packing lock until the transaction ends. */
export function packingLock(mode: 'shared' | 'exclusive', projectIdSql: string): string {
  return `pg_advisory_xact_lock${mode === 'shared' ? '_shared' : ''}(${advisoryLockKeys.packing}, hashtext(${projectIdSql}))`;
}
