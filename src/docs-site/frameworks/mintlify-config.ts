import { ConfigLines } from '../config-lines.ts';
import { folderOf, isWithin, joinInside } from '../link-urls.ts';
import type { RepositoryFiles, SiteProblem } from '../site-model.ts';
import { jsonErrorOffset } from './mintlify-json-error.ts';

/** One JSON configuration file as read: its value, and the lines its values are written on. */
export interface ConfigFile {
  file: string;
  value: unknown;
  lines: ConfigLines;
  /**
   * Where the values of its top-level members are written (offsets, end excluded): navigation
   * entries and redirects are looked for within their own member (a `$ref` file holds one whole).
   */
  members: ReadonlyMap<string, readonly [number, number]>;
}

/** A value with the file it is written in and the `$ref` files that led to it (to refuse cycles). */
export interface Located {
  value: unknown;
  file: ConfigFile;
  chain: readonly string[];
}

// Bounds on hostile input: how many `$ref` files are read, and how deep references nest.
const maximumReferencedFiles = 200;
const maximumReferenceDepth = 16;
const maximumScanNodes = 200_000;

/**
 * Reads `docs.json` (or `mint.json`) and every JSON file it includes with `"$ref"`, without running
 * anything. Mintlify replaces a `{"$ref": "path"}` object by the referenced file's content, resolved
 * relative to the file that contains it and kept inside the project; sibling keys of an object
 * reference are merged over it (https://mintlify.com/docs/organize/settings#split-configuration-with-ref).
 */
export class MintlifyConfig {
  readonly files = new Map<string, ConfigFile>();
  readonly problems: SiteProblem[] = [];
  readonly unsupported: string[] = [];
  readonly #siteRoot: string;

  private constructor(siteRoot: string) {
    this.#siteRoot = siteRoot;
  }

  /** Reads `mainFile` and, breadth first, every file it references; null when `mainFile` cannot be read. */
  static async read(files: RepositoryFiles, siteRoot: string, mainFile: string): Promise<MintlifyConfig> {
    const config = new MintlifyConfig(siteRoot);
    const queue = [mainFile];
    const seen = new Set(queue);
    while (queue.length > 0 && config.files.size < maximumReferencedFiles) {
      const file = queue.shift() as string;
      const text = await files.read(file);
      if (text === null) continue;
      const value = config.#parse(file, text);
      if (value === undefined) continue;
      config.files.set(file, {
        file,
        value,
        lines: new ConfigLines(text),
        members: isObject(value) ? topLevelMemberSpans(text) : new Map(),
      });
      for (const reference of referencesIn(value)) {
        const target = config.referencedFile(file, reference);
        if (target === null || seen.has(target)) continue;
        seen.add(target);
        if (files.has(target)) queue.push(target);
      }
    }
    return config;
  }

  /** The repository path a `$ref` written in `from` names, or null when it leaves the project. */
  referencedFile(from: string, reference: string): string | null {
    const target = joinInside(folderOf(from), reference.startsWith('/') ? `.${reference}` : reference);
    return target === null || !isWithin(this.#siteRoot, target) ? null : target;
  }

  /**
   * The value a `$ref` object stands for, located in its own file: null for a reference that cannot be
   * followed (a missing or unreadable file, a cycle, too deep), each reported once.
   */
  follow(reference: string, at: Located): Located | null {
    const target = this.referencedFile(at.file.file, reference);
    const line = at.file.lines.lineOf(reference);
    if (target === null) {
      this.#problem(at.file.file, line, `"$ref": "${reference}" leaves the project`, `$ref\0${reference}`);
      return null;
    }
    if (at.chain.includes(target) || at.chain.length >= maximumReferenceDepth) {
      this.#problem(at.file.file, line, `"$ref": "${reference}" refers back to itself`, `$ref\0${reference}`);
      return null;
    }
    const file = this.files.get(target);
    if (file === undefined) {
      // A file we could not parse is reported as a syntax error already; a missing one fails the build.
      if (!this.problems.some((problem) => problem.file === target))
        this.#problem(at.file.file, line, `"$ref": "${reference}" names no JSON file`, `$ref\0${reference}`);
      return null;
    }
    return { value: file.value, file, chain: [...at.chain, target] };
  }

  #parse(file: string, text: string): unknown {
    try {
      return JSON.parse(text) as unknown;
    } catch (error: unknown) {
      const message = error instanceof Error ? error.message : String(error);
      this.#problem(file, lineOfJsonError(text), `Invalid JSON: ${message}`, 'configuration-syntax');
      return undefined;
    }
  }

  #problem(file: string, line: number, message: string, key: string): void {
    if (this.problems.some((problem) => problem.file === file && problem.key === key)) return;
    this.problems.push({ file, line, message, key });
  }
}

/** The line of a JSON syntax error: found by our own scan, since V8 names a position only for some. */
function lineOfJsonError(text: string): number {
  const offset = jsonErrorOffset(text) ?? text.length;
  return text.slice(0, offset).split('\n').length;
}

/**
 * Where the value of each top-level member is written in a JSON object's text (offsets, end
 * excluded). The text is valid JSON (it was parsed).
 */
function topLevelMemberSpans(text: string): Map<string, [number, number]> {
  const spans = new Map<string, [number, number]>();
  let depth = 0;
  let member: { key: string; start: number } | null = null;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (char === '"') {
      let end = index + 1;
      while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      if (depth === 1 && member === null) {
        const colon = /^\s*:/.exec(text.slice(end + 1, end + 1 + 256));
        if (colon !== null)
          member = {
            key: JSON.parse(text.slice(index, end + 1)) as string,
            start: end + 1 + colon[0].length,
          };
      }
      index = end;
    } else if (char === '{' || char === '[') {
      depth += 1;
    } else if (char === '}' || char === ']') {
      depth -= 1;
      if (member !== null && depth === 0) spans.set(member.key, [member.start, index]);
    } else if (char === ',' && depth === 1 && member !== null) {
      spans.set(member.key, [member.start, index]);
      member = null;
    }
  }
  return spans;
}

/** Every `"$ref"` string in a parsed JSON value, found without recursion and with a bound on the work. */
function referencesIn(value: unknown): string[] {
  const references: string[] = [];
  const stack: unknown[] = [value];
  for (let visited = 0; stack.length > 0 && visited < maximumScanNodes; visited += 1) {
    const node = stack.pop();
    // Children are pushed last first, so files are read in the order they are written.
    if (Array.isArray(node))
      for (let index = node.length - 1; index >= 0; index -= 1) stack.push(node[index]);
    else if (typeof node === 'object' && node !== null) {
      if (typeof (node as { $ref?: unknown }).$ref === 'string')
        references.push((node as { $ref: string }).$ref);
      const children = Object.values(node).filter((child) => typeof child === 'object' && child !== null);
      for (let index = children.length - 1; index >= 0; index -= 1) stack.push(children[index]);
    }
  }
  return references;
}

/** A JSON object (not an array), for reading configuration values. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
