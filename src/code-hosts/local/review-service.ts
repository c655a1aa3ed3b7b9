/**
 * The local code host's reviews as the edges use them (the review page, the dashboard's job diff):
 * the stored review, its diff and its merge, without the edges touching the store or running git.
 */
import type { Queryable } from '../../db/database.ts';
import type { Review, ReviewComment } from './review.ts';
import { mergeReviewBranch, readReviewDiff } from './review-git.ts';
import { createPostgresReviewStore, findLatestReviewOfJob } from './review-store-postgres.ts';

export interface ReviewService {
  get(id: string): Promise<Review | null>;
  /** The newest review a job opened, or null. */
  latestOfJob(jobId: string): Promise<Review | null>;
  /** The review's diff: the open branch against its base, or what its merge commit brought in. */
  readDiff(review: Review): Promise<string>;
  /** Merges the open review's branch into its base and records the merge commit. */
  merge(review: Review): Promise<void>;
  /** The review page's conversation, oldest first: users' comments and Quire's replies. */
  listComments(review: Review): Promise<ReviewComment[]>;
}

export function createReviewService(db: Queryable): ReviewService {
  const store = createPostgresReviewStore(db);
  return {
    get: (id) => store.get(id),
    latestOfJob: (jobId) => findLatestReviewOfJob(db, jobId),
    readDiff: (review) => readReviewDiff(review),
    async merge(review) {
      const commit = await mergeReviewBranch(review.repository, review.baseRef, review.branch, {
        author: { name: 'Quire', email: 'quire@localhost' },
        message: `Merge ${review.branch}: ${review.title}\n\nReview ${review.id}, agent job ${review.jobId}.\n`,
      });
      await store.markMerged(review.id, commit);
    },
    listComments: (review) => store.listComments(review.id),
  };
}
