import { ConfigLines } from './config-lines.ts';
import {
  elementPlace,
  type JavaScriptConfig,
  propertyPlace,
  readJavaScriptConfig,
  UnknownValue,
} from './javascript-config.ts';
import { folderOf, joinInside } from './link-urls.ts';
import type { RepositoryFiles } from './site-model.ts';

/** A configuration file read with the local modules it imports, and every file that was read. */
export interface JavaScriptModules {
  config: JavaScriptConfig;
  /** The configuration file first, then each local module it imports (directly or not). */
  files: string[];
  /** The text of each file read, for finding the line a value is written on. */
  texts: ReadonlyMap<string, string>;
}

const maximumModules = 40;
const moduleExtensions = ['', '.ts', '.mts', '.js', '.mjs', '.cjs', '/index.ts', '/index.js', '/index.mjs'];
const importSpecifierPattern = /\bfrom\s*['"](\.{1,2}\/[^'"\n]{1,300})['"]/g;

/**
 * Reads a JavaScript or TypeScript configuration file without running it, following its imports
 * of local modules (`import { sidebar } from './astro.sidebar'`, `import { markdown } from
 * '../es/config.ts'`) inside the repository: sites split their navigation over such files. At most
 * `maximumModules` files are read; a module that imports itself back reads as unknown.
 */
export async function readJavaScriptModules(
  files: RepositoryFiles,
  path: string,
): Promise<JavaScriptModules | null> {
  const texts = new Map<string, string>();
  const pending = [path];
  while (pending.length > 0 && texts.size < maximumModules) {
    const next = pending.shift() as string;
    if (texts.has(next)) continue;
    const text = await files.read(next);
    if (text === null) continue;
    texts.set(next, text);
    for (const match of text.matchAll(importSpecifierPattern)) {
      const resolved = resolveModule(files, next, match[1] ?? '');
      if (resolved !== null && !texts.has(resolved)) pending.push(resolved);
    }
  }
  if (!texts.has(path)) return null;

  const read = new Map<string, JavaScriptConfig | null>();
  const load = (file: string): JavaScriptConfig | null => {
    if (read.has(file)) return read.get(file) ?? null;
    const text = texts.get(file);
    if (text === undefined) return null;
    read.set(file, null);
    const config = readJavaScriptConfig(
      text,
      file,
      (specifier) => new UnknownValue(`imported ${specifier}`),
      (specifier, name) => {
        const resolved = resolveModule(files, file, specifier);
        const module = resolved === null ? null : load(resolved);
        if (module === null || resolved === null) return new UnknownValue(`imported from ${specifier}`);
        if (name === 'default') return module.value;
        return exportedName(module, name, resolved) ?? new UnknownValue(`imported from ${specifier}`);
      },
    );
    read.set(file, config);
    return config;
  };
  /** A module's export by name, or one a module it re-exports whole (`export *`) has, a few levels down. */
  const exportedName = (module: JavaScriptConfig, name: string, file: string, depth = 0): unknown => {
    if (module.named.has(name)) return module.named.get(name);
    if (depth > 4) return undefined;
    for (const specifier of module.starExports ?? []) {
      const resolved = resolveModule(files, file, specifier);
      const inner = resolved === null ? null : load(resolved);
      if (inner === null || resolved === null) continue;
      const found = exportedName(inner, name, resolved, depth + 1);
      if (found !== undefined) return found;
    }
    return undefined;
  };
  const config = load(path);
  if (config === null) return null;
  return { config, files: [...texts.keys()], texts };
}

function resolveModule(files: RepositoryFiles, importer: string, specifier: string): string | null {
  const base = joinInside(folderOf(importer), specifier);
  if (base === null) return null;
  for (const extension of moduleExtensions) {
    const candidate = `${base}${extension}`;
    if (/\.(c|m)?(j|t)s$/.test(candidate) && files.has(candidate)) return candidate;
  }
  // TypeScript's ES modules import `./sidebar.js` for `sidebar.ts`.
  const typescript = base.replace(/\.(c|m)?js$/, '.$1ts');
  return typescript !== base && files.has(typescript) ? typescript : null;
}

/**
 * The file and line a navigation value is written on, among a configuration and its modules: the
 * first file (in reading order) that holds it as a whole value; repeated values are found in order.
 */
export class ModuleLines {
  readonly #files: readonly string[];
  readonly #texts: ReadonlyMap<string, string>;
  readonly #lines = new Map<string, ConfigLines>();
  readonly #cursors = new Map<string, number>();

  constructor(modules: Pick<JavaScriptModules, 'files' | 'texts'>) {
    this.#files = modules.files;
    this.#texts = modules.texts;
  }

  /**
   * With `owner`, the object read from the configuration that holds the value as its property `key`,
   * the place it was read from. Else, with `key`, a place where the value is written as that property
   * (`link: '/guide/'`) comes first, so the same text elsewhere in the file (a search option, a
   * comment) is not taken for it.
   */
  locate(value: string, key?: string, owner?: object, index?: number): { file: string; line: number } {
    const place =
      owner === undefined
        ? undefined
        : Array.isArray(owner) && index !== undefined
          ? elementPlace(owner, index)
          : key === undefined
            ? undefined
            : propertyPlace(owner, key);
    if (place !== undefined && this.#texts.has(place.file))
      return { file: place.file, line: this.#linesOf(place.file).lineAt(place.offset) };
    if (key !== undefined && value.length <= 500) {
      const escaped = value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      const pattern = new RegExp(`\\b${key}\\s*:\\s*['"\`]${escaped}['"\`]`, 'g');
      for (const file of this.#files) {
        const text = this.#texts.get(file) ?? '';
        const cursorKey = `${file}\0${key}\0${value}`;
        pattern.lastIndex = this.#cursors.get(cursorKey) ?? 0;
        const match = pattern.exec(text);
        if (match === null) continue;
        this.#cursors.set(cursorKey, match.index + match[0].length);
        return { file, line: this.#linesOf(file).lineAt(match.index) };
      }
    }
    for (const file of this.#files) {
      const text = this.#texts.get(file) ?? '';
      if (!text.includes(value)) continue;
      const line = this.#linesOf(file).lineOf(value);
      if (line > 1 || text.split('\n', 1)[0]?.includes(value)) return { file, line };
    }
    return { file: this.#files[0] ?? '', line: 1 };
  }

  /** A file's line index, built once: an offset's line is then a binary search, not a count. */
  #linesOf(file: string): ConfigLines {
    let lines = this.#lines.get(file);
    if (lines === undefined) {
      lines = new ConfigLines(this.#texts.get(file) ?? '');
      this.#lines.set(file, lines);
    }
    return lines;
  }
}
