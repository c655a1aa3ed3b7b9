import { lstat, mkdir, readFile, rename } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import { assertEditable } from './file-policy.ts';
import { keepSiteWhole, redirectsLeftBroken } from './navigation-edits.ts';
import { resolveRepositoryPath } from './path-safety.ts';
import { type RepositoryTool, recordMove } from './tool-context.ts';
import { ToolError } from './tool-error.ts';

export const moveFileTool: RepositoryTool<{ from: string; to: string }> = {
  description:
    'Move or rename a file. The destination must not exist. Navigation entries that name a moved page are ' +
    'updated for you where that is unambiguous; the answer lists every inbound link and entry left to update.',
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
    // What names the page, found by route in the site as it is before the move.
    const site = context.site === null ? null : await context.site.current();
    const entries = site?.model.navigation.filter((entry) => entry.target === from.relative) ?? [];
    const links = (await context.site?.inbound(from.relative)) ?? [];
    if (!context.changes.originals.has(from.relative) && !context.changes.created.has(from.relative)) {
      const text = await readFile(from.absolute, 'utf8').catch(() => null);
      if (text !== null) context.changes.originals.set(from.relative, text);
    }
    await mkdir(dirname(to.absolute), { recursive: true });
    const checked = await resolveRepositoryPath(context.root, to.relative);
    await rename(from.absolute, checked.absolute);
    recordMove(context.changes, from.relative, to.relative);
    if (context.readPaths.delete(from.relative)) context.readPaths.add(to.relative);
    const report = await keepSiteWhole(
      context,
      { kind: 'move', from: from.relative, to: to.relative },
      { entries, links, byFileName: site?.model.navigationByFileName === true },
    );
    const redirects = await redirectsLeftBroken(context, site?.model);
    return [`Moved ${from.relative} to ${to.relative}.`, ...report, ...redirects].join('\n');
  },
};
