/**
 * Processing one stored webhook (the queue's `hook-delivery` handler): the merged change it tells
 * of fires every enabled merge automation of the project whose repository, branch and path filters
 * match, in one transaction with marking the delivery processed. Change keys (`commit:<sha>`) make
 * a retried or redelivered webhook, and a push beside its pull request's merge event, fire once.
 */
import path from 'node:path';
import type pg from 'pg';
import { transaction } from '../../db/database.ts';
import { errorMessage } from '../../errors.ts';
import { findProject } from '../../projects/project-store.ts';
import type { MergeTrigger } from '../automation.ts';
import { listEnabledAutomations, lockAutomation } from '../automation-store.ts';
import { gitHubCommentEvents, gitHubPullRequestComment } from '../conversations/github-comment.ts';
import { gitLabAuthorCheck, gitLabMergeRequestNote, gitLabNoteEvent } from '../conversations/gitlab-note.ts';
import { processPullRequestComment } from '../conversations/process-comment.ts';
import type { AuthorCheck, PullRequestComment } from '../conversations/pull-request-comment.ts';
import { type FireDependencies, fireAutomation } from '../fire-automation.ts';
import { gitHubMergedChange } from './github-hook.ts';
import { gitLabMergedChange } from './gitlab-hook.ts';
import { lockHookDelivery, markHookDeliveryProcessed } from './hook-delivery-store.ts';
import { type MergedChange, normalizeRepositoryName } from './merged-change.ts';

/** Whether a merge trigger wants this change; `undecided` when it filters paths the payload does not list. */
function matchMergeTrigger(trigger: MergeTrigger, merged: MergedChange): 'yes' | 'no' | 'undecided' {
  const wanted = normalizeRepositoryName(trigger.repository);
  if (!merged.repositoryNames.some((name) => normalizeRepositoryName(name) === wanted)) return 'no';
  if (merged.branch !== trigger.branch) return 'no';
  const globs = trigger.paths ?? [];
  if (globs.length === 0) return 'yes';
  if (!merged.filesKnown) return 'undecided';
  return merged.change.changedFiles.some((file) => globs.some((glob) => path.posix.matchesGlob(file, glob)))
    ? 'yes'
    : 'no';
}

/** Processes the delivery once; returns how many jobs it started or continued. */
export async function processHookDelivery(
  pool: pg.Pool,
  dependencies: FireDependencies,
  deliveryId: string,
): Promise<number> {
  return transaction(pool, async (client) => {
    const delivery = await lockHookDelivery(client, deliveryId);
    if (delivery === null || delivery.processedAt !== null) return 0;
    const conversation = await commentOf(client, dependencies, delivery);
    if (conversation !== null) {
      const outcome =
        conversation.kind === 'ignored'
          ? `ignored: ${conversation.reason}`
          : await processPullRequestComment(
              client,
              dependencies.boss,
              delivery.projectId,
              conversation.comment,
              conversation.checkAuthor,
            );
      await markHookDeliveryProcessed(client, delivery.id, outcome);
      return outcome.startsWith('follow-up') ? 1 : 0;
    }
    const merged =
      delivery.provider === 'github'
        ? gitHubMergedChange(delivery.event, delivery.payload)
        : gitLabMergedChange(delivery.event, delivery.payload);
    if (merged === null) {
      await markHookDeliveryProcessed(client, delivery.id, 'not a merged change');
      return 0;
    }
    const changeKey = merged.change.commit
      ? `commit:${merged.change.commit}`
      : `delivery:${delivery.provider}:${delivery.deliveryId}`;
    let fired = 0;
    let undecided = 0;
    for (const candidate of await listEnabledAutomations(client, delivery.projectId, 'merge')) {
      if (candidate.trigger.type !== 'merge') continue;
      const match = matchMergeTrigger(candidate.trigger, merged);
      // A merge event lists no files; the push that lands the same commit does, and decides.
      if (match === 'undecided') undecided += 1;
      if (match !== 'yes') continue;
      const automation = await lockAutomation(client, candidate.id);
      if (automation === null || !automation.enabled) continue;
      const result = await fireAutomation(client, dependencies, automation, {
        type: 'merge',
        changeKey,
        change: merged.change,
        reason: `A change was merged into ${merged.branch} of ${merged.repositoryNames[0] ?? 'the code repository'}`,
      });
      if (result !== null) fired += 1;
    }
    await markHookDeliveryProcessed(
      client,
      delivery.id,
      `${fired} job(s) started or continued${undecided > 0 ? `; ${undecided} path-filtered automation(s) left to the push event` : ''}`,
    );
    return fired;
  });
}

type Conversation =
  | { kind: 'comment'; comment: PullRequestComment; checkAuthor: AuthorCheck | null }
  | { kind: 'ignored'; reason: string };

/** The comment a conversation event tells of (GitHub comments and reviews, GitLab notes); null for other events. */
async function commentOf(
  client: pg.PoolClient,
  dependencies: FireDependencies,
  delivery: {
    provider: 'github' | 'gitlab';
    event: string;
    projectId: string;
    payload: Record<string, unknown>;
  },
): Promise<Conversation | null> {
  if (delivery.provider === 'github') {
    if (!(gitHubCommentEvents as readonly string[]).includes(delivery.event)) return null;
    const verdict = gitHubPullRequestComment(delivery.event, delivery.payload);
    return verdict.kind === 'ignored' ? verdict : { ...verdict, checkAuthor: null };
  }
  if (delivery.event !== gitLabNoteEvent) return null;
  const verdict = gitLabMergeRequestNote(delivery.payload);
  if (verdict.kind === 'ignored') return verdict;
  const project = await findProject(client, delivery.projectId);
  if (project === null || project.codeHost !== 'gitlab')
    return { kind: 'ignored', reason: 'the project is not on GitLab' };
  let codeHost: ReturnType<FireDependencies['codeHostFor']>;
  try {
    codeHost = dependencies.codeHostFor(project);
  } catch (error: unknown) {
    // Settings without a token: retrying cannot help.
    return { kind: 'ignored', reason: `GitLab cannot be asked who commented (${errorMessage(error)})` };
  }
  return {
    kind: 'comment',
    comment: verdict.comment,
    checkAuthor: gitLabAuthorCheck(codeHost, verdict.authorId, verdict.comment.author),
  };
}
