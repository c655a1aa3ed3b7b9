import { lstat } from 'node:fs/promises';
import { matchesGlob, posix } from 'node:path';
import { z } from 'zod';
import { walkFiles } from '../../docs-site/index.ts';
import { resolveRepositoryPath } from './path-safety.ts';
import type { RepositoryTool } from './tool-context.ts';
import { ToolError } from './tool-error.ts';

const maximumEntries = 1000;

export const listFilesTool: RepositoryTool<{ path?: string | undefined; pattern?: string | undefined }> = {
  description:
    'List the files of the repository (or of one folder), one relative path per line. ' +
    'Optional `pattern` is a glob such as "**/*.mdx" or "*.md" (a pattern without "/" matches file names).',
  inputSchema: z.object({
    path: z.string().optional().describe('A folder relative to the repository root; the root when omitted'),
    pattern: z.string().optional().describe('A glob to filter the files, such as "**/*.mdx"'),
  }),
  async execute(input, context) {
    const folder = await resolveRepositoryPath(context.root, input.path ?? '', { allowRoot: true });
    const status = await lstat(folder.absolute).catch(() => null);
    if (status === null) throw new ToolError(`${folder.relative} does not exist.`);
    if (!status.isDirectory())
      throw new ToolError(`${folder.relative} is a file, not a folder; use read_file.`);
    const pattern = input.pattern?.trim() || undefined;
    const lines: string[] = [];
    let total = 0;
    for await (const file of walkFiles(context.root, folder.relative, folder.relative)) {
      if (pattern !== undefined && !matchesPattern(file, folder.relative, pattern)) continue;
      total += 1;
      if (lines.length < maximumEntries) lines.push(file);
    }
    if (total === 0) return pattern === undefined ? 'No files.' : `No files match "${pattern}".`;
    if (total > lines.length)
      lines.push(`... and ${total - lines.length} more; narrow with path or pattern.`);
    return lines.join('\n');
  },
};

function matchesPattern(file: string, folder: string, pattern: string): boolean {
  if (!pattern.includes('/')) return matchesGlob(posix.basename(file), pattern);
  const fromFolder = folder === '' ? file : file.slice(folder.length + 1);
  return matchesGlob(file, pattern) || matchesGlob(fromFolder, pattern);
}
