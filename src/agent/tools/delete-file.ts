import { unlink } from 'node:fs/promises';
import { z } from 'zod';
import { assertEditable } from './file-policy.ts';
import { resolveRepositoryPath } from './path-safety.ts';
import { type RepositoryTool, recordRemoval } from './tool-context.ts';
import { ToolError } from './tool-error.ts';

export const deleteFileTool: RepositoryTool<{ path: string }> = {
  description: 'Delete a file. Remember to remove it from navigation and fix links that point to it.',
  inputSchema: z.object({ path: z.string().describe('The file, relative to the repository root') }),
  async execute(input, context) {
    const path = await resolveRepositoryPath(context.root, input.path);
    if (!(await assertEditable(path))) throw new ToolError(`${path.relative} does not exist.`);
    await unlink(path.absolute);
    context.readPaths.delete(path.relative);
    recordRemoval(context.changes, path.relative);
    return `Deleted ${path.relative}.`;
  },
};
