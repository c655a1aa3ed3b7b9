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
