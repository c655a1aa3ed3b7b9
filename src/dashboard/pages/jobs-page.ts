import type { AgentJob } from '../../agent-jobs/agent-job.ts';
import type { JobStatus } from '../../agent-jobs/job-status.ts';
import { maximumPromptLength } from '../../agent-jobs/prompt.ts';
import { formatTime, html, type SafeHtml } from '../html.ts';
import { projectPath } from '../project-context.ts';
import { linkOrText } from './job-event-item.ts';
import { csrfField, notice, type PageContext, renderPage } from './layout.ts';

const statusFilters: readonly (JobStatus | 'all')[] = ['all', 'active', 'completed', 'failed', 'archived'];

export function titleOf(prompt: string | undefined): string {
  const line = (prompt ?? '').replace(/\s+/g, ' ').trim();
  return line.length > 90 ? `${line.slice(0, 89)}…` : line || '(no instruction)';
}

export function renderJobsPage(
  context: PageContext & { project: { id: string; repository: string | null } },
  state: {
    jobs: AgentJob[];
    prompts: Map<string, string>;
    status: JobStatus | null;
    nextCursor: string | null;
    error?: string;
    prompt?: string;
  },
): SafeHtml {
  const { project } = context;
  const base = projectPath(project.id, '/jobs');
  const filterLinks = statusFilters.map((filter) => {
    const current = (state.status ?? 'all') === filter;
    const href = filter === 'all' ? base : `${base}?status=${filter}`;
    return html`<a href="${href}"${current ? html` aria-current="page"` : ''}>${filter}</a>`;
  });
  const rows = state.jobs.map(
    (job) => html`<tr>
  <td><a href="${base}/${encodeURIComponent(job.id)}">${titleOf(state.prompts.get(job.id))}</a><div class="muted"><code>${job.id}</code></div></td>
  <td><span class="badge ${job.status}">${job.status}</span></td>
  <td>${formatTime(job.createdAt)}</td>
  <td>${job.status !== 'active' && job.pullRequestUrl ? linkOrText(job.pullRequestUrl) : html`<span class="muted">–</span>`}</td>
</tr>`,
  );
  const more = state.nextCursor
    ? html`<nav class="pager" aria-label="Pages"><a href="${base}?${new URLSearchParams({ ...(state.status ? { status: state.status } : {}), cursor: state.nextCursor }).toString()}">Older jobs →</a></nav>`
    : '';
  return renderPage(
    context,
    'Agent jobs',
    html`<h1>Agent jobs</h1>
${state.error ? notice('error', state.error) : ''}
${project.repository ? '' : notice('info', html`This project has no repository yet, so jobs will fail. Set one in <a href="${projectPath(project.id, '/settings')}">Settings</a>.`)}
<section class="card" aria-labelledby="new-job-title">
  <h2 id="new-job-title">New job</h2>
  <form method="post" action="${base}" class="stack" data-loading>
    ${csrfField(context.csrfToken)}
    <label>Instruction for the agent <textarea name="prompt" required maxlength="${maximumPromptLength}" placeholder="Document the new --dry-run flag in the CLI reference">${state.prompt ?? ''}</textarea></label>
    <div><button type="submit">Start job</button></div>
  </form>
</section>
<nav class="filters" aria-label="Filter by status">${filterLinks}</nav>
${
  state.jobs.length === 0
    ? html`<p class="empty">${state.status ? `No ${state.status} jobs.` : 'No jobs yet. Start one above, or with POST /v2/agent/{projectId}/job.'}</p>`
    : html`<div class="table-wrap"><table>
  <thead><tr><th scope="col">Job</th><th scope="col">Status</th><th scope="col">Created</th><th scope="col">Pull request</th></tr></thead>
  <tbody>${rows}</tbody>
</table></div>${more}`
}`,
  );
}
