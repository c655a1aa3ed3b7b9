import { codeHostKinds } from '../../code-hosts/code-host.ts';
import type { Project } from '../../projects/project.ts';
import { html, type SafeHtml } from '../html.ts';
import { projectPath } from '../project-context.ts';
import { csrfField, notice, type PageContext, renderPage } from './layout.ts';

export interface SettingsPageState {
  publicUrl: string;
  defaultModel: string | null;
  defaultAgentRateLimit: number;
  webhookUrl: string | null;
  /** Estimated cost of the project's agent runs this calendar month (UTC), in US dollars. */
  spentThisMonthUsd: number;
  /** The webhook's signing secret right after it was set: shown on this response only. */
  webhookSecret?: string;
  error?: string;
  done?: string;
}

const doneMessages: Record<string, string> = {
  project: 'Repository settings saved.',
  credentials: 'Code host credentials saved. They are never shown again.',
  'credentials-removed': 'Code host credentials removed.',
  model: 'Model settings saved.',
  budgets: 'Budgets saved.',
  'webhook-removed': 'Webhook removed.',
  origins: 'Allowed origins saved.',
};

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

function isSet(value: unknown): boolean {
  return typeof value === 'string' ? value.trim() !== '' : value !== undefined && value !== null;
}

function text(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
}

function setOrNot(value: unknown): SafeHtml {
  return isSet(value)
    ? html`<span class="badge completed">set</span>`
    : html`<span class="badge">not set</span>`;
}

function allowedOriginsOf(settings: Record<string, unknown>): string[] {
  const origins = settings.analyticsAllowedOrigins;
  return Array.isArray(origins)
    ? origins.filter((origin): origin is string => typeof origin === 'string')
    : [];
}

export function renderSettingsPage(
  context: PageContext & { project: Project },
  state: SettingsPageState,
): SafeHtml {
  const { project } = context;
  const action = (rest: string) => projectPath(project.id, `/settings/${rest}`);
  const github = record(project.settings.github);
  const gitlab = record(project.settings.gitlab);
  const model = text(project.settings.model);
  const rateLimit = text(project.settings.agentRateLimitPerHour);
  const snippet = `<script defer src="${state.publicUrl}/script.js" data-project="${project.id}"></script>`;
  const doneMessage = state.done ? doneMessages[state.done] : undefined;
  return renderPage(
    context,
    'Settings',
    html`<h1>Project settings</h1>
${state.error ? notice('error', state.error) : ''}
${doneMessage ? notice('success', doneMessage) : ''}
<section class="card" aria-labelledby="repository-title">
  <h2 id="repository-title">Repository</h2>
  <form method="post" action="${action('project')}" class="stack" data-loading>
    ${csrfField(context.csrfToken)}
    <label>Project name <input name="name" required maxlength="200" value="${project.name}"></label>
    <label>Repository (a URL, or an absolute path on the server) <input name="repository" value="${project.repository ?? ''}" placeholder="https://github.com/acme/docs"></label>
    <label>Base branch <input name="ref" required value="${project.ref}"></label>
    <label>Code host <select name="codeHost">${codeHostKinds.map(
      (kind) =>
        html`<option value="${kind}"${kind === project.codeHost ? html` selected` : ''}>${kind}</option>`,
    )}</select></label>
    <div><button type="submit">Save repository</button></div>
  </form>
</section>
<section class="card" aria-labelledby="credentials-title">
  <h2 id="credentials-title">Code host credentials</h2>
  <p class="muted">Write-only: stored values are never shown. Leave a secret field empty to keep what is stored.</p>
  <form method="post" action="${action('credentials')}" class="stack" data-loading autocomplete="off">
    ${csrfField(context.csrfToken)}
    <fieldset><legend>GitHub</legend>
      <label>Token ${setOrNot(github.token)} <input type="password" name="githubToken" autocomplete="new-password"></label>
      <label>App id <input name="githubAppId" value="${text(github.appId)}"></label>
      <label>App private key (PEM) ${setOrNot(github.privateKey)} <textarea name="githubPrivateKey" autocomplete="off"></textarea></label>
      <label>Installation id <input name="githubInstallationId" inputmode="numeric" value="${text(github.installationId)}"></label>
      <label>Enterprise API URL <input name="githubApiUrl" value="${text(github.apiBaseUrl)}" placeholder="https://ghe.example.com/api/v3"></label>
    </fieldset>
    <fieldset><legend>GitLab</legend>
      <label>Token ${setOrNot(gitlab.token)} <input type="password" name="gitlabToken" autocomplete="new-password"></label>
      <label>Host <input name="gitlabHost" value="${text(gitlab.host)}" placeholder="https://gitlab.example.com"></label>
    </fieldset>
    <label class="check"><input type="checkbox" name="remove" value="1"> Remove all stored code host credentials</label>
    <div><button type="submit">Save credentials</button></div>
  </form>
</section>
<section class="card" aria-labelledby="model-title">
  <h2 id="model-title">Model</h2>
  <form method="post" action="${action('model')}" class="inline-form" data-loading>
    ${csrfField(context.csrfToken)}
    <label>Model <input name="model" value="${model}" placeholder="${state.defaultModel ?? 'anthropic:claude-sonnet-4-5'}"></label>
    <label>Agent runs per hour <input name="agentRateLimitPerHour" inputmode="numeric" value="${rateLimit}" placeholder="${String(state.defaultAgentRateLimit)}"></label>
    <button type="submit">Save model</button>
  </form>
  <p class="muted">Empty: the server default (${state.defaultModel ?? 'QUIRE_MODEL is not set'}; ${String(state.defaultAgentRateLimit)} per hour).</p>
</section>
<section class="card" aria-labelledby="budgets-title">
  <h2 id="budgets-title">Budgets</h2>
  <form method="post" action="${action('budgets')}" class="inline-form" data-loading>
    ${csrfField(context.csrfToken)}
    <label>Monthly budget (US dollars) <input name="monthlyBudgetUsd" inputmode="decimal" value="${text(project.settings.monthlyBudgetUsd)}" placeholder="no limit"></label>
    <label>Tokens per job <input name="maxTokensPerJob" inputmode="numeric" value="${text(project.settings.maxTokensPerJob)}" placeholder="no limit"></label>
    <button type="submit">Save budgets</button>
  </form>
  <p class="muted">Estimated model cost this month: $${state.spentThisMonthUsd.toFixed(2)}. A run that reaches a budget stops as failed; past the monthly budget, new runs are refused until next month (UTC). An automation's own token limit wins over the one here.</p>
</section>
<section class="card" aria-labelledby="webhook-title">
  <h2 id="webhook-title">Webhook</h2>
  ${
    state.webhookSecret
      ? html`${notice('success', 'Webhook saved. Copy its signing secret now: it is not shown again.')}
  <div class="copy-row"><input id="webhook-secret" class="secret" readonly value="${state.webhookSecret}" aria-label="Webhook signing secret"> <button type="button" data-copy="#webhook-secret">Copy secret</button></div>`
      : ''
  }
  <p>${state.webhookUrl ? html`Events go to <code>${state.webhookUrl}</code>.` : html`<span class="muted">No webhook is set.</span>`}</p>
  <form method="post" action="${action('webhook')}" class="inline-form" data-loading>
    ${csrfField(context.csrfToken)}
    <label>URL <input name="url" type="url" required value="${state.webhookUrl ?? ''}" placeholder="https://example.com/hooks/quire"></label>
    <button type="submit">${state.webhookUrl ? 'Replace webhook' : 'Set webhook'}</button>
  </form>
  ${
    state.webhookUrl
      ? html`<form method="post" action="${action('webhook/remove')}" data-confirm="Remove the webhook?">${csrfField(context.csrfToken)}<button type="submit" class="secondary">Remove webhook</button></form>`
      : ''
  }
  <p class="muted">Sent: agent_job.completed, agent_job.failed, agent_job.archived, signed with <code>Quire-Signature: t=…,v1=…</code> (HMAC-SHA256 of "t.body"). Setting it makes a new secret.</p>
</section>
<section class="card" aria-labelledby="tracker-title">
  <h2 id="tracker-title">Analytics tracker</h2>
  <form method="post" action="${action('origins')}" class="stack" data-loading>
    ${csrfField(context.csrfToken)}
    <label>Allowed origins, one per line <textarea name="origins" placeholder="https://docs.example.com">${allowedOriginsOf(project.settings).join('\n')}</textarea></label>
    <div><button type="submit">Save origins</button></div>
  </form>
  <p>Paste this into every page of your docs site:</p>
  <div class="copy-row"><input id="tracker-snippet" class="secret" readonly value="${snippet}" aria-label="Tracker snippet"> <button type="button" data-copy="#tracker-snippet">Copy snippet</button></div>
</section>`,
  );
}
