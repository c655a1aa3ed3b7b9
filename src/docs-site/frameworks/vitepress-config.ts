import { CallValue, isPlainRecord, UnknownValue } from '../javascript-config.ts';
import { type JavaScriptModules, readJavaScriptModules } from '../javascript-modules.ts';
import type { RepositoryFiles, SiteProblem } from '../site-model.ts';

/** A configuration value, unwrapped from a helper call around it (`extendConfig(config)`). */
function configObject(value: unknown, depth = 0): Record<string, unknown> | null {
  if (value instanceof CallValue && depth < 4) {
    for (const argument of value.arguments_) {
      const found = configObject(argument, depth + 1);
      if (found !== null) return found;
    }
  }
  return isPlainRecord(value) ? value : null;
}

export interface ReadModule {
  file: string;
  modules: JavaScriptModules | null;
  value: Record<string, unknown> | null;
  problems: SiteProblem[];
}

/** Reads one configuration file and the local modules it imports, never running them. */
export async function readConfigModule(files: RepositoryFiles, file: string): Promise<ReadModule> {
  const modules = await readJavaScriptModules(files, file);
  const raw = modules?.config.value;
  const problems: SiteProblem[] = [];
  if (raw instanceof UnknownValue && /could not be parsed/.test(raw.reason)) {
    const line = Number(/\((\d+):\d+\)/.exec(raw.reason)?.[1] ?? 1);
    problems.push({ file, line, message: raw.reason, key: `configuration\0${file}` });
  }
  return { file, modules, value: configObject(raw), problems };
}

/**
 * A configuration as a model uses it: its value (empty when code computes it), its syntax
 * problems, and, when code computes it, a note that its settings are not read.
 */
export function configurationOf(
  main: ReadModule | null,
  configFile: string,
): { config: Record<string, unknown>; unsupported: string[]; problems: SiteProblem[] } {
  const unsupported: string[] = [];
  if (main !== null && main.value === null)
    unsupported.push(`${configFile}: the configuration is computed by code; its settings are not read`);
  return { config: main?.value ?? {}, unsupported, problems: [...(main?.problems ?? [])] };
}

/**
 * VitePress `rewrites` (https://vitepress.dev/guide/routing#route-rewrites): source patterns with
 * `:param` (one segment) and `:param*` (any rest) mapped to destinations. Null for a pattern this
 * reader does not follow (regular-expression groups), so routes are not guessed.
 */
export function compileRewrites(rewrites: unknown): Array<(path: string) => string | null> | null {
  if (rewrites === undefined) return [];
  if (!isPlainRecord(rewrites)) return null;
  const compiled: Array<(path: string) => string | null> = [];
  for (const [source, destination] of Object.entries(rewrites)) {
    if (typeof destination !== 'string' || /[()[\]{}]/.test(source)) return null;
    const names: string[] = [];
    const pattern = source
      .split(/(:[A-Za-z_]\w*[*+?]?)/)
      .map((part) => {
        const parameter = /^:([A-Za-z_]\w*)([*+?]?)$/.exec(part);
        if (parameter === null) return part.replace(/[.*+?^$|\\]/g, '\\$&');
        names.push(parameter[1] ?? '');
        return parameter[2] === '*'
          ? '(.*)'
          : parameter[2] === '+'
            ? '(.+)'
            : parameter[2] === '?'
              ? '([^/]*)'
              : '([^/]+)';
      })
      .join('');
    const expression = new RegExp(`^${pattern}$`);
    compiled.push((path) => {
      const match = expression.exec(path);
      if (match === null) return null;
      let result = destination;
      for (const [index, name] of names.entries()) {
        result = result.replace(new RegExp(`:${name}[*+?]?`), match[index + 1] ?? '');
      }
      return result.replace(/^\/+/, '');
    });
  }
  return compiled;
}
