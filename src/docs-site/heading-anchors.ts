import GithubSlugger from 'github-slugger';
import createMarkdownIt, { type MarkdownIt, type Token } from 'markdown-it';

/** The anchors of one page, and whether they are all known. */
export interface PageAnchors {
  anchors: ReadonlySet<string>;
  /**
   * False when something this reader cannot follow may add anchors: an imported MDX file or a
   * component rendered in the page (a component may register an anchor of its own).
   */
  complete: boolean;
}

// A page this long is not parsed whole for its anchors (the full parse is about 20 times the cost
// of reading its links); its anchors are unknown.
const maximumCharacters = 512 * 1024;
const attributeAnchor = /\b(?:id|name)\s*=\s*(?:"([^"]*)"|'([^']*)'|\{\s*["'`]([^"'`]*)["'`]\s*\})/g;

/**
 * The anchors Docusaurus gives a Markdown or MDX page (https://docusaurus.io/docs/markdown-features/toc#heading-ids):
 * each heading's id, `{#custom-id}` when written, else GitHub's slug of its text (github-slugger,
 * `-1`, `-2` for repeats), and the `id` or `name` of an element written in the page. Read with
 * markdown-it, every inline rule on (emphasis and entities change a heading's text); in MDX, as
 * the page facts read it, indentation is no code and a tag no HTML block.
 */
export function readHeadingAnchors(text: string, mdx: boolean): PageAnchors {
  if (text.length > maximumCharacters) return { anchors: new Set(), complete: false };
  const cache = cached[mdx ? 1 : 0];
  const known = cache.get(text);
  if (known !== undefined) return known;
  const frontMatter = /^---\r?\n[\s\S]*?\r?\n---[ \t]*(?:\r?\n|$)/.exec(text)?.[0] ?? '';
  const body = '\n'.repeat(frontMatter.split('\n').length - 1) + text.slice(frontMatter.length);
  const tokens = (mdx ? mdxParser : markdownParser).parse(body, {});
  const anchors = new Set<string>();
  const slugger = new GithubSlugger();
  let complete = true;
  const codeLines = new Set<number>();
  const readTags = (html: string) => {
    for (const match of html.matchAll(attributeAnchor)) anchors.add(match[1] ?? match[2] ?? match[3] ?? '');
    // A component (capitalized, or a member such as `Tabs.Item`) may register anchors of its own;
    // so may an id computed in an expression.
    if (mdx && (/<[A-Z]|<[a-z]+\./.test(html) || /\b(?:id|name)\s*=\s*\{/.test(html))) complete = false;
  };
  for (const [index, token] of tokens.entries()) {
    if ((token.type === 'fence' || token.type === 'code_block') && token.map !== null)
      for (let line = token.map[0]; line < token.map[1]; line += 1) codeLines.add(line);
    else if (token.type === 'html_block') readTags(token.content);
    else if (token.type === 'inline') {
      for (const child of token.children ?? []) if (child.type === 'html_inline') readTags(child.content);
      if (tokens[index - 1]?.type === 'heading_open') {
        const title = plainText(token.children ?? []);
        const custom = /\{#([^\s}]+)\}\s*$/.exec(title);
        anchors.add(custom?.[1] ?? slugger.slug(title.trim()));
      }
    }
  }
  // MDX's ESM: an import outside code may render another file's headings in this page.
  if (mdx && body.split('\n').some((line, index) => !codeLines.has(index) && /^import\s/.test(line)))
    complete = false;
  const result = { anchors, complete };
  cachedCharacters += text.length;
  if (cachedCharacters > maximumCachedCharacters) {
    for (const map of cached) map.clear();
    cachedCharacters = text.length;
  }
  cache.set(text, result);
  return result;
}

/** A heading's text as mdast's `toString` gives it: text, inline code and image descriptions, no tags. */
function plainText(children: readonly Token[]): string {
  let text = '';
  for (const child of children) {
    if (child.type === 'text' || child.type === 'code_inline') text += child.content;
    else if (child.type === 'image') text += plainText(child.children ?? []);
    else if (child.type === 'softbreak' || child.type === 'hardbreak') text += ' ';
  }
  return text;
}

function createParser(mdx: boolean): MarkdownIt {
  const parser = createMarkdownIt({ html: true, linkify: false });
  if (mdx) parser.disable(['code', 'html_block']);
  return parser;
}

const markdownParser = createParser(false);
const mdxParser = createParser(true);
// Pages' anchors by text, read once while the same pages are checked again (each validation).
const cached: [Map<string, PageAnchors>, Map<string, PageAnchors>] = [new Map(), new Map()];
let cachedCharacters = 0;
const maximumCachedCharacters = 64 * 1024 * 1024;
