import type { Document } from 'yaml';
import type { SiteProblem } from '../site-model.ts';

/** A YAML configuration file's syntax errors, each at its line. */
export function yamlProblems(document: Document, file: string): SiteProblem[] {
  return document.errors.map((error) => ({
    file,
    line: error.linePos?.[0]?.line ?? 1,
    message: `${file} is not valid YAML: ${error.message.split('\n')[0]}`,
    key: `configuration\0${error.code}`,
  }));
}

/**
 * A YAML document's value, or null with a problem when it expands more aliases than a configuration
 * needs: `toJS` refuses an alias bomb (a few lines that expand to billions of nodes) by throwing.
 */
export function yamlValue(document: Document, file: string): { value: unknown; problems: SiteProblem[] } {
  try {
    return { value: document.toJS({ maxAliasCount: 100 }), problems: [] };
  } catch {
    return {
      value: null,
      problems: [
        {
          file,
          line: 1,
          message: `${file} expands more YAML aliases than a configuration needs; it is read as empty`,
          key: 'configuration\0alias-count',
        },
      ],
    };
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The strings of a YAML list, or of a lone string (`exclude: data/**`). */
export function stringList(value: unknown): string[] {
  return (Array.isArray(value) ? value : typeof value === 'string' ? [value] : []).filter(
    (item): item is string => typeof item === 'string',
  );
}
