/**
 * One line of a job's step log, as HTML: used for the page and for each event the live stream
 * sends, so that the browser only inserts what the server escaped.
 */
import type { JobEvent } from '../../agent-jobs/job-events.ts';
import { formatTime, html, type SafeHtml } from '../html.ts';

const maximumDetail = 600;

function short(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value ?? '');
  return text.length > maximumDetail ? `${text.slice(0, maximumDetail - 1)}…` : text;
}

function describeToolCall(call: Record<string, unknown>): SafeHtml {
  const name = String(call.toolName ?? 'tool');
  switch (call.type) {
    case 'call':
      return html`<div>→ <code>${name}</code> ${short(call.input)}</div>`;
    case 'result':
      return html`<div class="muted">← <code>${name}</code> ${short(call.output)}</div>`;
    case 'error':
      return html`<div class="error">✗ <code>${name}</code> ${short(call.error)}</div>`;
    default:
      return html`<div>${short(call)}</div>`;
  }
}

function describe(event: JobEvent): { label: string; detail: SafeHtml | string; error?: boolean } {
  const data = event.data;
  switch (event.type) {
    case 'job-create':
      return { label: 'Job created', detail: data.model ? `model ${String(data.model)}` : '' };
    case 'message-create':
      return { label: 'Instruction', detail: short(data.prompt) };
    case 'run-start':
      return { label: 'Run started', detail: '' };
    case 'workspace-ready':
      return { label: 'Workspace ready', detail: html`branch <code>${String(data.branch ?? '')}</code>` };
    case 'step-end': {
      const tools = Array.isArray(data.tools) ? (data.tools as Record<string, unknown>[]) : [];
      return {
        label: `Step ${String(data.step ?? '')}`,
        detail: html`${data.text ? html`<div>${short(data.text)}</div>` : ''}${tools.map(describeToolCall)}`,
      };
    }
    case 'validation-end': {
      const problems = Array.isArray(data.problems) ? data.problems : [];
      return problems.length === 0
        ? { label: 'Validation passed', detail: '' }
        : {
            label: `Validation: ${problems.length} problem${problems.length === 1 ? '' : 's'}`,
            detail: html`${problems.slice(0, 20).map((problem) => html`<div>${short(problem)}</div>`)}`,
            error: true,
          };
    }
    case 'commit-create': {
      const files = Array.isArray(data.files) ? data.files.map(String) : [];
      return {
        label: 'Commit',
        detail: html`<code>${String(data.commit ?? '').slice(0, 10)}</code> on <code>${String(data.branch ?? '')}</code>: ${files.join(', ')}`,
      };
    }
    case 'branch-push':
      return { label: 'Pushed', detail: html`<code>${String(data.branch ?? '')}</code>` };
    case 'pull-request-open':
    case 'pull-request-update':
      return {
        label: event.type === 'pull-request-open' ? 'Pull request opened' : 'Pull request updated',
        detail: linkOrText(data.url),
      };
    case 'loop-end':
      return { label: 'Agent finished', detail: `${String(data.steps ?? '?')} steps` };
    case 'run-end':
      return { label: 'Run finished', detail: short(data.summary) };
    case 'run-error':
      return { label: 'Run error', detail: short(data.message), error: true };
    case 'status-change':
      return {
        label: 'Status',
        detail: `${String(data.from ?? '')} → ${String(data.to ?? '')}${data.error ? `: ${short(data.error)}` : ''}`,
        error: data.to === 'failed',
      };
    default:
      return { label: event.type, detail: short(data) };
  }
}

/** Only http(s) links become links; anything else stays text. */
export function linkOrText(value: unknown): SafeHtml {
  const text = typeof value === 'string' ? value : '';
  return /^https?:\/\//i.test(text) ? html`<a href="${text}" rel="noreferrer">${text}</a>` : html`${text}`;
}

export function renderJobEventItem(event: JobEvent): SafeHtml {
  const { label, detail, error } = describe(event);
  return html`<li data-event-id="${event.id}"${error ? html` class="error"` : ''}><span class="type">${label}</span><span class="muted">${formatTime(event.createdAt)}</span><div>${detail}</div></li>`;
}
