import { newId } from '../../ids.ts';
import type { Review, ReviewComment, ReviewStore } from './review.ts';

/** The in-memory `ReviewStore`, with the PostgreSQL store's behaviour (used by tests and the bench). */
export function createInMemoryReviewStore(): ReviewStore {
  const reviews = new Map<string, Review>();
  const comments: ReviewComment[] = [];
  return {
    async upsert(input) {
      for (const review of reviews.values()) {
        if (
          review.projectId === input.projectId &&
          review.branch === input.branch &&
          review.status === 'open'
        ) {
          Object.assign(review, { title: input.title, body: input.body, updatedAt: new Date() });
          return { review: { ...review }, created: false };
        }
      }
      const now = new Date();
      const review: Review = {
        ...input,
        id: newId('rev'),
        status: 'open',
        mergeCommit: null,
        createdAt: now,
        updatedAt: now,
        mergedAt: null,
      };
      reviews.set(review.id, review);
      return { review: { ...review }, created: true };
    },
    async get(id) {
      const review = reviews.get(id);
      return review === undefined ? null : { ...review };
    },
    async markMerged(id, mergeCommit) {
      const review = reviews.get(id);
      if (review === undefined || review.status !== 'open') return null;
      Object.assign(review, { status: 'merged', mergeCommit, mergedAt: new Date(), updatedAt: new Date() });
      return { ...review };
    },
    async addComment(reviewId, comment) {
      if (!reviews.has(reviewId)) return null;
      const added: ReviewComment = { id: newId('rvc'), reviewId, ...comment, createdAt: new Date() };
      comments.push(added);
      return { ...added };
    },
    async listComments(reviewId) {
      return comments.filter((comment) => comment.reviewId === reviewId).map((comment) => ({ ...comment }));
    },
  };
}
