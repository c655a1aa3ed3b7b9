/** The automations of a project: list with enable/disable and trigger buttons, a create form, and one automation's history. */
import type { AgentJob } from '../../agent-jobs/agent-job.ts';
import type { Automation, AutomationTrigger } from '../../automations/automation.ts';
import { formatTime, html, type SafeHtml } from '../html.ts';
import { projectPath } from '../project-context.ts';
import { linkOrText } from './job-event-item.ts';
import { renderUsage } from './job-page.ts';
import { csrfField, notice, type PageContext, renderPage } from './layout.ts';

function describeTrigger(trigger: AutomationTrigger): string {
  switch (trigger.type) {
    case 'merge':
      return `merge into ${trigger.branch} of ${trigger.repository}${trigger.paths?.length ? ` (paths ${trigger.paths.join(', ')})` : ''}`;
    case 'schedule':
      return `schedule ${trigger.cron} (${trigger.timeZone})`;
    case 'manual':
      return 'manual';
  }
}

const doneMessages: Record<string, string> = {
  created: 'Automation created.',
  enabled: 'Automation enabled.',
  disabled: 'Automation disabled.',
  deleted: 'Automation deleted.',
};

export function renderAutomationsPage(
  context: PageContext & { project: { id: string; repository: string | null } },
  state: { automations: Automation[]; error?: string; done?: string; form?: Record<string, string> },
): SafeHtml {
  const base = projectPath(context.project.id, '/automations');
  const form = state.form ?? {};
  const value = (name: string, fallback = '') => form[name] ?? fallback;
  const rows = state.automations.map((automation) => {
    const path = `${base}/${encodeURIComponent(automation.id)}`;
    return html`<tr>
  <td><a href="${path}">${automation.name}</a><div class="muted"><code>${automation.id}</code></div></td>
  <td>${describeTrigger(automation.trigger)}</td>
  <td>${automation.mode}</td>
  <td><span class="badge ${automation.enabled ? 'completed' : ''}">${automation.enabled ? 'enabled' : 'disabled'}</span></td>
  <td class="actions">
    <form method="post" action="${path}/${automation.enabled ? 'disable' : 'enable'}">${csrfField(context.csrfToken)}<button type="submit" class="secondary">${automation.enabled ? 'Disable' : 'Enable'}</button></form>
    ${automation.enabled ? html`<form method="post" action="${path}/trigger" data-loading>${csrfField(context.csrfToken)}<button type="submit">Run now</button></form>` : ''}
  </td>
</tr>`;
  });
  const doneMessage = state.done ? doneMessages[state.done] : undefined;
  const selected = (name: string, option: string, fallback: string) =>
    value(name, fallback) === option ? html` selected` : '';
  return renderPage(
    context,
    'Automations',
    html`<h1>Automations</h1>
${state.error ? notice('error', state.error) : ''}
${doneMessage ? notice('success', doneMessage) : ''}
${
  state.automations.length === 0
    ? html`<p class="empty">No automations yet. An automation starts an agent job when code is merged, on a schedule, or when you press Run now.</p>`
    : html`<div class="table-wrap"><table>
  <thead><tr><th scope="col">Automation</th><th scope="col">Trigger</th><th scope="col">Mode</th><th scope="col">State</th><th scope="col">Actions</th></tr></thead>
  <tbody>${rows}</tbody>
</table></div>`
}
<section class="card" aria-labelledby="new-automation-title">
  <h2 id="new-automation-title">New automation</h2>
  <form method="post" action="${base}" class="stack" data-loading>
    ${csrfField(context.csrfToken)}
    <label>Name <input name="name" required maxlength="200" value="${value('name')}"></label>
    <label>Trigger <select name="triggerType">
      <option value="merge"${selected('triggerType', 'merge', 'merge')}>A change merged into a branch</option>
      <option value="schedule"${selected('triggerType', 'schedule', 'merge')}>A schedule</option>
      <option value="manual"${selected('triggerType', 'manual', 'merge')}>Only by hand</option>
    </select></label>
    <fieldset><legend>Merge trigger</legend>
      <label>Repository <input name="repository" value="${value('repository', context.project.repository ?? '')}" placeholder="owner/name, its URL, or the project's local path"></label>
      <label>Branch <input name="branch" value="${value('branch', 'main')}"></label>
      <label>Paths (globs, one per line; empty: any change) <textarea name="paths" rows="2">${value('paths')}</textarea></label>
    </fieldset>
    <fieldset><legend>Schedule trigger</legend>
      <label>Cron <input name="cron" value="${value('cron', '0 9 * * 1')}"></label>
      <label>Time zone <input name="timeZone" value="${value('timeZone', 'UTC')}"></label>
    </fieldset>
    <label>Instruction for the agent <textarea name="prompt" required maxlength="20000">${value('prompt')}</textarea></label>
    <label>Mode <select name="mode">
      <option value="pull-request-per-change"${selected('mode', 'pull-request-per-change', 'pull-request-per-change')}>A pull request per change</option>
      <option value="continue-pull-request"${selected('mode', 'continue-pull-request', 'pull-request-per-change')}>Continue the open pull request</option>
    </select></label>
    <label>Tokens per job <input name="maxTokensPerJob" inputmode="numeric" value="${value('maxTokensPerJob')}" placeholder="the project's limit"></label>
    <div><button type="submit">Create automation</button></div>
  </form>
</section>`,
  );
}

export function renderAutomationPage(
  context: PageContext & { project: { id: string } },
  state: { automation: Automation; jobs: AgentJob[]; error?: string },
): SafeHtml {
  const { automation } = state;
  const base = projectPath(context.project.id, '/automations');
  const path = `${base}/${encodeURIComponent(automation.id)}`;
  const jobsBase = projectPath(context.project.id, '/jobs');
  const rows = state.jobs.map(
    (job) => html`<tr>
  <td><a href="${jobsBase}/${encodeURIComponent(job.id)}"><code>${job.id}</code></a><div class="muted">${job.trigger?.source.title ?? job.trigger?.type ?? ''}</div></td>
  <td><span class="badge ${job.status}">${job.status}</span></td>
  <td>${formatTime(job.createdAt)}</td>
  <td>${job.status !== 'active' && job.pullRequestUrl ? linkOrText(job.pullRequestUrl) : html`<span class="muted">–</span>`}</td>
  <td>${renderUsage(job)}</td>
</tr>`,
  );
  return renderPage(
    context,
    automation.name,
    html`<p><a href="${base}">← Automations</a></p>
<h1>${automation.name}</h1>
${state.error ? notice('error', state.error) : ''}
<section class="card" aria-label="Automation">
  <p><span class="badge ${automation.enabled ? 'completed' : ''}">${automation.enabled ? 'enabled' : 'disabled'}</span> <code>${automation.id}</code> · ${describeTrigger(automation.trigger)} · ${automation.mode}${automation.limits.maxTokensPerJob === null ? '' : ` · at most ${automation.limits.maxTokensPerJob} tokens per job`}</p>
  <pre class="prompt">${automation.prompt}</pre>
  <div class="actions">
    <form method="post" action="${path}/${automation.enabled ? 'disable' : 'enable'}">${csrfField(context.csrfToken)}<button type="submit" class="secondary">${automation.enabled ? 'Disable' : 'Enable'}</button></form>
    ${automation.enabled ? html`<form method="post" action="${path}/trigger" data-loading>${csrfField(context.csrfToken)}<button type="submit">Run now</button></form>` : ''}
    <form method="post" action="${path}/delete" data-confirm="Delete this automation? Its jobs are kept.">${csrfField(context.csrfToken)}<button type="submit" class="secondary">Delete</button></form>
  </div>
</section>
<section aria-labelledby="history-title">
  <h2 id="history-title">History</h2>
  ${
    state.jobs.length === 0
      ? html`<p class="empty">No jobs yet.</p>`
      : html`<div class="table-wrap"><table>
  <thead><tr><th scope="col">Job</th><th scope="col">Status</th><th scope="col">Started</th><th scope="col">Pull request</th><th scope="col">Usage</th></tr></thead>
  <tbody>${rows}</tbody>
</table></div>`
  }
</section>`,
  );
}
