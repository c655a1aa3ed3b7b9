import type { z } from 'zod';

/** What a tool may touch during one run: the worktree, and nothing else. */
export interface ToolContext {
  /** The worktree root (real path); every path is resolved inside it. */
  root: string;
  maximumFileBytes: number;
  /** Relative paths read (or written) in this run; `edit_file` and overwriting need it. */
  readPaths: Set<string>;
  /** What this run changed, for validation (which checks changed pages only, so it stays fast). */
  changes: RunChanges;
  /** Runs the repository's validation and returns the report the model sees. */
  validate(): Promise<{ ok: boolean; report: string }>;
}

export interface RunChanges {
  changed: Set<string>;
  created: Set<string>;
  removed: Set<string>;
  /** The content of each changed file before this run first changed it (for telling old problems from new). */
  originals: Map<string, string>;
}

export function createRunChanges(): RunChanges {
  return { changed: new Set(), created: new Set(), removed: new Set(), originals: new Map() };
}

export function recordWrite(changes: RunChanges, path: string, created: boolean): void {
  changes.changed.add(path);
  if (created && !changes.removed.delete(path)) changes.created.add(path);
}

export function rememberOriginal(changes: RunChanges, path: string, content: string): void {
  if (!changes.originals.has(path) && !changes.created.has(path)) changes.originals.set(path, content);
}

export function recordRemoval(changes: RunChanges, path: string): void {
  changes.changed.delete(path);
  if (!changes.created.delete(path)) changes.removed.add(path);
}

/** One tool: its input schema (the contract in DESIGN.md §3) and what it does. */
export interface RepositoryTool<Input> {
  description: string;
  inputSchema: z.ZodType<Input>;
  execute(input: Input, context: ToolContext): Promise<string>;
}
