/**
 * HTML form bodies (`application/x-www-form-urlencoded`): every field may repeat (checkboxes).
 * The body is a map without a prototype, so fields named `__proto__`, `constructor` or `toString`
 * are fields like any other, and percent-encoding that is not UTF-8 is refused rather than
 * replaced (URLSearchParams would turn it into U+FFFD).
 * https://url.spec.whatwg.org/#application/x-www-form-urlencoded
 */
import { InvalidInputError } from '../errors.ts';

export type FormBody = Record<string, string[]>;

function decodeFormComponent(text: string): string {
  try {
    return decodeURIComponent(text.replaceAll('+', ' '));
  } catch {
    throw new InvalidInputError('Form body is not valid percent-encoded UTF-8');
  }
}

export function parseFormBody(text: string): FormBody {
  const body: FormBody = Object.create(null);
  for (const pair of text.split('&')) {
    if (pair === '') continue;
    const separator = pair.indexOf('=');
    const name = decodeFormComponent(separator < 0 ? pair : pair.slice(0, separator));
    const value = separator < 0 ? '' : decodeFormComponent(pair.slice(separator + 1));
    const values = Object.hasOwn(body, name) ? body[name]! : [];
    values.push(value);
    body[name] = values;
  }
  return body;
}

/** The field's first value, or '' when it is absent. */
export function formField(body: unknown, name: string): string {
  return formFields(body, name)[0] ?? '';
}

export function formFields(body: unknown, name: string): string[] {
  if (typeof body !== 'object' || body === null || !Object.hasOwn(body, name)) return [];
  const values = (body as Record<string, unknown>)[name];
  return Array.isArray(values) ? values.filter((value): value is string => typeof value === 'string') : [];
}
