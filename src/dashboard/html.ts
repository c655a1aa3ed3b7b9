/**
 * HTML built with a tagged template that escapes every interpolated value unless it is already
 * `SafeHtml` (the output of another `html` template). Repository content, prompts and model
 * output are hostile; escaping by default is what keeps them text.
 *
 *   html`<p class="prompt">${job.prompt}</p>`   // <script> in the prompt stays text
 */
import { escapeHtml } from '../escape-html.ts';

export class SafeHtml {
  readonly value: string;

  constructor(value: string) {
    this.value = value;
  }

  toString(): string {
    return this.value;
  }
}

export type Interpolation =
  | SafeHtml
  | string
  | number
  | boolean
  | null
  | undefined
  | readonly Interpolation[];

function render(value: Interpolation): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: Interpolation[]): SafeHtml {
  let out = strings[0] ?? '';
  for (let index = 0; index < values.length; index += 1) {
    out += render(values[index]) + (strings[index + 1] ?? '');
  }
  return new SafeHtml(out);
}

/** A date as readable UTC text inside `<time>`, or a dash. */
export function formatTime(date: Date | null | undefined): SafeHtml {
  if (!date) return html`<span class="muted">never</span>`;
  const iso = date.toISOString();
  return html`<time datetime="${iso}">${iso.slice(0, 16).replace('T', ' ')} UTC</time>`;
}
