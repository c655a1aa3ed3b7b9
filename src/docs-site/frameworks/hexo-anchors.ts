import slugize from 'hexo-util/dist/slugize.js';
import stripHTML from 'hexo-util/dist/strip_html.js';
import unescapeHTML from 'hexo-util/dist/unescape_html.js';
import createMarkdownIt, { type Token } from 'markdown-it';
import { attributeAnchor, cachedAnchors, maximumCharacters, type PageAnchors } from '../heading-anchors.ts';
import { frontMatterPattern, hexoLegacyFrontMatter } from '../page-facts.ts';
import { expandHexoTags } from '../template-links.ts';
import type { HexoRenderer } from './hexo-config.ts';

/**
 * The anchors a Hexo page gets, as its Markdown renderer makes them (hexo-util's `slugize` on the
 * heading's text, case kept):
 * - hexo-renderer-marked (lib/renderer.js `heading`): the heading's inline HTML, with smartypants'
 *   quotes and dashes, tags stripped; before 6.1.1 its entities stay (`&lt;script&gt;` gives
 *   `lt-script-gt`), from 6.1.1 they are unescaped first (a `<script>` in code is then a tag, and
 *   goes); a repeat takes `-1`, `-2`;
 * - hexo-renderer-markdown-it (lib/anchors.js): headings from `markdown.anchors.level` (2) on, the
 *   tokens' text (typographer on, raw inline HTML kept), a repeat `-2`;
 * and every `id` or `name` written in HTML, and `more` where `<!-- more -->` is.
 * Incomplete where a tag this reader does not follow may write ids.
 */
export function readHexoAnchors(text: string, renderer: HexoRenderer): PageAnchors | null {
  if (renderer.kind !== 'marked' && renderer.kind !== 'markdown-it') return null;
  if (text.length > maximumCharacters) return { anchors: new Set(), complete: false };
  return cachedAnchors(`hexo ${JSON.stringify(renderer)}`, text, () => {
    const frontMatter = (frontMatterPattern.exec(text) ?? hexoLegacyFrontMatter(text))?.[0] ?? '';
    const written = text.slice(frontMatter.length);
    const body = expandHexoTags(written);
    const parser = renderer.kind === 'marked' ? markedLikeParser : markdownItParser;
    const tokens = parser.parse(body, {});
    // What code shows is no element and no tag: its lines and spans are left out of what is
    // searched for ids and tags. A `{% raw %}` body is written out as it is: its ids count.
    const codeLines = new Set<number>();
    for (const token of tokens)
      if ((token.type === 'fence' || token.type === 'code_block') && token.map !== null)
        for (let line = token.map[0]; line < token.map[1]; line += 1) codeLines.add(line);
    const shown = written
      .split('\n')
      .map((line, index) => (codeLines.has(index) ? '' : line.replace(/`[^`\n]*`/g, '')))
      .join('\n');
    const anchors = new Set<string>();
    for (const match of shown.replace(/<!--[\s\S]*?-->/g, '').matchAll(attributeAnchor))
      anchors.add(match[1] ?? match[2] ?? match[3] ?? '');
    if (/<!-- ?more ?-->/i.test(shown)) anchors.add('more');
    const counts = new Map<string, number>();
    for (const [index, token] of tokens.entries()) {
      const open = tokens[index - 1];
      if (token.type !== 'inline' || open?.type !== 'heading_open') continue;
      const children = token.children ?? [];
      if (renderer.kind === 'markdown-it') {
        if (Number(open.tag.slice(1)) < renderer.level) continue;
        const title = children.map((child) => markdownItContent(child)).join('');
        let slug = slugize(title, { transform: renderer.transform, separator: renderer.separator });
        const seen = counts.get(slug);
        if (seen === undefined) counts.set(slug, 1);
        else {
          counts.set(slug, seen + 1);
          slug = `${slug}-${renderer.collisionSuffix}${seen + 1}`;
        }
        anchors.add(slug);
        continue;
      }
      if (!renderer.headerIds) continue;
      const kinds = renderer.ids === 'either' ? (['escaped', 'unescaped'] as const) : [renderer.ids];
      for (const kind of kinds) {
        const html = children.map((child) => markedHtml(child, kind, renderer.smartypants)).join('');
        const base = slugize((kind === 'escaped' ? stripHTML(html) : stripHTML(unescapeHTML(html))).trim(), {
          transform: renderer.transform,
        });
        const key = `${kind}\0${base}`;
        const seen = counts.get(key);
        counts.set(key, (seen ?? 0) + 1);
        anchors.add(seen === undefined ? base : `${base}-${seen}`);
      }
    }
    // Tags other than links, code and quotes may write ids of their own (tabs, includes).
    const otherTags = [...shown.matchAll(/\{%-?\s*(\w+)/g)].some((match) => !knownTags.has(match[1] ?? ''));
    // markdown-it-footnote (hexo-renderer-markdown-it's `markdown.plugins`) numbers its ids.
    const footnotes = renderer.kind === 'markdown-it' && renderer.footnotes;
    return { anchors, complete: !otherTags, ...(footnotes ? { knownPrefixes: ['fn'] } : {}) };
  });
}

const knownTags = new Set([
  'raw',
  'endraw',
  'post_link',
  'post_path',
  'asset_img',
  'asset_link',
  'asset_path',
  'img',
  'image',
  'link',
  'codeblock',
  'endcodeblock',
  'code',
  'endcode',
  'blockquote',
  'endblockquote',
  'pullquote',
  'endpullquote',
  'note',
  'endnote',
  'youtube',
  'vimeo',
  'iframe',
  'jsfiddle',
  'gist',
]);

// marked's text keeps its entities as written (`&copy;` stays `&copy;`): the entity rule is off.
const markedLikeParser = createMarkdownIt({ html: true, breaks: true }).disable('entity');
// hexo-renderer-markdown-it's defaults (index.js): HTML, breaks, linkify and the typographer.
const markdownItParser = createMarkdownIt({
  html: true,
  breaks: true,
  linkify: true,
  typographer: true,
  quotes: '“”‘’',
});

/** What one inline token adds to a heading's HTML as marked writes it (before or after 6.1.1's unescaping). */
function markedHtml(token: Token, kind: 'escaped' | 'unescaped', smartypants: boolean): string {
  if (token.type === 'text')
    return escapeText(smartypants ? applySmartypants(token.content) : token.content, false);
  if (token.type === 'code_inline') return escapeText(token.content, true);
  if (token.type === 'html_inline') return token.content;
  if (token.type === 'softbreak' || token.type === 'hardbreak') return kind === 'escaped' ? '\n' : '<br>';
  if (token.type === 'image') return '<img>';
  return (token.children ?? []).map((child) => markedHtml(child, kind, smartypants)).join('');
}

/** marked's `escape`: `&` (all of them in code, else those starting no entity), `<`, `>`, `"`, `'`. */
function escapeText(text: string, code: boolean): string {
  return text
    .replace(code ? /&/g : /&(?!#?\w+;)/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** marked's `smartypants`: dashes, curly quotes and the ellipsis. */
function applySmartypants(text: string): string {
  return text
    .replace(/---/g, '\u2014')
    .replace(/--/g, '\u2013')
    .replace(/(^|[-\u2014/([{"\s])'/g, '$1\u2018')
    .replace(/'/g, '\u2019')
    .replace(/(^|[-\u2014/([{\u2018\s])"/g, '$1\u201c')
    .replace(/"/g, '\u201d')
    .replace(/\.{3}/g, '\u2026');
}

/** What one token adds to a heading's title in hexo-renderer-markdown-it: its content (an image's alt text). */
function markdownItContent(token: Token): string {
  return token.type === 'text' ||
    token.type === 'code_inline' ||
    token.type === 'html_inline' ||
    token.type === 'image'
    ? token.content
    : '';
}
