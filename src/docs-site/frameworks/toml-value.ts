import { parse as parseToml, TomlError } from 'smol-toml';
import type { SiteProblem } from '../site-model.ts';

/** A TOML file's value (smol-toml), or an empty table with the syntax error at its line. */
export function tomlValue(
  text: string,
  file: string,
): { value: Record<string, unknown>; problems: SiteProblem[] } {
  try {
    return { value: parseToml(text), problems: [] };
  } catch (error: unknown) {
    const line = error instanceof TomlError ? error.line : 1;
    const message = error instanceof Error ? (error.message.split('\n')[0] ?? '') : 'unreadable';
    return {
      value: {},
      problems: [
        { file, line, message: `${file} is not valid TOML: ${message}`, key: 'configuration\0toml' },
      ],
    };
  }
}
