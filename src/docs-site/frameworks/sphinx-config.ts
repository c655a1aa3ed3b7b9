import type { SyntaxNode } from '@lezer/common';
import { parser } from '@lezer/python';

/** A value of `conf.py` that this reader could not know without running it (`os.path.join(...)`). */
export interface ComputedValue {
  computed: string;
  /** Items a computed list holds whatever else it holds: those added to an imported list (`+= [...]`). */
  atLeast?: PythonValue[];
  /** Items it holds in some builds only: the branches of `[...] if condition else [...]`. */
  possibly?: PythonValue[];
}

export type PythonValue =
  | string
  | number
  | boolean
  | null
  | PythonValue[]
  | ReadonlyMap<string, PythonValue>
  | ComputedValue;

/** The top-level settings of a Sphinx `conf.py`, read without running it. */
export interface SphinxConfig {
  file: string;
  /** Each name's value after the last top-level statement that sets it. */
  values: ReadonlyMap<string, PythonValue>;
  /** Names also assigned inside an `if`, `try`, `for` or `with` block: their value depends on the build. */
  conditional: ReadonlySet<string>;
  /**
   * Items lists get in some builds only: extended inside such a block (`extensions.extend(...)` unless
   * building man pages, astropy's `exclude_patterns += ["development/*"]` outside dev versions).
   */
  possibly: ReadonlyMap<string, readonly PythonValue[]>;
  /**
   * Whether the file sets settings this reader cannot name: `globals().update(...)` or a star import
   * (a shared configuration package, `from theme.conf import *`). Any setting may then differ.
   */
  dynamic: boolean;
}

export function isComputed(value: PythonValue | undefined): value is ComputedValue {
  return typeof value === 'object' && value !== null && 'computed' in value;
}

// Statements whose bodies run at most once or depend on the build's environment.
const maximumConfigCharacters = 256 * 1024;
const blockStatements = new Set([
  'IfStatement',
  'TryStatement',
  'ForStatement',
  'WithStatement',
  'WhileStatement',
]);
const maximumDepth = 32;

/**
 * Reads `conf.py` (https://www.sphinx-doc.org/en/master/usage/configuration.html) the way a reader
 * of the file would: `name = literal` at the top level, `name += [...]`, `name.append(...)` and
 * `name.extend([...])`; strings, numbers, booleans, `None`, lists, tuples and dictionaries of them.
 * Anything computed is a `ComputedValue` saying so; nothing in the file is ever run.
 */
export function readSphinxConfig(text: string, file: string): SphinxConfig {
  const values = new Map<string, PythonValue>();
  const conditional = new Set<string>();
  const possibly = new Map<string, PythonValue[]>();
  const addPossibly = (name: string, added: PythonValue) => {
    const items = Array.isArray(added)
      ? added
      : isComputed(added)
        ? [...(added.atLeast ?? []), ...(added.possibly ?? [])]
        : [];
    const list = possibly.get(name);
    if (list === undefined) possibly.set(name, [...items]);
    else for (const item of items) list.push(item);
  };
  // A real `conf.py` is a few kilobytes; a larger one is not read (lezer's tree for a hostile one,
  // brackets nested a hundred thousand deep, overflows the stack or takes seconds).
  if (text.length > maximumConfigCharacters || bracketDepth(text) > maximumDepth * 4)
    return { file, values, conditional, possibly, dynamic: true };
  let tree: ReturnType<typeof parser.parse>;
  try {
    tree = parser.parse(text);
  } catch {
    return { file, values, conditional, possibly, dynamic: true };
  }
  const source = (node: SyntaxNode) => text.slice(node.from, node.to);
  const evaluate = (node: SyntaxNode | null, depth = 0): PythonValue => {
    if (node === null) return { computed: 'an empty value' };
    if (depth > maximumDepth) return { computed: 'a value nested too deeply' };
    switch (node.name) {
      case 'String':
        return pythonString(source(node)) ?? { computed: source(node) };
      case 'ContinuedString': {
        let joined = '';
        for (let part = node.firstChild; part !== null; part = part.nextSibling) {
          const value = part.name === 'String' ? pythonString(source(part)) : null;
          if (value === null) return { computed: source(node) };
          joined += value;
        }
        return joined;
      }
      case 'Number': {
        const number = Number(source(node).replace(/_/g, ''));
        return Number.isFinite(number) ? number : { computed: source(node) };
      }
      case 'Boolean':
        return source(node) === 'True';
      case 'None':
        return null;
      case 'ArrayExpression':
      case 'TupleExpression':
      case 'SetExpression': {
        const items: PythonValue[] = [];
        for (let child = node.firstChild; child !== null; child = child.nextSibling) {
          if (isSkipped(child)) continue;
          items.push(evaluate(child, depth + 1));
        }
        return items;
      }
      case 'ParenthesizedExpression':
        return evaluate(node.firstChild?.nextSibling ?? null, depth + 1);
      case 'DictionaryExpression': {
        const entries = new Map<string, PythonValue>();
        let key: PythonValue | undefined;
        for (let child = node.firstChild; child !== null; child = child.nextSibling) {
          if (isSkipped(child) || child.name === ':') continue;
          if (key === undefined) {
            key = evaluate(child, depth + 1);
            continue;
          }
          if (typeof key !== 'string') return { computed: source(node) };
          entries.set(key, evaluate(child, depth + 1));
          key = undefined;
        }
        return entries;
      }
      case 'VariableName': {
        const known = values.get(source(node));
        return known === undefined ? { computed: source(node) } : known;
      }
      case 'ConditionalExpression': {
        // `a if condition else b`: the items of either, in some builds.
        const branches: PythonValue[] = [];
        for (let child = node.firstChild; child !== null; child = child.nextSibling) {
          if (child.name !== 'if' && child.name !== 'else') branches.push(evaluate(child, depth + 1));
        }
        const items = (value: PythonValue | undefined) => (Array.isArray(value) ? value : []);
        return { computed: source(node), possibly: [...items(branches[0]), ...items(branches.at(-1))] };
      }
      default:
        return { computed: source(node) };
    }
  };
  const readStatement = (statement: SyntaxNode, nested: boolean) => {
    const target = statement.firstChild;
    if (statement.name === 'AssignStatement' || statement.name === 'UpdateStatement') {
      // `a = b = value` and `a, b = ...`: only a single name is read; `name: Type = value` too.
      let operator = target?.nextSibling;
      if (operator?.name === 'TypeDef') operator = operator.nextSibling;
      // `mapping["key"] = value`: a dictionary entry set.
      const container = target?.name === 'MemberExpression' ? target.firstChild : null;
      if (container?.name === 'VariableName' && operator?.name === 'AssignOp') {
        const name = source(container);
        const before = values.get(name);
        const key = container.nextSibling?.nextSibling;
        const keyValue = key?.name === 'String' ? pythonString(source(key)) : null;
        if (nested) conditional.add(name);
        else if (before instanceof Map && keyValue !== null)
          (before as Map<string, PythonValue>).set(keyValue, evaluate(operator.nextSibling));
        else if (before !== undefined) values.set(name, { computed: source(statement) });
        return;
      }
      if (target?.name !== 'VariableName' || operator === null || operator === undefined) return;
      const name = source(target);
      if (nested && operator.name === 'AssignOp') {
        conditional.add(name);
        return;
      }
      const value = evaluate(operator.nextSibling);
      if (nested) {
        addPossibly(name, value);
        return;
      }
      if (operator.name === 'AssignOp' && operator.nextSibling?.nextSibling?.name !== 'AssignOp') {
        values.set(name, value);
      } else if (operator.name === 'UpdateOp' && source(operator) === '+=') {
        values.set(name, concatenate(values.get(name), value));
      } else {
        values.set(name, { computed: source(statement) });
      }
      return;
    }
    if (statement.name === 'ExpressionStatement' && target?.name === 'CallExpression') {
      const callee = target.firstChild;
      const object = callee?.firstChild;
      const method = callee?.lastChild;
      if (callee?.name !== 'MemberExpression' || object?.name !== 'VariableName' || method === null) return;
      const name = source(object);
      const methodName = method === undefined ? '' : source(method);
      const argumentList = callee.nextSibling;
      const argument = argumentList?.firstChild?.nextSibling ?? null;
      const added =
        methodName === 'append' ? [evaluate(argument)] : methodName === 'extend' ? evaluate(argument) : null;
      if (added !== null && nested) addPossibly(name, added);
      else if (added !== null) values.set(name, concatenate(values.get(name), added));
      else if (methodName === 'update' || methodName === 'insert' || methodName === 'remove') {
        if (nested) conditional.add(name);
        else values.set(name, { computed: source(statement) });
      }
    }
  };
  const walk = (node: SyntaxNode, nested: boolean, depth: number) => {
    if (depth > maximumDepth) return;
    for (let statement = node.firstChild; statement !== null; statement = statement.nextSibling) {
      if (blockStatements.has(statement.name)) {
        for (let part = statement.firstChild; part !== null; part = part.nextSibling) {
          if (part.name === 'Body') walk(part, true, depth + 1);
        }
        continue;
      }
      readStatement(statement, nested);
    }
  };
  walk(tree.topNode, false, 0);
  const dynamic = /\bglobals\(\)[ \t]*\.[ \t]*update\b|^[ \t]*from[ \t]+\S+[ \t]+import[ \t]+\*/m.test(text);
  return { file, values, conditional, possibly, dynamic };
}

/** How deep brackets nest in the text (strings not told apart: a bound, not a parse). */
function bracketDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code === 40 || code === 91 || code === 123) deepest = Math.max(deepest, ++depth);
    else if (code === 41 || code === 93 || code === 125) depth = Math.max(0, depth - 1);
  }
  return deepest;
}

/** Brackets, commas and comments between the items of a list or dictionary. */
function isSkipped(node: SyntaxNode): boolean {
  return (
    node.name === 'Comment' ||
    node.name === '[' ||
    node.name === ']' ||
    node.name === '(' ||
    node.name === ')' ||
    node.name === '{' ||
    node.name === '}' ||
    node.name === ','
  );
}

/**
 * A list extended (`+=`, `append`, `extend`): in place, as Python extends it (another name bound to
 * the same list sees the items too), so a file of many appends costs one pass.
 */
function concatenate(before: PythonValue | undefined, added: PythonValue): PythonValue {
  const known = (value: PythonValue | undefined) =>
    Array.isArray(value) ? value : isComputed(value) ? (value.atLeast ?? []) : [];
  if (Array.isArray(before) && Array.isArray(added)) {
    for (const item of added) before.push(item);
    return before;
  }
  // An imported or computed list extended here holds at least what is added.
  if (isComputed(before) && before.atLeast !== undefined) {
    for (const item of known(added)) before.atLeast.push(item);
    return before;
  }
  return {
    computed: 'a list extended from a value not known here',
    atLeast: [...known(before), ...known(added)],
  };
}

const escapes: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '\n': '',
};

/** A Python string literal's value (`r`, `u`, `b` prefixes; an f-string only without placeholders). */
export function pythonString(literal: string): string | null {
  const prefix = /^[rRuUbBfF]{0,2}/.exec(literal)?.[0] ?? '';
  const lower = prefix.toLowerCase();
  let body = literal.slice(prefix.length);
  const quote = body.startsWith('"""') || body.startsWith("'''") ? body.slice(0, 3) : body.slice(0, 1);
  if (quote === '' || !body.endsWith(quote) || body.length < quote.length * 2) return null;
  body = body.slice(quote.length, body.length - quote.length);
  if (lower.includes('f') && /\{[^{]/.test(body.replace(/\{\{/g, ''))) return null;
  if (lower.includes('r')) return body;
  return body.replace(/\\(.)/gs, (whole, character: string) => escapes[character] ?? whole);
}

/** A setting as a string, or null when it is not set or not a string. */
export function stringSetting(config: SphinxConfig, name: string): string | null {
  const value = config.values.get(name);
  return typeof value === 'string' ? value : null;
}

/** The strings a list setting holds for certain: all of a literal list, what a computed one was extended with. */
export function knownStrings(config: SphinxConfig, name: string): string[] {
  const value = config.values.get(name);
  const items = Array.isArray(value) ? value : isComputed(value) ? (value.atLeast ?? []) : [value];
  return items.filter((item): item is string => typeof item === 'string');
}

/** The strings a list setting holds in some builds only (see `possibly`). */
export function possibleStrings(config: SphinxConfig, name: string): string[] {
  const value = config.values.get(name);
  const items = [...(isComputed(value) ? (value.possibly ?? []) : []), ...(config.possibly.get(name) ?? [])];
  return items.filter((item): item is string => typeof item === 'string');
}

/** A setting as a list of strings (a lone string is a list of one), or null when it is not one. */
export function stringListSetting(config: SphinxConfig, name: string): string[] | null {
  const value = config.values.get(name);
  if (typeof value === 'string') return [value];
  if (!Array.isArray(value)) return null;
  const strings = value.filter((item): item is string => typeof item === 'string');
  return strings.length === value.length ? strings : null;
}
