import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import { assertContentAllowed, assertEditable, readTextFile } from './file-policy.ts';
import { resolveRepositoryPath } from './path-safety.ts';
import { type RepositoryTool, recordWrite, rememberOriginal } from './tool-context.ts';
import { ToolError } from './tool-error.ts';

export const writeFileTool: RepositoryTool<{ path: string; content: string }> = {
  description:
    'Create a file, or replace the whole content of a file you have read in this run. Folders are created as ' +
    'needed. Prefer edit_file for changes to existing files.',
  inputSchema: z.object({
    path: z.string().describe('The file, relative to the repository root'),
    content: z.string().describe('The complete new content of the file'),
  }),
  async execute(input, context) {
    const path = await resolveRepositoryPath(context.root, input.path);
    const exists = await assertEditable(path);
    if (exists && !context.readPaths.has(path.relative)) {
      throw new ToolError(`${path.relative} already exists; read it with read_file before replacing it.`);
    }
    assertContentAllowed(path.relative, input.content, context.maximumFileBytes);
    if (exists)
      rememberOriginal(
        context.changes,
        path.relative,
        await readTextFile(path, context.maximumFileBytes, { keepByteOrderMark: true }).catch(() => ''),
      );
    await mkdir(dirname(path.absolute), { recursive: true });
    // Resolved again now that the folders exist, in case one of them was a link.
    const checked = await resolveRepositoryPath(context.root, path.relative);
    await writeFile(checked.absolute, input.content);
    context.readPaths.add(path.relative);
    recordWrite(context.changes, path.relative, !exists);
    return `${exists ? 'Replaced' : 'Created'} ${path.relative} (${input.content.split('\n').length} lines).`;
  },
};
