import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { mdxFromMarkdown } from 'mdast-util-mdx';
import { gfm } from 'micromark-extension-gfm';
import { mdxjs } from 'micromark-extension-mdxjs';
import { parseDocument } from 'yaml';

import { readAsciidocFacts } from './asciidoc-facts.ts';
import { readRstFacts } from './rst-facts.ts';
import type { PageFacts, SiteProblem } from './site-model.ts';

/**
 * The syntax errors of one Markdown (`.md`) or MDX (`.mdx`) page and of its front matter, with file
 * and line, as the MDX compiler reports them (an unclosed JSX tag, a stray `{`). It is the full
 * micromark parse, about 20 times slower than reading a page's links, so only changed pages get it.
 * A reStructuredText (`.rst`) or AsciiDoc (`.adoc`) page gets what its own parser warns about instead,
 * and a notebook (`.ipynb`) whether Jupyter can still open it.
 */
export function checkPageSyntax(file: string, text: string): SiteProblem[] {
  const lower = file.toLowerCase();
  if (lower.endsWith('.rst')) return parserWarnings(file, readRstFacts(text), 'reStructuredText');
  if (lower.endsWith('.adoc')) return parserWarnings(file, readAsciidocFacts(text), 'AsciiDoc');
  if (lower.endsWith('.ipynb')) return notebookProblems(file, text);
  const problems: SiteProblem[] = [];
  let body = text;
  const frontMatter = /^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n|$)/.exec(text);
  if (frontMatter !== null) {
    const document = parseDocument(frontMatter[1] ?? '', { prettyErrors: true });
    for (const error of document.errors) {
      problems.push({
        file,
        line: (error.linePos?.[0]?.line ?? 0) + 1,
        message: `Front matter: ${error.message.split('\n')[0]}`,
        key: `syntax\0Front matter: ${error.message.split('\n')[0]}`,
      });
    }
    // Blank lines keep line numbers of the body the same as in the file.
    body = '\n'.repeat(frontMatter[0].split('\n').length - 1) + text.slice(frontMatter[0].length);
  }
  const isMdx = file.toLowerCase().endsWith('.mdx');
  try {
    fromMarkdown(body, {
      extensions: isMdx ? [mdxjs(), gfm()] : [gfm()],
      mdastExtensions: isMdx ? [mdxFromMarkdown(), gfmFromMarkdown()] : [gfmFromMarkdown()],
    });
  } catch (error: unknown) {
    const located = (typeof error === 'object' && error !== null ? error : {}) as {
      line?: unknown;
      column?: unknown;
      reason?: unknown;
      message?: unknown;
    };
    const reason = String(located.reason ?? located.message ?? error);
    // Some errors (an unclosed tag) carry their place only in the text: "... (5:1-5:17)".
    const place = /\((\d+):(\d+)(?:-\d+:\d+)?\)\s*$/.exec(reason);
    const line = typeof located.line === 'number' ? located.line : Number(place?.[1] ?? 1);
    const column =
      typeof located.column === 'number' ? located.column : place === null ? undefined : Number(place[2]);
    const message = `${isMdx ? 'MDX' : 'Markdown'} syntax error: ${reason}`;
    problems.push({
      file,
      line,
      ...(column === undefined ? {} : { column }),
      message,
      key: `syntax\0${message.replace(/\s*\(\d+:\d+(-\d+:\d+)?\)\s*$/, '')}`,
    });
  }
  return problems;
}

/**
 * A notebook edited as text must stay a notebook: JSON (V8's message says where it stops being
 * JSON) with a `cells` list of cells that each have a type and a source (nbformat 4,
 * https://nbformat.readthedocs.io/en/latest/format_description.html).
 */
function notebookProblems(file: string, text: string): SiteProblem[] {
  const problem = (line: number, message: string): SiteProblem[] => [
    {
      file,
      line,
      message: `Notebook: ${message}`,
      key: `syntax\0Notebook: ${message.replace(/ at position .*$/, '')}`,
    },
  ];
  let notebook: unknown;
  try {
    notebook = JSON.parse(text);
  } catch (error: unknown) {
    const message = error instanceof Error ? error.message : String(error);
    return problem(Number(/\(line (\d+) column \d+\)/.exec(message)?.[1] ?? 1), `not valid JSON: ${message}`);
  }
  const cells =
    typeof notebook === 'object' && notebook !== null ? (notebook as { cells?: unknown }).cells : undefined;
  if (!Array.isArray(cells)) return problem(1, 'no `cells` list, so Jupyter cannot open it');
  const index = cells.findIndex(
    (cell) =>
      typeof cell !== 'object' ||
      cell === null ||
      typeof (cell as { cell_type?: unknown }).cell_type !== 'string' ||
      !(
        typeof (cell as { source?: unknown }).source === 'string' ||
        Array.isArray((cell as { source?: unknown }).source)
      ),
  );
  return index < 0 ? [] : problem(1, `cell ${index + 1} has no \`cell_type\` or no \`source\``);
}

/**
 * What a page's own parser warns about in its syntax: docutils for reStructuredText (rst-facts.ts:
 * title adornments too short or mismatched, explicit markup ending without a blank line, inline
 * markup never closed; Sphinx projects often build with warnings as errors, `-W`), Asciidoctor for
 * AsciiDoc (asciidoc-facts.ts: blocks never closed, section levels skipped).
 */
function parserWarnings(file: string, facts: PageFacts, language: string): SiteProblem[] {
  return (facts.warnings ?? []).map(({ line, message }) => ({
    file,
    line,
    message: `${language}: ${message}`,
    key: `syntax\0${language}: ${message}`,
  }));
}
