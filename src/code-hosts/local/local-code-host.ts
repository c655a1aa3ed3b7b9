import type { CodeHost } from '../code-host.ts';
import type { ReviewStore } from './review.ts';

/**
 * The embedded default: the repository is a path on this machine, the branch is pushed to it, and
 * the pull request is a review page served by Quire at `{publicUrl}/review/{id}`, whose
 * conversation holds Quire's comments as comments with no author (no marker is needed: no webhook
 * comes back from it).
 */
export function createLocalCodeHost(options: {
  repository: string;
  publicUrl: string;
  reviews: ReviewStore;
}): CodeHost {
  return {
    async gitCredentials() {
      return null;
    },
    async openOrUpdatePullRequest(request) {
      const { review, created } = await options.reviews.upsert({
        projectId: request.projectId,
        jobId: request.jobId,
        repository: options.repository,
        branch: request.branch,
        baseRef: request.baseRef,
        title: request.title,
        body: request.body,
      });
      return { url: reviewUrl(options.publicUrl, review.id), created };
    },
    async pullRequestState({ url }) {
      const id = reviewIdOf(url);
      const review = id === null ? null : await options.reviews.get(id);
      if (review === null) return 'closed';
      return review.status === 'open' ? 'open' : 'merged';
    },
    async commentOnPullRequest({ url, body }) {
      const id = reviewIdOf(url);
      const added = id === null ? null : await options.reviews.addComment(id, { author: null, body });
      if (added === null) throw new Error(`No review at ${url}`);
    },
  };
}

/** The review page of `reviewId`: the local code host's pull-request URL. */
export function reviewUrl(publicUrl: string, reviewId: string): string {
  return `${publicUrl.replace(/(?<!\/)\/+$/, '')}/review/${encodeURIComponent(reviewId)}`;
}

/** The review id of a review page's URL; the host is not compared, so a changed public URL still finds it. */
function reviewIdOf(url: string): string | null {
  return /\/review\/(rev_[0-9a-z]+)\/?$/.exec(new URL(url).pathname)?.[1] ?? null;
}
