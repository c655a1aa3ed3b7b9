/** HTML form bodies (`application/x-www-form-urlencoded`): every field may repeat (checkboxes). */
export type FormBody = Record<string, string[]>;

export function parseFormBody(text: string): FormBody {
  const body: FormBody = {};
  for (const [name, value] of new URLSearchParams(text)) {
    const values = body[name] ?? [];
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
  if (typeof body !== 'object' || body === null) return [];
  const values = (body as Record<string, unknown>)[name];
  return Array.isArray(values) ? values.filter((value): value is string => typeof value === 'string') : [];
}
