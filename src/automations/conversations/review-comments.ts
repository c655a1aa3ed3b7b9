/**
 * Comments on the local code host's review pages. A signed-in dashboard user's comment becomes a
 * follow-up of the review's job, fenced as data like a code host's pull-request comment, and is
 * shown on the page; Quire's reply is added there by the worker when the run ends
 * (reply-to-conversations.ts, through the local code host's `commentOnPullRequest`).
 */
import type pg from 'pg';
import type { PgBoss } from 'pg-boss';
import { lockJob } from '../../agent-jobs/job-store.ts';
import { assertWithinMonthlyBudget } from '../../agent-jobs/monthly-budget.ts';
import { reviewUrl } from '../../code-hosts/local/local-code-host.ts';
import { createPostgresReviewStore } from '../../code-hosts/local/review-store-postgres.ts';
import { transaction } from '../../db/database.ts';
import { ConflictError, InvalidInputError, NotFoundError } from '../../errors.ts';
import { createRunAnnouncer } from '../../queue/queue.ts';
import { continueWithComment } from './process-comment.ts';

/** Well inside an instruction's 20,000 characters, with the fence around it. */
export const maximumReviewCommentLength = 10_000;

export type ReviewCommentService = ReturnType<typeof createReviewCommentService>;

export function createReviewCommentService({
  pool,
  boss,
  publicUrl,
}: {
  pool: pg.Pool;
  boss: PgBoss;
  /** `QUIRE_PUBLIC_URL`: where the worker's reply is addressed (the review page). */
  publicUrl: string;
}) {
  const announceRun = createRunAnnouncer(pool);
  return {
    /**
     * Adds `author`'s comment to the open review `reviewId` and makes it the next message of the
     * review's job; 404 for an unknown review or a job that is gone, 409 for a merged review or an
     * archived job, 429 past the project's monthly budget.
     */
    async comment(reviewId: string, author: string, body: string): Promise<void> {
      const text = body.replace(/\r\n/g, '\n').replaceAll('\u0000', '').trim();
      if (text === '' || [...text].length > maximumReviewCommentLength) {
        throw new InvalidInputError(
          `A comment is 1 to ${maximumReviewCommentLength.toLocaleString('en')} characters, not only white space`,
        );
      }
      await transaction(pool, async (client) => {
        const reviews = createPostgresReviewStore(client);
        const review = await reviews.get(reviewId);
        if (review === null) throw new NotFoundError('Review not found');
        if (review.status !== 'open') {
          throw new ConflictError('This review is merged; start a new agent job for further changes');
        }
        await assertWithinMonthlyBudget(client, review.projectId);
        const job = await lockJob(client, review.jobId);
        if (job === null) throw new NotFoundError('The agent job of this review is gone');
        if (job.status === 'archived') throw new ConflictError('The agent job of this review is archived');
        await continueWithComment(
          client,
          boss,
          job,
          { pullRequestUrl: null, branch: review.branch, body: text, author, path: null, line: null },
          reviewUrl(publicUrl, review.id),
        );
        await reviews.addComment(review.id, { author, body: text });
      });
      announceRun();
    },
  };
}
