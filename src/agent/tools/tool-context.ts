import type { z } from 'zod';
import type { SiteSession, SiteValidation } from '../site-session.ts';

/** What a tool may touch during one run: the worktree, and nothing else. */
export interface ToolContext {
  /** The worktree root (real path); every path is resolved inside it. */
  root: string;
  maximumFileBytes: number;
  /** Relative paths read (or written) in this run; `edit_file` and overwriting need it. */
  readPaths: Set<string>;
  /** What this run changed, for validation (which checks changed pages only, so it stays fast). */
  changes: RunChanges;
  /** Runs the repository's validation: the problems this run introduced, and what was there before. */
  validate(): Promise<SiteValidation>;
  /** The documentation site, for tools that keep navigation whole and find inbound links; null without one. */
  site: SiteSession | null;
}

export interface RunChanges {
  changed: Set<string>;
  created: Set<string>;
  removed: Set<string>;
  /** The content of each changed file before this run first changed it (for telling old problems from new). */
  originals: Map<string, string>;
  /** A moved file's new path → its path before the run. */
  renamedFrom: Map<string, string>;
  /** Told of every write and removal (the site session, so it never walks the tree again). */
  listener: FileChangeListener | null;
}

export interface FileChangeListener {
  changed(path: string): void;
  removed(path: string): void;
}

export function createRunChanges(listener: FileChangeListener | null = null): RunChanges {
  return {
    changed: new Set(),
    created: new Set(),
    removed: new Set(),
    originals: new Map(),
    renamedFrom: new Map(),
    listener,
  };
}

export function recordWrite(changes: RunChanges, path: string, created: boolean): void {
  changes.changed.add(path);
  if (created && !changes.removed.delete(path)) changes.created.add(path);
  changes.listener?.changed(path);
}

/** A move: the removal and the write, and where the file was before the run (for its old problems). */
export function recordMove(changes: RunChanges, from: string, to: string): void {
  const original = changes.renamedFrom.get(from) ?? (changes.created.has(from) ? null : from);
  changes.renamedFrom.delete(from);
  if (original !== null) changes.renamedFrom.set(to, original);
  const content = changes.originals.get(from);
  if (content !== undefined) changes.originals.set(to, content);
  recordRemoval(changes, from);
  recordWrite(changes, to, true);
}

export function rememberOriginal(changes: RunChanges, path: string, content: string): void {
  if (!changes.originals.has(path) && !changes.created.has(path)) changes.originals.set(path, content);
}

export function recordRemoval(changes: RunChanges, path: string): void {
  changes.changed.delete(path);
  if (!changes.created.delete(path)) changes.removed.add(path);
  changes.listener?.removed(path);
}

/** One tool: its input schema (the contract in DESIGN.md §3) and what it does. */
export interface RepositoryTool<Input> {
  description: string;
  inputSchema: z.ZodType<Input>;
  execute(input: Input, context: ToolContext): Promise<string>;
}
