/**
 * What an instruction for the agent may be: 1 to 20,000 characters, not only white space, and no NUL
 * character (PostgreSQL text cannot hold one). The job service enforces it for every caller; the API
 * schema and the dashboard's form fields take their limits from here.
 */
import { InvalidInputError } from '../errors.ts';

/** Characters as JSON Schema counts them (code points), so the API schema and this rule agree. */
export const maximumPromptLength = 20_000;

/** The rule in words, for the API schema's description and the error message. */
export const promptRule = '1 to 20,000 characters, not only white space, no NUL character';

/** The API schema's pattern: not only white space, and no NUL character. */
export const promptPattern = '^[^\\u0000]*[^\\s\\u0000][^\\u0000]*$';

/** Throws `InvalidInputError` (400) unless `prompt` follows the rule. */
export function checkPrompt(prompt: string): void {
  if (prompt.trim() === '' || codePoints(prompt) > maximumPromptLength || prompt.includes('\u0000')) {
    throw new InvalidInputError(`An instruction is ${promptRule}`);
  }
}

function codePoints(text: string): number {
  // Only text longer than the limit in UTF-16 units can be over it in code points.
  if (text.length <= maximumPromptLength) return text.length;
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}
