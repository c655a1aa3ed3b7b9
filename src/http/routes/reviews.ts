import { Type } from '@fastify/type-provider-typebox';
import { renderReviewPage } from '../../code-hosts/local/review-page.ts';
import { ConflictError, isQuireError, NotFoundError } from '../../errors.ts';
import type { RouteRegistrar } from '../app.ts';

const ReviewParameters = Type.Object({ reviewId: Type.String({ pattern: '^rev_[0-9a-z]{1,64}$' }) });

/**
 * The local code host's pull requests: `GET /review/{id}` (title, summary, diff) and
 * `POST /review/{id}/merge`. No API key: the unguessable id in the link is the credential,
 * as with a shared document link.
 */
export const registerReviewRoutes: RouteRegistrar = (app, { reviews }) => {
  app.get(
    '/review/:reviewId',
    { schema: { hide: true, params: ReviewParameters } },
    async (request, reply) => {
      const review = await reviews.get(request.params.reviewId);
      if (review === null) throw new NotFoundError('Review not found');
      const diff = await reviews.readDiff(review).catch(() => '(The branch is no longer in the repository.)');
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
      const review = await reviews.get(request.params.reviewId);
      if (review === null) throw new NotFoundError('Review not found');
      if (review.status !== 'open') throw new ConflictError('This review is already merged');
      try {
        await reviews.merge(review);
      } catch (error: unknown) {
        if (isQuireError(error)) throw error;
        throw new ConflictError('The branch could not be merged');
      }
      return reply.redirect(`/review/${encodeURIComponent(review.id)}?merged=1`, 303);
    },
  );
};
