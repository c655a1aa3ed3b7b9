import type { PageFacts, PageLink } from './site-model.ts';

// Delimited blocks whose content no macro is read from: listing, literal, passthrough, comment
// (https://docs.asciidoctor.org/asciidoc/latest/blocks/delimited/). Includes are preprocessor
// directives and are read anywhere but in comments.
// Markdown-style fences (```` ```ruby ````) are listing blocks too.
const verbatimDelimiter = /^(-{4,}|\.{4,}|\+{4,})\s*$|^(`{3,})[\w+#.-]*\s*$/;
const commentDelimiter = /^(\/{4,})\s*$/;
const includePattern = /^include::([^[\s][^[]*)\[/;
// `[source,yaml]` (also opening a table cell, `|[source]`) makes the next paragraph a listing.
const verbatimStyle = /^\s*\|?\s*\[(source|listing|literal)(,[^\]]*)?\]\s*$/;
const blockImagePattern = /^image::([^[\s][^[]*)\[/;
// `xref:target[text]`, `image:target[alt]` (inline), `<<target,text>>`; escaped with `\` they are text.
// Each target stops at the next macro's name or `<`, so no line makes the search quadratic.
const inlinePattern =
  /(\\?)(?:xref:((?:(?!xref:)[^\s[\]])+)\[|image:(?!:)((?:(?!image:)[^\s[\]])+)\[|<<([^\s,<>]+)(?:,[^<>]*)?>>)/g;
// `ifdef::a[]`, `ifndef::a,b[]`, `ifeval::[...]` open a block (a one-line `ifdef::a[text]` does not).
const conditionalStart = /^(?:ifn?def::[^[\s]+\[\]|ifeval::\[.*\])\s*$/;
const conditionalEnd = /^endif::[^[\s]*\[\]\s*$/;
// Example, sidebar, quote, open and table delimiters (https://docs.asciidoctor.org/asciidoc/latest/blocks/delimited/).
const compoundDelimiterPattern = /^(={4,}|\*{4,}|_{4,}|--|[|,:!]={3,})\s*$/;
const blockNames: Record<string, string> = {
  '-': 'listing',
  '`': 'listing',
  '.': 'literal',
  '+': 'pass',
  '=': 'example',
  '*': 'sidebar',
  _: 'quote',
  '|': 'table',
  ',': 'table',
  ':': 'table',
  '!': 'table',
};
// A section title: `==` to `======` (or Markdown's `##`) and its text (https://docs.asciidoctor.org/asciidoc/latest/sections/titles-and-levels/).
const headingPattern = /^(={1,6}|#{1,6})[ \t]+\S/;
const attributeEntryPattern = /^:([\w-]+!?):(?:[ \t]+(.*))?$/;

/**
 * The links of an AsciiDoc page as Asciidoctor reads them, and its header (as `frontMatter`: the
 * document attributes set before the first blank line, such as `:page-aliases:`): `xref:` macros
 * and `<<page.adoc#,...>>` cross references (kept as `xref:` targets), `image::`/`image:` targets,
 * and `include::` directives (kind `import`). Single-line (`//`) and block (`////`) comments hold
 * none; listing, literal and passthrough blocks hold no macros but their includes still count.
 * `warnings` are what Asciidoctor warns about: blocks never closed, section levels skipped.
 */
export function readAsciidocFacts(text: string): PageFacts {
  const lines = text.split(/\r?\n/);
  const links: PageLink[] = [];
  const header: Record<string, string> = {};
  let title: string | null = null;
  let inHeader = true;
  let verbatim: string | null = null;
  let verbatimLine = 0;
  let verbatimParagraph = false;
  let comment: string | null = null;
  let commentLine = 0;
  // Open example, sidebar, quote, open and table blocks, innermost last.
  const compound: Array<{ delimiter: string; line: number }> = [];
  const warnings: Array<{ line: number; message: string }> = [];
  let sectionLevel = 0;
  let previous = '';
  let afterBlank = true;
  // Open preprocessor conditionals (https://docs.asciidoctor.org/asciidoc/latest/directives/conditionals/).
  let conditionals = 0;
  const push = (link: PageLink) => links.push(conditionals > 0 ? { ...link, conditional: true } : link);
  for (const [index, line] of lines.entries()) {
    const number = index + 1;
    if (comment !== null) {
      if (line.trimEnd() === comment) comment = null;
      continue;
    }
    const commentStart = commentDelimiter.exec(line);
    if (commentStart !== null && verbatim === null) {
      comment = commentStart[1] ?? '////';
      commentLine = number;
      continue;
    }
    if (line.startsWith('//')) continue;
    if (inHeader) {
      const attribute = attributeEntryPattern.exec(line);
      // The document title: the first `= ` line, after nothing but anchors, attributes and blank lines.
      if (title === null && line.startsWith('= ')) title = line.slice(2).trim();
      else if (attribute !== null) header[attribute[1] ?? ''] = (attribute[2] ?? '').trim();
      else if (line.trim() === '' && title !== null) inHeader = false;
      else if (title === null && line.trim() !== '' && !/^\[\[[^\]]*\]\]\s*$|^\[#[^\]]*\]\s*$/.test(line))
        inHeader = false;
    }
    if (conditionalStart.test(line)) {
      conditionals += 1;
      continue;
    }
    if (conditionalEnd.test(line)) {
      conditionals = Math.max(0, conditionals - 1);
      continue;
    }
    const include = includePattern.exec(line);
    if (include !== null) {
      push({ url: (include[1] ?? '').trim(), line: number, kind: 'import' });
      continue;
    }
    // `[source]` over an open block (`--`) makes the block a listing.
    const delimiterMatch = verbatimDelimiter.exec(line);
    const delimiter: string | null =
      (verbatimParagraph || verbatim === '--') && line.trimEnd() === '--'
        ? '--'
        : (delimiterMatch?.[1] ?? delimiterMatch?.[2] ?? null);
    // A verbatim paragraph ends at a blank line, or at a delimiter (a table's end in a cell).
    if (
      verbatimParagraph &&
      (delimiter !== null || line.trim() === '' || compoundDelimiterPattern.test(line))
    )
      verbatimParagraph = false;
    if (verbatimStyle.test(line)) {
      verbatimParagraph = true;
      continue;
    }
    // A paragraph whose first line is indented is a literal paragraph (not a list item, nor in a
    // block, whose content may be indented): no macro runs in it.
    if (
      verbatim === null &&
      compound.length === 0 &&
      afterBlank &&
      /^[ \t]+\S/.test(line) &&
      !/^[ \t]+([*.-]+|\d+\.|[a-zA-Z]\.|<\d+>)[ \t]/.test(line)
    ) {
      verbatimParagraph = true;
      afterBlank = false;
      continue;
    }
    afterBlank = line.trim() === '';
    if (delimiter !== null) {
      if (verbatim === null) {
        verbatim = delimiter;
        verbatimLine = number;
      } else if (delimiter === verbatim && (line.trim() === delimiter || !delimiter.startsWith('`')))
        verbatim = null;
      continue;
    }
    if (verbatim !== null || verbatimParagraph) continue;
    const compoundDelimiter = compoundDelimiterPattern.exec(line)?.[1];
    if (compoundDelimiter !== undefined) {
      if (compound.at(-1)?.delimiter === compoundDelimiter) compound.pop();
      else compound.push({ delimiter: compoundDelimiter, line: number });
      continue;
    }
    // Section levels are checked in a page with a title; a partial's depend on where it is included.
    const heading = compound.length === 0 && title !== null && !inHeader ? headingPattern.exec(line) : null;
    if (heading !== null && !/^\[(discrete|float)\b/.test(previous)) {
      const level = (heading[1] ?? '').length - 1;
      if (level === 0 && header.doctype !== 'book')
        warnings.push({ line: number, message: 'level 0 sections can only be used when doctype is book' });
      else if (level > sectionLevel + 1)
        warnings.push({
          line: number,
          message: `section title out of sequence: expected level ${sectionLevel + 1}, got level ${level}`,
        });
      sectionLevel = level;
    }
    if (line.trim() !== '') previous = line;
    const image = blockImagePattern.exec(line);
    if (image !== null) push({ url: (image[1] ?? '').trim(), line: number, kind: 'image' });
    if (!line.includes('xref:') && !line.includes('image:') && !line.includes('<<')) continue;
    for (const match of line.matchAll(inlinePattern)) {
      if (match[1] === '\\') continue;
      if (match[2] !== undefined) push({ url: `xref:${match[2]}`, line: number, kind: 'link' });
      else if (match[3] !== undefined) push({ url: match[3], line: number, kind: 'image' });
      else if (match[4] !== undefined) {
        // `<<page.adoc#,text>>` names a page; `<<anchor>>` a place in this one.
        const target = match[4].trim();
        if (/\.adoc(#|$)|^[^#]+#/.test(target)) push({ url: `xref:${target}`, line: number, kind: 'link' });
      }
    }
  }
  // What Asciidoctor warns about at the end of the document: blocks never closed.
  if (comment !== null) warnings.push({ line: commentLine, message: 'unterminated comment block' });
  if (verbatim !== null)
    warnings.push({
      line: verbatimLine,
      message: `unterminated ${verbatim === '--' ? 'listing' : (blockNames[verbatim[0] ?? ''] ?? 'listing')} block`,
    });
  for (const block of compound)
    warnings.push({
      line: block.line,
      message: `unterminated ${block.delimiter === '--' ? 'open' : (blockNames[block.delimiter[0] ?? ''] ?? 'open')} block`,
    });
  warnings.sort((left, right) => left.line - right.line);
  return { frontMatter: Object.keys(header).length > 0 ? header : null, title, links, warnings };
}
