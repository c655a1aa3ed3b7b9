/**
 * The pages Realm makes of an OpenAPI description (Swagger 2 too): one per tag, operation, schema
 * listed under a tag, and heading of the description's Markdown, each at the description's route
 * plus the item's `href`, as @redocly/realm 0.135.2 registers them (dist/server/plugins/openapi-docs/
 * index.js: a route per item of `buildContentItems`, @redocly/openapi-docs 3.23.1 lib/services/menu/).
 *
 * - `href` is `/${id}` lower-cased (`getHref`, menu/operation.js), `\` written `%5C`.
 * - A tag's id is its name through `safeSlugify` (utils/string.js: slugify 1.6.9, then lower case),
 *   nested under its `parent`'s (OpenAPI 3.2 nested tags, kind `nav` or none, five levels).
 * - An operation's is its tag's id, `/`, and its `operationId` (not slugged: `#` becomes `_`), or its
 *   JSON pointer (`paths/~1pets/get`) when it has none; one page per tag it lists (none under an
 *   `x-traitTag`); untagged: `other/<operationId>`, or the pointer alone. Webhooks without tags are
 *   in a `webhooks` tag (utils/openapi.js `getOperationId`, menu/tags.js).
 * - `x-tagGroups`: only tags some group lists have pages (and untagged operations none); a group
 *   with a `description` has a page at its name's slug.
 * - A schema with `x-tags` is listed under each (`<tag id>/<slug of its name>`); the others under the
 *   tag `openapi.schemaDefinitionsTagName` names, when set.
 * - Headings of `info.description` are at `section/<slug>`, those of a tag's description at
 *   `<tag id>/<slug>`; a deeper heading after a level-one one is below it (menu/markdown.js).
 *
 * An AsyncAPI 3 description's pages are read too (`addAsyncApiPages` below).
 *
 * Decorators that override descriptions or remove `x-internal` items are applied. What the model
 * cannot know (a `$ref` to another site, a file too large to read, another decorator, headings it
 * cannot read) makes the pages incomplete: links below the description are then unchecked rather
 * than reported.
 */
import { posix } from 'node:path';
import slugify from 'slugify';
import { parse as parseYaml } from 'yaml';
import { createMarkdocParser } from '../markdoc-parser.ts';
import { isRecord } from './yaml-problems.ts';

export interface ApiPages {
  /** Every page's path below the description's route (`/pets/listpets`); `/` is the description's own. */
  routes: Set<string>;
  /** Why some pages may be missing from `routes`, or null when they are all there. */
  incomplete: string | null;
}

/** `F` in @redocly/openapi-docs lib/utils/openapi.js: the methods read (no `trace`). */
const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'query', 'x-query'];
const maximumReferenceDepth = 32;
const maximumFiles = 500;
const maximumRoutes = 200_000;
/** What a project's API descriptions may hold in all (1 MB of YAML takes seconds to parse). */
export const maximumCharacters = 16_000_000;
const maximumTagDepth = 5;
const mcpKinds = ['tools', 'resources', 'prompts'];
/** Decorators whose effect on the pages is known: none, or applied below. */
const decoratorsModelled = new Set([
  'operation-description-override',
  'media-type-examples-override',
  'info-description-override',
  'tag-description-override',
  'info-override',
  'remove-x-internal',
]);

/** `safeSlugify` (utils/string.js). */
export function safeSlugify(text: string): string {
  return (
    slugify(text) ||
    text
      .toLowerCase()
      .replace(/\s+/g, '-')
      .replace(/&/g, '-and-')
      .replace(/--+/g, '-')
      .replace(/^-+/, '')
      .replace(/-+$/, '')
  );
}

/** `getHref` (menu/operation.js): `/${id}` lower-cased, backslashes encoded. */
const href = (id: string) => `/${id}`.toLowerCase().replace(/\\/g, '%5C');
/** `sanitizeItemId` (utils/helpers.js). */
const sanitized = (id: string) => id.replace(/#/g, '_').toLowerCase();
const pointerSegment = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');
const htmlCharacters: Record<string, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
};

const markdoc = createMarkdocParser();

interface Located {
  value: unknown;
  file: string;
}

/**
 * Reads the pages of the OpenAPI or AsyncAPI description in `file` (a repository path); `read`
 * gives a repository file's text (null when missing or too large).
 */
export async function readApiPages(
  file: string,
  read: (file: string) => Promise<string | null>,
  options: {
    schemaDefinitionsTagName?: string | undefined;
    /** The decorators that apply (`decorators:` of the configurations and the `apis` entry). */
    decorators?: Record<string, unknown>;
    /** The folder decorators' `filePath`s are read from (the configuration's). */
    configFolder?: string;
    /** Characters of YAML and JSON left to parse, shared by a project's descriptions. */
    budget?: { characters: number };
  },
): Promise<ApiPages> {
  const routes = new Set<string>(['/']);
  let incomplete: string | null = null;
  const unknown = (reason: string) => {
    incomplete ??= reason;
  };
  // Decorators (@redocly/openapi-core's built-in ones) change the description before its pages are
  // made: the ones that change headings or remove items are applied here; any other that may, or a
  // plugin's, leaves the pages incomplete.
  const decorators = Object.entries(options.decorators ?? {}).filter(([, setting]) => setting !== 'off');
  const setting = (name: string) => {
    const found = decorators.find(([decorator]) => decorator === name)?.[1];
    return found === undefined ? undefined : isRecord(found) ? found : {};
  };
  for (const [name] of decorators)
    if (!decoratorsModelled.has(name)) unknown(`the decorator ${name} may change its pages`);
  const internal = setting('remove-x-internal');
  const internalFlag =
    typeof internal?.internalFlagProperty === 'string' ? internal.internalFlagProperty : 'x-internal';
  const removed = (value: unknown) =>
    internal !== undefined && isRecord(value) && value[internalFlag] === true;
  const overrideFile = async (filePath: unknown): Promise<string | null> => {
    if (typeof filePath !== 'string') return null;
    const text = await read(posix.join(options.configFolder ?? '', filePath));
    if (text === null) unknown(`the decorator's file ${filePath} cannot be read`);
    return text;
  };

  const documents = new Map<string, unknown>();
  const load = async (path: string): Promise<unknown> => {
    if (documents.has(path)) return documents.get(path);
    if (documents.size >= maximumFiles) {
      unknown(`it references more than ${maximumFiles} files`);
      return undefined;
    }
    const text = await read(path);
    let value: unknown;
    if (options.budget !== undefined && text !== null) options.budget.characters -= text.length;
    if (text === null) unknown(`${path} cannot be read`);
    else if ((options.budget?.characters ?? 0) < 0)
      unknown(
        `the project's API descriptions hold more than the ${maximumCharacters.toLocaleString('en')} characters read`,
      );
    // A `$ref` to Markdown stands for its text (a description kept in its own file).
    else if (/\.(md|markdown)$/i.test(path)) value = text;
    else
      try {
        value = text.trimStart().startsWith('{')
          ? JSON.parse(text)
          : parseYaml(text, { logLevel: 'silent', uniqueKeys: false });
      } catch {
        unknown(`${path} is not valid YAML or JSON`);
      }
    documents.set(path, value);
    return value;
  };
  /** The value a `$ref` (to this file or another of the repository) stands for, followed to the end. */
  const resolve = async (located: Located): Promise<Located | null> => {
    let { value, file: at } = located;
    for (let depth = 0; isRecord(value) && typeof value.$ref === 'string'; depth += 1) {
      const reference = value.$ref;
      const hash = reference.indexOf('#');
      const target = hash < 0 ? reference : reference.slice(0, hash);
      if (depth >= maximumReferenceDepth || /^[A-Za-z][A-Za-z0-9+.-]*:/.test(target)) {
        unknown(`its $ref ${reference.slice(0, 200)} is not followed`);
        return null;
      }
      let path = at;
      if (target !== '') {
        try {
          path = posix.join(posix.dirname(at), decodeURI(target));
        } catch {
          path = posix.join(posix.dirname(at), target);
        }
      }
      let current = await load(path);
      for (const segment of hash < 0
        ? []
        : reference
            .slice(hash + 1)
            .split('/')
            .slice(1)) {
        let key = segment;
        try {
          key = decodeURIComponent(segment);
        } catch {}
        key = key.replace(/~1/g, '/').replace(/~0/g, '~');
        current = isRecord(current) && Object.hasOwn(current, key) ? current[key] : undefined;
      }
      if (current === undefined) {
        unknown(`its $ref ${reference.slice(0, 200)} points at nothing`);
        return null;
      }
      value = current;
      at = path;
    }
    return { value, file: at };
  };
  const record = async (
    located: Located | null,
  ): Promise<(Located & { value: Record<string, unknown> }) | null> => {
    const resolved = located === null ? null : await resolve(located);
    return resolved !== null && isRecord(resolved.value)
      ? { value: resolved.value, file: resolved.file }
      : null;
  };
  const list = async (located: Located | null): Promise<Located[]> => {
    const resolved = located === null ? null : await resolve(located);
    return resolved !== null && Array.isArray(resolved.value)
      ? resolved.value.map((value) => ({ value, file: resolved.file }))
      : [];
  };
  const child = (parent: Located & { value: Record<string, unknown> }, key: string): Located | null =>
    Object.hasOwn(parent.value, key) ? { value: parent.value[key], file: parent.file } : null;

  /**
   * An AsyncAPI 3 description's pages (@redocly/asyncapi-docs 1.12.1 lib/utils/build-menu-items.js):
   * each channel at `<word>/<key>`, its operations (those whose channel has its `address`) at
   * `<word>/<key>/operations/<key>`, keys as written; under each of the channel's tags
   * (`<tag slug>/...`, and the tag's own page) when it has some. The word is the protocol's, from the
   * first binding in the document: `topics` (kafka), `queues` or `exchs` (amqp), else `channels`.
   * With `x-tagGroups`, only the tags listed; headings of `info.description` at `section/<slug>`.
   */
  const addAsyncApiPages = async (description: Located & { value: Record<string, unknown> }) => {
    const version = description.value.asyncapi;
    if (typeof version !== 'string' || !version.startsWith('3.'))
      return unknown('an AsyncAPI description before 3.0 (its pages are not read)');
    const channels = await record(child(description, 'channels'));
    const operations = await record(child(description, 'operations'));
    // `findFirstBinding`: depth first, in key order, the first object's first binding.
    const seen = new Set<unknown>();
    const firstBinding = (value: unknown, depth: number): string | null | undefined => {
      if (!isRecord(value) && !Array.isArray(value)) return null;
      if (seen.has(value) || depth > maximumReferenceDepth) return null;
      seen.add(value);
      for (const inner of Object.values(value)) {
        if (isRecord(inner) && inner.bindings)
          return isRecord(inner.bindings) ? Object.keys(inner.bindings)[0] : undefined;
        const found = firstBinding(inner, depth + 1);
        if (found) return found;
      }
      return null;
    };
    const protocol = firstBinding(description.value, 0);
    const byAddress = new Map<string, string>();
    const channelValues = new Map<string, Record<string, unknown>>();
    for (const key of channels === null ? [] : Object.keys(channels.value)) {
      const channel = await record(child(channels as Located & { value: Record<string, unknown> }, key));
      if (channel === null) continue;
      channelValues.set(key, channel.value);
      if (typeof channel.value.address === 'string') byAddress.set(channel.value.address, key);
    }
    const operationsOf = new Map<string, string[]>();
    for (const key of operations === null ? [] : Object.keys(operations.value)) {
      const operation = await record(child(operations as Located & { value: Record<string, unknown> }, key));
      const channel = operation === null ? null : await record(child(operation, 'channel'));
      const address = channel?.value.address;
      const owner = typeof address === 'string' ? byAddress.get(address) : undefined;
      if (owner === undefined) continue;
      const listed = operationsOf.get(owner) ?? [];
      operationsOf.set(owner, listed);
      listed.push(key);
    }
    const tagged = new Map<string, string[]>();
    const untagged: string[] = [];
    for (const [key, channel] of channelValues) {
      const bindings = isRecord(channel.bindings) ? channel.bindings : {};
      const word =
        protocol === 'kafka'
          ? 'topics'
          : protocol === 'amqp'
            ? isRecord(bindings.amqp) && bindings.amqp.is === 'routingKey'
              ? 'exchs'
              : 'queues'
            : 'channels';
      const links = [
        `${word}/${key}`,
        ...(operationsOf.get(key) ?? []).map((operation) => `${word}/${key}/operations/${operation}`),
      ];
      const tags = (await list({ value: channel.tags, file: description.file })).flatMap(({ value }) =>
        isRecord(value) && typeof value.name === 'string' ? [value.name] : [],
      );
      if (tags.length === 0) untagged.push(...links);
      for (const tag of tags) {
        const under = tagged.get(tag) ?? [];
        tagged.set(tag, under);
        under.push(...links);
      }
    }
    const groups = await list(child(description, 'x-tagGroups'));
    const listed = new Set<string>();
    for (const entry of groups) {
      const group = await record(entry);
      for (const { value } of group === null ? [] : await list(child(group, 'tags')))
        if (typeof value === 'string') listed.add(value);
    }
    for (const [tag, links] of tagged) {
      if (routes.size > maximumRoutes) return unknown(`it has more than ${maximumRoutes} pages`);
      if (groups.length > 0 && !listed.has(tag)) continue;
      const slug = safeSlugify(tag).toLowerCase();
      routes.add(`/${slug}`);
      for (const link of links) routes.add(`/${slug}/${link}`);
    }
    if (groups.length === 0) for (const link of untagged) routes.add(`/${link}`);
    const components = await record(child(description, 'components'));
    const componentTags = components === null ? null : await record(child(components, 'tags'));
    if (
      componentTags !== null &&
      Object.values(componentTags.value).some(
        (tag) => isRecord(tag) && typeof tag.description === 'string' && tag.description.includes('#'),
      )
    )
      unknown("a tag's description with headings");
    const info = await record(child(description, 'info'));
    if (typeof info?.value.description === 'string')
      addSections(info.value.description, null, routes, unknown);
  };

  const root = await record({ value: await load(file), file });
  if (root !== null && 'asyncapi' in root.value) {
    await addAsyncApiPages(root);
    return { routes, incomplete };
  }
  if (root === null || !('openapi' in root.value || 'swagger' in root.value))
    return { routes, incomplete: incomplete ?? `${file} holds no API description` };

  // Tags: declared, then the untagged operations' (named ''), the schemas' tag, and those that
  // operations and MCP items name (`buildMenuStructure`, menu/builder.js; `getTagsWithOperations`).
  interface Tag {
    name: string;
    id: string;
    traitTag: boolean;
    parent: string | null;
    nav: boolean;
    description: string;
    /** What is below the tag's page: its schemas', MCP items' and operations' ids (untagged: whole). */
    items: string[];
  }
  const tags = new Map<string, Tag>();
  let itemCount = 0;
  /** Adds an item below a tag, up to the most pages read. */
  const addItem = (tag: Tag | undefined, item: string) => {
    if (tag === undefined) return;
    itemCount += 1;
    if (itemCount > maximumRoutes) unknown(`it has more than ${maximumRoutes} pages`);
    else tag.items.push(item);
  };
  const declare = (name: string, value: Record<string, unknown> = {}) => {
    if (tags.has(name)) return;
    const kind = value.kind;
    tags.set(name, {
      name,
      id: typeof value.id === 'string' && value.id !== '' ? value.id : safeSlugify(name),
      traitTag: value['x-traitTag'] === true,
      parent: typeof value.parent === 'string' && value.parent !== '' ? value.parent : null,
      nav: kind === undefined || kind === 'nav',
      description: typeof value.description === 'string' ? value.description : '',
      items: [],
    });
  };
  for (const entry of await list(child(root, 'tags'))) {
    const tag = await record(entry);
    if (tag !== null && typeof tag.value.name === 'string' && !removed(tag.value))
      declare(tag.value.name, tag.value);
  }
  declare('');
  const definitionsTag = options.schemaDefinitionsTagName;
  if (definitionsTag !== undefined && definitionsTag !== '') declare(definitionsTag);

  // Operations of `paths`, then of `x-webhooks` or else `webhooks`, each under its tags (untagged: the
  // tag '', a webhook `webhooks`), none under a trait tag. Its own id: its `operationId`, or the JSON
  // pointer `paths/<path>/<method>` (webhooks' too).
  const webhooks = child(root, 'x-webhooks') ?? child(root, 'webhooks');
  for (const [section, webhook] of [
    [child(root, 'paths'), false],
    [webhooks, true],
  ] as const) {
    const items = await record(section);
    if (items === null) continue;
    for (const key of Object.keys(items.value)) {
      const item = await record(child(items, key));
      if (item === null || removed(item.value)) continue;
      const additional = await record(child(item, 'additionalOperations'));
      const found: Array<[string, Located | null]> = methods.map((method) => [method, child(item, method)]);
      if (additional !== null)
        for (const method of Object.keys(additional.value)) found.push([method, child(additional, method)]);
      for (const [method, located] of found) {
        const operation = located === null ? null : await record(located);
        if (operation === null || removed(operation.value)) continue;
        const listed = (await list(child(operation, 'tags'))).flatMap(({ value }) =>
          typeof value === 'string' ? [value] : [],
        );
        const operationId =
          typeof operation.value.operationId === 'string' ? operation.value.operationId : null;
        const pointer = `paths/${pointerSegment(key)}/${pointerSegment(method)}`;
        for (const name of listed.length > 0 ? listed : [webhook ? 'webhooks' : '']) {
          declare(name);
          const tag = tags.get(name);
          if (tag === undefined || tag.traitTag) continue;
          // `getOperationId` (utils/openapi.js): below a tag, or `other/` when untagged.
          addItem(
            tag,
            name === ''
              ? sanitized(operationId === null ? pointer : `other/${operationId}`)
              : sanitized(operationId ?? pointer),
          );
        }
      }
    }
  }
  const mcp = await record(child(root, 'x-mcp'));
  for (const kind of mcpKinds) {
    for (const entry of await list(mcp === null ? null : child(mcp, kind))) {
      const item = await record(entry);
      if (item === null || typeof item.value.name !== 'string') continue;
      const listed = (await list(child(item, 'tags'))).flatMap(({ value }) =>
        typeof value === 'string' ? [value] : [],
      );
      const under = listed.length > 0 ? listed : [kind.charAt(0).toUpperCase() + kind.slice(1)];
      for (const name of under) {
        declare(name);
        if (name !== '') addItem(tags.get(name), safeSlugify(item.value.name));
      }
    }
  }

  // Schemas (`components.schemas`; Swagger 2's `definitions`), each under the tags its `x-tags`
  // names, or else under the schemas' tag.
  const components = await record(child(root, 'components'));
  const schemas = await record(
    components === null ? child(root, 'definitions') : child(components, 'schemas'),
  );
  for (const name of schemas === null ? [] : Object.keys(schemas.value)) {
    const schema = await record(child(schemas as Located & { value: Record<string, unknown> }, name));
    if (removed(schema?.value)) continue;
    const listed = (await list(schema === null ? null : child(schema, 'x-tags'))).flatMap(({ value }) =>
      typeof value === 'string' ? [value] : [],
    );
    // Under a tag that has no page (none of that name), nowhere.
    for (const tag of listed.length > 0 ? listed : definitionsTag ? [definitionsTag] : [])
      if (tag !== '') addItem(tags.get(tag), safeSlugify(name));
  }

  const tagFiles = setting('tag-description-override')?.tagNames;
  /** A tag's page (its `id`, `parentId/name` when nested) and the pages below it (`getTagsItems`). */
  const addTag = async (tag: Tag, id: string) => {
    const description = isRecord(tagFiles)
      ? ((await overrideFile(tagFiles[tag.name])) ?? tag.description)
      : tag.description;
    if (tag.name === '') {
      addSections(description, null, routes, unknown);
      for (const operation of tag.items) routes.add(href(operation));
      return;
    }
    const below = tag.items.map((item) => `${id}/${item}`);
    const sections = new Set<string>();
    addSections(description, id, sections, unknown);
    // An empty `webhooks` tag is dropped.
    if (tag.name === 'webhooks' && below.length === 0 && sections.size === 0) return;
    routes.add(href(id));
    for (const route of [...below.map(href), ...sections]) routes.add(route);
  };

  const nested = [...tags.values()].some((tag) => tag.parent !== null);
  const groups = await list(child(root, 'x-tagGroups'));
  if (nested) {
    // `buildNestedTagsItems`: navigation tags (no `kind`, or `nav`) below their parent, five levels.
    const navigation = [...tags.values()].filter((tag) => tag.nav);
    const names = new Set(navigation.map((tag) => tag.name));
    const walk = async (level: Tag[], parentId: string | null, depth: number): Promise<void> => {
      if (depth > maximumTagDepth) return;
      for (const tag of level) {
        const id = parentId === null ? tag.id : `${parentId}/${safeSlugify(tag.name)}`;
        await addTag(tag, id);
        if (tag.name !== '')
          await walk(
            navigation.filter((child) => child.parent === tag.name),
            id,
            depth + 1,
          );
      }
    };
    await walk(
      navigation.filter((tag) => tag.parent === null || !names.has(tag.parent)),
      null,
      1,
    );
  } else if (groups.length > 0) {
    // `getTagGroupsItems`: the tags each group lists; a group's own page when text comes before its
    // description's first heading (`saveTextBeforeHeading`).
    for (const entry of groups) {
      const group = await record(entry);
      if (group === null) continue;
      const text = typeof group.value.description === 'string' ? group.value.description : '';
      const heading = text.search(/^#{1,6}?\s+/m);
      if ((heading < 0 ? text : text.slice(0, heading)) !== '' && typeof group.value.name === 'string')
        routes.add(
          href(
            typeof group.value.id === 'string' && group.value.id !== ''
              ? group.value.id
              : safeSlugify(group.value.name),
          ),
        );
      for (const { value } of await list(child(group, 'tags'))) {
        const tag = typeof value === 'string' ? tags.get(value) : undefined;
        if (tag !== undefined) await addTag(tag, tag.id);
      }
    }
  } else for (const tag of tags.values()) await addTag(tag, tag.id);

  // Headings of the description's Markdown.
  const info = await record(child(root, 'info'));
  const description =
    info === null ? null : await resolve({ value: info.value.description, file: info.file });
  const infoOverride = setting('info-override');
  const infoDescription =
    (await overrideFile(setting('info-description-override')?.filePath)) ??
    (typeof infoOverride?.description === 'string' ? infoOverride.description : description?.value);
  if (typeof infoDescription === 'string') addSections(infoDescription, null, routes, unknown);
  if (routes.size > maximumRoutes) unknown(`it has more than ${maximumRoutes} pages`);
  return { routes, incomplete };
}

/**
 * `addMarkdownItems` (menu/markdown.js): a page per heading, at `section/<slug>` or below the tag's
 * id, a deeper one below the last level-one one; a heading's `{% #id %}` as written.
 */
function addSections(
  markdown: string,
  tagId: string | null,
  routes: Set<string>,
  unknown: (reason: string) => void,
): void {
  if (!markdown.includes('#') && !/\n\s*(=+|-+)\s*(\n|$)/.test(markdown)) return;
  const tokens = markdoc.parse(markdown, {});
  let top: string | null = null;
  for (let index = 0; index < tokens.length; index += 1) {
    const token = tokens[index];
    if (token?.type !== 'heading_open') continue;
    const children = tokens[index + 1]?.children ?? [];
    const level = Number(token.tag.slice(1));
    const annotation = /\{%\s*#([^\s%}]+)[^%]*%\}/.exec(tokens[index + 1]?.content ?? '');
    // Its first piece of text (`getTextContent` descends into first children only).
    const first = children.find((piece) => !piece.type.endsWith('_open'));
    if (annotation === null && first?.type !== 'text' && first?.type !== 'code_inline') {
      unknown('a heading of its Markdown starts with something other than text');
      continue;
    }
    const text = (first?.content ?? '').replace(
      /&(?:amp|lt|gt|quot|#39);/g,
      (entity) => htmlCharacters[entity] ?? entity,
    );
    const prefix: string | null = level === 1 ? tagId : (top ?? tagId);
    const id: string =
      annotation?.[1] ??
      (prefix === null ? `section/${safeSlugify(text)}` : `${prefix}/${safeSlugify(text)}`);
    if (level === 1) top = id;
    routes.add(href(id));
  }
}
