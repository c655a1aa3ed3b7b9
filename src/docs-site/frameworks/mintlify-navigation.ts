import type { NavigationEntry } from '../site-model.ts';
import { isObject, type Located, type MintlifyConfig } from './mintlify-config.ts';

/**
 * The navigation of `docs.json` in every shape of its schema
 * (https://mintlify.com/docs/organize/navigation): `languages`, `versions`, `tabs`, `anchors`,
 * `dropdowns`, `products`, `menu` items and `global`, each holding `groups` or `pages`, where a page is a
 * path or a nested `group` (with an optional `root` page), and `"$ref"` may stand for any of them.
 * Legacy `mint.json` is the same walk over `navigation: [{group, pages}]`.
 */
export interface ReadNavigation {
  /** Page references, in order, with their file and line; targets are filled in by the caller. */
  references: Array<Omit<NavigationEntry, 'target'> & { operation: OperationReference | null }>;
  /** Folders (relative to the site root) where Mintlify generates API pages from a specification. */
  generatedFolders: Set<string>;
  /** Specification files named in navigation (relative to the site root, or URLs). */
  specifications: Set<string>;
  /** The names of `versions`, lower case (`python`, `v2`). */
  variantNames: Set<string>;
  /** The codes of `languages` (`en`, `es`), in order. */
  languages: string[];
}

/** A navigation entry that names an API operation (`GET /users`, `openapi.json POST /users`). */
export interface OperationReference {
  /** The specification it is read from: written before the method, or inherited; null when none is named. */
  specification: string | null;
}

const titleKeys = ['language', 'version', 'product', 'dropdown', 'tab', 'anchor', 'item', 'group'];
const containerKeys = new Set([
  'languages',
  'versions',
  'products',
  'dropdowns',
  'tabs',
  'anchors',
  'menu',
  'global',
  'groups',
  'pages',
]);
const maximumDepth = 64;
const maximumEntries = 100_000;
// "GET /users", "openapi.json GET /users", "webhook newUser": an operation of a specification.
const operationPattern =
  /^(?:(\S+\.(?:json|ya?ml))\s+)?(?:get|post|put|patch|delete|head|options|trace|webhook)\s+\S/i;
// AsyncAPI channels are named by their specification file and a channel id: "asyncapi.yaml chat".
const channelPattern = /^\S+\.(?:json|ya?ml)\s+\S+$/i;
// Where Mintlify writes the pages it generates for an `openapi` navigation field when no `directory` is set.
const defaultGeneratedFolder = 'api-reference';

export function readNavigation(config: MintlifyConfig, root: Located): ReadNavigation {
  const result: ReadNavigation = {
    references: [],
    generatedFolders: new Set(),
    specifications: new Set(),
    variantNames: new Set(),
    languages: [],
  };
  const main = root.value;
  if (!isObject(main)) return result;
  const inherited =
    specificationOf(main.openapi) ?? (isObject(main.api) ? specificationOf(main.api.openapi) : null);
  if (inherited !== null) result.specifications.add(inherited);
  const walker = new NavigationWalker(config, result);
  const navigation = fieldOf(config, root, 'navigation');
  if (navigation !== null) walker.walk(navigation, [], inherited, false, 0);
  return result;
}

/** One field of an object that may itself be a `$ref`, located in the file it is written in. */
export function fieldOf(config: MintlifyConfig, at: Located, key: string): Located | null {
  for (const field of fieldsOf(config, at)) if (field.key === key) return field.located;
  return null;
}

function fieldsOf(config: MintlifyConfig, at: Located): Array<{ key: string; located: Located }> {
  const value = at.value;
  if (!isObject(value)) return [];
  const own = Object.entries(value)
    .filter(([key]) => key !== '$ref')
    .map(([key, child]) => ({ key, located: { value: child, file: at.file, chain: at.chain } }));
  if (typeof value.$ref !== 'string') return own;
  const referenced = config.follow(value.$ref, at);
  if (referenced === null || !isObject(referenced.value)) return own;
  // Sibling keys take precedence over the referenced object's.
  const ownKeys = new Set(own.map((field) => field.key));
  return [...fieldsOf(config, referenced).filter((field) => !ownKeys.has(field.key)), ...own];
}

class NavigationWalker {
  readonly #config: MintlifyConfig;
  readonly #result: ReadNavigation;

  constructor(config: MintlifyConfig, result: ReadNavigation) {
    this.#config = config;
    this.#result = result;
  }

  /** Walks a navigation value; `inPages` says strings here are page references. */
  walk(at: Located, groups: string[], specification: string | null, inPages: boolean, depth: number): void {
    if (depth > maximumDepth || this.#result.references.length >= maximumEntries) return;
    const value = at.value;
    if (typeof value === 'string') {
      if (inPages) this.#reference(value, at, groups, specification);
      return;
    }
    if (Array.isArray(value)) {
      for (const item of value) this.walk({ ...at, value: item }, groups, specification, inPages, depth + 1);
      return;
    }
    if (!isObject(value)) return;
    if (typeof value.$ref === 'string' && Object.keys(value).length === 1) {
      const referenced = this.#config.follow(value.$ref, at);
      if (referenced !== null) this.walk(referenced, groups, specification, inPages, depth + 1);
      return;
    }
    const fields = fieldsOf(this.#config, at);
    const object = Object.fromEntries(fields.map((field) => [field.key, field.located.value]));
    const title = titleKeys.map((key) => object[key]).find((name) => typeof name === 'string');
    const inner = typeof title === 'string' ? [...groups, title] : groups;
    if (typeof object.version === 'string' && object.version.trim() !== '')
      this.#result.variantNames.add(object.version.trim().toLowerCase());
    if (typeof object.language === 'string' && !this.#result.languages.includes(object.language))
      this.#result.languages.push(object.language);
    let innerSpecification = specification;
    for (const key of ['openapi', 'asyncapi']) {
      const named = specificationOf(object[key]);
      if (named === null) continue;
      innerSpecification = named;
      this.#result.specifications.add(named);
      const directory = isObject(object[key]) ? object[key].directory : undefined;
      this.#result.generatedFolders.add(
        trimSlashes(typeof directory === 'string' ? directory : defaultGeneratedFolder),
      );
    }
    for (const field of fields) {
      if (field.key === 'root' && typeof field.located.value === 'string')
        this.#reference(field.located.value, field.located, inner, innerSpecification);
      else if (containerKeys.has(field.key))
        this.walk(field.located, inner, innerSpecification, field.key === 'pages', depth + 1);
    }
  }

  #reference(reference: string, at: Located, groups: string[], specification: string | null): void {
    const trimmed = reference.trim();
    const isOperation = operationPattern.test(trimmed) || channelPattern.test(trimmed);
    const named = isOperation ? /^(\S+\.(?:json|ya?ml))\s/i.exec(trimmed)?.[1] : undefined;
    this.#result.references.push({
      reference,
      file: at.file.file,
      line: at.file.lines.lineOf(reference, at.file.members.get('navigation')),
      groups,
      operation: isOperation ? { specification: named ?? specification } : null,
    });
  }
}

/** The specification an `openapi`/`asyncapi` field names: a path, the first of a list, or `{source}`. */
function specificationOf(value: unknown): string | null {
  if (typeof value === 'string') return value.trim() === '' ? null : value.trim();
  if (Array.isArray(value)) return specificationOf(value[0]);
  if (isObject(value)) return specificationOf(value.source);
  return null;
}

function trimSlashes(path: string): string {
  return path.replace(/^\.?\/+/, '').replace(/(?<!\/)\/+$/, '');
}
