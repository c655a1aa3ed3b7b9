import { parse as parseYaml } from 'yaml';
import { folderOf, joinInside } from '../link-urls.ts';
import type { RepositoryFiles } from '../site-model.ts';

/** One component version of an Antora site: an `antora.yml` and the `modules/` beside it. */
export interface AntoraComponent {
  /** The descriptor's file and the content root (its folder). */
  file: string;
  root: string;
  name: string;
  /** '' for a versionless component (`version: ~`); null when the build decides (`version: true`, a branch). */
  version: string | null;
  /** Navigation files, repository paths. */
  nav: string[];
  /** `asciidoc.attributes` with string values, for targets written with `{name}`. */
  attributes: Map<string, string>;
  /** Whether an Antora Collector extension adds generated content at build time (`ext.collector`). */
  collected: boolean;
}

/** A resource ID taken apart (https://docs.antora.org/antora/latest/page/resource-id/). */
export interface ResourceId {
  component: string;
  version: string | null | undefined;
  module: string;
  family: string;
  relative: string;
}

// version@component:module:family$relative (parse-resource-id.js in @antora/content-classifier).
const resourceIdPattern =
  /^(?:([^@:$]+)@)?(?:(?:([^@:$]+):)?(?:([^@:$]+))?:)?(?:([^@:$]+)\$)?([^:$][^@:$]*)$/;

/** Every component descriptor of the repository (`antora.yml` with a `name`), shallowest first. */
export async function readAntoraComponents(files: RepositoryFiles): Promise<AntoraComponent[]> {
  const components: AntoraComponent[] = [];
  const descriptors = files.paths
    .filter((path) => /(^|\/)antora\.ya?ml$/.test(path) && !/(^|\/)node_modules\//.test(path))
    .sort((left, right) => left.split('/').length - right.split('/').length || left.localeCompare(right));
  for (const file of descriptors) {
    const text = await files.read(file);
    let descriptor: unknown;
    try {
      descriptor = parseYaml(text ?? '', { logLevel: 'silent', maxAliasCount: 100 });
    } catch {
      continue;
    }
    if (typeof descriptor !== 'object' || descriptor === null) continue;
    const values = descriptor as Record<string, unknown>;
    if (typeof values.name !== 'string' || values.name === '') continue;
    const root = folderOf(file);
    const version =
      values.version === null || values.version === undefined
        ? ''
        : typeof values.version === 'string' || typeof values.version === 'number'
          ? String(values.version)
          : null;
    const nav = (Array.isArray(values.nav) ? values.nav : [])
      .filter((item): item is string => typeof item === 'string')
      .map((item) => joinInside(root, item))
      .filter((path): path is string => path !== null);
    const asciidoc = values.asciidoc;
    const rawAttributes =
      typeof asciidoc === 'object' && asciidoc !== null
        ? (asciidoc as Record<string, unknown>).attributes
        : null;
    const attributes = new Map<string, string>();
    if (typeof rawAttributes === 'object' && rawAttributes !== null) {
      for (const [name, value] of Object.entries(rawAttributes)) {
        if (typeof value === 'string') attributes.set(name, value.replace(/@$/, ''));
      }
    }
    const ext = values.ext;
    const collected = typeof ext === 'object' && ext !== null && 'collector' in ext;
    components.push({ file, root, name: values.name, version, nav, attributes, collected });
  }
  return components;
}

/**
 * A resource ID as Antora reads it in the context of the file it is written in: a component without
 * a module means its ROOT module, a missing component, version or module is the current one's, and
 * `./` starts from the current file's folder. Undefined when the spec is malformed.
 */
export function parseResourceId(
  spec: string,
  context: { component: string; version: string | null; module: string; relative: string },
  defaultFamily: string,
): ResourceId | undefined {
  const match = resourceIdPattern.exec(spec);
  if (match === null) return undefined;
  let version: string | null | undefined = match[1];
  let component = match[2];
  let module = match[3];
  if (version === '_') version = '';
  if (component !== undefined) {
    module ||= 'ROOT';
  } else {
    component = context.component;
    version ??= context.version;
    module ||= context.module;
  }
  let relative = match[5] ?? '';
  if (relative.includes('/')) {
    const segments = relative.split('/');
    if (segments[0] === '.') segments[0] = folderOf(context.relative);
    const resolved: string[] = [];
    for (const segment of segments.join('/').split('/')) {
      if (segment === '..') resolved.pop();
      else if (segment !== '' && segment !== '.') resolved.push(segment);
    }
    relative = resolved.join('/');
  }
  return { component, version, module, family: match[4] ?? defaultFamily, relative };
}

/**
 * Whether a playbook of the repository (`antora-playbook.yml`, `local-antora-playbook.yml`) builds the
 * site from other content sources too (https://docs.antora.org/antora/latest/playbook/content-source-url/):
 * their pages may join a component version of this repository, or be the target of its xrefs.
 */
export async function hasOtherContentSources(files: RepositoryFiles): Promise<boolean> {
  for (const path of files.paths) {
    if (!/(^|\/)[^/]*playbook[^/]*\.ya?ml$/.test(path) || /(^|\/)node_modules\//.test(path)) continue;
    let playbook: unknown;
    try {
      playbook = parseYaml((await files.read(path)) ?? '', { logLevel: 'silent', maxAliasCount: 100 });
    } catch {
      continue;
    }
    const content =
      typeof playbook === 'object' && playbook !== null
        ? (playbook as Record<string, unknown>).content
        : null;
    const sources =
      typeof content === 'object' && content !== null ? (content as Record<string, unknown>).sources : null;
    if (!Array.isArray(sources)) continue;
    for (const item of sources) {
      const url = typeof item === 'object' && item !== null ? (item as Record<string, unknown>).url : null;
      if (typeof url === 'string' && /^[a-z][\w+.-]*:|^git@/i.test(url)) return true;
    }
  }
  return false;
}
