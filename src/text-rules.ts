/**
 * What text Quire accepts from outside (request fields, form fields, log lines): well-formed
 * Unicode without C0 control characters, except tab, line feed and carriage return in text that may
 * span lines. NUL cannot be stored in PostgreSQL text at all; the other controls are never meant and
 * make log lines and pages lie. The HTTP layer (src/http/input-rules.ts) and the log importer both
 * apply this rule.
 */

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds
const bodyControlCharacter = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds
const lineControlCharacter = /[\u0000-\u001f]/;

export type TextKind = 'body' | 'line';

/** The problem with one string, or null when it is acceptable text. */
export function textProblem(text: string, kind: TextKind): string | null {
  if (!text.isWellFormed()) return 'is not valid Unicode text (a lone surrogate)';
  const pattern = kind === 'body' ? bodyControlCharacter : lineControlCharacter;
  const match = pattern.exec(text);
  if (match === null) return null;
  const code = match[0].charCodeAt(0).toString(16).padStart(4, '0').toUpperCase();
  return `must not contain control characters (U+${code} at position ${match.index})`;
}
