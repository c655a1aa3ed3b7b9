/**
 * A server-drawn SVG chart of human and AI views over time, and the site's unique visitors where the
 * points carry them: no script, no external library.
 */
import { html, type SafeHtml } from '../html.ts';

const width = 720;
const height = 220;
const padding = { top: 12, right: 12, bottom: 28, left: 48 };

export function renderViewsChart(
  points: { start: string; human: number; ai: number; visitors?: number }[],
): SafeHtml {
  if (points.length === 0) return html``;
  const withVisitors = points.some((point) => point.visitors !== undefined);
  const maximum = Math.max(1, ...points.map((point) => Math.max(point.human, point.ai, point.visitors ?? 0)));
  const plotWidth = width - padding.left - padding.right;
  const plotHeight = height - padding.top - padding.bottom;
  const x = (index: number) =>
    padding.left + (points.length === 1 ? plotWidth / 2 : (index * plotWidth) / (points.length - 1));
  const y = (value: number) => padding.top + plotHeight - (value / maximum) * plotHeight;
  const line = (key: 'human' | 'ai' | 'visitors') =>
    points
      .map(
        (point, index) => `${index === 0 ? 'M' : 'L'}${x(index).toFixed(1)},${y(point[key] ?? 0).toFixed(1)}`,
      )
      .join(' ');
  const humanTotal = points.reduce((sum, point) => sum + point.human, 0);
  const aiTotal = points.reduce((sum, point) => sum + point.ai, 0);
  const first = points[0]!.start.slice(0, 10);
  const last = points.at(-1)!.start.slice(0, 10);
  const label = `Views from ${first} to ${last}: ${humanTotal} human, ${aiTotal} AI${withVisitors ? ', with unique visitors per period' : ''}; highest in one period ${maximum}.`;
  return html`<figure class="chart">
<svg viewBox="0 0 ${width} ${height}" role="img" aria-label="${label}">
  <line x1="${padding.left}" y1="${padding.top + plotHeight}" x2="${width - padding.right}" y2="${padding.top + plotHeight}" stroke="#d1d9e0"/>
  <line x1="${padding.left}" y1="${padding.top}" x2="${width - padding.right}" y2="${padding.top}" stroke="#eef1f4"/>
  <text x="${padding.left - 6}" y="${padding.top + 4}" text-anchor="end" font-size="11" fill="#59636e">${maximum}</text>
  <text x="${padding.left - 6}" y="${padding.top + plotHeight}" text-anchor="end" font-size="11" fill="#59636e">0</text>
  <text x="${padding.left}" y="${height - 8}" font-size="11" fill="#59636e">${first}</text>
  <text x="${width - padding.right}" y="${height - 8}" text-anchor="end" font-size="11" fill="#59636e">${last}</text>
  <path d="${line('human')}" fill="none" stroke="#0b57d0" stroke-width="2"/>
  <path d="${line('ai')}" fill="none" stroke="#b35900" stroke-width="2" stroke-dasharray="5 3"/>
  ${withVisitors ? html`<path d="${line('visitors')}" fill="none" stroke="#1a7f37" stroke-width="2" stroke-dasharray="1 3" data-series="visitors"/>` : ''}
</svg>
<figcaption class="legend"><span class="human">Human</span><span class="ai">AI</span>${withVisitors ? html`<span class="visitors">Unique visitors</span>` : ''}</figcaption>
</figure>`;
}
