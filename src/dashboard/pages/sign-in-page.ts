import { html } from '../html.ts';
import { notice, renderBarePage } from './layout.ts';

export function renderSignInPage(options: {
  csrfToken: string;
  next: string;
  email?: string;
  error?: string;
  signedOut?: boolean;
}) {
  return renderBarePage(
    'Sign in',
    html`<h1>Sign in to Quire</h1>
${options.error ? notice('error', options.error) : ''}
${options.signedOut ? notice('info', 'You are signed out.') : ''}
<form method="post" action="/dashboard/sign-in" class="stack" data-loading>
  <input type="hidden" name="_csrf" value="${options.csrfToken}">
  <input type="hidden" name="next" value="${options.next}">
  <label>Email <input type="email" name="email" autocomplete="username" required value="${options.email ?? ''}" autofocus></label>
  <label>Password <input type="password" name="password" autocomplete="current-password" required></label>
  <button type="submit">Sign in</button>
</form>
<p class="muted">No account? Someone with access to the server runs <code>quire user create --email you@example.com</code>.</p>`,
  );
}
