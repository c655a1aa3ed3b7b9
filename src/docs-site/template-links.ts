/**
 * Links that a template language writes before the Markdown is read: Jekyll's Liquid (`{% link
 * docs/a.md %}`, `{{ site.baseurl }}/x`) and Hugo's `ref`/`relref` shortcodes. While a page is parsed
 * they are URLs with a prefix (no spaces, so Markdown reads them as link destinations); the page's
 * facts give them back as written (`showLiquidUrl`, `showHugoUrl`), and the framework models read
 * those back (`readLiquidUrl`, `readHugoRef`). Tags written over two lines keep every later line's number.
 */

const liquidLinkPrefix = 'liquid-link:';
const liquidBasePrefix = 'liquid-base:';
const liquidPostPrefix = 'liquid-post:';
const liquidIncludePrefix = 'liquid-include-relative:';
const liquidBase = '{{ site.baseurl }}';

/** A link URL of a Jekyll page as Liquid writes it: `{{ site.baseurl }}/x`, `{% link a.md %}#part`. */
export function showLiquidUrl(url: string): string {
  let rest = url;
  let shown = '';
  if (rest.startsWith(liquidBasePrefix)) {
    shown = liquidBase;
    rest = rest.slice(liquidBasePrefix.length);
  }
  for (const [prefix, tag] of [
    [liquidLinkPrefix, 'link'],
    [liquidPostPrefix, 'post_url'],
    [liquidIncludePrefix, 'include_relative'],
  ] as const) {
    if (!rest.startsWith(prefix)) continue;
    const argument = /^[^#?]*/.exec(rest.slice(prefix.length))?.[0] ?? '';
    return `${shown}{% ${tag} ${argument} %}${rest.slice(prefix.length + argument.length)}`;
  }
  return shown + rest;
}

/** What a Jekyll page's link URL is made of: a base URL prefix, a Liquid tag and its argument, the rest. */
export function readLiquidUrl(url: string): {
  base: boolean;
  tag: 'link' | 'post_url' | 'include_relative' | null;
  argument: string;
  rest: string;
} {
  const base = url.startsWith(liquidBase);
  const unprefixed = base ? url.slice(liquidBase.length) : url;
  const tag = /^\{% (link|post_url|include_relative) (\S*) %\}/.exec(unprefixed);
  if (tag === null) return { base, tag: null, argument: '', rest: unprefixed };
  return {
    base,
    tag: tag[1] as 'link' | 'post_url' | 'include_relative',
    argument: tag[2] ?? '',
    rest: unprefixed.slice(tag[0].length),
  };
}

/**
 * Jekyll renders Liquid before Markdown, and Liquid writes most of a docs site's links: `{% link
 * docs/setup.md %}` (the build fails when no such file exists), `{% post_url 2024-01-01-name %}`,
 * `{{ site.baseurl }}/docs/setup/` and `{{ '/docs/setup/' | relative_url }}`. The link tags become
 * URLs with a prefix while the page is parsed, and the base URL too (what follows is a site URL);
 * the facts give them as Liquid writes them (`{% link docs/setup.md %}`, `{{ site.baseurl }}/x`,
 * read back by `readLiquidUrl`); `{{ site.url }}` is dropped, and `{% include_relative %}` becomes an image-free link line of its own.
 * `{% raw %}` blocks are Liquid-free and `{% comment %}` blocks are not rendered. Line count is kept.
 */
export function expandLiquidLinks(body: string): string {
  if (!body.includes('{')) return body;
  return mapOutsideBlocks(body, 'raw', (text) =>
    mapOutsideBlocks(text, 'comment', expandLiquidTags, (comment) => comment.replace(/[^\n]/g, ' ')),
  );
}

const movedNewline = '\u0001';

/**
 * A replacer for a tag that may span lines (`{{ site.baseurl\n}}`): its newlines are marked, and
 * `keepLines` moves them to the end of its line, so the link it writes stays whole and every later
 * line keeps its number.
 */
function keepingLines(replacement: (...groups: string[]) => string) {
  return (tag: string, ...groups: string[]) =>
    replacement(...groups) + movedNewline.repeat(countNewlines(tag));
}

function keepLines(text: string): string {
  if (!text.includes(movedNewline)) return text;
  return text
    .split('\n')
    .map((line) => {
      const moved = line.indexOf(movedNewline);
      if (moved < 0) return line;
      const rest = line.slice(moved);
      return line.slice(0, moved) + rest.replaceAll(movedNewline, '') + '\n'.repeat(countMoved(rest));
    })
    .join('\n');
}

function countMoved(text: string): number {
  let count = 0;
  for (const character of text) if (character === movedNewline) count += 1;
  return count;
}

function expandLiquidTags(text: string): string {
  return keepLines(
    text
      .replace(
        /\{\{-?\s*site\.url\s*-?\}\}/g,
        keepingLines(() => ''),
      )
      .replace(
        /\{\{-?\s*site\.baseurl\s*-?\}\}/g,
        keepingLines(() => liquidBasePrefix),
      )
      .replace(
        /\{\{-?\s*(['"])([^'"\n]*)\1\s*\|\s*(?:relative_url|absolute_url)\s*-?\}\}/g,
        keepingLines((_quote, url = '') => `${liquidBasePrefix}${url.startsWith('/') ? '' : '/'}${url}`),
      )
      .replace(
        /\{%-?\s*link\s+([^\s%]+)\s*-?%\}/g,
        keepingLines((path = '') => `${liquidLinkPrefix}${path}`),
      )
      .replace(
        /\{%-?\s*post_url\s+([^\s%]+)\s*-?%\}/g,
        keepingLines((name = '') => `${liquidPostPrefix}${name}`),
      )
      .replace(
        /\{%-?\s*include_relative\s+([^\s%]+)[^%\n]*%\}/g,
        keepingLines((path = '') => `<a href="${liquidIncludePrefix}${path}"></a>`),
      ),
  );
}

/**
 * `outside` applied to the text outside `{% name %}...{% endname %}` blocks and `inside` to the
 * blocks (kept as they are by default). Each block's end is searched for once, from its start, so
 * an unclosed block ends the search: linear in the text, whatever it holds.
 */
function mapOutsideBlocks(
  text: string,
  name: string,
  outside: (text: string) => string,
  inside: (text: string) => string = (block) => block,
  open = new RegExp(`\\{%-?\\s*${name}\\s*-?%\\}`, 'g'),
  close = new RegExp(`\\{%-?\\s*end${name}\\s*-?%\\}`, 'g'),
): string {
  let result = '';
  let from = 0;
  for (;;) {
    open.lastIndex = from;
    const start = open.exec(text);
    if (start === null) break;
    close.lastIndex = start.index + start[0].length;
    const end = close.exec(text);
    if (end === null) break;
    const after = end.index + end[0].length;
    result += outside(text.slice(from, start.index)) + inside(text.slice(start.index, after));
    from = after;
  }
  return result + outside(text.slice(from));
}

// `hugo-ref:` or `hugo-relref:`, as written.
const hugoRefPrefix = /^hugo-(ref|relref):/;

/**
 * Hugo's `ref` and `relref` shortcodes (https://gohugo.io/methods/shortcode/ref/), with `<` or `%`
 * delimiters and the path quoted, bare or as `path="…"`: a page Hugo must find, or its build fails.
 */
export function expandHugoShortcodes(body: string): string {
  if (!body.includes('{{')) return body;
  // What code shortcodes hold is code, shown as written (configuration examples in Hugo's own docs).
  const withoutCode = mapOutsideBlocks(
    body,
    'code',
    (text) => text,
    (block) => block.replace(/[^\n]/g, ' '),
    /\{\{<\s*(highlight|code-toggle|code|codeblock)\b[^>]{0,500}>\}\}/g,
    /\{\{<\s*\/\s*(highlight|code-toggle|code|codeblock)\s*>\}\}/g,
  );
  return keepLines(
    withoutCode.replace(
      /\{\{([<%])-?\s*(ref|relref)\s+(?:path\s*=\s*)?(?:"([^"\n]*)"|'([^'\n]*)'|`([^`\n]*)`|([^\s"'`>%{}]+))[^>%{}\n]{0,100}?-?\s*[>%]\}\}/g,
      keepingLines(
        (_delimiter, name, double, single, raw, bare) =>
          `hugo-${name}:${double ?? single ?? raw ?? bare ?? ''}`,
      ),
    ),
  );
}

export function showHugoUrl(url: string): string {
  const prefix = hugoRefPrefix.exec(url);
  return prefix === null ? url : `{{< ${prefix[1]} "${url.slice(prefix[0].length)}" >}}`;
}

/** The path a `{{< ref "…" >}}` or `{{< relref "…" >}}` link names, or null for any other link. */
export function readHugoRef(url: string): string | null {
  return /^\{\{< (?:ref|relref) "(.*)" >\}\}$/.exec(url)?.[1] ?? null;
}

export function countNewlines(text: string): number {
  let count = 0;
  for (let index = text.indexOf('\n'); index >= 0; index = text.indexOf('\n', index + 1)) count += 1;
  return count;
}

const hexoPostPrefix = 'hexo-post:';

/**
 * Hexo's Nunjucks tags in a post or page (hexojs/hexo v8.1.2 lib/hexo/post.ts, lib/plugins/tag/):
 * `{% post_link slug [title] %}` writes a link to the post of that file name (a link here, as
 * `hexo-post:slug`), `{% post_path slug %}` its URL; `{% raw %}` bodies are shown as written and
 * `{# #}` comments dropped, so neither holds a link; a `{% codeblock %}` holds code. Lines are kept.
 */
export function expandHexoTags(body: string): string {
  if (!body.includes('{')) return body;
  const blank = (text: string) => text.replace(/[^\n]/g, ' ');
  const withoutComments = body.includes('{#') ? blankComments(body, blank) : body;
  return mapOutsideBlocks(
    withoutComments,
    'raw',
    (text) =>
      mapOutsideBlocks(
        text,
        'codeblock',
        (outside) =>
          keepLines(
            outside.replace(
              /\{%-?\s*(post_link|post_path)\s+(?:"([^"\n]*)"|'([^'\n]*)'|([^\s%"']+))[^%\n]*-?%\}/g,
              keepingLines((tag, double, single, bare) => {
                const url = `${hexoPostPrefix}${double ?? single ?? bare ?? ''}`;
                return tag === 'post_link' ? `<a href="${url}"></a>` : url;
              }),
            ),
          ),
        blank,
        /\{%-?\s*(codeblock|code)\b[^%\n]*%\}/g,
        /\{%-?\s*end(codeblock|code)\s*-?%\}/g,
      ),
    blank,
  );
}

/** `{# ... #}` comments blanked, each end searched for once from its start: linear, whatever the page holds. */
function blankComments(text: string, blank: (text: string) => string): string {
  let result = '';
  let from = 0;
  for (;;) {
    const start = text.indexOf('{#', from);
    if (start < 0) break;
    const end = text.indexOf('#}', start + 2);
    if (end < 0) break;
    result += text.slice(from, start) + blank(text.slice(start, end + 2));
    from = end + 2;
  }
  return result + text.slice(from);
}

export function showHexoUrl(url: string): string {
  return url.startsWith(hexoPostPrefix) ? `{% post_link ${url.slice(hexoPostPrefix.length)} %}` : url;
}

/** The post a `{% post_link %}` names (`slug` or `slug#anchor`), or null for any other link. */
export function readHexoPostLink(url: string): string | null {
  return /^\{% post_link (.*) %\}$/.exec(url)?.[1] ?? null;
}

/**
 * Eleventy runs Liquid or Nunjucks over a Markdown page before Markdown (its
 * `markdownTemplateEngine`): a tag writes what only running it could tell, so each `{% %}`,
 * `{{ }}` and `{# #}` is blanked (an include's `src="x.png"` is no image of the page), but for the `url` filter
 * on a written path (`{{ '/contact/' | url }}`), which is that path. Lines are kept.
 */
export function expandEleventyTemplates(body: string): string {
  if (!body.includes('{')) return body;
  const blank = (text: string) => text.replace(/[^\n]/g, ' ');
  // Each tag's end searched for once from its start (an opener never closed ends the search):
  // linear, whatever the page holds.
  const ends: Record<string, string> = { '{{': '}}', '{%': '%}', '{#': '#}' };
  let result = '';
  let from = 0;
  for (let start = body.indexOf('{', from); start >= 0; start = body.indexOf('{', from)) {
    const end = ends[body.slice(start, start + 2)];
    if (end === undefined) {
      result += body.slice(from, start + 1);
      from = start + 1;
      continue;
    }
    const close = body.indexOf(end, start + 2);
    if (close < 0) break;
    const tag = body.slice(start, close + 2);
    const url = /^\{\{-?\s*(['"])([^'"\n{}]*)\1\s*\|\s*url\s*-?\}\}$/.exec(tag);
    result += body.slice(from, start) + (url === null ? blank(tag) : (url[2] ?? ''));
    from = close + 2;
  }
  return result + body.slice(from);
}
