import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { isBinary, walkFiles } from '../../docs-site/index.ts';
import { resolveRepositoryPath } from './path-safety.ts';
import type { RepositoryTool } from './tool-context.ts';
import { ToolError } from './tool-error.ts';

const maximumMatches = 60;
const contextLines = 2;
const maximumLineLength = 400;

export const searchTool: RepositoryTool<{ query: string; path?: string | undefined }> = {
  description:
    'Search text files for a literal string (case-insensitive). Prints each match with two lines around it, ' +
    'numbered like read_file ("<path>:<line>" then the lines, the matching one marked with ">").',
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
    const files: string[] = [];
    if (scopeStatus.isFile()) files.push(scope.relative);
    else for await (const file of walkFiles(context.root, scope.relative, scope.relative)) files.push(file);
    // Content first: files in hidden folders (.github, .vitepress) after the rest.
    const hidden = (file: string) => file.split('/').some((segment) => segment.startsWith('.'));
    files.sort((left, right) => Number(hidden(left)) - Number(hidden(right)));

    const blocks: string[] = [];
    let total = 0;
    for (const file of files) {
      const absolute = join(context.root, file);
      const size = (await stat(absolute)).size;
      if (size > context.maximumFileBytes) continue;
      const bytes = await readFile(absolute);
      if (isBinary(bytes)) continue;
      const lines = bytes.toString('utf8').split('\n');
      let shownUntil = -1;
      for (const [index, line] of lines.entries()) {
        if (!line.toLowerCase().includes(needle)) continue;
        total += 1;
        if (blocks.length >= maximumMatches || index <= shownUntil) continue;
        const first = Math.max(0, index - contextLines);
        const last = Math.min(lines.length - 1, index + contextLines);
        const shown: string[] = [`${file}:${index + 1}`];
        for (let number = first; number <= last; number += 1) {
          const text = lines[number] ?? '';
          const marker = text.toLowerCase().includes(needle) ? '>' : ' ';
          const cut = text.length > maximumLineLength ? `${text.slice(0, maximumLineLength)}…` : text;
          shown.push(`${marker}${String(number + 1).padStart(6)}\t${cut}`);
        }
        shownUntil = last;
        blocks.push(shown.join('\n'));
      }
    }
    if (total === 0) return `No matches for "${input.query}".`;
    const shownMatches = blocks.length;
    if (total > shownMatches && blocks.length >= maximumMatches) {
      blocks.push(`... more matches (${total} lines in all); narrow the search with path.`);
    }
    return blocks.join('\n\n');
  },
};
