import { html } from '../html.ts';
import { renderBarePage } from './layout.ts';

const titles: Record<number, string> = {
  400: 'That request was not valid',
  401: 'Please sign in',
  403: 'Not allowed',
  404: 'Not found',
  409: 'That cannot be done now',
  429: 'Too many requests',
};

/** The error state of every dashboard page: what went wrong, and a way back. */
export function renderErrorPage(status: number, message: string) {
  const title = titles[status] ?? 'Something went wrong';
  return renderBarePage(
    title,
    html`<h1>${title}</h1>
<div class="notice error" role="alert">${message}</div>
<p><a href="/dashboard">Back to the dashboard</a>${status === 401 ? html` · <a href="/dashboard/sign-in">Sign in</a>` : ''}</p>`,
  );
}
