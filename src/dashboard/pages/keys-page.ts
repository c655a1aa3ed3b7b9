import type { ApiKey } from '../../auth/api-key.ts';
import { formatTime, html, type SafeHtml } from '../html.ts';
import { projectPath } from '../project-context.ts';
import { csrfField, notice, type PageContext, renderPage } from './layout.ts';

function keyStatus(key: ApiKey, now: Date): 'active' | 'revoked' | 'expired' {
  if (key.revokedAt) return 'revoked';
  if (key.expiresAt && key.expiresAt <= now) return 'expired';
  return 'active';
}

export interface KeysPageState {
  keys: ApiKey[];
  /** Where the API is reached, for the curl example. */
  publicUrl: string;
  /** The key just created, with its secret: shown on this one response and never again. */
  created?: { key: ApiKey; secret: string };
  error?: string;
  done?: 'revoked';
  form?: { name: string; scopes: string[]; expiresInDays?: string; allowedAddresses?: string };
}

/** The expiry choices the hosted service offers. */
export const keyExpiryChoices = ['7', '30', '60', '90', 'never'] as const;

export function renderKeysPage(
  context: PageContext & { project: { id: string } },
  state: KeysPageState,
): SafeHtml {
  const { project } = context;
  const now = new Date();
  const scopes = state.form?.scopes ?? ['read', 'write'];
  const created = state.created
    ? html`<section class="card created-key" aria-labelledby="created-key-title">
  <h2 id="created-key-title">Your new key “${state.created.key.name}”</h2>
  ${notice('success', 'Copy it now: this is the only time it is shown. Quire stores only a hash of it.')}
  <div class="copy-row">
    <input id="new-key" class="secret" readonly value="${state.created.secret}" aria-label="New API key">
    <button type="button" data-copy="#new-key">Copy key</button>
  </div>
  <p class="muted">Try it:</p>
  <pre><code>curl -H "Authorization: Bearer ${state.created.secret}" \\
  ${state.publicUrl}/v1/projects/${project.id}</code></pre>
</section>`
    : '';
  const rows = state.keys.map((key) => {
    const status = keyStatus(key, now);
    return html`<tr>
  <td>${key.name}</td>
  <td>${key.scopes.join(', ')}${key.allowedAddresses ? html`<br><span class="muted">from ${key.allowedAddresses.join(', ')}</span>` : ''}</td>
  <td><code>quire_…${key.lastFour}</code></td>
  <td>${formatTime(key.createdAt)}</td>
  <td>${formatTime(key.lastUsedAt)}</td>
  <td><span class="badge ${status}">${status}</span></td>
  <td>${
    status === 'active'
      ? html`<form method="post" action="${projectPath(project.id, `/keys/${encodeURIComponent(key.id)}/revoke`)}" data-confirm="Revoke the key “${key.name}”? Anything using it stops working at once.">${csrfField(context.csrfToken)}<button type="submit" class="danger small">Revoke<span class="visually-hidden"> ${key.name}</span></button></form>`
      : ''
  }</td>
</tr>`;
  });
  return renderPage(
    context,
    'API keys',
    html`<h1>API keys</h1>
${state.error ? notice('error', state.error) : ''}
${state.done === 'revoked' ? notice('success', 'The key is revoked. Requests with it now answer 401.') : ''}
<section class="card" aria-labelledby="project-id-title">
  <h2 id="project-id-title">Project id</h2>
  <div class="copy-row"><code id="project-id" class="big">${project.id}</code> <button type="button" data-copy="#project-id">Copy project id</button></div>
  <p class="muted">Every API path takes it: <code>/v2/agent/${project.id}/job</code>, <code>/v1/analytics/${project.id}/views</code>.</p>
</section>
${created}
<section class="card" aria-labelledby="create-key-title">
  <h2 id="create-key-title">Create a key</h2>
  <form method="post" action="${projectPath(project.id, '/keys')}" class="inline-form" data-loading>
    ${csrfField(context.csrfToken)}
    <label>Name <input name="name" required maxlength="200" value="${state.form?.name ?? ''}" placeholder="CI docs bot"></label>
    <fieldset><legend>Scopes</legend>
      <label><input type="checkbox" name="scopes" value="read"${scopes.includes('read') ? html` checked` : ''}> read</label>
      <label><input type="checkbox" name="scopes" value="write"${scopes.includes('write') ? html` checked` : ''}> write</label>
      <label><input type="checkbox" name="scopes" value="ingest"${scopes.includes('ingest') ? html` checked` : ''}> ingest</label>
    </fieldset>
    <label>Expires <select name="expiresInDays">${keyExpiryChoices.map(
      (choice) =>
        html`<option value="${choice}"${(state.form?.expiresInDays ?? '90') === choice ? html` selected` : ''}>${choice === 'never' ? 'never' : `in ${choice} days`}</option>`,
    )}</select></label>
    <label>Allowed addresses <input name="allowedAddresses" maxlength="2000" value="${state.form?.allowedAddresses ?? ''}" placeholder="anywhere, or 203.0.113.0/24, 2001:db8::1"></label>
    <button type="submit">Create key</button>
  </form>
  <p class="muted">read: every GET. write: everything (implies read and ingest). ingest: analytics events only.</p>
</section>
<section aria-labelledby="keys-title">
  <h2 id="keys-title">Keys</h2>
  ${
    state.keys.length === 0
      ? html`<p class="empty">No keys yet. Create one above to call the API.</p>`
      : html`<div class="table-wrap"><table>
  <thead><tr><th scope="col">Name</th><th scope="col">Scopes</th><th scope="col">Key</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Status</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
  <tbody>${rows}</tbody>
</table></div>`
  }
</section>`,
  );
}
