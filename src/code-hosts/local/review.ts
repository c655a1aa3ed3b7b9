/** A "pull request" of the local code host: a branch of a repository on this machine, reviewed in Quire. */
export type ReviewStatus = 'open' | 'merged';

export interface Review {
  /** Random; the page also needs a dashboard session or an API key of the project (not the link alone). */
  id: string;
  projectId: string;
  jobId: string;
  /** The local repository path the branch was pushed to. */
  repository: string;
  branch: string;
  baseRef: string;
  title: string;
  body: string;
  status: ReviewStatus;
  mergeCommit: string | null;
  createdAt: Date;
  updatedAt: Date;
  mergedAt: Date | null;
}

/** A comment on a review page: a signed-in dashboard user's, or Quire's reply (`author` null). */
export interface ReviewComment {
  id: string;
  reviewId: string;
  author: string | null;
  body: string;
  createdAt: Date;
}

export interface ReviewUpsert {
  projectId: string;
  jobId: string;
  repository: string;
  branch: string;
  baseRef: string;
  title: string;
  body: string;
}

/**
 * Storage for reviews: the PostgreSQL implementation (review-store-postgres.ts) and an in-memory
 * fake with the same behaviour (in-memory-review-store.ts).
 */
export interface ReviewStore {
  /** Creates the review for `(projectId, branch)`, or updates the title and body of the open one. */
  upsert(review: ReviewUpsert): Promise<{ review: Review; created: boolean }>;
  get(id: string): Promise<Review | null>;
  /** Marks an open review merged; null when it is not open (already merged, or missing). */
  markMerged(id: string, mergeCommit: string): Promise<Review | null>;
  /** Adds a comment to the review; null when there is no such review. */
  addComment(
    reviewId: string,
    comment: { author: string | null; body: string },
  ): Promise<ReviewComment | null>;
  /** The review's comments, oldest first. */
  listComments(reviewId: string): Promise<ReviewComment[]>;
}
