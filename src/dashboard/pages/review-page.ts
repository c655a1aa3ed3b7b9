import { diffLineClass } from '../../code-hosts/local/diff-line-class.ts';
import type { Review, ReviewComment } from '../../code-hosts/local/review.ts';
import { formatTime, html, type SafeHtml } from '../html.ts';
import { csrfField } from './layout.ts';

const maximumDiffCharacters = 2_000_000;

/** As the comment service allows (src/automations/conversations/review-comments.ts). */
const maximumCommentLength = 10_000;

/**
 * The conversation: users' comments and Quire's replies, oldest first, and, for a signed-in user on
 * an open review, the comment box. A user's comment waits for Quire's reply until its run ends.
 */
function renderConversation(
  review: Review,
  comments: ReviewComment[],
  csrfToken: string | null,
  reviewPath: string,
): SafeHtml {
  const items = comments.map(
    (comment) =>
      html`<li class="${comment.author === null ? 'quire' : 'user'}"><p class="meta"><strong>${comment.author ?? 'Quire'}</strong> · ${formatTime(comment.createdAt)}</p><div class="body">${comment.body}</div></li>`,
  );
  const waiting = comments.at(-1)?.author !== null && comments.length > 0;
  const form =
    review.status === 'open' && csrfToken !== null
      ? html`<form method="post" action="${reviewPath}/comments" class="comment-form">${csrfField(csrfToken)}<label for="comment-body">Comment for Quire</label><textarea id="comment-body" name="body" rows="4" maxlength="${maximumCommentLength}" required></textarea><button type="submit">Comment</button></form>`
      : '';
  return html`<section aria-labelledby="conversation">
<h2 id="conversation">Conversation</h2>
${comments.length === 0 ? html`<p class="meta">No comments yet. A comment becomes an instruction for the agent on this branch; its answer appears here.</p>` : html`<ol class="conversation">${items}</ol>`}
${waiting ? html`<p class="meta waiting">Quire is working on the last comment; its answer appears here when the run ends.</p>` : ''}
${form}
</section>`;
}

/**
 * The review page: title, summary, the conversation, the diff, and a merge action while the review
 * is open. Commenting and merging need a signed-in dashboard user, so a reader with only an API key
 * gets a link to sign in.
 */
export function renderReviewPage(
  review: Review,
  diff: string,
  options: { csrfToken: string | null; comments: ReviewComment[]; message?: string },
): SafeHtml {
  const shownDiff =
    diff.length > maximumDiffCharacters
      ? `${diff.slice(0, maximumDiffCharacters)}\n… (diff truncated)`
      : diff;
  const lines = shownDiff
    .split('\n')
    .map((line) => html`<span class="${diffLineClass(line)}">${line}</span>\n`);
  const reviewPath = `/review/${encodeURIComponent(review.id)}`;
  const action =
    review.status !== 'open'
      ? html`<p class="merged">Merged into ${review.baseRef} as <code>${review.mergeCommit ?? ''}</code>.</p>`
      : options.csrfToken === null
        ? html`<p><a href="/dashboard/sign-in?next=${encodeURIComponent(reviewPath)}">Sign in to the dashboard</a> to comment or merge.</p>`
        : html`<form method="post" action="${reviewPath}/merge">${csrfField(options.csrfToken)}<button type="submit">Merge into ${review.baseRef}</button></form>`;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${review.title} · Quire review</title>
<link rel="stylesheet" href="/dashboard/assets/review.css">
</head>
<body class="review">
<h1>${review.title}</h1>
<p class="meta">Branch <code>${review.branch}</code> into <code>${review.baseRef}</code> · ${review.status} · updated ${review.updatedAt.toISOString()}</p>
${options.message === undefined ? '' : html`<p class="notice">${options.message}</p>`}
<div class="summary">${review.body}</div>
${renderConversation(review, options.comments, options.csrfToken, reviewPath)}
<h2>Changes</h2>
<pre class="diff">${shownDiff === '' ? 'No changes.' : lines}</pre>
${action}
</body>
</html>
`;
}
