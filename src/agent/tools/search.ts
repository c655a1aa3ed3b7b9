import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { isBinary } from './file-policy.ts';
import { resolveRepositoryPath } from './path-safety.ts';
import type { RepositoryTool } from './tool-context.ts';
import { ToolError } from './tool-error.ts';
import { walkFiles } from './walk-files.ts';

const maximumMatches = 200;
const maximumLineLength = 240;

export const searchTool: RepositoryTool<{ query: string; path?: string | undefined }> = {
  description:
    'Search text files for a literal string (case-insensitive). Prints "<path>:<line>: <text>" for each match.',
  inputSchema: z.object({
    query: z.string().describe('The text to find (literal, not a regular expression)'),
    path: z.string().optional().describe('A folder or file to search in; the whole repository when omitted'),
  }),
  async execute(input, context) {
    const needle = input.query.toLowerCase();
    if (needle.trim() === '') throw new ToolError('The query is empty; give the text to search for.');
    const scope = await resolveRepositoryPath(context.root, input.path ?? '', { allowRoot: true });
    const scopeStatus = await stat(scope.absolute).catch(() => null);
    if (scopeStatus === null) throw new ToolError(`${scope.relative} does not exist.`);
    const files = scopeStatus.isFile()
      ? [scope.relative]
      : walkFiles(context.root, scope.relative, scope.relative);
    const matches: string[] = [];
    let total = 0;
    for await (const file of files) {
      const absolute = join(context.root, file);
      const size = (await stat(absolute)).size;
      if (size > context.maximumFileBytes) continue;
      const bytes = await readFile(absolute);
      if (isBinary(bytes)) continue;
      const lines = bytes.toString('utf8').split('\n');
      for (const [index, line] of lines.entries()) {
        if (!line.toLowerCase().includes(needle)) continue;
        total += 1;
        if (matches.length < maximumMatches)
          matches.push(`${file}:${index + 1}: ${line.slice(0, maximumLineLength)}`);
      }
    }
    if (total === 0) return `No matches for "${input.query}".`;
    if (total > matches.length)
      matches.push(`... ${total - matches.length} more matches; narrow the search with path.`);
    return matches.join('\n');
  },
};
