import { parse as parseYaml } from 'yaml';
import { joinInside } from './link-urls.ts';
import type { RepositoryFiles } from './site-model.ts';

/** What a Read the Docs configuration says of the site it builds. */
export interface ReadTheDocsConfig {
  file: string;
  /** `sphinx.configuration` (a `conf.py` the checkout holds) and `sphinx.builder` (`html`, `dirhtml`). */
  sphinx?: { configuration?: string; builder?: string };
  /** `mkdocs.configuration` (an `mkdocs.yml` the checkout holds). */
  mkdocs?: { configuration?: string };
}

const configFiles = ['.readthedocs.yaml', '.readthedocs.yml', 'readthedocs.yaml', 'readthedocs.yml'];

/**
 * The repository's Read the Docs configuration (https://docs.readthedocs.io/en/stable/config-file/v2.html),
 * or null: paths are relative to the repository root, and one the checkout does not hold, or that
 * names no `conf.py` or `mkdocs.yml`, is left out.
 */
export async function readReadTheDocsConfig(files: RepositoryFiles): Promise<ReadTheDocsConfig | null> {
  const file = configFiles.find((name) => files.has(name));
  const text = file === undefined ? null : await files.read(file);
  if (file === undefined || text === null) return null;
  let settings: unknown;
  try {
    settings = parseYaml(text, { logLevel: 'silent', maxAliasCount: 100 });
  } catch {
    return null;
  }
  const section = (name: string): Record<string, unknown> => {
    const value =
      typeof settings === 'object' && settings !== null ? (settings as Record<string, unknown>)[name] : null;
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  };
  const configuration = (value: unknown, name: RegExp): string | undefined => {
    if (typeof value !== 'string') return undefined;
    const path = joinInside('', value.replace(/^\/+/, ''));
    return path !== null && name.test(path) && files.has(path) ? path : undefined;
  };
  const sphinx = section('sphinx');
  const builder = sphinx.builder;
  return {
    file,
    sphinx: {
      configuration: configuration(sphinx.configuration, /(^|\/)conf\.py$/),
      ...(typeof builder === 'string' ? { builder } : {}),
    },
    mkdocs: { configuration: configuration(section('mkdocs').configuration, /(^|\/)mkdocs\.ya?ml$/) },
  };
}
