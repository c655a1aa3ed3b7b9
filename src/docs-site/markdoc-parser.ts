/**
 * Markdoc's own tokenizer, set up as Redocly's compiler sets it up (dist/server/plugins/markdown/
 * compiler.js in @redocly/realm 0.135.2): HTML read, comments allowed, and `allowIndentation`, with
 * which Markdoc's markdown-it reads indented fences, headings and HTML as such and has no indented code.
 *
 * Markdoc finds a tag's end (`findTagEnd`, @markdoc/markdoc 0.5.2 dist/index.js) by scanning from its
 * `{%` to the first `%}` outside a quoted string, or to the end of the text: a page of `{%` openers
 * never closed costs time quadratic in its length (10 s for 80 KB, hours for 1 MB). Its three rules
 * that scan are wrapped here so that they give the same tokens in linear time: every opener's end is
 * read from one backward pass over the text (`TagEnds`), an opener without one is refused before
 * Markdoc scans, and Markdoc's rule then sees the text only up to the end found, so its own scan
 * stops there.
 */
import Markdoc from '@markdoc/markdoc';
import type { MarkdownIt, StateBlock, StateCore, StateInline, Token } from 'markdown-it';

const open = '{%';

/** Where `findTagEnd(text, start)` stops, for every start, from one backward pass. */
class TagEnds {
  /** In Markdoc's states: outside quotes (0) and inside them (1); -1 for no end. */
  private readonly outside: Int32Array;
  readonly text: string;

  constructor(text: string) {
    this.text = text;
    const length = text.length;
    const outside = new Int32Array(length + 1).fill(-1);
    const inside = new Int32Array(length + 2).fill(-1);
    for (let position = length - 1; position >= 0; position -= 1) {
      const char = text.charCodeAt(position);
      // `"` switches state; `\` inside quotes skips the next character; `%}` outside quotes ends.
      if (char === 0x22) {
        outside[position] = inside[position + 1] ?? -1;
        inside[position] = outside[position + 1] ?? -1;
      } else {
        outside[position] =
          char === 0x25 && text.charCodeAt(position + 1) === 0x7d ? position : (outside[position + 1] ?? -1);
        inside[position] = char === 0x5c ? (inside[position + 2] ?? -1) : (inside[position + 1] ?? -1);
      }
    }
    this.outside = outside;
  }

  /** The `%}` that ends a tag opened at `start`, or null. */
  endOf(start: number): number | null {
    const end = this.outside[start] ?? -1;
    return end < 0 ? null : end;
  }
}

/** The passes over the last texts asked about (the document, and the inline text being parsed). */
const recent: TagEnds[] = [];
function tagEnds(text: string): TagEnds {
  let ends = recent.find((candidate) => candidate.text === text);
  if (ends === undefined) {
    ends = new TagEnds(text);
    recent.unshift(ends);
    recent.length = Math.min(recent.length, 2);
  }
  return ends;
}

/** Runs `rule` on a state whose text ends just after `end`: everything the rule reads lies before. */
function withTextUpTo<State extends { src: string }>(
  state: State,
  end: number,
  rule: () => boolean,
): boolean {
  const text = state.src;
  state.src = text.slice(0, end);
  try {
    return rule();
  } finally {
    state.src = text;
  }
}

type BlockRule = (state: StateBlock, startLine: number, endLine: number, silent: boolean) => boolean;
type InlineRule = (state: StateInline, silent: boolean) => boolean;
type CoreRule = (state: StateCore) => void;

/** A rule of Markdoc's markdown-it, and the rules it may end (`at` would forget them). */
function ruleNamed<Rule>(ruler: unknown, name: string): { rule: Rule; alt: string[] } {
  const rules = (ruler as { __rules__: Array<{ name: string; fn: Rule; alt: string[] }> }).__rules__;
  const found = rules.find((candidate) => candidate.name === name);
  if (found === undefined) throw new Error(`Markdoc's markdown-it has no rule "${name}"`);
  return { rule: found.fn, alt: [...found.alt] };
}

export function createMarkdocParser(): MarkdownIt {
  const tokenizer = new Markdoc.Tokenizer({ html: true, allowIndentation: true, allowComments: true });
  const parser = (tokenizer as unknown as { parser: MarkdownIt }).parser;
  parser.block.ruler.getRules('reference').length = 0;

  const block = ruleNamed<BlockRule>(parser.block.ruler, 'annotations');
  parser.block.ruler.at(
    'annotations',
    (state, startLine, endLine, silent) => {
      const start = (state.bMarks[startLine] ?? 0) + (state.tShift[startLine] ?? 0);
      if (!state.src.startsWith(open, start)) return false;
      const end = tagEnds(state.src).endOf(start);
      if (end === null) return false;
      const through = Math.max(end + 2, state.eMarks[startLine] ?? 0);
      return withTextUpTo(state, through, () => block.rule(state, startLine, endLine, silent));
    },
    { alt: block.alt },
  );

  const inline = ruleNamed<InlineRule>(parser.inline.ruler, 'containers');
  parser.inline.ruler.at('containers', (state, silent) => {
    if (!state.src.startsWith(open, state.pos)) return false;
    const end = tagEnds(state.src).endOf(state.pos);
    if (end === null) return false;
    return withTextUpTo(state, end + 2, () => inline.rule(state, silent));
  });

  // Tags in code fences (Markdoc reads them unless the fence says `process=false`): an opener that
  // never ends is skipped by Markdoc after its scan, so it is hidden before (its `{` replaced), and the
  // fence's text put back after, in the fence and in its text pieces. (Markdoc counts a tag after
  // such an opener and a line break one line too early: `parseTags` skips the opener and the next
  // character. Its line here is the right one; nothing here reads the lines of tags in fences.)
  const core = ruleNamed<CoreRule>(parser.core.ruler, 'annotations');
  parser.core.ruler.at('annotations', (state) => {
    const fences = state.tokens.filter((token) => token.type === 'fence' && token.content.includes(open));
    const written = fences.map((token) => token.content);
    for (const token of fences) {
      const text = token.content;
      const ends = tagEnds(text);
      const parts: string[] = [];
      let copied = 0;
      // The openers `parseTags` visits: after a tag, from its end; after an opener without one, from
      // its third character on.
      for (let at = text.indexOf(open); at >= 0; ) {
        const end = ends.endOf(at);
        if (end !== null) {
          at = text.indexOf(open, end + 2);
          continue;
        }
        // Not a space: Markdoc compares trimmed lines.
        parts.push(text.slice(copied, at), 'x');
        copied = at + 1;
        at = text.indexOf(open, at + 3);
      }
      parts.push(text.slice(copied));
      token.content = parts.join('');
    }
    try {
      core.rule(state);
    } finally {
      fences.forEach((token, index) => {
        const text = written[index] ?? token.content;
        token.content = text;
        // Markdoc's text pieces are slices of the fence's text from their `start`: the same lengths.
        for (const child of (token.children ?? []) as Array<Token & { start?: unknown }>)
          if (child.type === 'text' && typeof child.start === 'number')
            child.content = text.slice(child.start, child.start + child.content.length);
      });
    }
  });
  return parser;
}
