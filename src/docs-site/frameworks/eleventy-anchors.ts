import createMarkdownIt from 'markdown-it';
import { attributeAnchor, cachedAnchors, maximumCharacters, type PageAnchors } from '../heading-anchors.ts';
import { frontMatterPattern } from '../page-facts.ts';
import type { EleventyConfig } from './eleventy-config.ts';

// Eleventy's markdown-it: HTML on, indented code off (src/Engines/Markdown.js, 2.0 and later).
const parser = createMarkdownIt({ html: true }).disable('code');

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
): PageAnchors | null {
  if (rules === null) return null;
  if (text.length > maximumCharacters) return { anchors: new Set(), complete: false };
  return cachedAnchors(`eleventy ${rules.level} ${rules.firstRepeat} ${attributes}`, text, () => {
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
      const written = attributes ? /\{[^{}]*#([^\s{}]+)[^{}]*\}\s*$/.exec(title) : null;
      if (written !== null) {
        anchors.add(written[1] ?? '');
        title = title.slice(0, written.index);
        continue;
      }
      const slug = encodeURIComponent(title.trim().toLowerCase().replace(/\s+/g, '-'));
      let unique = slug;
      for (let repeat = rules.firstRepeat; anchors.has(unique); repeat += 1) unique = `${slug}-${repeat}`;
      anchors.add(unique);
      // markdown-it writes a link's fragment percent-encoded (`#a%7Cb` for `#a|b`): the id matches
      // the fragment as written, decoded.
      try {
        anchors.add(decodeURIComponent(unique));
      } catch {
        // A lone `%` in the heading: the id is only as encoded.
      }
    }
    const shown = body
      .split('\n')
      .map((line, index) => (codeLines.has(index) ? '' : line.replace(/`[^`\n]*`/g, '')))
      .join('\n')
      .replace(/<!--[\s\S]*?-->/g, '');
    for (const match of shown.matchAll(attributeAnchor)) anchors.add(match[1] ?? match[2] ?? match[3] ?? '');
    if (attributes)
      for (const match of shown.matchAll(/\{[^{}\n]*#([^\s{}#]+)[^{}\n]*\}/g)) anchors.add(match[1] ?? '');
    const templated = /\{%-?\s*(include|render|extends|[a-z]\w*\s+['"])/i.test(shown);
    return { anchors, complete: !templated };
  });
}
