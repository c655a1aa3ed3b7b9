import { visit } from 'jsonc-parser';

/**
 * The Markdown of a Jupyter notebook, each line of its Markdown cells at the line of the notebook's
 * JSON where that source line is written, every other line blank; so links and headings read from
 * it point at lines of the file, and blank lines keep the cells apart. nbformat 4 keeps cells in
 * `cells`, each with `cell_type` and `source`, a string or a list of strings joined without a
 * separator (https://nbformat.readthedocs.io/en/latest/format_description.html); Jupyter writes one
 * source line per list item, one per line of the file. A cell written on one line of the file (a
 * notebook saved without indentation) takes the lines after it.
 *
 * `frontMatter`: Quarto reads a first raw cell that starts with `---` as the page's front matter
 * (https://quarto.org/docs/tools/jupyter-lab.html#yaml-front-matter); it is placed at the top.
 * Returns null for a text that is no notebook (no `cells` list, or JSON nested past the parser).
 */
export function notebookMarkdown(text: string, options: { frontMatter: boolean }): string | null {
  const cells: Array<{ type: string; source: Array<{ line: number; value: string }> }> = [];
  let hasCells = false;
  // How many objects and arrays are open: the path (a copy each time) is asked for only where a
  // cell's type or source can be, not for every string of every output.
  let depth = 0;
  try {
    visit(text, {
      onArrayBegin(_offset, _length, _line, _character, path) {
        if (depth === 1 && path()[0] === 'cells') hasCells = true;
        depth += 1;
      },
      onObjectBegin(_offset, _length, _line, _character, path) {
        if (depth === 2) {
          const at = path();
          if (at[0] === 'cells' && typeof at[1] === 'number') cells[at[1]] = { type: '', source: [] };
        }
        depth += 1;
      },
      onArrayEnd() {
        depth -= 1;
      },
      onObjectEnd() {
        depth -= 1;
      },
      onLiteralValue(value, _offset, _length, line, _character, path) {
        if (typeof value !== 'string' || depth < 3 || depth > 4) return;
        const at = path();
        if (at[0] !== 'cells' || typeof at[1] !== 'number' || at.length > 4) return;
        const cell = cells[at[1]];
        if (cell === undefined) return;
        if (at.length === 3 && at[2] === 'cell_type') cell.type = value;
        else if (at[2] === 'source' && (at.length === 3 || typeof at[3] === 'number'))
          cell.source.push({ line, value });
      },
    });
  } catch {
    // The parser recurses: JSON nested thousands deep exhausts the stack. No notebook is.
    return null;
  }
  if (!hasCells) return null;

  const lines: string[] = [];
  let next = 0;
  const place = (line: number, value: string) => {
    const at = Math.max(line, next);
    while (lines.length < at) lines.push('');
    lines.push(value);
    next = at + 1;
  };
  const placeCell = (source: Array<{ line: number; value: string }>) => {
    // Source items join into lines; each line starts at the file line of the item it starts in.
    let current = '';
    let startLine: number | null = null;
    for (const { line, value } of source) {
      const pieces = value.split(/\r?\n/);
      for (const [index, piece] of pieces.entries()) {
        if (index > 0) {
          place(startLine ?? line, current);
          current = '';
          startLine = null;
        }
        // A line that starts after a line break inside a one-line item has no line of its own.
        startLine ??= index === 0 ? line : next;
        current += piece;
      }
    }
    if (startLine !== null && current !== '') place(startLine, current);
    // Each cell is read on its own: a code fence it leaves open is closed where the cell ends.
    const fence = openFence(source.map((item) => item.value).join(''));
    if (fence !== null) place(next, fence);
    next += 1;
  };

  const first = cells.find((cell) => cell !== undefined);
  if (options.frontMatter && first?.type === 'raw') {
    const source = first.source.map((item) => item.value).join('');
    if (/^---\r?\n/.test(source)) placeCell(first.source.map((item, index) => ({ ...item, line: index })));
  }
  for (const cell of cells) if (cell?.type === 'markdown') placeCell(cell.source);
  return lines.join('\n');
}

/** The fence a cell's Markdown leaves open (its opening run of backticks or tildes), or null. */
function openFence(markdown: string): string | null {
  let open: string | null = null;
  for (const line of markdown.split(/\r?\n/)) {
    const run = /^[ \t]{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (run === undefined) continue;
    if (open === null) open = run;
    else if (run[0] === open[0] && run.length >= open.length && line.trim() === run) open = null;
  }
  return open;
}
