/**
 * Merge triggers on local repositories (the embedded default code host): the worker polls each
 * watched branch with git and fires the automation once for every commit that landed on it since
 * the last one it saw. The watch's position moves in the same transaction as the commit's job
 * (and the change key `commit:<sha>` is claimed there too), so a restart neither misses nor
 * repeats a merge; the automation's row lock keeps two worker processes apart.
 *
 * Only the project's own repository is watched: an automation cannot point the worker at another
 * path on the machine and have its history read into a prompt.
 */
import path from 'node:path';
import type pg from 'pg';
import { transaction } from '../../db/database.ts';
import { lockAutomation } from '../automation-store.ts';
import { type FireDependencies, fireAutomation } from '../fire-automation.ts';
import { branchHead, landedCommits, localChange } from './local-changes.ts';
import { findRefWatch, listLocalMergeAutomations, saveRefWatch } from './ref-watch-store.ts';

/** Commits fired per automation and check; more are left for the next check. */
const commitsPerCheck = 20;

export async function fireLocalMerges(
  pool: pg.Pool,
  dependencies: FireDependencies,
  log: (message: string, error?: unknown) => void,
): Promise<number> {
  let fired = 0;
  for (const { automation: candidate, projectRepository } of await listLocalMergeAutomations(pool)) {
    if (candidate.trigger.type !== 'merge') continue;
    const repository = watchedPath(candidate.trigger.repository, projectRepository);
    if (repository === null) continue;
    const { branch } = candidate.trigger;
    const head = await branchHead(repository, branch);
    if (head === null) continue; // no such branch (yet): nothing to watch
    try {
      fired += await transaction(pool, async (client) => {
        const automation = await lockAutomation(client, candidate.id);
        if (automation === null || !automation.enabled || automation.trigger.type !== 'merge') return 0;
        const watch = await findRefWatch(client, automation.id);
        const sameWatch = watch !== null && watch.repository === repository && watch.branch === branch;
        // First sight (or a changed trigger): watch from the branch's head on, fire nothing for history.
        if (!sameWatch) {
          await saveRefWatch(client, automation.id, { repository, branch, lastCommit: head });
          return 0;
        }
        if (watch.lastCommit === head) return 0;
        const commits = await landedCommits(repository, watch.lastCommit, head, commitsPerCheck);
        if (commits === null) {
          log(
            `the branch ${branch} of ${repository} was rewritten; automation ${automation.id} watches from ${head}`,
          );
          await saveRefWatch(client, automation.id, { repository, branch, lastCommit: head });
          return 0;
        }
        let started = 0;
        for (const commit of commits) {
          const change = await localChange(repository, commit);
          const globs = automation.trigger.paths ?? [];
          const wanted =
            globs.length === 0 ||
            change.changedFiles.some((file) => globs.some((glob) => path.posix.matchesGlob(file, glob)));
          if (wanted) {
            const result = await fireAutomation(client, dependencies, automation, {
              type: 'merge',
              changeKey: `commit:${commit}`,
              change,
              reason: `A change was merged into ${branch} of the local repository`,
            });
            if (result !== null) started += 1;
          }
          await saveRefWatch(client, automation.id, { repository, branch, lastCommit: commit });
        }
        return started;
      });
    } catch (error: unknown) {
      log(
        `watching ${branch} of ${repository} for automation ${candidate.id} failed; the next check retries`,
        error,
      );
    }
  }
  return fired;
}

/** The trigger's repository when it is the project's own local path (compared resolved); null otherwise. */
function watchedPath(triggerRepository: string, projectRepository: string | null): string | null {
  if (projectRepository === null || !path.isAbsolute(projectRepository)) return null;
  const project = path.resolve(projectRepository);
  return path.resolve(project, triggerRepository) === project ? project : null;
}
