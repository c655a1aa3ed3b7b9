import createMarkdownIt from 'markdown-it';
import { attributeAnchor, cachedAnchors, maximumCharacters, type PageAnchors } from '../heading-anchors.ts';
import { frontMatterPattern } from '../page-facts.ts';
import type { EleventyConfig } from './eleventy-config.ts';

// Eleventy's markdown-it: HTML on, indented code off (src/Engines/Markdown.js, 2.0 and later);
// a site may turn the typographer on (phpstan), which changes headings' text.
const parsers = {
  plain: createMarkdownIt({ html: true }).disable('code'),
  typographer: createMarkdownIt({ html: true, typographer: true }).disable('code'),
};
/** markdown-it-attrs' attribute list: ids, classes and `key=value` pairs only (CSS braces are none). */
const attributeList = /\{\s*((?:#[^\s{}#=]+|\.[^\s{}#.=]+|[\w-]+=(?:"[^"]*"|[^\s{}]+))\s*)+\}/g;

/**
 * The anchors markdown-it-anchor gives a page with its own slugify
 * (valeriangalliat/markdown-it-anchor index.js: `encodeURIComponent` of the heading's text and
 * inline code, trimmed, lower-cased, each run of spaces a `-`), headings from `level` on, repeats
 * `-1` (6 and later) or `-2` (5); and `id`/`name` written in HTML. Null without the plugin (Eleventy's
 * Markdown gives headings no id, and a layout or script may). Incomplete where an include or a
 * shortcode may write headings.
 */
export function readEleventyAnchors(
  text: string,
  rules: EleventyConfig['anchors'],
  attributes = false,
  typographer = false,
): PageAnchors | null {
  if (rules === null) return null;
  if (text.length > maximumCharacters) return { anchors: new Set(), complete: false };
  const parser = typographer ? parsers.typographer : parsers.plain;
  return cachedAnchors(
    `eleventy ${rules.level} ${rules.firstRepeat} ${attributes} ${typographer}`,
    text,
    () => {
      const frontMatter = frontMatterPattern.exec(text)?.[0] ?? '';
      const body = '\n'.repeat(frontMatter.split('\n').length - 1) + text.slice(frontMatter.length);
      const tokens = parser.parse(body, {});
      const anchors = new Set<string>();
      const codeLines = new Set<number>();
      for (const [index, token] of tokens.entries()) {
        if ((token.type === 'fence' || token.type === 'code_block') && token.map !== null)
          for (let line = token.map[0]; line < token.map[1]; line += 1) codeLines.add(line);
        const open = tokens[index - 1];
        if (token.type !== 'inline' || open?.type !== 'heading_open') continue;
        if (Number(open.tag.slice(1)) < rules.level) continue;
        let title = (token.children ?? [])
          .filter((child) => child.type === 'text' || child.type === 'code_inline')
          .map((child) => child.content)
          .join('');
        // markdown-it-attrs: `## Title { #id }` is the heading's id, and no text of it.
        const list = attributes ? [...title.matchAll(attributeList)].at(-1) : undefined;
        const atEnd = list !== undefined && title.slice((list.index ?? 0) + list[0].length).trim() === '';
        const written = atEnd ? /#([^\s{}#=]+)/.exec(list?.[0] ?? '') : null;
        if (written !== null) {
          anchors.add(written[1] ?? '');
          title = title.slice(0, list?.index);
          continue;
        }
        const slug = encodeURIComponent(title.trim().toLowerCase().replace(/\s+/g, '-'));
        let unique = slug;
        for (let repeat = rules.firstRepeat; anchors.has(unique); repeat += 1) unique = `${slug}-${repeat}`;
        anchors.add(unique);
        // markdown-it percent-encodes a link's fragment as it writes it (`#a|b` is `#a%7Cb`), but for
        // `;/?:@&=+$,#` (mdurl's reserved characters): the fragment as written matches when it reads
        // so once encoded.
        anchors.add(writtenForm(unique));
      }
      const shown = body
        .split('\n')
        .map((line, index) => (codeLines.has(index) ? '' : line.replace(/`[^`\n]*`/g, '')))
        .join('\n')
        .replace(/<!--[\s\S]*?-->/g, '');
      for (const match of shown.matchAll(attributeAnchor))
        anchors.add(match[1] ?? match[2] ?? match[3] ?? '');
      if (attributes)
        for (const match of shown.matchAll(attributeList))
          for (const id of match[0].matchAll(/#([^\s{}#=]+)/g)) anchors.add(id[1] ?? '');
      const templated = /\{%-?\s*(include|render|extends|[a-z]\w*\s+['"])/i.test(shown);
      return { anchors, complete: !templated };
    },
  );
}

/** An encoded id as a writer would write its fragment: decoded but for mdurl's reserved characters. */
function writtenForm(id: string): string {
  return id.replace(/(?:%[0-9A-F]{2})+/gi, (escapes) => {
    try {
      return decodeURIComponent(escapes).replace(/[;/?:@&=+$,#]/g, (character) =>
        encodeURIComponent(character),
      );
    } catch {
      return escapes;
    }
  });
}
