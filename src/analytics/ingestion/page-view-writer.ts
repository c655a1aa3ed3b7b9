/**
 * Writes page views with group commit (src/db/group-commit.ts): while the transactions in flight
 * (two by default) run, arriving batches queue up and go together in the next one, so under load many HTTP
 * requests share one commit (and one fsync) while each caller still learns only after its own
 * views are durably committed.
 */

import type pg from 'pg';
import { transaction } from '../../db/database.ts';
import { createGroupCommit } from '../../db/group-commit.ts';
import { errorCode } from '../../errors.ts';
import {
  assignPathIds,
  ensurePageViewPartitions,
  floorMonth,
  type PathDictionary,
  type RollupSeries,
  rollupSeriesOf,
} from '../storage/index.ts';
import { createVisitorIdentity, type VisitorIdentity } from '../visitors/index.ts';
import { insertPageViews } from './insert-page-views.ts';
import type { StoredPageView } from './page-view.ts';

export interface PageViewWriter {
  /** Resolves with the number of new views once they are committed. */
  write(projectId: string, views: readonly StoredPageView[]): Promise<number>;
  /** Waits for queued writes to finish; later writes are refused. */
  close(): Promise<void>;
}

export interface PageViewWriterOptions {
  pool: pg.Pool;
  /**
   * Transactions in flight at once. Default 2: while one waits for its commit, or for rollup rows
   * the other holds (both lock them in the same order), the other runs; measured about 25% more
   * views per second than one. Three measured no better: they wait for the same hot rows.
   */
  concurrency?: number;
  /** Views per transaction, at most (one caller's batch is never split). */
  maximumGroupSize?: number;
  /** Views queued before a second transaction starts beside a running one (default 2,000). */
  minimumConcurrentGroupSize?: number;
  /** Who the visitors of views with an address are; default: daily salts in `pool`. */
  identity?: VisitorIdentity;
  /**
   * How long a project's keyed views go through `ON CONFLICT DO NOTHING` after one of its keys was
   * found stored (default 10 minutes). Otherwise they are inserted plainly (`optimistic` in
   * insert-page-views.ts), and a unique violation rolls the group back and writes it again the
   * careful way: a drain's batches are new unless the provider retries one, while an overlapping
   * log import meets stored keys batch after batch.
   */
  conflictMemoryMilliseconds?: number;
}

interface PendingWrite {
  projectId: string;
  views: readonly StoredPageView[];
}

/** A write with the visitor value of each view (computed before its transaction). */
interface IdentifiedWrite extends PendingWrite {
  visitors: ReadonlyArray<number | undefined>;
}

const retryableCodes = new Set(['40P01', '40001']);
const uniqueViolation = '23505';

/**
 * One insert per project for all its writes without import keys, and one for all its writes with
 * them: their rollup rows merge (a popular page appears in every batch). Views without a key are
 * all new; of those with one, the insert says which were, and each write is told its own count (a
 * request retried while the first is still in the group stores nothing the second time).
 */
async function insertGroup(
  client: pg.PoolClient,
  group: IdentifiedWrite[],
  projects: ReadonlyMap<string, { paths: PathDictionary; series: RollupSeries }>,
  conflicts: { optimistic(projectId: string): boolean; found(projectId: string): void },
): Promise<number[]> {
  const counts = group.map(() => 0);
  const merged = new Map<
    string,
    {
      projectId: string;
      views: StoredPageView[];
      visitors: Array<number | undefined>;
      /** The index in `group` of the write each view came from. */
      writes: number[];
    }
  >();
  for (const [index, write] of group.entries()) {
    const imported = write.views.some((view) => view.importKey !== undefined);
    const key = `${imported ? 'imported' : 'plain'} ${write.projectId}`;
    const entry = merged.get(key) ?? { projectId: write.projectId, views: [], visitors: [], writes: [] };
    for (const [viewIndex, view] of write.views.entries()) {
      entry.views.push(view);
      entry.visitors.push(write.visitors[viewIndex]);
      entry.writes.push(index);
    }
    merged.set(key, entry);
  }
  for (const { projectId, views, visitors, writes } of merged.values()) {
    const project = projects.get(projectId);
    if (project === undefined) throw new Error(`No path ids for ${projectId}`);
    const counted = await insertPageViews(
      client,
      projectId,
      views,
      project.paths.ids,
      project.series,
      visitors,
      conflicts.optimistic(projectId),
    );
    // Fewer views counted than keys written: some were stored before.
    if (counted !== null && counted.length < new Set(views.map((view) => view.importKey)).size) {
      conflicts.found(projectId);
    }
    for (const viewIndex of counted ?? writes.keys()) {
      const index = writes[viewIndex] as number;
      counts[index] = (counts[index] as number) + 1;
    }
  }
  return counts;
}

export function createPageViewWriter(options: PageViewWriterOptions): PageViewWriter {
  const identity = options.identity ?? createVisitorIdentity({ db: options.pool });
  /** `${month} ${projectId}` of the partitions this process has made sure of. */
  const knownPartitions = new Set<string>();
  const conflictMemory = options.conflictMemoryMilliseconds ?? 10 * 60_000;
  /** When each project's keys last met stored ones. */
  const lastConflicts = new Map<string, number>();
  const conflicts = {
    optimistic: (projectId: string) =>
      Date.now() - (lastConflicts.get(projectId) ?? -Infinity) >= conflictMemory,
    found: (projectId: string) => {
      lastConflicts.set(projectId, Date.now());
    },
  };

  async function ensurePartitions(projectId: string, months: Iterable<number>, force = false): Promise<void> {
    const missing = [...months].filter((month) => force || !knownPartitions.has(`${month} ${projectId}`));
    if (missing.length === 0) return;
    await ensurePageViewPartitions(options.pool, projectId, missing);
    for (const month of missing) knownPartitions.add(`${month} ${projectId}`);
  }

  async function commit(group: PendingWrite[]): Promise<number[]> {
    const byProject = new Map<string, { months: Set<number>; paths: Set<string> }>();
    for (const write of group) {
      let project = byProject.get(write.projectId);
      if (project === undefined) {
        project = { months: new Set(), paths: new Set() };
        byProject.set(write.projectId, project);
      }
      for (const view of write.views) {
        project.months.add(floorMonth(view.occurredAt));
        project.paths.add(view.path);
      }
    }
    // Committed before the views: every stored path has an id, every project its rollup series
    // and partitions.
    const projects = new Map<string, { paths: PathDictionary; series: RollupSeries }>();
    for (const [projectId, { months, paths }] of byProject) {
      projects.set(projectId, {
        paths: await assignPathIds(options.pool, projectId, paths),
        series: await rollupSeriesOf(options.pool, projectId),
      });
      await ensurePartitions(projectId, months);
    }
    const identified: IdentifiedWrite[] = [];
    for (const write of group) {
      const anyAddress = write.views.some((view) => view.address !== undefined);
      const visitors = anyAddress ? await identity.visitorsOf(write.projectId, write.views) : [];
      identified.push({ ...write, visitors: anyAddress ? visitors : write.views.map(() => undefined) });
    }
    /** Set once a plain insert met a stored key: the group is written again with `ON CONFLICT`. */
    let careful = false;
    let partitionsRenewed = false;
    const modes = {
      optimistic: (projectId: string) => !careful && conflicts.optimistic(projectId),
      found: conflicts.found,
    };
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await transaction(options.pool, (client) => insertGroup(client, identified, projects, modes));
      } catch (error: unknown) {
        const code = errorCode(error);
        if (code === uniqueViolation && !careful) {
          careful = true;
          for (const write of group) {
            if (write.views.some((view) => view.importKey !== undefined)) conflicts.found(write.projectId);
          }
          continue;
        }
        // 23514: no partition for a row; retention dropped a month this process thought it knew.
        if (code === '23514' && !partitionsRenewed) {
          partitionsRenewed = true;
          for (const [projectId, { months }] of byProject) await ensurePartitions(projectId, months, true);
          continue;
        }
        if (code !== undefined && retryableCodes.has(code) && attempt < 5) continue;
        throw error;
      }
    }
  }

  const writes = createGroupCommit<PendingWrite, number>({
    commit,
    concurrency: options.concurrency ?? 2,
    maximumGroupSize: options.maximumGroupSize ?? 20_000,
    minimumConcurrentGroupSize: options.minimumConcurrentGroupSize ?? 2000,
    size: (write) => write.views.length,
    closedMessage: 'The page-view writer is closed',
  });
  return {
    write(projectId, views) {
      if (views.length === 0) return Promise.resolve(0);
      return writes.submit({ projectId, views });
    },
    close: () => writes.close(),
  };
}
