import { unlink } from 'node:fs/promises';
import { z } from 'zod';
import { assertEditable } from './file-policy.ts';
import { keepSiteWhole, redirectsLeftBroken } from './navigation-edits.ts';
import { resolveRepositoryPath } from './path-safety.ts';
import { type RepositoryTool, recordRemoval } from './tool-context.ts';
import { ToolError } from './tool-error.ts';

export const deleteFileTool: RepositoryTool<{ path: string }> = {
  description:
    'Delete a file. Navigation entries that name a deleted page are removed for you where that is safe; the ' +
    'answer lists every inbound link and entry left to fix.',
  inputSchema: z.object({ path: z.string().describe('The file, relative to the repository root') }),
  async execute(input, context) {
    const path = await resolveRepositoryPath(context.root, input.path);
    if (!(await assertEditable(path))) throw new ToolError(`${path.relative} does not exist.`);
    const site = context.site === null ? null : await context.site.current();
    const entries = site?.model.navigation.filter((entry) => entry.target === path.relative) ?? [];
    const links = (await context.site?.inbound(path.relative)) ?? [];
    await unlink(path.absolute);
    context.readPaths.delete(path.relative);
    recordRemoval(context.changes, path.relative);
    const report = await keepSiteWhole(context, { kind: 'delete', path: path.relative }, { entries, links });
    const redirects = await redirectsLeftBroken(context, site?.model);
    return [`Deleted ${path.relative}.`, ...report, ...redirects].join('\n');
  },
};
