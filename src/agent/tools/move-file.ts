import { lstat, mkdir, rename } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import { assertEditable } from './file-policy.ts';
import { resolveRepositoryPath } from './path-safety.ts';
import { type RepositoryTool, recordRemoval, recordWrite } from './tool-context.ts';
import { ToolError } from './tool-error.ts';

export const moveFileTool: RepositoryTool<{ from: string; to: string }> = {
  description:
    'Move or rename a file. The destination must not exist. Update navigation and links that point to the old path.',
  inputSchema: z.object({
    from: z.string().describe('The current path, relative to the repository root'),
    to: z.string().describe('The new path, relative to the repository root'),
  }),
  async execute(input, context) {
    const from = await resolveRepositoryPath(context.root, input.from);
    const to = await resolveRepositoryPath(context.root, input.to);
    if (!(await assertEditable(from))) throw new ToolError(`${from.relative} does not exist.`);
    if ((await lstat(to.absolute).catch(() => null)) !== null) {
      throw new ToolError(`${to.relative} already exists; delete it first or choose another path.`);
    }
    await mkdir(dirname(to.absolute), { recursive: true });
    const checked = await resolveRepositoryPath(context.root, to.relative);
    await rename(from.absolute, checked.absolute);
    recordRemoval(context.changes, from.relative);
    recordWrite(context.changes, to.relative, true);
    if (context.readPaths.delete(from.relative)) context.readPaths.add(to.relative);
    return `Moved ${from.relative} to ${to.relative}.`;
  },
};
