import { lstat } from 'node:fs/promises';
import { readTextFile } from './tools/file-policy.ts';
import { resolveRepositoryPath } from './tools/path-safety.ts';
import { isToolError } from './tools/tool-error.ts';

const instructionFiles = ['AGENTS.md', '.quire/instructions.md'];
const maximumInstructionBytes = 16 * 1024;

/**
 * The repository's own conventions for the agent (`AGENTS.md`, else `.quire/instructions.md`), read
 * through the tools' path checks and cut to a bounded size. Null when there is none.
 */
export async function readRepositoryInstructions(
  root: string,
): Promise<{ file: string; text: string } | null> {
  for (const file of instructionFiles) {
    try {
      const path = await resolveRepositoryPath(root, file);
      if ((await lstat(path.absolute).catch(() => null)) === null) continue;
      const text = await readTextFile(path, 4 * maximumInstructionBytes);
      return { file, text: text.slice(0, maximumInstructionBytes) };
    } catch (error: unknown) {
      if (!isToolError(error)) throw error;
    }
  }
  return null;
}
