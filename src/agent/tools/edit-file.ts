import { writeFile } from 'node:fs/promises';
import { z } from 'zod';
import { assertContentAllowed, assertEditable, readTextFile } from './file-policy.ts';
import { resolveRepositoryPath } from './path-safety.ts';
import { type RepositoryTool, recordWrite, rememberOriginal } from './tool-context.ts';
import { ToolError } from './tool-error.ts';

interface EditFileInput {
  path: string;
  old_string: string;
  new_string: string;
  replace_all?: boolean | undefined;
}

export const editFileTool: RepositoryTool<EditFileInput> = {
  description:
    'Replace text in a file that you have read with read_file in this run. `old_string` must match the file ' +
    'exactly (whitespace included, without the line numbers read_file shows) and occur once, unless ' +
    '`replace_all` is true.',
  inputSchema: z.object({
    path: z.string().describe('The file, relative to the repository root'),
    old_string: z.string().describe('The exact text to replace'),
    new_string: z.string().describe('The text to put in its place'),
    replace_all: z.boolean().optional().describe('Replace every occurrence instead of exactly one'),
  }),
  async execute(input, context) {
    const path = await resolveRepositoryPath(context.root, input.path);
    if (!(await assertEditable(path))) {
      throw new ToolError(`${path.relative} does not exist. Use write_file to create a new file.`);
    }
    if (!context.readPaths.has(path.relative)) {
      throw new ToolError(`Read ${path.relative} with read_file before editing it.`);
    }
    if (input.old_string === '') throw new ToolError('old_string is empty; give the exact text to replace.');
    if (input.old_string === input.new_string) throw new ToolError('old_string and new_string are the same.');
    // A byte order mark (common in .NET repositories' files) stays: the edit changes only what it names.
    const text = await readTextFile(path, context.maximumFileBytes, { keepByteOrderMark: true });
    const occurrences = text.split(input.old_string).length - 1;
    if (occurrences === 0) {
      throw new ToolError(
        `old_string was not found in ${path.relative}. It must match the file exactly, including whitespace and ` +
          'line breaks, and without line numbers; read the file again and copy the text.',
      );
    }
    if (occurrences > 1 && input.replace_all !== true) {
      throw new ToolError(
        `old_string occurs ${occurrences} times in ${path.relative}. Include more surrounding text to make it ` +
          'unique, or set replace_all to true to replace every occurrence.',
      );
    }
    const firstAt = text.indexOf(input.old_string);
    const updated =
      input.replace_all === true
        ? text.split(input.old_string).join(input.new_string)
        : text.replace(input.old_string, () => input.new_string);
    assertContentAllowed(path.relative, updated, context.maximumFileBytes);
    rememberOriginal(context.changes, path.relative, text);
    await writeFile(path.absolute, updated);
    recordWrite(context.changes, path.relative, false);
    const replaced = input.replace_all === true ? occurrences : 1;
    const region = editedRegion(updated, firstAt, input.new_string.length);
    return `Edited ${path.relative}: ${replaced} replacement${replaced === 1 ? '' : 's'}. ${
      replaced > 1 ? 'The first edited region' : 'The edited region'
    } now reads:\n${region}`;
  },
};

const regionContextLines = 2;
const maximumRegionLines = 40;

/** The lines around an edit, numbered like read_file, so the model can check it without reading again. */
function editedRegion(text: string, start: number, length: number): string {
  const lines = text.split('\n');
  const firstLine = text.slice(0, start).split('\n').length - 1;
  const lastLine = firstLine + text.slice(start, start + length).split('\n').length - 1;
  const from = Math.max(0, firstLine - regionContextLines);
  const to = Math.min(lines.length - 1, lastLine + regionContextLines, from + maximumRegionLines - 1);
  const shown = lines.slice(from, to + 1).map((line, index) => `${from + index + 1}\t${line}`);
  if (to < lastLine + regionContextLines && to < lines.length - 1)
    shown.push('(the edit continues; read_file shows the rest)');
  return shown.join('\n');
}
