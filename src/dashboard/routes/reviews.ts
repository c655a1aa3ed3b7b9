import type { FastifyInstance } from 'fastify';
import { keyAllowsAddress } from '../../auth/api-key.ts';
import { authorize } from '../../auth/authenticate.ts';
import {
  ConflictError,
  ForbiddenError,
  InvalidInputError,
  isQuireError,
  NotFoundError,
  UnauthorizedError,
} from '../../errors.ts';
import type { HttpDependencies } from '../../http/dependencies.ts';
import { formField } from '../form.ts';
import { renderReviewPage } from '../pages/review-page.ts';
import { sendPage } from '../send-page.ts';

const reviewParameters = {
  type: 'object',
  properties: { reviewId: { type: 'string', pattern: '^rev_[0-9a-z]{1,64}$' } },
  required: ['reviewId'],
} as const;

/**
 * The local code host's pull requests at their stable `prLink`, `/review/{id}`. The link alone is
 * not a credential (it reaches read-only keys and access logs): viewing needs a dashboard session
 * or an API key of the review's project (`Authorization: Bearer`); commenting, which starts an
 * agent run, and merging, which writes to the base branch, need a signed-in dashboard user and the
 * session's CSRF token.
 */
export function registerReviewRoutes(
  app: FastifyInstance,
  {
    reviews,
    reviewComments,
    apiKeys,
    agentRateLimiter,
  }: Pick<HttpDependencies, 'reviews' | 'reviewComments' | 'apiKeys' | 'agentRateLimiter'>,
): void {
  app.get<{ Params: { reviewId: string }; Querystring: { merged?: string; commented?: string } }>(
    '/review/:reviewId',
    { schema: { params: reviewParameters }, config: { dashboardAccess: 'public' } },
    async (request, reply) => {
      const session = request.dashboardSession;
      if (session === null && request.headers.authorization === undefined) {
        if ((request.headers.accept ?? '').includes('text/html')) {
          return reply.redirect(`/dashboard/sign-in?next=${encodeURIComponent(request.url)}`, 303);
        }
        throw new UnauthorizedError('Sign in to the dashboard or send an API key of the project');
      }
      // Authenticated before the review is looked up, so that a stranger cannot tell ids apart.
      const key = session === null ? await apiKeys.authenticate(request.headers.authorization) : null;
      const review = await reviews.get(request.params.reviewId);
      if (key !== null) {
        authorize(key, review?.projectId ?? '', 'read');
        if (!keyAllowsAddress(key, request.ip))
          throw new ForbiddenError('This API key may not be used from this address');
      }
      if (review === null) throw new NotFoundError('Review not found');
      const [diff, comments] = await Promise.all([
        reviews.readDiff(review).catch(() => '(The branch is no longer in the repository.)'),
        reviews.listComments(review),
      ]);
      const message =
        request.query.merged === '1'
          ? 'Merged.'
          : request.query.commented === '1'
            ? 'Comment sent to Quire.'
            : undefined;
      return sendPage(
        reply,
        renderReviewPage(review, diff, {
          csrfToken: session?.csrfToken ?? null,
          comments,
          ...(message ? { message } : {}),
        }),
      );
    },
  );
  // Not public: the session access hook requires a signed-in user and the CSRF token.
  app.post<{ Params: { reviewId: string } }>(
    '/review/:reviewId/merge',
    { schema: { params: reviewParameters } },
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
  // Not public either: a signed-in user and the CSRF token. The comment is a follow-up of the
  // review's job, counted against the project's agent rate limit as the dashboard's other follow-ups.
  app.post<{ Params: { reviewId: string } }>(
    '/review/:reviewId/comments',
    { schema: { params: reviewParameters } },
    async (request, reply) => {
      const review = await reviews.get(request.params.reviewId);
      if (review === null) throw new NotFoundError('Review not found');
      const body = formField(request.body, 'body');
      if (body.trim() === '') throw new InvalidInputError('Write a comment first');
      await agentRateLimiter.consume(review.projectId);
      await reviewComments.comment(review.id, request.dashboardSession!.email, body);
      return reply.redirect(`/review/${encodeURIComponent(review.id)}?commented=1#conversation`, 303);
    },
  );
}
