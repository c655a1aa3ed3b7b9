import type { Queryable } from '../../db/database.ts';
import { newId } from '../../ids.ts';
import type { Review, ReviewComment, ReviewStatus, ReviewStore } from './review.ts';

interface ReviewRow {
  id: string;
  project_id: string;
  job_id: string;
  repository: string;
  branch: string;
  base_ref: string;
  title: string;
  body: string;
  status: ReviewStatus;
  merge_commit: string | null;
  created_at: Date;
  updated_at: Date;
  merged_at: Date | null;
}

function reviewFromRow(row: ReviewRow): Review {
  return {
    id: row.id,
    projectId: row.project_id,
    jobId: row.job_id,
    repository: row.repository,
    branch: row.branch,
    baseRef: row.base_ref,
    title: row.title,
    body: row.body,
    status: row.status,
    mergeCommit: row.merge_commit,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    mergedAt: row.merged_at,
  };
}

interface ReviewCommentRow {
  id: string;
  review_id: string;
  author: string | null;
  body: string;
  created_at: Date;
}

function commentFromRow(row: ReviewCommentRow): ReviewComment {
  return {
    id: row.id,
    reviewId: row.review_id,
    author: row.author,
    body: row.body,
    createdAt: row.created_at,
  };
}

/** The `ReviewStore` on PostgreSQL (migrations 0003 and 0018): one statement per operation. */
export function createPostgresReviewStore(db: Queryable): ReviewStore {
  return {
    async upsert(review) {
      // `xmax = 0` is true for a row this statement inserted, false for one it updated.
      const result = await db.query<ReviewRow & { inserted: boolean }>(
        `INSERT INTO reviews (id, project_id, job_id, repository, branch, base_ref, title, body)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
         ON CONFLICT (project_id, branch) WHERE status = 'open'
         DO UPDATE SET title = EXCLUDED.title, body = EXCLUDED.body, updated_at = now()
         RETURNING *, (xmax = 0) AS inserted`,
        [
          newId('rev'),
          review.projectId,
          review.jobId,
          review.repository,
          review.branch,
          review.baseRef,
          review.title,
          review.body,
        ],
      );
      const row = result.rows[0]!;
      return { review: reviewFromRow(row), created: row.inserted };
    },
    async get(id) {
      const result = await db.query<ReviewRow>('SELECT * FROM reviews WHERE id = $1', [id]);
      return result.rows[0] === undefined ? null : reviewFromRow(result.rows[0]);
    },
    async markMerged(id, mergeCommit) {
      const result = await db.query<ReviewRow>(
        `UPDATE reviews SET status = 'merged', merge_commit = $2, merged_at = now(), updated_at = now()
         WHERE id = $1 AND status = 'open'
         RETURNING *`,
        [id, mergeCommit],
      );
      return result.rows[0] === undefined ? null : reviewFromRow(result.rows[0]);
    },
    async addComment(reviewId, comment) {
      const result = await db.query<ReviewCommentRow>(
        `INSERT INTO review_comments (id, review_id, author, body)
         SELECT $1, id, $3, $4 FROM reviews WHERE id = $2
         RETURNING *`,
        [newId('rvc'), reviewId, comment.author, comment.body],
      );
      return result.rows[0] === undefined ? null : commentFromRow(result.rows[0]);
    },
    async listComments(reviewId) {
      const result = await db.query<ReviewCommentRow>(
        'SELECT * FROM review_comments WHERE review_id = $1 ORDER BY created_at, id',
        [reviewId],
      );
      return result.rows.map(commentFromRow);
    },
  };
}

/** The newest review of an agent job (its pull request on the local code host), or null. */
export async function findLatestReviewOfJob(db: Queryable, jobId: string): Promise<Review | null> {
  const result = await db.query<ReviewRow>(
    'SELECT * FROM reviews WHERE job_id = $1 ORDER BY created_at DESC, id DESC LIMIT 1',
    [jobId],
  );
  return result.rows[0] === undefined ? null : reviewFromRow(result.rows[0]);
}
