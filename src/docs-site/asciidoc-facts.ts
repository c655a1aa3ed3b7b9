import type { PageFacts, PageLink } from './site-model.ts';

// Delimited blocks whose content no macro is read from: listing, literal, passthrough, comment
// (https://docs.asciidoctor.org/asciidoc/latest/blocks/delimited/). Includes are preprocessor
// directives and are read anywhere but in comments.
const verbatimDelimiter = /^(-{4,}|\.{4,}|\+{4,})\s*$/;
const commentDelimiter = /^(\/{4,})\s*$/;
const includePattern = /^include::([^[\s][^[]*)\[/;
// `[source,yaml]` (also opening a table cell, `|[source]`) makes the next paragraph a listing.
const verbatimStyle = /(^|\|)\s*\[(source|listing|literal)(,[^\]]*)?\]\s*$/;
const blockImagePattern = /^image::([^[\s][^[]*)\[/;
// `xref:target[text]`, `image:target[alt]` (inline), `<<target,text>>`; escaped with `\` they are text.
// Each target stops at the next macro's name or `<`, so no line makes the search quadratic.
const inlinePattern =
  /(\\?)(?:xref:((?:(?!xref:)[^\s[\]])+)\[|image:(?!:)((?:(?!image:)[^\s[\]])+)\[|<<([^\s,<>]+)(?:,[^<>]*)?>>)/g;
// `ifdef::a[]`, `ifndef::a,b[]`, `ifeval::[...]` open a block (a one-line `ifdef::a[text]` does not).
const conditionalStart = /^(?:ifn?def::[^[\s]+\[\]|ifeval::\[.*\])\s*$/;
const conditionalEnd = /^endif::[^[\s]*\[\]\s*$/;
const attributeEntryPattern = /^:([\w-]+!?):(?:[ \t]+(.*))?$/;

/**
 * The links of an AsciiDoc page as Asciidoctor reads them, and its header (as `frontMatter`: the
 * document attributes set before the first blank line, such as `:page-aliases:`): `xref:` macros
 * and `<<page.adoc#,...>>` cross references (kept as `xref:` targets), `image::`/`image:` targets,
 * and `include::` directives (kind `import`). Single-line (`//`) and block (`////`) comments hold
 * none; listing, literal and passthrough blocks hold no macros but their includes still count.
 */
export function readAsciidocFacts(text: string): PageFacts {
  const lines = text.split(/\r?\n/);
  const links: PageLink[] = [];
  const header: Record<string, string> = {};
  let title: string | null = null;
  let inHeader = true;
  let verbatim: string | null = null;
  let verbatimParagraph = false;
  let comment: string | null = null;
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
      continue;
    }
    if (line.startsWith('//')) continue;
    if (inHeader) {
      const attribute = attributeEntryPattern.exec(line);
      if (index === 0 && line.startsWith('= ')) title = line.slice(2).trim();
      else if (attribute !== null) header[attribute[1] ?? ''] = (attribute[2] ?? '').trim();
      else if (line.trim() === '' && index > 0) inHeader = false;
      else if (index > 0 && title === null) inHeader = false;
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
    const delimiter = verbatimDelimiter.exec(line);
    if (verbatimParagraph && (delimiter !== null || line.trim() === '')) verbatimParagraph = false;
    if (verbatimStyle.test(line)) {
      verbatimParagraph = true;
      continue;
    }
    if (delimiter !== null) {
      if (verbatim === null) verbatim = delimiter[1] ?? null;
      else if (delimiter[1] === verbatim) verbatim = null;
      continue;
    }
    if (verbatim !== null || verbatimParagraph) continue;
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
        if (/\.adoc(#|$)/.test(target)) push({ url: `xref:${target}`, line: number, kind: 'link' });
      }
    }
  }
  return { frontMatter: Object.keys(header).length > 0 ? header : null, title, links };
}
