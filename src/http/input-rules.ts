/**
 * The one input rule every route inherits (API, dashboard forms, pages): text is well-formed
 * Unicode without control characters. C0 controls other than tab, line feed and carriage return are
 * refused in every string of a body, and every C0 control in path parameters and query strings
 * (single-line by nature), with 400 and one detail per field. NUL is what PostgreSQL cannot store in
 * text; the others are never meant and make log lines and pages lie. Lone surrogates are refused
 * rather than silently replaced, and so are query strings whose percent-encoding is not UTF-8.
 */
import { type ErrorDetail, InvalidInputError } from '../errors.ts';
import { type TextKind, textProblem } from '../text-rules.ts';
import { isPlainJsonBody } from './json-body.ts';

/** At most this many problems are collected: enough to fix a request, never a huge answer. */
const maximumProblems = 20;

/** Appends a problem for every unacceptable string inside `value` (objects and arrays walked). */
function collectTextProblems(value: unknown, where: string, kind: TextKind, problems: ErrorDetail[]): void {
  if (problems.length >= maximumProblems) return;
  if (typeof value === 'string') {
    const problem = textProblem(value, kind);
    if (problem !== null) problems.push({ message: `${where} ${problem}` });
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  // A raw body (the drains read the provider's bytes: gzip, JSON lines) is bytes, not text fields:
  // walking it would visit every byte as a field name, which cost drains most of their time. The
  // routes that take bytes apply the rule to the text they read from them (drain-body.ts, logged-view.ts).
  if (ArrayBuffer.isView(value)) return;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) {
      collectTextProblems(value[index], `${where}[${index}]`, kind, problems);
    }
    return;
  }
  for (const name of Object.keys(value)) {
    const nameProblem = textProblem(name, 'line');
    if (nameProblem !== null) problems.push({ message: `${where} has a field name that ${nameProblem}` });
    collectTextProblems((value as Record<string, unknown>)[name], `${where}.${name}`, kind, problems);
  }
}

/** True when every `%XX` sequence of a query string decodes as UTF-8. */
function isDecodableQuery(query: string): boolean {
  if (!query.includes('%')) return true;
  for (const part of query.split(/[&=]/)) {
    try {
      decodeURIComponent(part);
    } catch {
      return false;
    }
  }
  return true;
}

/** Throws a 400 listing the problems of a request's parameters, query and body. */
export function checkRequestText(request: {
  url: string;
  params: unknown;
  query: unknown;
  body: unknown;
}): void {
  const problems: ErrorDetail[] = [];
  const queryStart = request.url.indexOf('?');
  if (queryStart >= 0 && !isDecodableQuery(request.url.slice(queryStart + 1))) {
    problems.push({ message: 'querystring is not valid percent-encoded UTF-8' });
  }
  collectTextProblems(request.params, 'params', 'line', problems);
  collectTextProblems(request.query, 'querystring', 'line', problems);
  if (!isPlainJsonBody(request.body)) collectTextProblems(request.body, 'body', 'body', problems);
  if (problems.length > 0) throw new InvalidInputError('Invalid request text', problems);
}
