import { type Node, parse } from 'acorn';
import { transformSync } from 'amaro';

/**
 * Configuration written as code (`sidebars.js`, `docusaurus.config.ts`, `astro.config.mjs`,
 * `.vitepress/config.ts`) is repository content, and so hostile: it is never run. It is parsed
 * (TypeScript types stripped by `amaro`, Node's own stripper, then `acorn`) and its literal values
 * are read: objects, arrays, strings, numbers, template strings, constants declared in the file,
 * spreads, and calls kept as `CallValue` (`defineConfig({...})`, `starlight({...})`) so a model can
 * look inside. Whatever only running the code could tell is an `UnknownValue`, which callers report
 * as unchecked, never as broken.
 */

export class UnknownValue {
  readonly reason: string;
  constructor(reason: string) {
    this.reason = reason;
  }
}

export class CallValue {
  /** The called name as written: `defineConfig`, `starlight`, `require`, `path.resolve`. */
  readonly callee: string;
  readonly arguments_: readonly unknown[];
  constructor(callee: string, arguments_: readonly unknown[]) {
    this.callee = callee;
    this.arguments_ = arguments_;
  }
}

/**
 * Where each property of an object read from a configuration is written: its file, and the offset
 * of the property's value in that file's text (TypeScript is stripped to whitespace, so offsets hold).
 * A navigation entry's line comes from here, not from the first place its text appears: VitePress's
 * own `themeConfig.footer.nav` names `/guide/` before the sidebar does.
 */
const propertyPlaces = new WeakMap<object, Map<string, { file: string; offset: number }>>();

/** Objects with a spread of a value only running the code could tell (`{ ...shared, root }`): any key may be set. */
const partlyKnown = new WeakSet<object>();

/** Whether `object`, read from a configuration's code, spreads in a value that is not known. */
export function hasUnknownSpread(object: object): boolean {
  return partlyKnown.has(object);
}

/** Where each element of an array read from a configuration's code is written. */
const elementPlaces = new WeakMap<readonly unknown[], Array<{ file: string; offset: number } | undefined>>();

/** Where element `index` of `array` is written, when `array` was read from a configuration's code. */
export function elementPlace(
  array: readonly unknown[],
  index: number,
): { file: string; offset: number } | undefined {
  return elementPlaces.get(array)?.[index];
}

/** Where `object`'s property `key` is written, when `object` was read from a configuration's code. */
export function propertyPlace(object: object, key: string): { file: string; offset: number } | undefined {
  return propertyPlaces.get(object)?.get(key);
}

export interface JavaScriptConfig {
  /** The default export (`export default`, `module.exports =`), or an `UnknownValue`. */
  value: unknown;
  /** Modules whose every name this one exports too (`export * from './navbar.js'`). */
  starExports?: readonly string[];
  /** Values exported by name (`export const sidebars = ...`), and globals set (`window.$docsify = ...`). */
  named: ReadonlyMap<string, unknown>;
}

export type AnyNode = Node & Record<string, unknown>;

const maximumDepth = 64;

/** Helpers that only type a configuration: `export default defineConfig({...})` is the object. */
const configHelper = /^(defineConfig|defineUserConfig|withMermaid)$/;

const maximumFunctionCalls = 1000;
/**
 * Nodes read per file: a constant is read again wherever it is used, so constants nesting each
 * other (`const l2 = [{ items: l1 }, { items: l1 }]`) grow exponentially from a few lines.
 */
const maximumEvaluations = 300_000;

/**
 * Reads a configuration file's exports without running it. `importJson` may answer the JSON files
 * it imports or requires (`require('./sidebars.json')`); `importModule` may answer a name imported
 * from another module (`import { sidebar } from './astro.sidebar'`, `name` is `default` for a
 * default import); everything else imported is unknown. Calls to functions declared in the file
 * (`sidebar: { '/guide/': sidebarGuide() }`) are read as the expression they return, with their
 * parameters bound to the arguments; a bounded number of calls, so no file can make this loop.
 */
export function readJavaScriptConfig(
  text: string,
  fileName: string,
  importJson: (specifier: string) => unknown = () => new UnknownValue('imported module'),
  importModule: (specifier: string, name: string) => unknown = (specifier) =>
    new UnknownValue(`imported from ${specifier}`),
): JavaScriptConfig {
  const parsed = parseProgram(text, fileName);
  if ('error' in parsed)
    return { value: new UnknownValue(`${fileName} could not be parsed: ${parsed.error}`), named: new Map() };
  const program = parsed.program;
  const declarations = new Map<string, AnyNode | Imported>();
  const functions = new Map<string, AnyNode>();
  const named = new Map<string, unknown>();
  const starExports: string[] = [];
  // Parameters and local constants of the function call being read; null outside calls.
  let scope: Map<string, unknown> | null = null;
  let functionCalls = 0;
  let evaluations = 0;
  let exported: AnyNode | null = null;
  const body = program.body as AnyNode[];

  for (const statement of body) {
    if (statement.type === 'VariableDeclaration') collectDeclarations(statement, declarations);
    if (statement.type === 'ImportDeclaration') {
      const source = String((statement.source as AnyNode).value);
      for (const specifier of statement.specifiers as AnyNode[]) {
        const imported = specifier.imported as AnyNode | undefined;
        const name =
          specifier.type === 'ImportDefaultSpecifier'
            ? 'default'
            : specifier.type === 'ImportNamespaceSpecifier'
              ? '*'
              : String(imported?.name ?? imported?.value);
        declarations.set(String((specifier.local as AnyNode).name), { imported: source, name });
      }
    }
    if (statement.type === 'FunctionDeclaration' && statement.id) {
      functions.set(String((statement.id as AnyNode).name), statement);
    }
    if (statement.type === 'ExportNamedDeclaration' && statement.declaration) {
      const declaration = statement.declaration as AnyNode;
      if (declaration.type === 'VariableDeclaration') collectDeclarations(declaration, declarations);
      if (declaration.type === 'FunctionDeclaration' && declaration.id) {
        functions.set(String((declaration.id as AnyNode).name), declaration);
      }
    }
  }

  /** What a call to a function declared in this file returns, or null when it is not one. */
  const callLocalFunction = (callee: AnyNode, arguments_: unknown[], depth: number): unknown => {
    if (callee.type !== 'Identifier' || scope?.has(String(callee.name))) return null;
    const name = String(callee.name);
    let declared: AnyNode | undefined = functions.get(name);
    if (declared === undefined) {
      const constant = declarations.get(name);
      if (constant === undefined || isImport(constant)) return null;
      declared = constant;
    }
    if (!/^(ArrowFunctionExpression|FunctionExpression|FunctionDeclaration)$/.test(declared.type))
      return null;
    functionCalls += 1;
    if (functionCalls > maximumFunctionCalls) return new UnknownValue('too many function calls');
    const local = new Map<string, unknown>();
    for (const [index, parameter] of (declared.params as AnyNode[]).entries()) {
      if (parameter.type === 'Identifier') local.set(String(parameter.name), arguments_[index]);
      else return new UnknownValue('function with destructured parameters');
    }
    const outer = scope;
    scope = local;
    try {
      const body = declared.body as AnyNode;
      if (body.type !== 'BlockStatement') return evaluate(body, depth + 1);
      for (const statement of body.body as AnyNode[]) {
        if (statement.type === 'VariableDeclaration') {
          for (const declarator of statement.declarations as AnyNode[]) {
            const id = declarator.id as AnyNode;
            if (id.type === 'Identifier')
              local.set(String(id.name), evaluate(declarator.init as AnyNode, depth + 1));
          }
        } else if (statement.type === 'ReturnStatement') {
          return evaluate(statement.argument as AnyNode, depth + 1);
        } else if (statement.type !== 'EmptyStatement' && statement.type !== 'FunctionDeclaration') {
          // Branches and loops decide what is returned: only running the code could tell.
          return new UnknownValue(`function ${name} computes its result`);
        }
      }
      return undefined;
    } finally {
      scope = outer;
    }
  };

  const evaluate = (node: AnyNode | null | undefined, depth: number): unknown => {
    if (node === null || node === undefined) return undefined;
    if (depth > maximumDepth) return new UnknownValue('nested too deeply');
    evaluations += 1;
    if (evaluations > maximumEvaluations) return new UnknownValue('too large to read');
    switch (node.type) {
      case 'Literal':
        return node.value instanceof RegExp ? new UnknownValue('regular expression') : node.value;
      case 'TemplateLiteral': {
        const quasis = node.quasis as AnyNode[];
        const expressions = node.expressions as AnyNode[];
        const cooked = (index: number) =>
          (quasis[index]?.value as { cooked?: string } | undefined)?.cooked ?? '';
        let result = cooked(0);
        for (const [index, expression] of expressions.entries()) {
          const value = evaluate(expression, depth + 1);
          if (typeof value !== 'string' && typeof value !== 'number')
            return new UnknownValue('computed string');
          result += String(value) + cooked(index + 1);
        }
        return result;
      }
      case 'ArrayExpression': {
        const items: unknown[] = [];
        const places: Array<{ file: string; offset: number } | undefined> = [];
        elementPlaces.set(items, places);
        for (const element of node.elements as Array<AnyNode | null>) {
          if (element === null) continue;
          if (element.type === 'SpreadElement') {
            const spread = evaluate(element.argument as AnyNode, depth + 1);
            if (Array.isArray(spread)) {
              const spreadPlaces = elementPlaces.get(spread);
              for (const index of spread.keys()) places[items.length + index] = spreadPlaces?.[index];
              items.push(...spread);
            } else items.push(new UnknownValue('spread of a computed value'));
          } else {
            places[items.length] = { file: fileName, offset: element.start };
            items.push(evaluate(element, depth + 1));
          }
        }
        return items;
      }
      case 'ObjectExpression': {
        const result: Record<string, unknown> = Object.create(null);
        const places = new Map<string, { file: string; offset: number }>();
        propertyPlaces.set(result, places);
        for (const property of node.properties as AnyNode[]) {
          if (property.type === 'SpreadElement') {
            const spread = evaluate(property.argument as AnyNode, depth + 1);
            if (isPlainRecord(spread)) {
              Object.assign(result, spread);
              for (const [key, place] of propertyPlaces.get(spread) ?? []) places.set(key, place);
              if (partlyKnown.has(spread)) partlyKnown.add(result);
            } else partlyKnown.add(result);
            continue;
          }
          const key = propertyKey(property, (inner) => evaluate(inner, depth + 1));
          if (key === null) continue;
          places.set(key, { file: fileName, offset: (property.value as AnyNode).start });
          result[key] =
            property.kind === 'get' || property.kind === 'set' || property.method === true
              ? new UnknownValue('function')
              : evaluate(property.value as AnyNode, depth + 1);
        }
        return result;
      }
      case 'Identifier': {
        if (node.name === 'undefined') return undefined;
        if (scope?.has(String(node.name))) return scope.get(String(node.name));
        const declaration = declarations.get(String(node.name));
        if (declaration === undefined) return new UnknownValue(`unknown name ${String(node.name)}`);
        if (isImport(declaration)) {
          return declaration.imported.endsWith('.json')
            ? importJson(declaration.imported)
            : importModule(declaration.imported, declaration.name);
        }
        // A constant's initialiser, evaluated where it is used (guarded against cycles by depth),
        // outside any call's parameters.
        const outer = scope;
        scope = null;
        try {
          return evaluate(declaration, depth + 1);
        } finally {
          scope = outer;
        }
      }
      case 'MemberExpression': {
        const object = evaluate(node.object as AnyNode, depth + 1);
        const key = node.computed
          ? evaluate(node.property as AnyNode, depth + 1)
          : String((node.property as AnyNode).name);
        if (
          (isPlainRecord(object) || Array.isArray(object)) &&
          (typeof key === 'string' || typeof key === 'number')
        ) {
          return Object.hasOwn(object, key) ? (object as Record<string, unknown>)[key] : undefined;
        }
        return new UnknownValue('computed member');
      }
      case 'CallExpression': {
        const callee = calleeName(node.callee as AnyNode);
        const arguments_ = (node.arguments as AnyNode[]).map((argument) => evaluate(argument, depth + 1));
        if (callee === 'require' && typeof arguments_[0] === 'string') {
          return arguments_[0].endsWith('.json')
            ? importJson(arguments_[0])
            : new UnknownValue(`required ${arguments_[0]}`);
        }
        const returned = callLocalFunction(node.callee as AnyNode, arguments_, depth);
        return returned ?? new CallValue(callee, arguments_);
      }
      case 'AwaitExpression':
        return evaluate(node.argument as AnyNode, depth + 1);
      case 'ParenthesizedExpression':
      case 'ChainExpression':
        return evaluate(node.expression as AnyNode, depth + 1);
      case 'UnaryExpression':
        if (node.operator === '!') {
          const value = evaluate(node.argument as AnyNode, depth + 1);
          return value instanceof UnknownValue ? value : !value;
        }
        if (node.operator === '-') {
          const value = evaluate(node.argument as AnyNode, depth + 1);
          return typeof value === 'number' ? -value : new UnknownValue('computed number');
        }
        return new UnknownValue('computed value');
      case 'ArrowFunctionExpression':
      case 'FunctionExpression':
        return new UnknownValue('function');
      default:
        return new UnknownValue(`computed value (${node.type})`);
    }
  };

  for (const statement of body) {
    if (statement.type === 'ExportDefaultDeclaration') exported = statement.declaration as AnyNode;
    if (statement.type === 'ExpressionStatement') {
      const expression = statement.expression as AnyNode;
      if (expression.type === 'AssignmentExpression' && isModuleExports(expression.left as AnyNode)) {
        exported = expression.right as AnyNode;
      }
      // A browser script's configuration: `window.$docsify = {...}`, named `window.$docsify`.
      const global =
        expression.type === 'AssignmentExpression' ? globalPropertyName(expression.left as AnyNode) : null;
      if (global !== null) named.set(`window.${global}`, evaluate(expression.right as AnyNode, 0));
      // A configuration given to a call rather than exported: Rstack's `define.doc({...})`, named `define.doc`.
      if (expression.type === 'CallExpression') {
        const callee = calleeName(expression.callee as AnyNode);
        const argument = (expression.arguments as AnyNode[])[0];
        if (/^define\.\w+$/.test(callee) && argument !== undefined) named.set(callee, evaluate(argument, 0));
      }
    }
    if (statement.type === 'ExportNamedDeclaration' && statement.declaration) {
      const declaration = statement.declaration as AnyNode;
      if (declaration.type === 'VariableDeclaration') {
        for (const declarator of declaration.declarations as AnyNode[]) {
          const id = declarator.id as AnyNode;
          if (id.type === 'Identifier') named.set(String(id.name), evaluate(declarator.init as AnyNode, 0));
        }
      }
    }
    // Re-exports: `export { sidebarEn } from './sidebar/en.js'`, `export * from './navbar/index.js'`.
    if (statement.type === 'ExportNamedDeclaration' && statement.source) {
      const source = String((statement.source as AnyNode).value);
      for (const specifier of statement.specifiers as AnyNode[]) {
        const local = specifier.local as AnyNode;
        const exportedName = specifier.exported as AnyNode;
        named.set(
          String(exportedName.name ?? exportedName.value),
          importModule(source, String(local.name ?? local.value)),
        );
      }
    }
    if (statement.type === 'ExportAllDeclaration' && !statement.exported)
      starExports.push(String((statement.source as AnyNode).value));
  }
  // `module.exports = async function createConfig() { ...; return {...}; }`: what it returns; and
  // `export default defineConfig(async () => { ...; return {...}; })` (Rspress, Vite) likewise.
  if (
    exported !== null &&
    exported.type === 'CallExpression' &&
    configHelper.test(calleeName(exported.callee as AnyNode))
  ) {
    const argument = (exported.arguments as AnyNode[])[0];
    const returned = argument === undefined ? null : returnedExpression(argument, declarations);
    if (returned !== null) exported = returned;
  }
  if (exported !== null) exported = returnedExpression(exported, declarations) ?? exported;
  let value: unknown =
    exported === null ? new UnknownValue(`${fileName} has no default export`) : evaluate(exported, 0);
  // `export default defineConfig({...})` and `module.exports = config` where config is a function call.
  if (value instanceof CallValue && configHelper.test(value.callee)) {
    value = value.arguments_[0];
  }
  return { value, named, starExports };
}

/** The expression a config function returns (its local constants become readable), or null. */
function returnedExpression(node: AnyNode, declarations: Map<string, AnyNode | Imported>): AnyNode | null {
  if (node.type === 'Identifier') {
    const declared = declarations.get(String(node.name));
    return declared !== undefined && !isImport(declared) ? returnedExpression(declared, declarations) : null;
  }
  if (!/^(ArrowFunctionExpression|FunctionExpression|FunctionDeclaration)$/.test(node.type)) return null;
  const body = node.body as AnyNode;
  if (body.type !== 'BlockStatement') return body;
  let returned: AnyNode | null = null;
  for (const statement of body.body as AnyNode[]) {
    if (statement.type === 'VariableDeclaration') collectDeclarations(statement, declarations);
    if (statement.type === 'ReturnStatement' && statement.argument) returned = statement.argument as AnyNode;
  }
  return returned;
}

interface Imported {
  imported: string;
  /** The exported name it was imported as: `default`, `*` for a namespace, or the name. */
  name: string;
}

function isImport(declaration: AnyNode | Imported): declaration is Imported {
  return typeof (declaration as { imported?: unknown }).imported === 'string';
}

function collectDeclarations(statement: AnyNode, declarations: Map<string, AnyNode | Imported>): void {
  for (const declarator of statement.declarations as AnyNode[]) {
    const id = declarator.id as AnyNode;
    if (id.type === 'Identifier' && declarator.init)
      declarations.set(String(id.name), declarator.init as AnyNode);
  }
}

function propertyKey(property: AnyNode, evaluate: (node: AnyNode) => unknown): string | null {
  const key = property.key as AnyNode;
  if (property.computed) {
    const value = evaluate(key);
    return typeof value === 'string' || typeof value === 'number' ? String(value) : null;
  }
  if (key.type === 'Identifier') return String(key.name);
  if (key.type === 'Literal') return String(key.value);
  return null;
}

function calleeName(node: AnyNode): string {
  if (node.type === 'Identifier') return String(node.name);
  if (node.type === 'MemberExpression' && !node.computed) {
    return `${calleeName(node.object as AnyNode)}.${String((node.property as AnyNode).name)}`;
  }
  return '(computed)';
}

/** `name` for `window.name`, `globalThis.name` or `self.name`; null for anything else. */
function globalPropertyName(node: AnyNode): string | null {
  if (node.type !== 'MemberExpression' || node.computed === true) return null;
  const object = node.object as AnyNode;
  if (object.type !== 'Identifier' || !/^(window|globalThis|self)$/.test(String(object.name))) return null;
  const property = node.property as AnyNode;
  return property.type === 'Identifier' ? String(property.name) : null;
}

function isModuleExports(node: AnyNode): boolean {
  return (
    node.type === 'MemberExpression' &&
    (node.object as AnyNode).type === 'Identifier' &&
    (node.object as AnyNode).name === 'module' &&
    (node.property as AnyNode).name === 'exports'
  );
}

/**
 * A module's syntax tree (TypeScript types stripped to whitespace by amaro, so offsets hold), or why
 * it cannot be parsed, ending with the place: `Unexpected token (16:16)`.
 */
const typeAssertionAfterBracket = /[([][ \t\n]*<[^<>()[\]\n]{1,200}>/g;
const maximumTypeAssertions = 6;

/**
 * TypeScript without its types: stripped in place (positions kept), or, for syntax that cannot be
 * stripped (`<Plugins>[...]` assertions, enums), transformed (positions may move).
 */
function stripTypes(text: string): string {
  // amaro's parser backtracks exponentially on type assertions nested in brackets that never close
  // (`(<a>` 24 times: 13 s; `[<a><a><a>` 12 times: 15 s). No configuration writes more than a few.
  let assertions = 0;
  for (const _ of text.matchAll(typeAssertionAfterBracket)) {
    assertions += 1;
    if (assertions > maximumTypeAssertions)
      throw new Error(
        `more than ${maximumTypeAssertions} type assertions after an opening bracket, which TypeScript's reader cannot take safely`,
      );
  }
  try {
    return transformSync(text, { mode: 'strip-only' }).code;
  } catch (error: unknown) {
    try {
      return transformSync(text, { mode: 'transform' }).code;
    } catch {
      throw error;
    }
  }
}

export function parseProgram(text: string, fileName: string): { program: AnyNode } | { error: string } {
  try {
    // A configuration's JSX (`head() { return <script /> }`) is no value this reader needs.
    const unJsx = /\.(tsx|jsx)$/.test(fileName) ? blankJsx(text) : text;
    const source = /\.(c|m)?tsx?$/.test(fileName) ? stripTypes(unJsx) : unJsx;
    return {
      program: parse(source, {
        ecmaVersion: 'latest',
        sourceType: 'module',
        allowHashBang: true,
      }) as unknown as AnyNode,
    };
  } catch (error: unknown) {
    // acorn writes the place into its message, `(line:column)`; amaro's stripper gives it apart.
    const place = error as { startLine?: unknown; startColumn?: unknown };
    return {
      error:
        (error instanceof Error ? error.message : 'unparsable') +
        (typeof place.startLine === 'number'
          ? ` (${place.startLine}:${String(place.startColumn ?? 0)})`
          : ''),
    };
  }
}

const maximumJsxDepth = 200;
/** What the JSX skippers answer when the text ends first (-1: not an element here). */
const ranOffTheEnd = -2;
interface Budget {
  steps: number;
  limit: number;
}

/**
 * JSX elements replaced by `0` and spaces (newlines kept, so places hold): neither amaro's type
 * stripper nor acorn reads JSX in TypeScript. An element starts at a `<` followed by a name or `>`
 * where an expression may start (after `(`, `,`, `=`, `:`, `?`, `[`, `{`, `!`, `&`, `|`, `=>` or
 * `return`); one never closed is left as it is. One pass over the text: repository content is
 * hostile.
 */
export function blankJsx(text: string): string {
  if (!text.includes('<')) return text;
  let result = '';
  let copied = 0;
  let index = 0;
  let previous = '';
  // Once an element runs off the end of the text, no later one can end either: one pass stays one.
  let exhausted = false;
  // Elements tried and found not to be (`(<a ` repeated) are searched again from each `<`: bounded.
  const budget = { steps: 0, limit: 20 * text.length + 1_000 };
  while (index < text.length) {
    const character = text[index] ?? '';
    if (character === '"' || character === "'" || character === '`') {
      index = skipString(text, index);
      previous = character;
      continue;
    }
    if (character === '/' && (text[index + 1] === '/' || text[index + 1] === '*')) {
      const end = text[index + 1] === '/' ? text.indexOf('\n', index) : text.indexOf('*/', index + 2) + 2;
      index = end <= 0 ? text.length : end;
      continue;
    }
    if (
      !exhausted &&
      character === '<' &&
      /[A-Za-z>]/.test(text[index + 1] ?? '') &&
      (/^[(,=:?[{!&|]$/.test(previous) || previous === '' || previous === '=>' || previous === 'return')
    ) {
      const end = skipJsxElement(text, index, 0, budget);
      if (end === ranOffTheEnd) exhausted = true;
      if (end > index) {
        // `0` where the element starts (a `<`, never a newline), spaces and newlines after it.
        result += `${text.slice(copied, index)}0${text.slice(index + 1, end).replace(/[^\n]/g, ' ')}`;
        copied = end;
        index = end;
        previous = '0';
        continue;
      }
    }
    if (!/\s/.test(character)) {
      if (/[A-Za-z0-9_$]/.test(character)) {
        let end = index + 1;
        while (end < text.length && /[A-Za-z0-9_$]/.test(text[end] ?? '')) end += 1;
        previous = text.slice(index, end);
        index = end;
        continue;
      }
      previous = character === '>' && text[index - 1] === '=' ? '=>' : character;
    }
    index += 1;
  }
  return copied === 0 ? text : result + text.slice(copied);
}

/** The index after a string or template literal starting at `start` (a template's `${}` skipped whole). */
function skipString(text: string, start: number): number {
  const quote = text[start];
  for (let index = start + 1; index < text.length; index += 1) {
    const character = text[index];
    if (character === '\\') index += 1;
    else if (character === quote) return index + 1;
    else if (character === '\n' && quote !== '`') return index;
  }
  return text.length;
}

/** The index after a `{...}` expression starting at `start`, strings skipped; -1 when never closed. */
function skipBraces(text: string, start: number, depth: number, budget: Budget): number {
  let open = 0;
  for (let index = start; index < text.length; ) {
    budget.steps += 1;
    if (budget.steps > budget.limit) return ranOffTheEnd;
    const character = text[index] ?? '';
    if (character === '/' && (text[index + 1] === '/' || text[index + 1] === '*')) {
      const end = text[index + 1] === '/' ? text.indexOf('\n', index) : text.indexOf('*/', index + 2) + 2;
      if (end <= 0) return ranOffTheEnd;
      index = end;
      continue;
    }
    if (character === '"' || character === "'" || character === '`') {
      index = skipString(text, index);
      continue;
    }
    if (
      character === '<' &&
      /[A-Za-z>]/.test(text[index + 1] ?? '') &&
      /[(,=:?{&|>]\s*$/.test(text.slice(Math.max(0, index - 8), index))
    ) {
      const end = skipJsxElement(text, index, depth + 1, budget);
      if (end === ranOffTheEnd) return end;
      if (end > index) {
        index = end;
        continue;
      }
    }
    if (character === '{') open += 1;
    else if (character === '}') {
      open -= 1;
      if (open === 0) return index + 1;
    }
    index += 1;
  }
  return ranOffTheEnd;
}

/** The index after the JSX element starting at `start` (a `<`), or -1 when it is not one that ends. */
function skipJsxElement(text: string, start: number, depth: number, budget: Budget): number {
  // Deeper than any real element: given up on for the rest of the text, as one that does not end.
  if (depth > maximumJsxDepth) return ranOffTheEnd;
  let index = start + 1;
  const fragment = text[index] === '>';
  if (!fragment) {
    while (index < text.length && /[A-Za-z0-9_.:-]/.test(text[index] ?? '')) index += 1;
    // A TypeScript type parameter list, not an element: `<T,>(x) =>`, `<T extends U>`, `<T>(x: T) => T`.
    if (depth === 0) {
      const name = text.slice(start + 1, index);
      const after = text.slice(index, index + 12);
      if (/^\s*,/.test(after) || /^\s+extends\b/.test(after)) return -1;
      if (/^[A-Z][A-Za-z0-9]{0,2}$/.test(name) && /^>\s*\(/.test(after)) return -1;
    }
    // Attributes, until `/>` or `>`.
    for (;;) {
      budget.steps += 1;
      if (budget.steps > budget.limit) return ranOffTheEnd;
      while (index < text.length && /\s/.test(text[index] ?? '')) index += 1;
      const character = text[index];
      if (character === undefined) return ranOffTheEnd;
      if (character === '/' && text[index + 1] === '>') return index + 2;
      if (character === '>') break;
      if (character === '{') {
        index = skipBraces(text, index, depth, budget);
        if (index < 0) return index;
        continue;
      }
      const nameStart = index;
      while (index < text.length && /[^\s=/>{]/.test(text[index] ?? '')) index += 1;
      if (index === nameStart) return -1;
      if (text[index] === '=') {
        index += 1;
        const quote = text[index];
        if (quote === '"' || quote === "'") index = skipString(text, index);
        else if (quote === '{') index = skipBraces(text, index, depth, budget);
        else return -1;
        if (index < 0) return index;
      }
    }
  }
  index += 1;
  // Children: text, `{expressions}` and elements, until the closing tag.
  while (index < text.length) {
    budget.steps += 1;
    if (budget.steps > budget.limit) return ranOffTheEnd;
    const character = text[index];
    if (character === '<' && text[index + 1] === '/') {
      const close = text.indexOf('>', index);
      return close < 0 ? ranOffTheEnd : close + 1;
    }
    if (character === '<') {
      index = skipJsxElement(text, index, depth + 1, budget);
      if (index < 0) return index;
      continue;
    }
    if (character === '{') {
      index = skipBraces(text, index, depth, budget);
      if (index < 0) return index;
      continue;
    }
    index += 1;
  }
  return ranOffTheEnd;
}

export function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    !(value instanceof UnknownValue) &&
    !(value instanceof CallValue)
  );
}
