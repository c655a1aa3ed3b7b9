import { escapeHtml } from '../../escape-html.ts';
import type { Review } from './review.ts';

const maximumDiffCharacters = 2_000_000;

/** The CSS class of a line of a unified diff (shared with the dashboard's job page). */
export function diffLineClass(line: string): string {
  if (line.startsWith('+++') || line.startsWith('---') || line.startsWith('diff --git')) return 'file';
  if (line.startsWith('@@')) return 'hunk';
  if (line.startsWith('+')) return 'added';
  if (line.startsWith('-')) return 'removed';
  return '';
}

/** The review page: title, summary, the diff, and a merge action while the review is open. */
export function renderReviewPage(review: Review, diff: string, message?: string): string {
  const shownDiff =
    diff.length > maximumDiffCharacters
      ? `${diff.slice(0, maximumDiffCharacters)}\n… (diff truncated)`
      : diff;
  const lines = shownDiff
    .split('\n')
    .map((line) => `<span class="${diffLineClass(line)}">${escapeHtml(line)}</span>`)
    .join('\n');
  const action =
    review.status === 'open'
      ? `<form method="post" action="/review/${encodeURIComponent(review.id)}/merge"><button type="submit">Merge into ${escapeHtml(review.baseRef)}</button></form>`
      : `<p class="merged">Merged into ${escapeHtml(review.baseRef)} as <code>${escapeHtml(review.mergeCommit ?? '')}</code>.</p>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(review.title)} · Quire review</title>
<style>
body { font: 15px/1.5 system-ui, sans-serif; max-width: 1100px; margin: 2rem auto; padding: 0 1rem; color: #1f2328; }
.meta { color: #59636e; } .summary { white-space: pre-wrap; background: #f6f8fa; padding: 1rem; border-radius: 6px; }
pre { background: #fff; border: 1px solid #d1d9e0; border-radius: 6px; padding: 1rem; overflow-x: auto; font-size: 13px; }
.added { background: #dafbe1; display: block; } .removed { background: #ffebe9; display: block; }
.hunk { color: #0550ae; display: block; } .file { font-weight: 600; display: block; }
button { font: inherit; padding: .4rem 1rem; background: #1f883d; color: #fff; border: 0; border-radius: 6px; cursor: pointer; }
.notice { padding: .6rem 1rem; border-radius: 6px; background: #fff8c5; }
</style>
</head>
<body>
<h1>${escapeHtml(review.title)}</h1>
<p class="meta">Branch <code>${escapeHtml(review.branch)}</code> into <code>${escapeHtml(review.baseRef)}</code> · ${review.status} · updated ${review.updatedAt.toISOString()}</p>
${message === undefined ? '' : `<p class="notice">${escapeHtml(message)}</p>`}
<div class="summary">${escapeHtml(review.body)}</div>
<h2>Changes</h2>
<pre class="diff">${lines || 'No changes.'}</pre>
${action}
</body>
</html>
`;
}
