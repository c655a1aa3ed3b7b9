import type { Token } from 'markdown-it';
import { cachedAnchors, maximumCharacters, type PageAnchors, readHtmlIds } from '../heading-anchors.ts';
import { createMarkdocParser } from '../markdoc-parser.ts';
import { frontMatterPattern } from '../page-facts.ts';
import { redoclySlug, UniqueKeys } from './redocly-slugs.ts';

const parser = createMarkdocParser();

/**
 * Tags of Redocly and Markdoc that add no element id of their own (@redocly/theme lib/markdoc: cards,
 * tabs and code groups render ids from their titles and labels, so pages with them are incomplete).
 */
const plainTags = new Set(
  'admonition code-snippet code-step code-toggle code-walkthrough connect-mcp debug diagram html icon img inline-svg input login-button markdoc-example step toggle json-example json-schema openapi-code-sample openapi-example openapi-response-sample replay-openapi if else table slot'.split(
    ' ',
  ),
);
/** An explicit id written after a heading: `{% #id %}` or `{% id="id" %}`. */
const explicitId = /\{%-?\s*(?:#([A-Za-z0-9_-]+)|id\s*=\s*"([^"]*)")[^%]{0,200}%\}/;

/**
 * The anchors Redocly gives a page (dist/markdoc/nodes/heading.js): a heading's explicit id as
 * written, else its text slugged (`redoclySlug` with dots and slashes dropped) and numbered per page
 * (`-1`, `-2`, explicit ids not counted); the text is the heading's pieces trimmed and joined by a
 * space (`getInnerText`), so `foo**bar**` is `foo bar`. HTML `id` and `name` attributes are kept.
 * Incomplete when a partial, or a tag this reader does not know, may add headings.
 */
export function readRedoclyAnchors(text: string): PageAnchors {
  if (text.length > maximumCharacters) return { anchors: new Set(), complete: false };
  return cachedAnchors('redocly', text, () => readAnchors(text));
}

function readAnchors(text: string): PageAnchors {
  const frontMatter = frontMatterPattern.exec(text)?.[0] ?? '';
  const body = '\n'.repeat(frontMatter.split('\n').length - 1) + text.slice(frontMatter.length);
  const tokens = parser.parse(body, {});
  const anchors = new Set<string>();
  const ids = new UniqueKeys();
  let complete = true;
  // A tag given an `id` renders an element with it (a code walkthrough's steps); a tag this reader
  // does not know may render headings (a partial's, a theme's own tags').
  const readTag = (token: Token) => {
    if (token.type !== 'tag' && token.type !== 'tag_open') return;
    const meta = token.meta as { tag?: unknown; attributes?: unknown } | null;
    for (const attribute of Array.isArray(meta?.attributes) ? meta.attributes : []) {
      const { name, value } = (attribute ?? {}) as { name?: unknown; value?: unknown };
      if (name === 'id' && typeof value === 'string') anchors.add(value);
    }
    if (!plainTags.has(String(meta?.tag))) complete = false;
  };
  for (const [index, token] of tokens.entries()) {
    readTag(token);
    if (token.type === 'html_block') readHtmlIds(token.content, anchors);
    else if (token.type === 'inline') {
      for (const child of token.children ?? []) {
        readTag(child);
        if (child.type === 'html_inline') readHtmlIds(child.content, anchors);
      }
      if (tokens[index - 1]?.type !== 'heading_open') continue;
      // A variable's value (`{% $lang %}`) is part of the heading's text.
      if (token.children?.some((child) => child.type === 'variable' || child.type === 'function') === true)
        complete = false;
      const explicit = explicitId.exec(token.content);
      const id = explicit?.[1] ?? explicit?.[2];
      if (id !== undefined) anchors.add(id);
      else anchors.add(ids.resolve(redoclySlug(innerText(token.children ?? []), { heading: true })));
    }
  }
  return { anchors, complete };
}

/** `getInnerText`: each text piece trimmed, joined by one space; inline code's text too (annotations are tokens of their own). */
function innerText(children: readonly Token[]): string {
  const pieces: string[] = [];
  for (const child of children)
    if (child.type === 'text' || child.type === 'code_inline') pieces.push(child.content.trim());
    else if (child.type === 'softbreak' || child.type === 'hardbreak') pieces.push('');
  return pieces.join(' ').trim();
}
