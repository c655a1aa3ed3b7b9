import type { AgentJob } from '../../agent-jobs/agent-job.ts';
import type { JobEvent } from '../../agent-jobs/job-events.ts';
import { maximumPromptLength } from '../../agent-jobs/prompt.ts';
import { diffLineClass } from '../../code-hosts/local/diff-line-class.ts';
import { formatTime, html, type SafeHtml } from '../html.ts';
import { projectPath } from '../project-context.ts';
import { linkOrText, renderJobEventItem } from './job-event-item.ts';
import { titleOf } from './jobs-page.ts';
import { csrfField, notice, type PageContext, renderPage } from './layout.ts';

export type JobDiff = { kind: 'diff'; text: string } | { kind: 'none'; reason: string };

const maximumDiffCharacters = 500_000;

function renderDiff(diff: JobDiff): SafeHtml {
  if (diff.kind === 'none') return html`<p class="empty">${diff.reason}</p>`;
  const text =
    diff.text.length > maximumDiffCharacters
      ? `${diff.text.slice(0, maximumDiffCharacters)}\n… (diff truncated)`
      : diff.text;
  if (text.trim() === '') return html`<p class="empty">No changes.</p>`;
  return html`<pre class="diff" tabindex="0" aria-label="Diff">${text
    .split('\n')
    .map((line) => html`<span class="${diffLineClass(line)}">${line}</span>\n`)}</pre>`;
}

/** The conversation: instructions, the agent's answers, and failures, in order. */
function renderConversation(events: JobEvent[]): SafeHtml {
  const items = events.flatMap((event) => {
    if (event.type === 'message-create')
      return [
        html`<li class="user"><span class="visually-hidden">You: </span>${String(event.data.prompt ?? '')}</li>`,
      ];
    if (event.type === 'run-end')
      return [
        html`<li class="agent"><span class="visually-hidden">Agent: </span>${String(event.data.summary ?? '')}</li>`,
      ];
    if (event.type === 'status-change' && event.data.to === 'failed')
      return [html`<li class="agent error">Failed: ${String(event.data.error ?? '')}</li>`];
    return [];
  });
  return html`<ol class="conversation">${items}</ol>`;
}

export function renderJobPage(
  context: PageContext & { project: { id: string } },
  state: { job: AgentJob; events: JobEvent[]; diff: JobDiff; error?: string; done?: string },
): SafeHtml {
  const { job, events } = state;
  const base = projectPath(context.project.id, `/jobs/${encodeURIComponent(job.id)}`);
  const firstPrompt = events.find((event) => event.type === 'message-create')?.data.prompt;
  const lastId = events.at(-1)?.id ?? 0;
  const active = job.status === 'active';
  const prLink = job.status === 'active' ? null : job.pullRequestUrl;
  return renderPage(
    context,
    titleOf(typeof firstPrompt === 'string' ? firstPrompt : undefined),
    html`<p><a href="${projectPath(context.project.id, '/jobs')}">← Agent jobs</a></p>
<h1>${titleOf(typeof firstPrompt === 'string' ? firstPrompt : undefined)}</h1>
${state.error ? notice('error', state.error) : ''}
${state.done === 'message' ? notice('success', 'Follow-up sent. The agent continues on the same branch.') : ''}
${state.done === 'archived' ? notice('success', 'The job is archived.') : ''}
<section class="card job-summary" aria-label="Job">
  <p><span class="badge ${job.status}" id="job-status">${job.status}</span>
  ${active ? html`<span class="live" id="live-indicator">working…</span>` : ''}
  <code>${job.id}</code> · model <code>${job.model || 'none'}</code> · created ${formatTime(job.createdAt)}${job.branch ? html` · branch <code>${job.branch}</code>` : ''}</p>
  <p>Pull request: <span id="pull-request">${prLink ? linkOrText(prLink) : html`<span class="muted">${active ? 'not yet (the job is working)' : 'none (no file changed)'}</span>`}</span></p>
  ${job.error ? notice('error', `Error: ${job.error}`) : ''}
</section>
<div class="grid">
<section aria-labelledby="conversation-title">
  <h2 id="conversation-title">Conversation</h2>
  ${renderConversation(events)}
  ${
    job.status === 'archived'
      ? html`<p class="muted">This job is archived; it takes no more instructions.</p>`
      : html`<form method="post" action="${base}/messages" class="stack" data-loading>
    ${csrfField(context.csrfToken)}
    <label>Follow-up instruction <textarea name="prompt" required maxlength="${maximumPromptLength}"></textarea></label>
    <div><button type="submit">Send follow-up</button></div>
  </form>
  <form method="post" action="${base}/archive" data-confirm="Archive this job? It stops any running work and takes no more instructions.">
    ${csrfField(context.csrfToken)}
    <button type="submit" class="secondary">Archive job</button>
  </form>`
  }
</section>
<section aria-labelledby="log-title">
  <h2 id="log-title">Step log</h2>
  <ol class="step-log" id="step-log" aria-live="polite"${active ? html` data-stream="${base}/events" data-after="${lastId}"` : ''}>${events.map(renderJobEventItem)}</ol>
  <p class="muted" id="stream-state" hidden></p>
</section>
</div>
<section aria-labelledby="diff-title">
  <h2 id="diff-title">Changes</h2>
  ${renderDiff(state.diff)}
</section>
<script type="module" src="/dashboard/assets/job-log.js"></script>`,
  );
}
