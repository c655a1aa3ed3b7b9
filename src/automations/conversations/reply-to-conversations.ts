/**
 * Answering in the pull request: when the run that carried out a comment's follow-up has ended,
 * the worker posts the run's summary (or why it failed) as a comment there (the code host marks it,
 * so that the webhook it causes is ignored). Each conversation is locked while it is answered (other workers
 * skip it) and marked answered in the same transaction; a crash between the post and the commit
 * can post one reply twice, never lose one.
 */
import type pg from 'pg';
import type { CodeHost, CodeHostProject } from '../../code-hosts/code-host.ts';
import { transaction } from '../../db/database.ts';
import { errorMessage } from '../../errors.ts';
import { findProject } from '../../projects/project-store.ts';
import { lockPendingReply, markReplied, type PendingReply } from './conversation-store.ts';

export interface ReplyDependencies {
  codeHostFor(project: CodeHostProject): CodeHost;
  log: (message: string, error?: unknown) => void;
}

/** GitHub's limit on a comment body is 65,536 characters; a summary is kept well below it. */
const maximumSummaryLength = 20_000;

function replyText(pending: PendingReply): string {
  const text =
    pending.jobStatus === 'failed'
      ? `I could not finish this: ${pending.jobError ?? 'the run failed'}`
      : (pending.summary ??
        (pending.jobStatus === 'archived' ? 'The job was archived before it ran.' : 'Done.'));
  return text.length > maximumSummaryLength ? `${text.slice(0, maximumSummaryLength)}…` : text;
}

/** Answers every conversation whose run has ended; returns how many replies were posted. */
export async function replyToConversations(pool: pg.Pool, dependencies: ReplyDependencies): Promise<number> {
  let replied = 0;
  for (;;) {
    const done = await transaction(pool, async (client) => {
      const pending = await lockPendingReply(client);
      if (pending === null) return null;
      const project = await findProject(client, pending.projectId);
      try {
        if (project === null) {
          await markReplied(client, pending.messageId, 'not answered: the project is gone');
          return false;
        }
        await dependencies
          .codeHostFor(project)
          .commentOnPullRequest({ url: pending.pullRequestUrl, body: replyText(pending) });
        await markReplied(client, pending.messageId, 'replied');
        return true;
      } catch (error: unknown) {
        // Recorded and not retried: a reply that cannot be posted (credentials, a deleted pull
        // request) should not block the ones after it.
        dependencies.log(`answering in ${pending.pullRequestUrl} failed`, error);
        await markReplied(client, pending.messageId, `not answered: ${errorMessage(error).slice(0, 500)}`);
        return false;
      }
    });
    if (done === null) return replied;
    if (done) replied += 1;
  }
}
