import { lstat, readFile, stat } from 'node:fs/promises';
import { isBinary } from '../../docs-site/index.ts';
import type { ResolvedPath } from './path-safety.ts';
import { ToolError } from './tool-error.ts';

const decoder = new TextDecoder('utf-8', { fatal: true });
// Keeps a byte order mark as the text's first character, so that writing the text back keeps it.
const bomKeepingDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Reads an existing regular text file within the size limit, or throws a `ToolError` saying why not. */
export async function readTextFile(
  path: ResolvedPath,
  maximumBytes: number,
  options: { keepByteOrderMark?: boolean } = {},
): Promise<string> {
  // `stat`, not `lstat`: a link (already checked to stay inside) is measured by what it points to.
  const status = await stat(path.absolute).catch(() => null);
  if (status === null)
    throw new ToolError(`${path.relative} does not exist. Use list_files to see what exists.`);
  if (status.isDirectory())
    throw new ToolError(`${path.relative} is a directory; use list_files to see inside it.`);
  if (status.size > maximumBytes) {
    throw new ToolError(
      `${path.relative} is ${status.size} bytes, over the ${maximumBytes}-byte limit for files.`,
    );
  }
  const bytes = await readFile(path.absolute);
  if (isBinary(bytes))
    throw new ToolError(`${path.relative} is a binary file; only text files can be read or edited.`);
  return (options.keepByteOrderMark === true ? bomKeepingDecoder : decoder).decode(bytes);
}

/** Refuses to change a path that is a symbolic link or a directory. */
export async function assertEditable(path: ResolvedPath): Promise<boolean> {
  const status = await lstat(path.absolute).catch(() => null);
  if (status === null) return false;
  if (status.isSymbolicLink()) {
    throw new ToolError(`${path.relative} is a symbolic link; change the file it points to instead.`);
  }
  if (!status.isFile()) throw new ToolError(`${path.relative} is not a regular file.`);
  return true;
}

export function assertContentAllowed(relativePath: string, content: string, maximumBytes: number): void {
  if (content.includes('\0'))
    throw new ToolError(`The content for ${relativePath} contains a NUL character.`);
  const bytes = Buffer.byteLength(content, 'utf8');
  if (bytes > maximumBytes) {
    throw new ToolError(
      `The content for ${relativePath} is ${bytes} bytes, over the ${maximumBytes}-byte limit.`,
    );
  }
}
