import type { z } from 'zod';

/** What a tool may touch during one run: the worktree, and nothing else. */
export interface ToolContext {
  /** The worktree root (real path); every path is resolved inside it. */
  root: string;
  maximumFileBytes: number;
  /** Relative paths read (or written) in this run; `edit_file` and overwriting need it. */
  readPaths: Set<string>;
  /** Runs the repository's validation and returns the report the model sees. */
  validate(): Promise<{ ok: boolean; report: string }>;
}

/** One tool: its input schema (the contract in DESIGN.md §3) and what it does. */
export interface RepositoryTool<Input> {
  description: string;
  inputSchema: z.ZodType<Input>;
  execute(input: Input, context: ToolContext): Promise<string>;
}
