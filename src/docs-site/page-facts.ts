import { Parser } from 'acorn';
import acornJsx from 'acorn-jsx';
import createMarkdownIt, { type MarkdownIt, type Token } from 'markdown-it';
import { parse as parseYaml } from 'yaml';
import { readAsciidocFacts } from './asciidoc-facts.ts';
import { createMarkdocParser } from './markdoc-parser.ts';
import { readMystFacts } from './myst-facts.ts';
import { notebookMarkdown } from './notebook-text.ts';
import { readRstFacts } from './rst-facts.ts';
import type { PageFacts, PageLink } from './site-model.ts';
import {
  countNewlines,
  expandEleventyTemplates,
  expandHexoTags,
  expandHugoShortcodes,
  expandLiquidLinks,
  showHexoUrl,
  showHugoUrl,
  showLiquidUrl,
} from './template-links.ts';
import { readWritersideTopicFacts } from './writerside-topic-facts.ts';

/**
 * How a framework reads Markdown: `commonmark` (Mintlify's `.md`, Docusaurus, mdBook, VitePress,
 * Starlight), `mdx` (`.mdx` files: no indented code blocks, JSX, ESM imports), or `python-markdown`
 * (MkDocs: admonitions and tabs nest content by indentation, so indented text is not code), or
 * `gitbook` (CommonMark, and the files GitBook's block tags name: `{% content-ref url="…" %}`,
 * `{% page-ref page="…" %}`, `{% file src="…" %}`, `{% include "…" %}`), `jekyll` (Liquid runs
 * before the Markdown), `hugo` (`ref` and `relref` shortcodes) or `hexo` (Nunjucks tags: `{% post_link %}`,
 * `{% raw %}`, `{# #}`) or `eleventy` (Liquid and Nunjucks tags run first): see template-links.ts. Sphinx
 * pages are `rst` (reStructuredText, rst-facts.ts) or `myst` (MyST Markdown, myst-facts.ts);
 * Antora's are `asciidoc` (asciidoc-facts.ts); Quarto's `quarto` (Pandoc Markdown, as `commonmark`, and
 * `{{< include file.qmd >}}` shortcodes); DocFX's `docfx` (CommonMark with DocFX Flavored Markdown's
 * includes, code snippets and `:::image` blocks: `readDocfxExtensions`); Retype's `retype`
 * (`{{ include }}`, `:::code source`, `[!file]`: `readRetypeExtensions`); Writerside's `writerside`
 * (Markdown with `<include from>` and code blocks' files) and `writerside-topic` (XML topics,
 * writerside-topic-facts.ts). Jupyter notebooks (`.ipynb`) of Sphinx and Quarto sites are
 * `myst-notebook` and `quarto-notebook`: their Markdown cells read as `myst` and `quarto`
 * (notebook-text.ts).
 */
export type MarkdownDialect =
  | 'commonmark'
  | 'mdx'
  | 'python-markdown'
  | 'gitbook'
  | 'jekyll'
  | 'hugo'
  | 'rst'
  | 'myst'
  | 'asciidoc'
  | 'quarto'
  | 'docfx'
  | 'retype'
  | 'writerside'
  | 'writerside-topic'
  | 'mdc'
  | 'hexo'
  | 'eleventy'
  | 'markdoc'
  | 'myst-notebook'
  | 'quarto-notebook';

function createParser(dialect: MarkdownDialect): MarkdownIt {
  const parser =
    dialect === 'markdoc' ? createMarkdocParser() : createMarkdownIt({ html: true, linkify: false });
  // Links are checked as written: no percent-encoding, and no scheme is dropped.
  parser.normalizeLink = (url) => url;
  parser.validateLink = () => true;
  // Eleventy 2 and later turn indented code off too (src/Engines/Markdown.js).
  if (dialect === 'mdx' || dialect === 'python-markdown' || dialect === 'eleventy') parser.disable('code');
  // Rules that never change where a link is: skipped, for about a sixth of the parse time.
  parser.disable(
    ['emphasis', 'strikethrough', 'entity', 'replacements', 'smartquotes', 'balance_pairs', 'fragments_join'],
    true,
  );
  // Inline parsing is most of the cost, and only text with a `[` or a `<` can hold a link, an image
  // or inline HTML (or, in Markdoc, a `{%` a tag): the rest keeps its text, unparsed.
  parser.core.ruler.at('inline', (state) => {
    for (const token of state.tokens) {
      if (token.type !== 'inline') continue;
      if (
        token.content.includes('[') ||
        token.content.includes('<') ||
        (dialect === 'markdoc' && token.content.includes('{%'))
      ) {
        token.children ??= [];
        state.md.inline.parse(token.content, state.md, state.env, token.children);
      }
    }
  });
  // MDX has no HTML blocks: a JSX tag on its own line (`<Steps>`, `<Fragment slot="x">`) holds
  // Markdown, so a code fence right inside it is still a code fence (https://mdxjs.com/docs/what-is-mdx/#markdown).
  // kramdown (Jekyll) ends an HTML block with its closing tag's line, not at the next blank line: a
  // fence right after `</div>` is a fence. Without HTML blocks, tags are inline and fences hold.
  if (dialect === 'mdx' || dialect === 'jekyll') parser.disable('html_block');
  return parser;
}

const parsers = new Map<MarkdownDialect, MarkdownIt>();
export const frontMatterPattern = /^---[ \t]*\r?\n([\s\S]*?)\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/;
const attributePattern =
  /\b(href|src)\s*=\s*(?:"([^"]*)"|'([^']*)'|\{\s*(?:"([^"]*)"|'([^']*)'|`([^`$]*)`)\s*\})/g;
const attributeStart = /\b(?:href|src)\s*=/;
// MDX reads ESM only at the start of a line, never indented (an indented `import` is code in an example).
const importPattern = /^import\s[^;]*?\bfrom\s*['"]([^'"]+)['"]|^import\s*['"]([^'"]+)['"]/gm;

/**
 * The front matter, first heading and links of one page, read as its framework reads it: links in
 * code blocks, inline code and comments are not links; reference links count where they are used.
 * Fast enough for every page of a large site (markdown-it, about 0.3 ms for a typical page); the
 * MDX syntax check of changed pages is `check-syntax.ts`.
 */
export function readPageFacts(text: string, dialect: MarkdownDialect): PageFacts {
  if (dialect === 'rst') return readRstFacts(text);
  if (dialect === 'asciidoc') return readAsciidocFacts(text);
  if (dialect === 'writerside-topic') return readWritersideTopicFacts(text);
  if (dialect === 'myst') return readMystFacts(text, (markdown) => readPageFacts(markdown, 'commonmark'));
  if (dialect === 'myst-notebook' || dialect === 'quarto-notebook') {
    const frontMatter = dialect === 'quarto-notebook';
    return readPageFacts(notebookMarkdown(text, { frontMatter }) ?? '', frontMatter ? 'quarto' : 'myst');
  }
  let frontMatter: Record<string, unknown> | null = null;
  let body = text;
  const match = frontMatterPattern.exec(text) ?? (dialect === 'hexo' ? hexoLegacyFrontMatter(text) : null);
  if (match !== null) {
    frontMatter = parseYamlMapping(match[1] ?? '');
    // Blank lines keep the body's line numbers the same as the file's.
    body = '\n'.repeat(match[0].split('\n').length - 1) + text.slice(match[0].length);
  }
  let parser = parsers.get(dialect);
  if (parser === undefined) {
    parser = createParser(dialect);
    parsers.set(dialect, parser);
  }
  const expanded =
    dialect === 'jekyll'
      ? expandLiquidLinks(body)
      : dialect === 'hugo'
        ? expandHugoShortcodes(body)
        : dialect === 'mdc'
          ? unindentMdcComponents(body)
          : dialect === 'hexo'
            ? expandHexoTags(body)
            : dialect === 'eleventy'
              ? expandEleventyTemplates(body)
              : body;
  // An MDX comment (`{/* [old](/page) */}`) renders nothing: no link in it is one.
  const prepared = hideFootnoteLabels(
    dialect === 'mdx'
      ? unindentFences(blankEsmBlocks(body.includes('/*') ? blankMdxComments(body) : body))
      : expanded,
  );
  const tokens = parser.parse(prepared, {});
  const links: PageLink[] = [];
  let title: string | null = null;
  const codeLines = new Set<number>();
  // Table cells carry no line map of their own: they are on the line of their row.
  let lastLine = 0;
  for (const [index, token] of tokens.entries()) {
    if (token.map !== null) lastLine = token.map[0];
    if ((token.type === 'fence' || token.type === 'code_block') && token.map !== null) {
      for (let line = token.map[0]; line < token.map[1]; line += 1) codeLines.add(line);
    }
    if (token.type === 'inline') {
      readInlineLinks(token, lastLine, links);
      if (title === null && tokens[index - 1]?.tag === 'h1') title = token.content.trim();
    }
  }
  if (dialect === 'mdx') markFencedLines(prepared, codeLines);
  // A Markdoc tag's attributes (`{% badge href="..." %}`) are no HTML: its known links are read below.
  readAttributeLinks(dialect === 'markdoc' ? blankMarkdocTags(expanded) : expanded, codeLines, links);
  if (dialect === 'mdx') readImports(body, codeLines, links);
  if (dialect === 'gitbook') readGitBookTags(body, codeLines, links);
  if (dialect === 'quarto') readQuartoIncludes(body, links);
  if (dialect === 'docfx') readDocfxExtensions(body, codeLines, links);
  if (dialect === 'retype') readRetypeExtensions(body, codeLines, links);
  if (dialect === 'writerside') readWritersideExtensions(body, codeLines, links);
  if (dialect === 'mdc') readMdcExtensions(text, expanded, codeLines, links);
  if (dialect === 'markdoc') readMarkdocTagLinks(tokens, links);
  if (dialect === 'jekyll') for (const link of links) link.url = showLiquidUrl(link.url);
  if (dialect === 'hugo') for (const link of links) link.url = showHugoUrl(link.url);
  if (dialect === 'hexo') for (const link of links) link.url = showHexoUrl(link.url);
  links.sort((left, right) => left.line - right.line);
  return { frontMatter, title, links };
}

/**
 * A footnote definition (`[^note]: text`, GFM and MDX) is not a link reference definition: escaping its
 * bracket keeps its text, and the links in it, a paragraph instead of one bogus link to the whole text.
 */
function hideFootnoteLabels(body: string): string {
  return body.includes('[^') ? body.replace(/^( {0,3})\[\^([^\]\n]+)\]:/gm, '$1\\[^$2]:') : body;
}

const esmParser = Parser.extend(acornJsx());
const esmStart = /^(export|import)\s/;
/** How many ends an ESM block is tried at (each blank line after it). */
const maximumEsmTries = 40;
/** How much a page's ESM blocks may cost to parse, in times its length: hostile pages stop early. */
const esmBudgetPerCharacter = 8;

/**
 * MDX reads `import` and `export` at the start of a line, outside code, as JavaScript up to the end
 * of its statement, blank lines included (https://mdxjs.com/docs/what-is-mdx/#esm): those lines are
 * blanked for the Markdown reader, so a template literal holding a code fence or Markdown is not
 * taken for the page's own (a fence opened there would make the rest of the page code). A statement
 * ends at the first blank line (or the end) where what came before parses, JSX included, as
 * micromark-extension-mdxjs-esm decides it; one that never parses is left as it is.
 */
function blankEsmBlocks(body: string): string {
  if (!/^(export|import)\s/m.test(body)) return body;
  const lines = body.split('\n');
  const budget = { characters: body.length * esmBudgetPerCharacter };
  let fence: string | null = null;
  for (let index = 0; index < lines.length && budget.characters > 0; index += 1) {
    const line = lines[index] ?? '';
    const marker = fenceMarker(line);
    if (fence !== null) {
      if (closesFence(fence, line, marker)) fence = null;
      continue;
    }
    if (marker !== undefined) {
      fence = marker;
      continue;
    }
    if (!esmStart.test(line)) continue;
    const end = esmEnd(lines, index, budget);
    if (end === null) continue;
    for (let blanked = index; blanked <= end; blanked += 1) lines[blanked] = '';
    index = end;
  }
  return lines.join('\n');
}

/** The last line of the ESM statement starting at `start`, or null when no end parses. */
function esmEnd(lines: readonly string[], start: number, budget: { characters: number }): number | null {
  let tries = 0;
  for (let end = start; end < lines.length; end += 1) {
    const next = lines[end + 1];
    if (next !== undefined && next.trim() !== '') continue;
    tries += 1;
    const code = lines.slice(start, end + 1).join('\n');
    budget.characters -= code.length;
    if (tries > maximumEsmTries || budget.characters < 0) return null;
    try {
      esmParser.parse(code, { ecmaVersion: 'latest', sourceType: 'module' });
      return end;
    } catch {
      // Not a whole statement yet: it goes on past this blank line.
    }
  }
  return null;
}

/**
 * MDX has no indented code, so a fence nested deep in JSX (`<Steps>`, `<Tab>`) is still a fence however
 * far it is indented; markdown-it would take a fence indented by four spaces as text. Only the fence lines
 * move, so line numbers stay the same.
 */
function unindentFences(body: string): string {
  return body.includes('   ```') || body.includes('   ~~~')
    ? body.replace(/^[ \t]{4,}(?=```|~~~)/gm, '')
    : body;
}

/**
 * In MDX a fence inside JSX (`<CodeGroup>` right before it) is still code, while markdown-it reads the
 * JSX and the fence below it as one HTML block: its lines are marked as code here, by a line scan.
 */
export function markFencedLines(body: string, codeLines: Set<number>): void {
  let open: { marker: string; start: number } | null = null;
  for (const [index, line] of body.split('\n').entries()) {
    const fence = fenceMarker(line);
    if (open === null) {
      if (fence !== undefined) open = { marker: fence, start: index };
    } else if (closesFence(open.marker, line, fence)) {
      for (let covered = open.start; covered <= index; covered += 1) codeLines.add(covered);
      open = null;
    }
  }
}

/** The backticks or tildes a line opens or closes a fence with, if any. */
function fenceMarker(line: string): string | undefined {
  return /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
}

/** Whether `line` (whose marker is `marker`) closes the fence `open` started: same character, as long, alone. */
function closesFence(open: string, line: string, marker: string | undefined): boolean {
  return (
    marker !== undefined && marker[0] === open[0] && marker.length >= open.length && line.trim() === marker
  );
}

/**
 * Hexo's front matter without its opening line (hexojs/hexo-front-matter v4.2.1 `rFrontMatterNew`):
 * the text before the first `---` (or `;;;`) line, when it reads as a YAML mapping. Looked for in a
 * page's first 10 KB.
 */
export function hexoLegacyFrontMatter(text: string): [string, string] | null {
  if (/^(-{3,}|;{3,})/.test(text)) return null;
  const head = text.slice(0, 10_240);
  const end = /^(?:-{3,}|;{3,})[ \t]*$/m.exec(head);
  if (end === null || end.index === 0) return null;
  const yaml = head.slice(0, end.index - 1);
  if (parseYamlMapping(yaml) === null) return null;
  const after = end.index + end[0].length;
  return [head.slice(0, head[after] === '\n' ? after + 1 : after), yaml];
}

/** A YAML (or JSON) document's mapping, or null when it is none or does not parse. */
export function parseYamlMapping(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = parseYaml(text, { logLevel: 'silent', uniqueKeys: false });
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

function readInlineLinks(token: Token, firstLine: number, links: PageLink[]): void {
  let line = firstLine + 1;
  const children = token.children ?? [];
  // A code span's line breaks become spaces in its token: they are counted from the source.
  const codeBreaks = children.some((child) => child.type === 'code_inline')
    ? codeSpanBreaks(token.content)
    : [];
  let codeSpans = 0;
  for (const [index, child] of children.entries()) {
    if (child.type === 'softbreak' || child.type === 'hardbreak') line += 1;
    else if (child.type === 'code_inline') {
      line += codeBreaks[codeSpans] ?? 0;
      codeSpans += 1;
    } else if (child.type === 'link_open') {
      const href = child.attrGet('href');
      // `@[youtube](id)` is an embed of markdown-it-video and its kin (VuePress sites), not a link.
      const embed = children[index - 1]?.type === 'text' && children[index - 1]?.content.endsWith('@');
      if (href !== null && child.markup !== 'autolink' && !embed)
        links.push(withTitle({ url: String(href), line, kind: 'link' }, child));
    } else if (child.type === 'image') {
      const source = child.attrGet('src');
      if (source !== null) links.push(withTitle({ url: String(source), line, kind: 'image' }, child));
    } else if (child.type === 'text' || child.type === 'html_inline') {
      // A text run may span lines when a soft break is not its own token (tables, some HTML).
      line += countNewlines(child.content);
    }
  }
}

/**
 * The line breaks inside each code span of an inline run, in order: a run of backticks opens a span
 * that the next run of the same length closes (CommonMark 6.1), a backslash-escaped backtick opens
 * none. One pass: each opener's closing run is looked up in the runs after it.
 */
function codeSpanBreaks(source: string): number[] {
  const runs: Array<{ start: number; length: number }> = [];
  for (let index = 0; index < source.length; index += 1) {
    if (source[index] === '\\') {
      index += 1;
      continue;
    }
    if (source[index] !== '`') continue;
    let end = index;
    while (source[end] === '`') end += 1;
    runs.push({ start: index, length: end - index });
    index = end - 1;
  }
  const breaks: number[] = [];
  const nextOfLength = new Map<number, number[]>();
  for (const [position, run] of runs.entries()) {
    const list = nextOfLength.get(run.length) ?? [];
    list.push(position);
    nextOfLength.set(run.length, list);
  }
  const cursor = new Map<number, number>();
  for (let position = 0; position < runs.length; position += 1) {
    const open = runs[position] as { start: number; length: number };
    const list = nextOfLength.get(open.length) ?? [];
    let at = cursor.get(open.length) ?? 0;
    while (at < list.length && (list[at] as number) <= position) at += 1;
    cursor.set(open.length, at);
    const closing = list[at];
    if (closing === undefined) continue;
    const close = runs[closing] as { start: number; length: number };
    breaks.push(countNewlines(source.slice(open.start + open.length, close.start)));
    position = closing;
  }
  return breaks;
}

/** A link with its title (`[text](url "title")`), when it has one: Docsify writes options there. */
function withTitle(link: PageLink, token: Token): PageLink {
  const title = token.attrGet('title');
  return title === null || title === '' ? link : { ...link, title: String(title) };
}

/**
 * `href` and `src` attributes of HTML and JSX elements (`<a href>`, `<Card href>`, `<img src>`),
 * found in the text outside code blocks, comments and inline code, so multi-line JSX counts too.
 */
function readAttributeLinks(body: string, codeLines: ReadonlySet<number>, links: PageLink[]): void {
  if (!attributeStart.test(body)) return;
  const lines = (body.includes('<!--') || body.includes('/*') ? blankComments(body) : body).split('\n');
  for (const [index, text] of lines.entries()) {
    if (codeLines.has(index) || !attributeStart.test(text)) continue;
    // A link reference definition (`[//]: # (<img src="...">)`, a common Markdown comment) renders nothing.
    if (/^ {0,3}\[[^\]\n]{1,999}\]:[ \t]/.test(text)) continue;
    // A Markdown image's alt text is text, whatever it holds (`![<img src="x">](y)` asks for y only).
    const withoutAlt = text.includes('![')
      ? text.replace(/!\[[^\]\n]*\]\(/g, (alt) => `![${' '.repeat(alt.length - 4)}](`)
      : text;
    const outsideCode = withoutAlt.replace(/(`+)[^`]*?\1/g, '');
    // The last `<` and `>` before each match, found once as the matches move on (searching the text
    // before each one again was quadratic on a long line of attributes).
    let scanned = 0;
    let lastOpen = -1;
    let lastClose = -1;
    for (const match of outsideCode.matchAll(attributePattern)) {
      for (; scanned < match.index; scanned += 1) {
        const code = outsideCode.charCodeAt(scanned);
        if (code === 60) lastOpen = scanned;
        else if (code === 62) lastClose = scanned;
      }
      const url = match[2] ?? match[3] ?? match[4] ?? match[5] ?? match[6];
      // Vue's `:href="expression"` (`v-bind:href`) binds an expression, not a URL.
      if (url === undefined || outsideCode[match.index - 1] === ':') continue;
      // A tag's attribute, not prose that mentions one: the text before it opens a tag.
      if (lastOpen < lastClose && !/^\s/.test(text)) continue;
      // An escaped tag (`&lt;a href="..."&gt;`) is text that shows one.
      const since = Math.max(lastOpen, lastClose, match.index - 2_000) + 1;
      if (/&lt;[A-Za-z]/.test(outsideCode.slice(since, match.index))) continue;
      // A component's `src` is its own business (a video component may load it from a CDN): only
      // HTML elements' and image components' sources are files of the site.
      const tag =
        lastOpen < 0
          ? undefined
          : /^<([A-Za-z][\w.]*)/.exec(outsideCode.slice(lastOpen, lastOpen + 200))?.[1];
      if (match[1] === 'src' && tag !== undefined && /^[A-Z]/.test(tag) && !/^(Image|Img|Picture)$/.test(tag))
        continue;
      links.push({ url, line: index + 1, kind: match[1] === 'src' ? 'image' : 'html', attribute: true });
    }
  }
}

/** HTML comments and MDX `{/* ... *\/}` comments replaced by spaces, newlines kept. */
function blankComments(text: string): string {
  return blankMdxComments(blankDelimited(text, '<!--', '-->'));
}

/**
 * Each span from `open` to `close` as spaces, newlines kept; one pass, so an opener that is never
 * closed (a page of `<!--`) ends the search instead of making it quadratic, as a lazy pattern does.
 */
export function blankDelimited(text: string, open: string, close: string): string {
  const spans: Array<[number, number]> = [];
  for (let from = 0; ; ) {
    const start = text.indexOf(open, from);
    const end = start < 0 ? -1 : text.indexOf(close, start + open.length);
    if (end < 0) break;
    spans.push([start, end + close.length]);
    from = end + close.length;
  }
  return blankSpans(text, spans);
}

/** MDX comments, `{` and `/*` with only spaces between, to `*\/` and `}` likewise; one pass. */
export function blankMdxComments(text: string): string {
  const spans: Array<[number, number]> = [];
  for (let from = 0; ; ) {
    const opener = text.indexOf('/*', from);
    if (opener < 0) break;
    let brace = opener - 1;
    while (brace >= from && /\s/.test(text[brace] ?? '')) brace -= 1;
    if (brace < from || text[brace] !== '{') {
      from = opener + 2;
      continue;
    }
    let end = -1;
    for (let close = text.indexOf('*/', opener + 2); close >= 0; close = text.indexOf('*/', close + 2)) {
      let after = close + 2;
      while (/\s/.test(text[after] ?? '')) after += 1;
      if (text[after] === '}') {
        end = after + 1;
        break;
      }
    }
    // No comment closes after this opener: none after a later one either.
    if (end < 0) break;
    spans.push([brace, end]);
    from = end;
  }
  return blankSpans(text, spans);
}

function blankSpans(text: string, spans: ReadonlyArray<[number, number]>): string {
  if (spans.length === 0) return text;
  let result = '';
  let last = 0;
  for (const [start, end] of spans) {
    result += text.slice(last, start) + text.slice(start, end).replace(/[^\n]/g, ' ');
    last = end;
  }
  return result + text.slice(last);
}

const gitbookTagStart = '{%';
const gitbookTagPattern =
  /\{%-?\s*(?:(content-ref)\s+url|(page-ref)\s+page|(file)\s+src)\s*=\s*"([^"]*)"|\{%-?\s*(include)\s+"([^"]*)"/g;

const quartoIncludePattern = /\{\{<\s*include\s+([^\s>]+)\s*>\}\}/g;

/**
 * Quarto's include shortcodes (https://quarto.org/docs/authoring/includes.html): read before the
 * Markdown, so in code blocks too (quartodoc includes a generated YAML file into a `yaml` block),
 * but not in inline code.
 */
function readQuartoIncludes(body: string, links: PageLink[]): void {
  if (!body.includes('{{<')) return;
  for (const [index, text] of body.split('\n').entries()) {
    if (!text.includes('{{<')) continue;
    // Inline code and `{{{< >}}}` (an escaped shortcode) show a shortcode, not run it.
    const shown = text.replace(/(`+)[^`]*?\1/g, '').replace(/\{\{\{<[^<>]*>\}\}\}/g, '');
    for (const match of shown.matchAll(quartoIncludePattern)) {
      links.push({ url: (match[1] ?? '').replace(/^["']|["']$/g, ''), line: index + 1, kind: 'import' });
    }
  }
}

// DocFX Flavored Markdown (https://dotnet.github.io/docfx/docs/markdown.html): `[!INCLUDE [title](path)]`
// includes a file, `[!code-csharp[name](path)]` a code snippet; Learn's triple-colon blocks
// (`:::image source="media/x.png":::`, `:::code source="x.cs":::`) name files by attribute.
// The path may be written in angle brackets; it holds no `[`, `]` or space, so a line of openers
// never closed is not searched again from each (hostile pages).
const docfxInclusionPattern =
  /\[!(include|notebook|code(?:-[\w#+.-]{1,40})?)[+-]?[ \t]*\[[^\]\n]{0,500}\]\([ \t]*(?:<([^>\n]{1,1000})>|([^)\s[\]]{1,1000}))(?:[ \t][^)\n]{0,500})?\)\]/gi;
const docfxTripleColonPattern = /^[ \t>]*:::[ \t]*(image|code|video)\b(.{0,2000}?):::/i;
const docfxSourcePattern = /\b(source|lightbox)[ \t]*=[ \t]*"([^"\n]*)"/g;
// No include or block is kilobytes long; longer lines are not searched (hostile pages).
const maximumDocfxLine = 4_096;

/**
 * DocFX's includes, notebooks and code snippets as `import` links (titled `include` or `code`, for
 * the model to tell them apart) in place of the ordinary link markdown-it reads inside them; the
 * files `:::image` and `:::code` blocks name, as `image` and `import` links. Outside code, inline
 * code and HTML comments (an HTML block to Markdig: nothing in it is expanded).
 */
function readDocfxExtensions(body: string, codeLines: ReadonlySet<number>, links: PageLink[]): void {
  if (!body.includes('[!') && !body.includes(':::')) return;
  const uncommented = body.includes('<!--') ? blankDelimited(body, '<!--', '-->') : body;
  // markdown-it read the `[title](path)` inside an include as a link (or, after `!`, an image): not one.
  const readInside = new Map<string, number>();
  for (const [index, text] of uncommented.split('\n').entries()) {
    if (codeLines.has(index) || text.length > maximumDocfxLine) continue;
    const line = index + 1;
    const outsideCode = text.includes('`') ? text.replace(/(`+)[^`]*?\1/g, '') : text;
    if (outsideCode.includes('[!')) {
      for (const match of outsideCode.matchAll(docfxInclusionPattern)) {
        const url = match[2] ?? match[3] ?? '';
        const name = (match[1] ?? '').toLowerCase();
        const key = `${line}\0${url}`;
        readInside.set(key, (readInside.get(key) ?? 0) + 1);
        links.push({ url, line, kind: 'import', title: name === 'include' ? 'include' : 'code' });
      }
    }
    const block = outsideCode.includes(':::') ? docfxTripleColonPattern.exec(outsideCode) : null;
    if (block === null) continue;
    const kind = (block[1] ?? '').toLowerCase();
    if (kind === 'video') continue;
    for (const match of (block[2] ?? '').matchAll(docfxSourcePattern)) {
      const url = match[2] ?? '';
      if (url === '') continue;
      links.push(
        kind === 'image' ? { url, line, kind: 'image' } : { url, line, kind: 'import', title: 'code' },
      );
    }
  }
  if (readInside.size === 0) return;
  let kept = 0;
  for (const link of links) {
    const key = `${link.line}\0${link.url}`;
    const left = link.kind === 'import' ? 0 : (readInside.get(key) ?? 0);
    if (left > 0) {
      readInside.set(key, left - 1);
      continue;
    }
    links[kept] = link;
    kept += 1;
  }
  links.length = kept;
}

// Retype (https://retype.com/templating/includes/, /components/code-snippet/, /components/badge/):
// `{{ include "name" }}` includes a file and `:::code source="path"` shows one (a badge's or
// button's `link="..."` attribute makes no link: Retype 4.6 renders it without one). `{%{ ... }%}`
// shows its text as written.
const retypeIncludePattern = /\{\{[-~]?[ \t]*include[ \t]+(?:"([^"\n]{1,1000})"|'([^'\n]{1,1000})')/g;
const retypeCodePattern = /^[ \t>]*:::[ \t]*code\b[^\n]{0,2000}?\bsource[ \t]*=[ \t]*"([^"\n]{1,1000})"/;
const retypeFilePattern = /\[!file\b[^\][\n]{0,500}\]\([ \t]*<?([^)>\s]{1,1000})/g;
// A wikilink (Retype 3.8): `[[Page name]]`, `[[folder/page]]`, `[[page#Heading|Label]]`, `![[image.png]]`.
const retypeWikilinkPattern = /(!?)\[\[([^[\]|#\n]{1,300})(#[^[\]|\n]{0,300})?(?:\|[^[\]\n]{0,300})?\]\]/g;
const maximumRetypeLine = 4_096;

/**
 * Retype's includes (`import` links titled `include`, or `include-text` in code and comments), code
 * snippets (titled `code`, outside code), file downloads (links titled `file`) and wikilinks (a URL
 * of `[[key]]` and the heading's id).
 */
function readRetypeExtensions(body: string, codeLines: ReadonlySet<number>, links: PageLink[]): void {
  if (!body.includes('{{') && !body.includes(':::') && !body.includes('[!file') && !body.includes('[['))
    return;
  const shown = body.includes('{%{') ? blankDelimited(body, '{%{', '}%}') : body;
  const uncommented = shown.includes('<!--') ? blankDelimited(shown, '<!--', '-->') : shown;
  const uncommentedLines = uncommented.split('\n');
  const files = new Set<string>();
  for (const [index, text] of shown.split('\n').entries()) {
    if (text.length > maximumRetypeLine) continue;
    const line = index + 1;
    // Retype expands includes before it reads the Markdown: in code and comments too, where what
    // they bring is text (`include-text`: its links are no links, its headings no anchors).
    if (text.includes('{{')) {
      const outside = uncommentedLines[index] ?? '';
      const outsideCode = codeLines.has(index)
        ? ''
        : outside.includes('`')
          ? outside.replace(/(`+)[^`]*?\1/g, '')
          : outside;
      for (const match of text.matchAll(retypeIncludePattern)) {
        const url = match[1] ?? match[2] ?? '';
        const asPage = outsideCode.includes(match[0]);
        links.push({ url, line, kind: 'import', title: asPage ? 'include' : 'include-text' });
      }
    }
    if (codeLines.has(index)) continue;
    const outsideCode = text.includes('`') ? text.replace(/(`+)[^`]*?\1/g, '') : text;
    const code = outsideCode.includes(':::') ? retypeCodePattern.exec(outsideCode) : null;
    if (code !== null) links.push({ url: code[1] ?? '', line, kind: 'import', title: 'code' });
    if (outsideCode.includes('[!file'))
      for (const match of outsideCode.matchAll(retypeFilePattern)) files.add(`${line}\0${match[1] ?? ''}`);
    // A wikilink's URL is written `[[key]]` (the model finds the page by its file name), its heading
    // as the fragment Retype makes of it.
    if (outsideCode.includes('[[') && !uncommentedLines[index]?.trim().startsWith('<!--'))
      for (const match of (uncommentedLines[index] ?? '').matchAll(retypeWikilinkPattern)) {
        // In prose, not inside a URL (`?q=[["a"]]`): after a space, a line's start or an opening mark.
        const before = (uncommentedLines[index] ?? '')[match.index - 1];
        if (!outsideCode.includes(match[0]) || (before !== undefined && !/[\s(>*_|]/.test(before))) continue;
        const heading = (match[3] ?? '')
          .slice(1)
          .trim()
          .toLowerCase()
          .replace(/[^\p{L}\p{N} _-]/gu, '')
          .replace(/ /g, '-');
        links.push({
          url: `[[${(match[2] ?? '').trim()}]]${heading === '' ? '' : `#${heading}`}`,
          line,
          kind: match[1] === '!' ? 'image' : 'link',
        });
      }
  }
  // `[!file](x)`: a download, which Retype 4.6 copies whatever its type.
  if (files.size > 0)
    for (const [index, link] of links.entries())
      if (link.kind === 'link' && files.has(`${link.line}\0${link.url}`))
        links[index] = { ...link, title: 'file' };
}

// Writerside (https://www.jetbrains.com/help/writerside/reuse-pieces-of-content.html, /code.html):
// `<include from="lib.md" element-id="x"/>` includes a topic's element, and a code block's file is
// `<code-block src="x">` or a Markdown fence followed by `{src="x"}`. Only `<a href>` and `<img src>`
// are links among the attributes: a `<resource src>` or `<video src>` is not checked here. A tag's
// text holds no `<`, so a line of openers is not searched again from each.
const writersideIncludePattern = /<include\b[^<>\n]{0,1000}?\bfrom[ \t]*=[ \t]*"([^"\n]{1,1000})"/g;
const writersideSourcePattern =
  /^[ \t>]*(?:<code-block\b[^>\n]{0,1000}?|\{[^}\n]{0,1000}?)\bsrc[ \t]*=[ \t]*"([^"\n]{1,1000})"/;
const writersideOtherSourcePattern =
  /<(?!a\b|img\b)[\w-]+\b[^<>\n]{0,1000}?\b(?:src|href)[ \t]*=[ \t]*"([^"\n]{1,1000})"/g;

/** Writerside's includes (`import` links titled `include`) and code blocks' files (titled `code`), outside code and comments. */
function readWritersideExtensions(body: string, codeLines: ReadonlySet<number>, links: PageLink[]): void {
  if (!/src|<include|nullable|instance/.test(body)) return;
  const uncommented = body.includes('<!--') ? blankDelimited(body, '<!--', '-->') : body;
  // Links that are not read: `<resource src>` and the like (any link of theirs, by line and URL),
  // and every link on a line that is `nullable` or filtered by `instance` (`{nullable="true"}`,
  // `<a href nullable="true">`) or inside an `<if instance>` block.
  const notLinks = new Set<string>();
  const filteredLines = new Set<number>();
  let openFilters = 0;
  for (const [index, text] of uncommented.split('\n').entries()) {
    if (text.length > maximumRetypeLine) continue;
    const line = index + 1;
    // A `{src="..."}` line right after a fence is the fence's, so it is read even on a code line.
    const code = writersideSourcePattern.exec(text);
    if (code !== null && (!codeLines.has(index) || text.trimStart().startsWith('{'))) {
      links.push({ url: code[1] ?? '', line, kind: 'import', title: 'code' });
      notLinks.add(`${line}\0${code[1] ?? ''}`);
    }
    if (codeLines.has(index)) continue;
    if (/<if\b[^<>\n]{0,500}\binstance\s*=/.test(text)) openFilters += 1;
    if (openFilters > 0 || /\b(nullable|instance)\s*=/.test(text)) filteredLines.add(line);
    if (openFilters > 0 && text.includes('</if>')) openFilters -= 1;
    for (const match of text.matchAll(writersideIncludePattern)) {
      // The element it takes (`element-id`), anywhere in the tag, as the fragment.
      const tagEnd = text.indexOf('>', match.index);
      const tag = text.slice(match.index, tagEnd < 0 ? undefined : tagEnd);
      const id = /\belement-id[ \t]*=[ \t]*"([^"\n]{1,200})"/.exec(tag)?.[1];
      links.push({
        url: `${match[1] ?? ''}${id === undefined ? '' : `#${id}`}`,
        line,
        kind: 'import',
        title: 'include',
      });
    }
    for (const match of text.matchAll(writersideOtherSourcePattern))
      notLinks.add(`${line}\0${match[1] ?? ''}`);
  }
  if (notLinks.size === 0 && filteredLines.size === 0) return;
  let kept = 0;
  for (const link of links) {
    const filtered = link.kind !== 'import' && filteredLines.has(link.line);
    if (
      filtered ||
      (link.kind !== 'import' && link.attribute === true && notLinks.has(`${link.line}\0${link.url}`))
    )
      continue;
    links[kept] = link;
    kept += 1;
  }
  links.length = kept;
}

// MDC (Nuxt Content's Markdown, https://content.nuxt.com/docs/files/markdown): a component's props,
// in braces (`::tip{to="/guide"}`, `:u-button{to=/x}`) or in a YAML block right after a block
// component's line, a `to` on an HTML tag (`<NuxtLink to="/x">`), and a page's `links` in its front
// matter (Docus, Nuxt UI) are links Nuxt renders (`to`, `href`; Docus 1's hero `cta` and
// `secondary`: a label, then the link).
export const mdcComponentLine = /^[ \t]*:{2,}[A-Za-z][\w-]*(?:\{[^}\n]{0,2000}\})?[ \t]*$/;
const mdcPropsPattern = /(?:^|[\s>(*[_]):{1,}[A-Za-z][\w-]*(?:\[[^\]\n]{0,500}\])?\{([^}\n]{0,2000})\}/g;
const mdcLinkProp = /(?:^|\s)(to|href)=(?:"([^"]*)"|'([^']*)'|([^\s"'}]+))/g;
const mdcTagTo = /<[A-Za-z][\w.-]*\b[^<>\n]{0,1000}?\sto[ \t]*=[ \t]*(?:"([^"\n]*)"|'([^'\n]*)')/g;
const mdcLinkKeys = new Set(['to', 'href']);
const maximumMdcPropsBlocks = 2_000;
const mdcPairKeys = new Set(['cta', 'secondary']);

/**
 * Follows fenced code line by line (CommonMark: a fence closes at a line of the same character, at
 * least as long): true for a fence's lines, its opening and closing lines included.
 */
export function createFenceTracker(): (line: string) => boolean {
  let fence: string | null = null;
  return (line) => {
    const mark = /^[ \t]{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence !== null) {
      if (mark !== undefined && mark[0] === fence[0] && mark.length >= fence.length) fence = null;
      return true;
    }
    if (mark === undefined) return false;
    fence = mark;
    return true;
  };
}

/**
 * A block component's content as MDC reads it: without the indentation of the component's own
 * line (remark-mdc strips it, so `    #### Step` inside an indented `::::steps` is a heading, not
 * code). Lines keep their numbers; fenced code is left as it is.
 */
export function unindentMdcComponents(text: string): string {
  if (!/^[ \t]+:{2,}[A-Za-z]/m.test(text)) return text;
  const lines = text.split('\n');
  const open: Array<{ colons: number; indent: number }> = [];
  const inFence = createFenceTracker();
  for (const [index, line] of lines.entries()) {
    const indent = open.at(-1)?.indent ?? 0;
    let cut = 0;
    while (cut < indent && (line[cut] === ' ' || line[cut] === '\t')) cut += 1;
    const stripped = line.slice(cut);
    lines[index] = stripped;
    if (inFence(stripped)) continue;
    const opening = /^([ \t]*)(:{2,})[A-Za-z]/.exec(line);
    if (opening !== null) {
      if (open.length < 64)
        open.push({ colons: (opening[2] ?? '').length, indent: (opening[1] ?? '').length });
      continue;
    }
    const closing = /^[ \t]*(:{2,})[ \t]*$/.exec(line);
    if (closing !== null) {
      const at = open.findLastIndex((item) => item.colons === (closing[1] ?? '').length);
      if (at >= 0) open.length = at;
    }
  }
  return lines.join('\n');
}

/** The links of MDC components' props, HTML tags' `to` and the front matter's `links`, outside code and comments. */
function readMdcExtensions(
  text: string,
  body: string,
  codeLines: ReadonlySet<number>,
  links: PageLink[],
): void {
  const add = (url: string, line: number) => links.push({ url, line, kind: 'html', attribute: true });
  // The front matter's lines: `links: [{ to }]` and `navigation.redirect`, by where each value is written.
  const frontMatter = frontMatterPattern.exec(text);
  if (frontMatter !== null) readMdcProps(frontMatter[1] ?? '', 2, add, true);
  if (!body.includes(':') && !body.includes(' to')) return;
  const lines = (body.includes('<!--') ? blankDelimited(body, '<!--', '-->') : body).split('\n');
  let propsRead = 0;
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index] ?? '';
    if (codeLines.has(index) || line.length > 4_000) continue;
    const outsideCode = line.includes('`') ? line.replace(/(`+)[^`]*?\1/g, '') : line;
    if (outsideCode.includes('to'))
      for (const tag of outsideCode.matchAll(mdcTagTo)) add(tag[1] ?? tag[2] ?? '', index + 1);
    if (!line.includes(':')) continue;
    // Quoted `href`s are read with HTML attributes already.
    for (const props of outsideCode.matchAll(mdcPropsPattern))
      for (const prop of (props[1] ?? '').matchAll(mdcLinkProp))
        if (prop[1] === 'to' || prop[4] !== undefined) add(prop[2] ?? prop[3] ?? prop[4] ?? '', index + 1);
    // A block component's YAML props: `---` lines right after its own line, not indented within
    // its content (as `unindentMdcComponents` leaves it).
    if (!mdcComponentLine.test(line)) continue;
    const fence = /^---[ \t]*$/;
    if (!fence.test(lines[index + 1] ?? '')) continue;
    let end = index + 2;
    while (end < lines.length && end < index + 500 && !fence.test(lines[end] ?? '')) end += 1;
    if (end >= lines.length || end >= index + 500) continue;
    // Each block is parsed as YAML: a page of thousands is no page a person wrote (hostile input).
    if (propsRead < maximumMdcPropsBlocks)
      readMdcProps(lines.slice(index + 2, end).join('\n'), index + 3, add, false);
    propsRead += 1;
    index = end;
  }
}

/** Links in YAML props (or front matter): `to`/`href` values anywhere, `cta`/`secondary` pairs' second item. */
function readMdcProps(
  yaml: string,
  firstLine: number,
  add: (url: string, line: number) => void,
  frontMatter: boolean,
): void {
  if (!/\b(to|href|cta|secondary|redirect)\s*:/.test(yaml)) return;
  const value = parseYamlMapping(yaml);
  if (value === null) return;
  const yamlLines = yaml.split('\n');
  let from = 0;
  const lineOf = (url: string) => {
    const found = yamlLines.findIndex((line, index) => index >= from && line.includes(url));
    if (found >= 0) from = found;
    return firstLine + Math.max(found, 0);
  };
  const visit = (node: unknown, key: string | null, depth: number) => {
    if (depth > 8) return;
    if (typeof node === 'string') {
      if (key !== null && mdcLinkKeys.has(key)) add(node, lineOf(node));
      return;
    }
    if (Array.isArray(node)) {
      if (key !== null && mdcPairKeys.has(key) && typeof node[1] === 'string') add(node[1], lineOf(node[1]));
      else for (const item of node.slice(0, 200)) visit(item, null, depth + 1);
      return;
    }
    if (typeof node !== 'object' || node === null) return;
    for (const [name, child] of Object.entries(node).slice(0, 200)) {
      // The front matter's own keys: only `links` (Docus, Nuxt UI) and `navigation.redirect` render links.
      if (frontMatter && depth === 0 && name === 'navigation.redirect') visit(child, 'to', depth + 1);
      if (frontMatter && depth === 0 && name !== 'links' && name !== 'navigation') continue;
      visit(child, frontMatter && depth === 1 && name === 'redirect' ? 'to' : name, depth + 1);
    }
  };
  visit(value, null, 0);
}

/** The files GitBook's block tags name, outside code: pages, uploaded files and reusable content. */
function readGitBookTags(body: string, codeLines: ReadonlySet<number>, links: PageLink[]): void {
  if (!body.includes(gitbookTagStart)) return;
  for (const [index, text] of body.split('\n').entries()) {
    if (codeLines.has(index) || !text.includes(gitbookTagStart)) continue;
    const outsideCode = text.replace(/(`+)[^`]*?\1/g, '');
    for (const match of outsideCode.matchAll(gitbookTagPattern)) {
      const url = match[4] ?? match[6];
      if (url === undefined) continue;
      links.push({ url, line: index + 1, kind: match[5] === undefined ? 'link' : 'import' });
    }
  }
}

const markdocTagStart = '{%';

/** Markdoc tags (`{% ... %}`) blanked, their lines kept. */
function blankMarkdocTags(body: string): string {
  return body.includes(markdocTagStart)
    ? body.replace(/\{%(?:[^%"]|"(?:[^"\\\n]|\\.)*"|%(?!\})){0,1000}%\}/g, (tag) =>
        tag.replace(/[^\n]/g, ' '),
      )
    : body;
}

/**
 * Links in the attributes Redocly resolves as links (`@redocly/theme` lib/markdoc/tags: a card's `to`
 * and `image`, an image's `src`; a partial's `file`), from Markdoc's own tag tokens, so never in code.
 */
function readMarkdocTagLinks(tokens: readonly Token[], links: PageLink[]): void {
  let line = 0;
  const read = (token: Token) => {
    if (token.type !== 'tag' && token.type !== 'tag_open') return;
    const meta = token.meta as { tag?: unknown; attributes?: unknown } | null;
    const name = meta?.tag;
    for (const attribute of Array.isArray(meta?.attributes) ? meta.attributes : []) {
      const { name: key, value: url } = (attribute ?? {}) as { name?: unknown; value?: unknown };
      if (typeof url !== 'string') continue;
      if (key === 'file' && (name === 'partial' || name === 'raw-partial'))
        links.push({ url, line: line + 1, kind: 'import', title: name });
      else if (name === 'card' && key === 'to') links.push({ url, line: line + 1, kind: 'link' });
      else if ((name === 'card' && key === 'image') || (name === 'img' && key === 'src'))
        links.push({ url, line: line + 1, kind: 'image' });
    }
  };
  for (const token of tokens) {
    if (token.map !== null) line = token.map[0];
    read(token);
    for (const child of token.children ?? []) read(child);
  }
}

/** Local ESM imports of an MDX page (snippets, shared components) must point to files that exist. */
function readImports(body: string, codeLines: ReadonlySet<number>, links: PageLink[]): void {
  if (!body.includes('import')) return;
  for (const match of body.matchAll(importPattern)) {
    const specifier = match[1] ?? match[2];
    if (specifier === undefined || !/^(\.{1,2}\/|\/)/.test(specifier)) continue;
    const line =
      countNewlines(body.slice(0, match.index)) + 1 + countNewlines(match[0].match(/^\s*/)?.[0] ?? '');
    if (codeLines.has(line - 1)) continue;
    links.push({ url: specifier, line, kind: 'import' });
  }
}
