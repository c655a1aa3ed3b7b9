import { diffLineClass } from '../../code-hosts/local/diff-line-class.ts';
import type { Review } from '../../code-hosts/local/review.ts';
import { html, type SafeHtml } from '../html.ts';
import { csrfField } from './layout.ts';

const maximumDiffCharacters = 2_000_000;

/**
 * The review page: title, summary, the diff, and a merge action while the review is open. Merging
 * needs a signed-in dashboard user, so a reader with only an API key gets a link to sign in.
 */
export function renderReviewPage(
  review: Review,
  diff: string,
  options: { csrfToken: string | null; message?: string },
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
        ? html`<p><a href="/dashboard/sign-in?next=${encodeURIComponent(reviewPath)}">Sign in to the dashboard</a> to merge.</p>`
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
<h2>Changes</h2>
<pre class="diff">${shownDiff === '' ? 'No changes.' : lines}</pre>
${action}
</body>
</html>
`;
}
