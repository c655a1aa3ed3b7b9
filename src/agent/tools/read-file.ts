import { z } from 'zod';
import { readTextFile } from './file-policy.ts';
import { resolveRepositoryPath } from './path-safety.ts';
import type { RepositoryTool } from './tool-context.ts';
import { ToolError } from './tool-error.ts';

const defaultLineLimit = 400;

export const readFileTool: RepositoryTool<{
  path: string;
  offset?: number | undefined;
  limit?: number | undefined;
}> = {
  description:
    'Read a text file. Lines are numbered ("<number>\\t<text>"); the numbers are not part of the file. ' +
    `Reads ${defaultLineLimit} lines from \`offset\` (1-based) unless \`limit\` says otherwise.`,
  inputSchema: z.object({
    path: z.string().describe('The file, relative to the repository root'),
    offset: z.number().int().min(1).optional().describe('The first line to read, 1-based'),
    limit: z.number().int().min(1).optional().describe('How many lines to read'),
  }),
  async execute(input, context) {
    const path = await resolveRepositoryPath(context.root, input.path);
    const text = await readTextFile(path, context.maximumFileBytes);
    context.readPaths.add(path.relative);
    if (text === '') return `${path.relative} is empty.`;
    const lines = text.split('\n');
    if (lines.at(-1) === '') lines.pop();
    const offset = input.offset ?? 1;
    if (offset > lines.length)
      throw new ToolError(`${path.relative} has ${lines.length} lines; offset ${offset} is past the end.`);
    const limit = input.limit ?? defaultLineLimit;
    const end = Math.min(lines.length, offset - 1 + limit);
    const numbered = lines.slice(offset - 1, end).map((line, index) => `${offset + index}\t${line}`);
    if (end < lines.length)
      numbered.push(`(${lines.length - end} more lines; read on with offset ${end + 1})`);
    return numbered.join('\n');
  },
};
