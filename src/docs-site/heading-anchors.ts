import GithubSlugger from 'github-slugger';
import LegacySlugger from 'github-slugger-v1';
import createMarkdownIt, { type MarkdownIt, type Token } from 'markdown-it';
import {
  blankDelimited,
  blankMdxComments,
  createFenceTracker,
  frontMatterPattern,
  mdcComponentLine,
  unindentMdcComponents,
} from './page-facts.ts';
import { readXmlElements } from './xml-elements.ts';

/** The anchors of one page, and whether they are all known. */
export interface PageAnchors {
  anchors: ReadonlySet<string>;
  /**
   * False when something this reader cannot follow may add anchors: an imported MDX file or a
   * component rendered in the page (a component may register an anchor of its own).
   */
  complete: boolean;
  /** Ids the build numbers for itself, known by their start (Python-Markdown's `__tabbed_1_2`). */
  knownPrefixes?: readonly string[];
  /** Ids the build makes of names this reader does not follow, known by a part (dumi's demos, `<atom>-demo-<name>`). */
  knownInfixes?: readonly string[];
  /** A fragment's leading `#`s are dropped before it is looked up (DocFX's `TrimStart('#')`: `##x` names `x`). */
  trimsHashes?: boolean;
  /** Fragments are looked up without case (Retype since 3.10); `anchors` then holds lower-case ids. */
  caseInsensitive?: boolean;
}

// A page this long is not parsed whole for its anchors (the full parse is about 20 times the cost
// of reading its links); its anchors are unknown.
export const maximumCharacters = 512 * 1024;
/** An element's `id` or `name` attribute, quoted or (JSX) in braces. */
export const attributeAnchor = /\b(?:id|name)\s*=\s*(?:"([^"]*)"|'([^']*)'|\{\s*["'`]([^"'`]*)["'`]\s*\})/g;

/** How a build makes a page's anchors. */
export interface AnchorRules {
  /** MDX (`.mdx`, or Docusaurus's `.md` unless `markdown.format` says otherwise). */
  mdx: boolean;
  /** Docusaurus's `{#custom-id}` after a heading; Astro has no such syntax (the text is slugged). */
  customIds: boolean;
  /** Docusaurus's `markdown.anchors.maintainCase`: slugs keep their case. */
  maintainCase: boolean;
  /** Anchors every page has (starlight-links-validator's `_top`). */
  always: readonly string[];
  /**
   * Rspress's `remarkToc` (packages/core/src/node/mdx/remarkPlugins/toc.ts): the text trimmed,
   * images and footnote references left out, `{#custom-id}` anywhere in it, and without a level-1
   * heading the front matter's `title` slugged too.
   */
  rspress?: boolean;
  /**
   * Markdig's `AutoIdentifierOptions.GitHub` (DocFX): `LinkHelper.UrilizeAsGfm` of the heading's
   * text (letters and digits lowercased, `-` and `_` kept, a space as `-`, all else dropped), an
   * empty one `section`, repeats `-1`, `-2`.
   */
  markdig?: boolean;
  /**
   * github-slugger 1.3's ids too (dumi 1 asks for `^1.3.0`): it keeps punctuation outside ASCII
   * that later versions drop (`上下文（context）`), and which one a site installed is its lockfile's.
   */
  legacySlugger?: boolean;
  /**
   * Fern's docs frontend (fern-platform fern-docs/mdx: custom-headings.ts, rehype-slug.ts): `[#id]`
   * or `{#id}` after a heading's text, smartypants' dashes before slugging, and the ids its
   * `Step`, `Accordion`, `Tab` and `ParamField` components take from their titles; its other
   * built-in components add none.
   */
  fern?: boolean;
}

/** Fern's components that take an id from their title (`ParamField` from the parameter it names). */
const fernTitledComponent = /<(Step|Accordion|Tab|ParamField|Expandable)\b([^>]{0,2000})>/g;
/** Fern's built-in components that add no id of their own (https://buildwithfern.com/learn/docs/writing-content/components/overview). */
const fernPlainComponents = new Set(
  'AccordionGroup Anchor Aside Availability Badge Button ButtonGroup Callout Card CardGroup Check CodeBlock CodeBlocks CodeGroup Download EndpointRequestSnippet EndpointResponseSnippet EndpointSchemaSnippet Error Files File Folder Frame Icon If Indent Info Note ParamField Step Steps Success Tab Tabs Tip Tooltip Warning Accordion Expandable'.split(
    ' ',
  ),
);

const attributePatterns = new Map<string, RegExp>();
function attributeValue(attributes: string, name: string): string | null {
  let pattern = attributePatterns.get(name);
  if (pattern === undefined) {
    pattern = new RegExp(`\\b${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|\\{\\s*["'\`]([^"'\`]*)["'\`]\\s*\\})`);
    attributePatterns.set(name, pattern);
  }
  const match = pattern.exec(attributes);
  return match === null ? null : (match[1] ?? match[2] ?? match[3] ?? null);
}

/**
 * The anchors a Markdown or MDX page gets (https://docusaurus.io/docs/markdown-features/toc#heading-ids,
 * Astro's rehypeHeadingIds): each heading's id, `{#custom-id}` when written and allowed, else
 * github-slugger's slug of its text as rendered, untrimmed (`-1`, `-2` for repeats), and the `id` or
 * `name` of an element written in the page. Read with markdown-it, every inline rule on (emphasis and
 * entities change a heading's text); in MDX, as the page facts read it, indentation is no code and a
 * tag no HTML block. Incomplete when a component or an import may add anchors of its own.
 */
export function readHeadingAnchors(text: string, rules: AnchorRules): PageAnchors {
  if (text.length > maximumCharacters) return { anchors: new Set(), complete: false };
  const key = `${rules.mdx}|${rules.customIds}|${rules.maintainCase}|${rules.rspress === true}|${rules.markdig === true}|${rules.legacySlugger === true}|${rules.fern === true}|${rules.always.join(' ')}`;
  return cachedAnchors(key, text, () => readAnchors(text, rules));
}

function readAnchors(text: string, rules: AnchorRules): PageAnchors {
  const { mdx } = rules;
  const frontMatter = frontMatterPattern.exec(text)?.[0] ?? '';
  // MDX comments (`{/* ... */}`) hold no element; their lines stay, blank.
  const stripped = text.slice(frontMatter.length);
  const body =
    '\n'.repeat(frontMatter.split('\n').length - 1) +
    (mdx && stripped.includes('/*') ? blankMdxComments(stripped) : stripped);
  const tokens = (mdx ? mdxParser : markdownParser).parse(body, {});
  const anchors = new Set<string>(rules.always);
  const slugger = new GithubSlugger();
  const legacySlugger = rules.legacySlugger === true ? new LegacySlugger() : null;
  const markdigIds = new Map<string, number>();
  let complete = true;
  let hasTitle = false;
  const codeLines = new Set<number>();
  const readTags = (html: string) => {
    const uncommented = readHtmlIds(html, anchors);
    // An id computed in an expression is unknown.
    if (mdx && /\b(?:id|name)\s*=\s*\{/.test(uncommented)) complete = false;
    if (rules.fern !== true || !uncommented.includes('<')) return;
    for (const match of uncommented.matchAll(fernTitledComponent)) {
      const [, name = '', attributes = ''] = match;
      if (attributeValue(attributes, 'id') !== null) continue;
      const title =
        name === 'ParamField'
          ? (attributeValue(attributes, 'query') ??
            attributeValue(attributes, 'path') ??
            attributeValue(attributes, 'body') ??
            attributeValue(attributes, 'header'))
          : attributeValue(attributes, 'title');
      anchors.add(slugger.slug(title ?? (name === 'Expandable' ? 'Accordion' : name)));
    }
  };
  for (const [index, token] of tokens.entries()) {
    if ((token.type === 'fence' || token.type === 'code_block') && token.map !== null)
      for (let line = token.map[0]; line < token.map[1]; line += 1) codeLines.add(line);
    else if (token.type === 'html_block') readTags(token.content);
    else if (token.type === 'inline') {
      for (const child of token.children ?? []) if (child.type === 'html_inline') readTags(child.content);
      if (tokens[index - 1]?.type === 'heading_open') {
        if (tokens[index - 1]?.tag === 'h1') hasTitle = true;
        if (rules.rspress === true) {
          anchors.add(rspressHeadingId(token.children ?? [], slugger));
          continue;
        }
        const title = plainText(token.children ?? []);
        if (rules.markdig === true) {
          // DocFX's Markdig reads `$...$` as math, which adds no text to the id.
          anchors.add(
            uniqueId(markdigGfmId(title.replace(/\$\$[^$]*\$\$|\$[^$\s][^$]*\$/g, '')), markdigIds),
          );
          continue;
        }
        if (rules.fern === true) {
          anchors.add(fernHeadingId(title, slugger));
          continue;
        }
        // The last `{#` only, matched from there: a pattern from every `{#` was quadratic.
        const open = rules.customIds ? title.lastIndexOf('{#') : -1;
        const custom = open < 0 ? null : /^\{#([^}]+)\}\s*$/.exec(title.slice(open));
        anchors.add(custom?.[1] ?? slugger.slug(title, rules.maintainCase));
        if (custom === null && legacySlugger !== null)
          anchors.add(legacySlugger.slug(title, rules.maintainCase));
      }
    }
  }
  if (rules.rspress === true && !hasTitle) {
    const title = /^title:[ \t]*["']?(.+?)["']?[ \t]*$/m.exec(frontMatter)?.[1];
    if (title !== undefined) anchors.add(slugger.slug(title));
  }
  if (mdx) {
    // A component (capitalized, or a member such as `Tabs.Item`) may register anchors of its own,
    // and MDX's ESM imports may render another file's headings here; outside code either way.
    const lines = body.split('\n');
    for (const [index, line] of lines.entries()) {
      if (codeLines.has(index)) continue;
      if (
        /^import\s/.test(line) ||
        (rules.fern === true ? hasUnknownFernComponent(line) : /<[A-Z]|<[a-z]+\./.test(line))
      ) {
        complete = false;
        break;
      }
    }
  }
  return rules.markdig === true ? { anchors, complete, trimsHashes: true } : { anchors, complete };
}

/**
 * The anchors Nuxt Content gives a page (@nuxtjs/mdc src/runtime/parser/compiler.ts): every heading,
 * h1 to h6, its written `id` or github-slugger's slug of its text (one slugger per page: repeats
 * `-1`, `-2`), then runs of `-` made one, `-` trimmed from both ends and a leading digit prefixed
 * with `_` (`## 2. Setup` is `_2-setup`); the `id` of every element written in HTML, and of every
 * MDC element given one (`[word]{#id}`, `::card{#id}`); footnotes' ids. MDC's own syntax is no
 * text: a block component's lines and YAML props, the attributes after inline code, a link,
 * emphasis or a span (`` `x`{lang="ts"} ``, `[word]{.class}`), an inline component (but its
 * label), `{{ bindings }}`, images. A component's content is read without its indentation.
 */
export function readMdcAnchors(text: string): PageAnchors {
  if (text.length > maximumCharacters) return { anchors: new Set(), complete: false };
  return cachedAnchors('mdc', text, () => {
    const frontMatter = frontMatterPattern.exec(text)?.[0] ?? '';
    const lines = unindentMdcComponents(text.slice(frontMatter.length)).split('\n');
    const anchors = new Set<string>();
    // Component lines and their YAML props would read as paragraphs and setext headings; code is kept.
    const inFence = createFenceTracker();
    for (let index = 0; index < lines.length; index += 1) {
      const line = lines[index] ?? '';
      if (inFence(line)) continue;
      for (const match of line.matchAll(/\{([^{}\n]{0,500})\}/g))
        for (const id of (match[1] ?? '').matchAll(/(?:^|\s)#([\w-]+)|(?:^|\s)id=["']?([^\s"'}]+)/g))
          anchors.add(id[1] ?? id[2] ?? '');
      if (!mdcComponentLine.test(line) && !/^[ \t]*:{2,}[ \t]*$/.test(line)) continue;
      lines[index] = '';
      const props = /^---[ \t]*$/;
      if (!props.test(lines[index + 1] ?? '')) continue;
      let end = index + 2;
      while (end < lines.length && !props.test(lines[end] ?? '')) end += 1;
      if (end >= lines.length) continue;
      for (let blank = index + 1; blank <= end; blank += 1) lines[blank] = '';
      index = end;
    }
    const body = lines.join('\n');
    const tokens = markdownParser.parse(body, {});
    const slugger = new GithubSlugger();
    let complete = true;
    const readHtml = (html: string) => {
      const uncommented = readHtmlIds(html, anchors);
      // An HTML heading takes a slug from the same slugger, in an order this reader does not follow.
      if (/<h[1-6][\s>]/i.test(uncommented)) complete = false;
    };
    for (const [index, token] of tokens.entries()) {
      if (token.type === 'html_block') readHtml(token.content);
      if (token.type !== 'inline') continue;
      for (const child of token.children ?? []) if (child.type === 'html_inline') readHtml(child.content);
      if (tokens[index - 1]?.type !== 'heading_open') continue;
      anchors.add(
        slugger
          .slug(mdcHeadingText(token.children ?? []))
          .replace(/-+/g, '-')
          .replace(/^-|-$/g, '')
          .replace(/^(\d)/, '_$1'),
      );
    }
    // GFM footnotes: `footnote-label`, `user-content-fn-1`, `user-content-fnref-1`.
    if (/\[\^[^\]\s]+\]/.test(body)) {
      anchors.add('footnote-label');
      return { anchors, complete, knownPrefixes: ['user-content-fn'] };
    }
    return { anchors, complete };
  });
}

/** Elements after which MDC reads `{...}` as attributes. */
const mdcAttributed = new Set(['code_inline', 'link_close', 'strong_close', 'em_close', 's_close']);

/** A heading's text as MDC renders it, without MDC's attributes, bindings and label-less inline components. */
function mdcHeadingText(children: readonly Token[]): string {
  let text = '';
  let afterElement = false;
  for (const child of children) {
    if (child.type === 'text') {
      const content = afterElement ? child.content.replace(/^\{[^}]*\}/, '') : child.content;
      text += content
        .replace(/\{\{[^}]*\}\}/g, '')
        .replace(
          /(^|[\s([_*]):[A-Za-z][\w-]*(?![\w:-])(?:\[([^\]]*)\])?(?:\{[^}]*\})?/g,
          (_match, before: string, label?: string) => `${before}${label ?? ''}`,
        )
        .replace(/\[([^\]]*)\]\{[^}]*\}/g, '$1');
    } else if (child.type === 'code_inline') text += child.content;
    else if (child.type === 'softbreak' || child.type === 'hardbreak') text += ' ';
    afterElement = mdcAttributed.has(child.type);
  }
  return text;
}

/**
 * The anchors Retype gives a page (https://retype.com/components/headings/): a heading's `{#custom-id}`,
 * or its text trimmed, lower-cased, every character but letters, digits, spaces, `-` and `_` dropped
 * and each space a `-` (`retype --override` is `retype---override`), icons (`:icon-x:`) and badges
 * (`[!badge x]`) left out, repeats `-1`, `-2`; the `id` of an element, `{#id}` and `^block` ids
 * written anywhere, and the titles of panels, tabs and details blocks. Looked up without case.
 * Incomplete where the page includes a file.
 */
export function readRetypeAnchors(text: string): PageAnchors {
  if (text.length > maximumCharacters) return { anchors: new Set(), complete: false };
  return cachedAnchors('retype', text, () => {
    const frontMatter = frontMatterPattern.exec(text)?.[0] ?? '';
    const body = '\n'.repeat(frontMatter.split('\n').length - 1) + text.slice(frontMatter.length);
    const anchors = new Set<string>();
    const taken = new Map<string, number>();
    const codeLines = new Set<number>();
    // Retype reads its blocks' lines (`=== Title`, `+++`, `!!!`) before the Markdown: blanked, so
    // that the `===` closing a panel under a line of text is no heading underline (one with no panel
    // open is: a setext heading). A `---` under text is a rule to Retype, not a heading.
    const lines = body.split('\n');
    const blocks = new Map<number, string>();
    let openPanels = 0;
    let rewritten = false;
    for (const [index, line] of lines.entries()) {
      if (/^ {0,3}-{3,}[ \t]*$/.test(line) && /\S/.test(lines[index - 1] ?? '')) {
        lines[index] = '***';
        rewritten = true;
        continue;
      }
      const block = /^[ \t]*(==[=+-]|\+\+\+|>>>|!!!|:::)(.*)$/.exec(line);
      if (block === null) continue;
      const title = (block[2] ?? '').trim();
      if (block[1] === '===' && /^=*$/.test(title)) {
        if (openPanels === 0) continue;
        openPanels -= 1;
      } else if (/^==/.test(block[1] ?? '')) openPanels += 1;
      // A panel's (`=== Title`), tab's (`+++ Title`) and details block's (`>>> Title`) title is an
      // anchor (a callout's, a container's and a step's are not: Retype 4.6 builds them so).
      blocks.set(index, /^(==|\+|>)/.test(block[1] ?? '') ? title : '');
      lines[index] = '';
    }
    const tokens = markdownParser.parse(blocks.size === 0 && !rewritten ? body : lines.join('\n'), {});
    for (const [index, token] of tokens.entries()) {
      if ((token.type === 'fence' || token.type === 'code_block') && token.map !== null)
        for (let line = token.map[0]; line < token.map[1]; line += 1) codeLines.add(line);
      if (token.type === 'html_block') readHtmlIds(token.content, anchors, (id) => id.toLowerCase());
      if (token.type !== 'inline') continue;
      for (const child of token.children ?? [])
        if (child.type === 'html_inline') readHtmlIds(child.content, anchors, (id) => id.toLowerCase());
      if (tokens[index - 1]?.type !== 'heading_open') continue;
      const title = retypeHeadingText(token.children ?? []).trim();
      const open = title.lastIndexOf('{#');
      const custom = open < 0 ? null : /^\{#([^}\s]+)(?:\s[^}]*)?\}\s*$/.exec(title.slice(open));
      if (custom !== null) anchors.add((custom[1] ?? '').toLowerCase());
      else {
        anchors.add(uniqueId(retypeId(title), taken));
        // A badge's short form (`[!badge NEW]`) adds its text to the id in Retype 4.6, but not with a
        // variant (`[!badge @latest|info]`): both ids are taken.
        if (/\[!badge\b/i.test(title)) anchors.add(retypeId(title, false));
      }
    }
    for (const [index, title] of blocks)
      if (title !== '' && !codeLines.has(index)) anchors.add(retypeId(decodeEntities(title)));
    for (const match of body.matchAll(/\{#([\w-]+)(?:[ \t][^}\n]{0,200})?\}|\^([\w-]+)[ \t]*$/gm))
      anchors.add((match[1] ?? match[2] ?? '').toLowerCase());
    // An included file's headings are the page's too.
    const complete = !/\{\{[-~]?[ \t]*include\b/.test(body);
    return { anchors, complete, caseInsensitive: true };
  });
}

/** The common HTML character references of a line of text decoded (`&nbsp;`, `&amp;`, `&#38;`); others dropped. */
function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  const named: Record<string, string> = { nbsp: '\u00a0', amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
  return text.replace(/&(?:#(\d{1,7})|#x([\da-f]{1,6})|([a-z]{1,10}));/gi, (_, decimal, hex, name) => {
    const code =
      decimal !== undefined ? Number(decimal) : hex !== undefined ? Number.parseInt(hex, 16) : null;
    if (code !== null) return code <= 0x10ffff ? String.fromCodePoint(code) : '';
    return named[String(name).toLowerCase()] ?? '';
  });
}

/** A heading's text as Retype reads it: like `plainText`, with a linked badge (`[!badge NEW](x.md)`) as a badge. */
function retypeHeadingText(children: readonly Token[]): string {
  let text = '';
  for (let index = 0; index < children.length; index += 1) {
    const child = children[index] as Token;
    if (child.type === 'link_open') {
      let inner = '';
      for (index += 1; index < children.length && children[index]?.type !== 'link_close'; index += 1)
        inner += plainText([children[index] as Token]);
      text += inner.startsWith('!badge') ? `[${inner}]` : inner;
    } else text += plainText([child]);
  }
  return text;
}

/** A title's id as Retype makes it: without icons and badges, trimmed, lower-cased, only letters, digits, `_`, `-` and each space as `-`. */
function retypeId(title: string, badgeText = true): string {
  return (
    title
      .replace(/:icon-[\w-]+:/g, '')
      // `[!badge NEW]` shows its text; `[!badge text="NEW"]` and `[!badge NEW|info]` add nothing to
      // the id (Retype 4.6).
      .replace(/\[!badge\b([^\]]*)\]/gi, (_, inner: string) =>
        inner.includes('=') || inner.includes('|') || !badgeText ? '' : inner.trim(),
      )
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N} _-]/gu, '')
      .replace(/ /g, '-')
  );
}

/** Writerside's `<id-generator-method>` (writerside.cfg's settings). */
export type WritersideIdMethod = 'DEFAULT' | 'LOWER_CASE_DASHES_DOT_REMOVE' | 'URL_ENCODE_PLUS';

/**
 * The anchors Writerside gives a topic (https://www.jetbrains.com/help/writerside/structural-elements.html):
 * `{id="x"}` or `{#x}` after a heading or block, any element's `id`, `<anchor name="x"/>`, and each
 * Markdown heading's id from its text: by default lower-cased with every run of characters but
 * `a-z` and `0-9` as one `-`; `LOWER_CASE_DASHES_DOT_REMOVE` drops all but those, spaces and `-`
 * first; `URL_ENCODE_PLUS`
 * keeps the text, URL-encoded with `+` for spaces. Incomplete where the topic includes elements
 * from another, or a heading holds a variable or a letter outside ASCII (whose rule is unknown).
 */
export function readWritersideAnchors(text: string, method: WritersideIdMethod): PageAnchors {
  if (text.length > maximumCharacters) return { anchors: new Set(), complete: false };
  return cachedAnchors(`writerside ${method}`, text, () => {
    const frontMatter = frontMatterPattern.exec(text)?.[0] ?? '';
    const body = '\n'.repeat(frontMatter.split('\n').length - 1) + text.slice(frontMatter.length);
    const anchors = new Set<string>();
    let complete = !/<include\b/.test(body) && !/<chapter\b(?![^>]*\bid=)/.test(body);
    // Headings are read from every line (a `#` line in code adds an id no link names: no harm).
    for (const line of body.split('\n')) {
      const heading = /^#{1,6}[ \t]+/.exec(line);
      if (heading === null) continue;
      // The title without a closing sequence of `#`s and an attribute list (`{id="x"}`), cut by
      // position (patterns anchored at the end backtrack on long hostile lines).
      let title = line.slice(heading[0].length);
      const brace = title.lastIndexOf('{');
      if (brace >= 0 && title.trimEnd().endsWith('}')) title = title.slice(0, brace);
      let end = title.length;
      while (end > 0 && ' \t#'.includes(title[end - 1] ?? '')) end -= 1;
      // Its text as shown: a link's text, no tags, character references decoded.
      title = decodeEntities(
        title
          .slice(0, end)
          .replace(/\[([^\][\n]{0,500})\]\([^()\n]{0,1000}\)/g, '$1')
          .replace(/<[^<>\n]{1,200}>/g, '')
          .replaceAll('`', ''),
      ).trim();
      if (/%[\w.-]+%|[^ -~]/.test(title)) complete = false;
      if (method === 'URL_ENCODE_PLUS') {
        anchors.add(title.replace(/ /g, '+'));
        anchors.add(encodeURIComponent(title).replace(/%20/g, '+'));
        continue;
      }
      // `LOWER_CASE_DASHES_DOT_REMOVE` drops every character but letters, digits, spaces and `-`
      // (`AppCode/CLion` is `appcodeclion`, `plugin.xml` `pluginxml`), then makes each run of spaces
      // and `-` one `-`; the default makes each run of other characters one `-` (`Android/JVM` is
      // `android-jvm`), as the modules' own links show.
      const lower = title.toLowerCase();
      const id =
        method === 'LOWER_CASE_DASHES_DOT_REMOVE'
          ? lower.replace(/[^a-z0-9 -]/g, '').replace(/[ -]+/g, '-')
          : lower.replace(/[^a-z0-9]+/g, '-');
      anchors.add(id.replace(/^-|-$/g, ''));
    }
    // Attribute lists hold no `{`, tags no `<`: a line of openers is not searched again from each.
    for (const match of body.matchAll(
      /\{[^{}\n]{0,500}?(?:\bid[ \t]*=[ \t]*"([^"\n]{1,200})"|#([\w.-]{1,200}))[^{}\n]{0,500}\}/g,
    ))
      anchors.add(match[1] ?? match[2] ?? '');
    for (const match of body.matchAll(/<anchor\b[^<>\n]{0,500}?\bname[ \t]*=[ \t]*"([^"\n]{1,200})"/g))
      anchors.add(match[1] ?? '');
    for (const match of body.matchAll(/<[\w-]+\b[^<>\n]{0,1000}?\bid[ \t]*=[ \t]*"([^"\n]{1,200})"/g))
      anchors.add(match[1] ?? '');
    return { anchors, complete };
  });
}

/**
 * Adds the `id` and `name` attributes of HTML elements outside comments to `anchors`, each through
 * `map` (lower-cased where ids are looked up without case); the HTML without its comments.
 */
export function readHtmlIds(
  html: string,
  anchors: Set<string>,
  map: (id: string) => string = (id) => id,
): string {
  const uncommented = html.includes('<!--') ? blankDelimited(html, '<!--', '-->') : html;
  for (const match of uncommented.matchAll(attributeAnchor))
    anchors.add(map(match[1] ?? match[2] ?? match[3] ?? ''));
  return uncommented;
}

/** Markdig's `LinkHelper.UrilizeAsGfm`, code unit by code unit as .NET's `char.IsLetterOrDigit` reads them. */
function markdigGfmId(text: string): string {
  let id = '';
  for (const unit of text) {
    for (let index = 0; index < unit.length; index += 1) {
      const character = unit[index] ?? '';
      if (character === ' ') id += '-';
      else if (character === '-' || character === '_' || /[\p{L}\p{Nd}]/u.test(character))
        id += character.toLowerCase();
    }
  }
  return id === '' ? 'section' : id;
}

/**
 * `id`, or `id-1`, `id-2`, ... when the page has it already (Markdig's repeats). `taken` holds each
 * id given with the next number to try after it, so a page of equal headings is not searched from
 * `-1` every time.
 */
function uniqueId(id: string, taken: Map<string, number>): string {
  let next = taken.get(id);
  if (next === undefined) {
    taken.set(id, 1);
    return id;
  }
  let unique = `${id}-${next}`;
  while (taken.has(unique)) {
    next += 1;
    unique = `${id}-${next}`;
  }
  taken.set(id, next + 1);
  taken.set(unique, 1);
  return unique;
}

/**
 * A heading's id as Rspress's `parseToc` makes it: `{#custom-id}` in its text (from the first `{#`
 * to the last `}`), else the slug of its text trimmed, without images, HTML or footnote references.
 */
function rspressHeadingId(children: readonly Token[], slugger: GithubSlugger): string {
  let text = '';
  let custom: string | null = null;
  for (const child of children) {
    if (child.type === 'text') {
      const open = child.content.indexOf('{#');
      const close = open < 0 ? -1 : child.content.lastIndexOf('}');
      if (close > open) {
        custom = child.content.slice(open + 2, close);
        text += child.content.slice(0, open);
      } else text += child.content.replace(/\[\^[^\]]*\]/g, '');
    } else if (child.type === 'code_inline') text += child.content;
    else if (child.type === 'softbreak' || child.type === 'hardbreak') text += ' ';
  }
  return custom ?? slugger.slug(text.trim());
}

/**
 * A Fern heading's id: what `[#id]` or `{#id}` at its end names, else github-slugger's slug of its
 * text after smartypants (`--` an en dash, `---` an em dash, both dropped by the slugger).
 */
function fernHeadingId(title: string, slugger: GithubSlugger): string {
  const open = Math.max(title.lastIndexOf('[#'), title.lastIndexOf('{#'));
  const explicit = open < 0 ? null : /^(?:\[#([^\]]+)\]|\{#([^}]+)\})\s*$/.exec(title.slice(open));
  if (explicit !== null) {
    const id = explicit[1] ?? explicit[2] ?? '';
    slugger.slug(id);
    return id;
  }
  return slugger.slug(title.replace(/---/g, '\u2014').replace(/--/g, '\u2013'));
}

/** A component other than Fern's built-in ones (a site's own may render ids), or another file's text. */
function hasUnknownFernComponent(line: string): boolean {
  if (!line.includes('<')) return false;
  for (const match of line.matchAll(/<([A-Z][\w]*|[a-z]+\.[\w.]*)/g))
    if (!fernPlainComponents.has(match[1] ?? '')) return true;
  return false;
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
// Pages' anchors by reader and text, read once while the same pages are checked again (each validation).
const cached = new Map<string, Map<string, PageAnchors>>();
let cachedCharacters = 0;
const maximumCachedCharacters = 32 * 1024 * 1024;

/**
 * A page's anchors as `read` finds them, kept by the reader's `key` and the text. Bounded by the
 * texts and anchors kept: cleared whole when full, as checks read pages again.
 */
export function cachedAnchors(key: string, text: string, read: () => PageAnchors): PageAnchors {
  const known = cached.get(key)?.get(text);
  if (known !== undefined) return known;
  const result = read();
  cachedCharacters += text.length + [...result.anchors].reduce((sum, anchor) => sum + anchor.length + 16, 0);
  if (cachedCharacters > maximumCachedCharacters) {
    cached.clear();
    cachedCharacters = text.length;
  }
  let cache = cached.get(key);
  if (cache === undefined) {
    cache = new Map();
    cached.set(key, cache);
  }
  cache.set(text, result);
  return result;
}

/**
 * The anchors Sphinx gives a MyST page (https://myst-parser.readthedocs.io/en/latest/syntax/optional.html#auto-generated-header-anchors,
 * myst_parser/slugs.py and sphinx_ext/myst_refs.py): with `myst_heading_anchors = N`, headings up to
 * level N get GitHub-style slugs of their text and inline code (lower case, spaces as `-`, other
 * characters but word characters, CJK and `-` dropped; repeats `-1`); a link's fragment may also name
 * any section's docutils id or a label of the page. Versions differ on trimming the title, so both
 * forms count.
 */
export function readMystAnchors(text: string, headingLevels: number, labels: readonly string[]): PageAnchors {
  if (text.length > maximumCharacters) return { anchors: new Set(), complete: false };
  const frontMatter = frontMatterPattern.exec(text)?.[0] ?? '';
  const body = '\n'.repeat(frontMatter.split('\n').length - 1) + text.slice(frontMatter.length);
  const tokens = markdownParser.parse(body, {});
  const anchors = new Set<string>(labels);
  const slugs = new Set<string>();
  for (const [index, token] of tokens.entries()) {
    if (token.type !== 'inline' || tokens[index - 1]?.type !== 'heading_open') continue;
    const level = Number(tokens[index - 1]?.tag.slice(1));
    const title = (token.children ?? [])
      .filter((child) => child.type === 'text' || child.type === 'code_inline')
      .map((child) => child.content)
      .join('');
    anchors.add(docutilsId(title));
    if (level > headingLevels) continue;
    for (const written of new Set([title, title.trim()])) {
      const slug = written.toLowerCase().replaceAll(' ', '-').replace(mystSlugClean, '');
      if (slug === '') continue;
      let unique = slug;
      for (let suffix = 1; slugs.has(unique); suffix += 1) unique = `${slug}-${suffix}`;
      slugs.add(unique);
      anchors.add(unique);
    }
  }
  return { anchors, complete: true };
}

// Python's `\w` (Unicode word characters), CJK ideographs, `-` and space are kept.
const mystSlugClean = /[^\p{L}\p{M}\p{N}\p{Pc}\u4e00-\u9fff\- ]/gu;

/** docutils' `make_id`, near enough for ASCII titles: lower case, other characters as single `-`. */
function docutilsId(title: string): string {
  return title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^[-0-9]+|-+$/g, '');
}

/** The anchors of an XML topic: every element's `id` and every `<anchor name>`; unknown when it includes elements. */
export function readWritersideTopicAnchors(text: string): PageAnchors {
  // Read once per text: every include of a library topic asks for its ids again.
  return cachedAnchors('writerside-topic', text, () => readTopicAnchors(text));
}

function readTopicAnchors(text: string): PageAnchors {
  const { elements } = readXmlElements(text);
  const anchors = new Set<string>();
  for (const element of elements) {
    if (element.attributes.id !== undefined) anchors.add(element.attributes.id);
    if (element.name === 'anchor' && element.attributes.name !== undefined)
      anchors.add(element.attributes.name);
  }
  return { anchors, complete: !elements.some((element) => element.name === 'include') };
}
