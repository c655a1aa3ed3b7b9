import { Type } from '@fastify/type-provider-typebox';
import type { ReviewStore } from '../../code-hosts/local/review.ts';
import { mergeReviewBranch, readReviewDiff } from '../../code-hosts/local/review-git.ts';
import { renderReviewPage } from '../../code-hosts/local/review-page.ts';
import { createPostgresReviewStore } from '../../code-hosts/local/review-store-postgres.ts';
import { ConflictError, isQuireError, NotFoundError } from '../../errors.ts';
import type { RouteRegistrar } from '../app.ts';

const ReviewParameters = Type.Object({ reviewId: Type.String({ pattern: '^rev_[0-9a-z]{1,64}$' }) });

/**
 * The local code host's pull requests: `GET /review/{id}` (title, summary, diff) and
 * `POST /review/{id}/merge`. No API key: the unguessable id in the link is the credential,
 * as with a shared document link.
 */
export const registerReviewRoutes: RouteRegistrar = (app, { database }) => {
  const store: ReviewStore = createPostgresReviewStore(database.pool);
  app.get(
    '/review/:reviewId',
    { schema: { hide: true, params: ReviewParameters } },
    async (request, reply) => {
      const review = await store.get(request.params.reviewId);
      if (review === null) throw new NotFoundError('Review not found');
      const diff = await readReviewDiff(review).catch(() => '(The branch is no longer in the repository.)');
      const message = (request.query as { merged?: string }).merged === '1' ? 'Merged.' : undefined;
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(renderReviewPage(review, diff, message));
    },
  );
  app.post(
    '/review/:reviewId/merge',
    { schema: { hide: true, params: ReviewParameters } },
    async (request, reply) => {
      const review = await store.get(request.params.reviewId);
      if (review === null) throw new NotFoundError('Review not found');
      if (review.status !== 'open') throw new ConflictError('This review is already merged');
      try {
        const commit = await mergeReviewBranch(review.repository, review.baseRef, review.branch, {
          author: { name: 'Quire', email: 'quire@localhost' },
          message: `Merge ${review.branch}: ${review.title}\n\nReview ${review.id}, agent job ${review.jobId}.\n`,
        });
        await store.markMerged(review.id, commit);
      } catch (error: unknown) {
        if (isQuireError(error)) throw error;
        throw new ConflictError('The branch could not be merged');
      }
      return reply.redirect(`/review/${encodeURIComponent(review.id)}?merged=1`, 303);
    },
  );
};
