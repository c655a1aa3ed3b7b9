import createMarkdownIt, { type Token } from 'markdown-it';
import { cachedAnchors, maximumCharacters, type PageAnchors, readHtmlIds } from '../heading-anchors.ts';

/** How Zola makes a path or an anchor of a name (`[slugify]` in its configuration). */
export type SlugStrategy = 'on' | 'safe' | 'off';

/**
 * Zola's `slugify_paths` (components/utils/src/slugs.rs): `on` is the `slug` crate (letters and
 * digits in lower case, every other character a `-`, runs made one, none at the start, one at the
 * end dropped; letters outside ASCII are transliterated, which this reader leaves out); `safe`
 * trims trailing spaces and dots and drops `<>:"/\|?*`; `off` keeps the name.
 */
export function slugifyPath(name: string, strategy: SlugStrategy): string {
  if (strategy === 'off') return name;
  if (strategy === 'safe') return name.replace(/[ .]+$/, '').replace(/[<>:"/\\|?*]/g, '');
  return slugCrate(name);
}

function slugCrate(text: string): string {
  let slug = '';
  for (const character of text) {
    const letter = /[a-z0-9]/.test(character)
      ? character
      : /[A-Z]/.test(character)
        ? character.toLowerCase()
        : '-';
    if (letter !== '-' || (slug !== '' && !slug.endsWith('-'))) slug += letter;
  }
  return slug.endsWith('-') ? slug.slice(0, -1) : slug;
}

const markdownParser = createMarkdownIt({ html: true, linkify: false });

/**
 * The anchors Zola gives a page (components/markdown/src/markdown.rs): each Markdown heading's
 * `{#id}` as written, else `slugify_anchors` of its text (text and code only: `on` as paths are,
 * `safe` and `off` keep the text with each space a `_`), repeats `-1`, `-2`; on a page (not a
 * section) any `id` or `name` in its content too, matched without case, as Zola's check does.
 * `top` and an empty anchor always pass. Headings with letters outside ASCII leave the page unchecked.
 */
export function readZolaAnchors(text: string, strategy: SlugStrategy, page: boolean): PageAnchors {
  if (text.length > maximumCharacters) return { anchors: new Set(), complete: false };
  return cachedAnchors(`zola ${strategy} ${page}`, text, () => {
    const body = text
      .replace(/^\+\+\+[ \t]*\r?\n[\s\S]*?\r?\n\+\+\+[ \t]*(?:\r?\n|$)/, (match) =>
        '\n'.repeat(match.split('\n').length - 1),
      )
      // `{% raw %}` only keeps shortcode syntax from being run; it is no text.
      .replace(/\{%\s*(?:end)?raw\s*%\}/g, '')
      .replace(/^---[ \t]*\r?\n[\s\S]*?\r?\n---[ \t]*(?:\r?\n|$)/, (match) =>
        '\n'.repeat(match.split('\n').length - 1),
      );
    const tokens = markdownParser.parse(body, {});
    const headings: Array<{ explicit: string | null; title: string }> = [];
    const anchors = new Set<string>(['top']);
    // A shortcode (`{{ name(...) }}`, `{% name(...) %}`) may write elements with ids into a page.
    let complete = !(page && /\{\{\s*[A-Za-z_]\w*\s*\(|\{%\s*[A-Za-z_]\w*\s*\(/.test(body));
    for (const [index, token] of tokens.entries()) {
      if (page && (token.type === 'html_block' || token.type === 'inline')) {
        const html =
          token.type === 'html_block'
            ? token.content
            : (token.children ?? [])
                .filter((child) => child.type === 'html_inline')
                .map((child) => child.content)
                .join(' ');
        readHtmlIds(html, anchors, (id) => id.toLowerCase());
      }
      if (token.type !== 'inline' || tokens[index - 1]?.type !== 'heading_open') continue;
      const title = headingText(token.children ?? []);
      const attributes = /\s*\{([^{}]*)\}\s*$/.exec(title);
      // The last `#id` of the block wins (pulldown-cmark's heading attributes).
      const explicit =
        attributes === null
          ? null
          : ([...(attributes[1] ?? '').matchAll(/(?:^|\s)#([^\s}]+)/g)].at(-1)?.[1] ?? null);
      const shown = attributes === null ? title : title.slice(0, attributes.index);
      if (strategy === 'on' && /[^ -~]/.test(shown)) complete = false;
      headings.push({ explicit, title: shown.trim() });
    }
    const inserted = new Set<string>(
      headings.flatMap((heading) => (heading.explicit === null ? [] : [heading.explicit])),
    );
    const nextSuffix = new Map<string, number>();
    for (const heading of headings) {
      if (heading.explicit !== null) continue;
      const base = strategy === 'on' ? slugCrate(heading.title) : heading.title.replace(/[ \t\n\r\f]/g, '_');
      // Zola tries `-1`, `-2`, ... from the start each time; the next free one is remembered here, so
      // a page of thousands of equal headings is not quadratic (hostile input).
      let id = base;
      for (let suffix = nextSuffix.get(base) ?? 1; inserted.has(id); suffix += 1) {
        id = `${base}-${suffix}`;
        nextSuffix.set(base, suffix + 1);
      }
      inserted.add(id);
    }
    for (const id of inserted) anchors.add(page ? id.toLowerCase() : id);
    if (/<!--\s*more\s*-->/.test(body)) anchors.add('continue-reading');
    return page ? { anchors, complete, caseInsensitive: true } : { anchors, complete };
  });
}

/** A heading's text as Zola reads it: text and code, no inline HTML. */
function headingText(children: readonly Token[]): string {
  let text = '';
  for (const child of children) {
    if (child.type === 'text' || child.type === 'code_inline') text += child.content;
    // An image's alt text is text events too; a soft break is none.
    else if (child.type === 'image') text += headingText(child.children ?? []);
  }
  return text;
}
