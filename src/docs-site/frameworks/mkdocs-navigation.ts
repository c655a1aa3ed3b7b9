import { isExternalUrl } from '../link-urls.ts';
import { isRecord } from './yaml-problems.ts';

/** One page reference of an MkDocs `nav`, with the section titles above it. */
export interface MkDocsNavItem {
  reference: string;
  groups: string[];
}

/** How deep sections nest before the rest is ignored (a real nav is a few levels deep). */
const maximumDepth = 20;

/**
 * The pages an MkDocs `nav` names, in order: a path (`index.md`), `{Title: path}`, `{Title: [...]}`
 * for a section, and `{Title: https://...}` links, which name no page
 * (https://www.mkdocs.org/user-guide/configuration/#nav). Zensical reads only the first key of
 * each mapping (zensical/config.py, `_convert_nav_item`).
 */
export function readMkDocsNav(nav: unknown, firstKeyOnly = false): MkDocsNavItem[] {
  const items: MkDocsNavItem[] = [];
  const visit = (value: unknown, groups: string[], depth: number): void => {
    if (depth > maximumDepth) return;
    if (typeof value === 'string') {
      if (!isExternalUrl(value) && !value.startsWith('/')) items.push({ reference: value.trim(), groups });
    } else if (Array.isArray(value)) {
      for (const item of value) visit(item, groups, depth + 1);
    } else if (isRecord(value)) {
      const entries = Object.entries(value);
      for (const [title, child] of firstKeyOnly ? entries.slice(0, 1) : entries)
        visit(child, [...groups, title], depth + 1);
    }
  };
  visit(nav, [], 0);
  return items;
}

/** The most wildcards a pattern may have: each `*` is a loop over the path in the regular expression. */
const maximumWildcards = 8;

/**
 * A matcher for `not_in_nav` (and `exclude_docs`): gitignore-style patterns, one a line, relative
 * to docs_dir (https://www.mkdocs.org/user-guide/configuration/#not_in_nav). A pattern with a
 * slash other than a trailing one is anchored at docs_dir, one without matches a name at any
 * depth; `**` crosses folders, `*` does not; `!` re-includes.
 */
export function gitignoreMatcher(patterns: string): (path: string) => boolean {
  const rules: Array<{ expression: RegExp; negated: boolean }> = [];
  for (const rawLine of patterns.split('\n').slice(0, 500)) {
    let line = rawLine.trim();
    if (line === '' || line.startsWith('#')) continue;
    const negated = line.startsWith('!');
    if (negated) line = line.slice(1);
    const directoryOnly = line.endsWith('/');
    line = line.replace(/(?<!\/)\/+$/, '');
    const anchored = line.includes('/');
    line = line.replace(/^\/+/, '');
    if ((line.match(/\*/g)?.length ?? 0) > maximumWildcards || line === '') continue;
    let source = '';
    for (let index = 0; index < line.length; index += 1) {
      const character = line[index] ?? '';
      if (character === '*' && line[index + 1] === '*') {
        index += 1;
        if (line[index + 1] === '/') {
          index += 1;
          source += '(?:[^/]+/)*';
        } else source += '.*';
      } else if (character === '*') source += '[^/]*';
      else if (character === '?') source += '[^/]';
      else source += character.replace(/[.+^${}()|[\]\\]/g, '\\$&');
    }
    const prefix = anchored ? '^' : '^(?:.*/)?';
    // A folder pattern matches everything inside it; a file pattern may also name a folder.
    const suffix = directoryOnly ? '/' : '(?:$|/)';
    rules.push({ expression: new RegExp(`${prefix}${source}${suffix}`), negated });
  }
  return (path) => {
    let matched = false;
    for (const rule of rules) if (rule.expression.test(path)) matched = !rule.negated;
    return matched;
  };
}
