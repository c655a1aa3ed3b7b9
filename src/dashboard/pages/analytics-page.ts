import type { AgentsResult, PageViewsResult, TimeSeriesResult, VisitorsResult } from '../analytics-source.ts';
import { html, type SafeHtml } from '../html.ts';
import { projectPath } from '../project-context.ts';
import { notice, type PageContext, renderPage } from './layout.ts';
import { renderViewsChart } from './views-chart.ts';

export const viewsPerPage = 50;

export interface AnalyticsPageState {
  /** The days shown in the picker, both inclusive (YYYY-MM-DD). */
  from: string;
  to: string;
  page: number;
  data:
    | {
        kind: 'ready';
        views: PageViewsResult;
        agents: AgentsResult;
        series: TimeSeriesResult;
        visitors: VisitorsResult;
      }
    | { kind: 'unavailable' }
    | { kind: 'error'; message: string };
}

const number = new Intl.NumberFormat('en-US');

function rangeQuery(state: { from: string; to: string }, extra: Record<string, string> = {}): string {
  return new URLSearchParams({ from: state.from, to: state.to, ...extra }).toString();
}

function presets(base: string, today: string): SafeHtml {
  const day = (offset: number) =>
    new Date(Date.parse(today) - offset * 86_400_000).toISOString().slice(0, 10);
  return html`${[7, 30, 90].map(
    (days) => html`<a href="${base}?${rangeQuery({ from: day(days - 1), to: today })}">Last ${days} days</a>`,
  )}`;
}

function renderReady(
  base: string,
  state: AnalyticsPageState,
  data: Extract<AnalyticsPageState['data'], { kind: 'ready' }>,
  settingsUrl: string,
): SafeHtml {
  const { views, agents, series } = data;
  const visitors = new Map(data.visitors.visitors.map((row) => [row.path, row.total]));
  if (views.totals.total === 0 && agents.agents.length === 0) {
    return html`<p class="empty">No page views from ${state.from} to ${state.to}. Add the tracker to your docs site (see <a href="${settingsUrl}">Settings</a>), send events to <code>POST /v1/analytics/{projectId}/events</code>, or import logs with <code>quire analytics import</code>.</p>`;
  }
  const rows = views.views.map(
    (row) =>
      html`<tr><td><code>${row.path}</code></td><td class="number">${number.format(row.human)}</td><td class="number">${number.format(row.ai)}</td><td class="number">${number.format(row.total)}</td><td class="number">${number.format(row.aiReferred ?? 0)}</td><td class="number">${number.format(row.verifiedAi ?? 0)}</td><td class="number">${number.format((row.aiSearch ?? 0) + (row.aiTraining ?? 0))}</td><td class="number">${number.format(row.otherBots ?? 0)}</td><td class="number">${number.format(visitors.get(row.path) ?? 0)}</td></tr>`,
  );
  const pager = html`<nav class="pager" aria-label="Pages of the table">
  ${state.page > 1 ? html`<a href="${base}?${rangeQuery(state, { page: String(state.page - 1) })}">← Previous</a>` : ''}
  <span class="muted">Page ${state.page}</span>
  ${views.hasMore ? html`<a href="${base}?${rangeQuery(state, { page: String(state.page + 1) })}">Next →</a>` : ''}
</nav>`;
  const categoryNames: Record<string, string> = {
    human: 'Human',
    ai_assistant: 'AI assistants',
    ai_search: 'AI search',
    ai_training: 'AI training crawlers',
    bot: 'Other bots',
  };
  return html`<div class="totals" aria-label="Totals">
  <div><span class="muted">Human views</span><strong>${number.format(views.totals.human)}</strong></div>
  <div><span class="muted">AI views</span><strong>${number.format(views.totals.ai)}</strong></div>
  <div><span class="muted">Total</span><strong>${number.format(views.totals.total)}</strong></div>
  <div><span class="muted" title="Human views whose referrer or utm_source is an AI assistant">Sent by AI answers</span><strong>${number.format(views.totals.aiReferred ?? 0)}</strong></div>
  <div><span class="muted" title="AI views whose agent was verified">Verified AI</span><strong>${number.format(views.totals.verifiedAi ?? 0)}</strong></div>
  <div><span class="muted">Unique visitors</span><strong>${number.format(data.visitors.totals.total)}</strong></div>
</div>
<section aria-labelledby="chart-title"><h2 id="chart-title">Views per ${series.interval}</h2>${renderViewsChart(series.points)}</section>
<div>
<section aria-labelledby="pages-title">
  <h2 id="pages-title">Top pages</h2>
  <p><a href="${base}/views.csv?${rangeQuery(state)}" download>Download CSV</a> <span class="muted">(every page in the range)</span></p>
  <div class="table-wrap"><table>
    <thead><tr><th scope="col">Path</th><th scope="col" class="number">Human</th><th scope="col" class="number">AI</th><th scope="col" class="number">Total</th><th scope="col" class="number" title="Human views sent by an AI answer">From AI answers</th><th scope="col" class="number" title="AI views whose agent was verified">Verified AI</th><th scope="col" class="number" title="AI search and training crawlers">AI crawlers</th><th scope="col" class="number">Other bots</th><th scope="col" class="number" title="Unique visitors: one address and browser per day, human or AI">Visitors</th></tr></thead>
    <tbody>${rows.length > 0 ? rows : html`<tr><td colspan="9" class="muted">No more pages.</td></tr>`}</tbody>
  </table></div>
  ${pager}
</section>
<section aria-labelledby="agents-title">
  <h2 id="agents-title">AI agents</h2>
  <div class="table-wrap"><table>
    <thead><tr><th scope="col">Traffic</th><th scope="col" class="number">Views</th></tr></thead>
    <tbody>${Object.entries(agents.categories).map(
      ([category, count]) =>
        html`<tr><td>${categoryNames[category] ?? category}</td><td class="number">${number.format(count)}</td></tr>`,
    )}</tbody>
  </table></div>
  ${
    agents.agents.length === 0
      ? html`<p class="empty">No AI agents or bots in this range.</p>`
      : html`<div class="table-wrap"><table>
    <thead><tr><th scope="col">Agent</th><th scope="col">Category</th><th scope="col" class="number" title="Views whose user agent or signature named this agent">Claimed</th><th scope="col" class="number" title="Of those, verified by signature, published addresses or reverse DNS">Verified</th></tr></thead>
    <tbody>${agents.agents.map(
      (agent) =>
        html`<tr><td>${agent.agent}</td><td>${categoryNames[agent.category] ?? agent.category}</td><td class="number">${number.format(agent.views)}</td><td class="number">${number.format(agent.verifiedViews)}</td></tr>`,
    )}</tbody>
  </table></div>`
  }
</section>
</div>`;
}

export function renderAnalyticsPage(
  context: PageContext & { project: { id: string } },
  state: AnalyticsPageState,
  today: string,
): SafeHtml {
  const base = projectPath(context.project.id, '/analytics');
  const body =
    state.data.kind === 'ready'
      ? renderReady(base, state, state.data, projectPath(context.project.id, '/settings'))
      : state.data.kind === 'unavailable'
        ? html`<p class="empty">Analytics is not part of this build of Quire yet.</p>`
        : notice('error', state.data.message);
  return renderPage(
    context,
    'Analytics',
    html`<h1>Analytics</h1>
<form method="get" action="${base}" class="inline-form" data-loading aria-label="Date range">
  <label>From <input type="date" name="from" value="${state.from}" required></label>
  <label>To (inclusive) <input type="date" name="to" value="${state.to}" required></label>
  <button type="submit">Show</button>
</form>
<nav class="filters" aria-label="Ranges">${presets(base, today)}</nav>
${body}`,
  );
}
