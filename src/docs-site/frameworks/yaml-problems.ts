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
