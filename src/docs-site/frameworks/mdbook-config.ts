import type { SiteProblem } from '../site-model.ts';

/** A value of `book.toml` as written: strings unquoted, anything else as its raw text. */
export interface TomlValue {
  value: string;
  line: number;
}

/** `book.toml` read as tables of keys (`book` → `src` → "src"), with its syntax problems. */
export interface BookToml {
  tables: Map<string, Map<string, TomlValue>>;
  problems: SiteProblem[];
}

const headerPattern = /^\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$/;
const keyPattern = /^("(?:[^"\\]|\\.)*"|'[^']*'|[A-Za-z0-9_.-]+(?:\s*\.\s*[A-Za-z0-9_-]+)*)\s*=\s*(.*)$/;

/**
 * Reads the parts of `book.toml` a site model needs (https://rust-lang.github.io/mdBook/format/configuration/):
 * table headers, `key = value` lines with bare or quoted keys, and string values. Multi-line arrays,
 * inline tables and multi-line strings are skipped over. A line that is none of these is reported.
 */
export function readBookToml(text: string, file: string): BookToml {
  const tables = new Map<string, Map<string, TomlValue>>([['', new Map()]]);
  const problems: SiteProblem[] = [];
  let table = tables.get('') as Map<string, TomlValue>;
  let openBrackets = 0;
  let inMultilineString: string | null = null;
  const lines = text.split('\n');
  for (const [index, rawLine] of lines.entries()) {
    const line = rawLine.trim();
    if (inMultilineString !== null) {
      if (line.includes(inMultilineString)) inMultilineString = null;
      continue;
    }
    if (openBrackets > 0) {
      openBrackets = Math.max(0, openBrackets + bracketBalance(line));
      continue;
    }
    if (line === '' || line.startsWith('#')) continue;
    const header = headerPattern.exec(line);
    if (header !== null) {
      const name = unquoteKey(header[1] ?? '');
      table = tables.get(name) ?? new Map();
      tables.set(name, table);
      continue;
    }
    const pair = keyPattern.exec(line);
    if (pair === null) {
      problems.push({
        file,
        line: index + 1,
        message: `${file} is not valid TOML: line ${index + 1} is neither a [table] nor key = value`,
        key: `configuration\0${line.slice(0, 80)}`,
      });
      continue;
    }
    const value = (pair[2] ?? '').trim();
    const multiline = /^("""|''')/.exec(value)?.[1];
    if (multiline !== undefined && !value.slice(3).includes(multiline)) inMultilineString = multiline;
    if (value.startsWith('[') || value.startsWith('{')) openBrackets = Math.max(0, bracketBalance(value));
    table.set(unquoteKey(pair[1] ?? ''), { value: unquoteString(value), line: index + 1 });
  }
  return { tables, problems };
}

function bracketBalance(text: string): number {
  let balance = 0;
  let quote: string | null = null;
  for (const character of text) {
    if (quote !== null) {
      if (character === quote) quote = null;
    } else if (character === '"' || character === "'") quote = character;
    else if (character === '#') break;
    else if (character === '[' || character === '{') balance += 1;
    else if (character === ']' || character === '}') balance -= 1;
  }
  return balance;
}

function unquoteKey(key: string): string {
  return key
    .split(/\s*\.\s*(?=(?:[^"]*"[^"]*")*[^"]*$)/)
    .map((part) => unquoteString(part.trim()))
    .join('.');
}

function unquoteString(value: string): string {
  const match = /^"((?:[^"\\]|\\.)*)"|^'([^']*)'/.exec(value);
  if (match === null) return value.replace(/\s+#.*$/, '');
  return match[2] ?? (match[1] ?? '').replace(/\\(.)/g, '$1');
}
