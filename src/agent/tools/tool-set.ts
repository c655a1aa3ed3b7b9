import { type ToolSet, tool } from 'ai';
import { deleteFileTool } from './delete-file.ts';
import { editFileTool } from './edit-file.ts';
import { listFilesTool } from './list-files.ts';
import { moveFileTool } from './move-file.ts';
import { readFileTool } from './read-file.ts';
import { searchTool } from './search.ts';
import type { RepositoryTool, ToolContext } from './tool-context.ts';
import { isToolError, ToolError } from './tool-error.ts';
import { validateTool } from './validate.ts';
import { writeFileTool } from './write-file.ts';

/**
 * The agent's tools, by the names in DESIGN.md §3. There is deliberately no shell and no network
 * tool: whatever a file in the repository says, these are all the agent can do.
 */
export const repositoryTools = {
  list_files: listFilesTool,
  read_file: readFileTool,
  search: searchTool,
  edit_file: editFileTool,
  write_file: writeFileTool,
  delete_file: deleteFileTool,
  move_file: moveFileTool,
  validate: validateTool,
} as const;

export type RepositoryToolName = keyof typeof repositoryTools;

/** Tools that change files; their error rate is what the evaluation harness reports. */
export const editingToolNames: ReadonlySet<string> = new Set([
  'edit_file',
  'write_file',
  'delete_file',
  'move_file',
]);

/** Runs one tool; any failure that is not a `ToolError` becomes one without its (possibly path-bearing) message. */
export async function executeRepositoryTool<Input>(
  definition: RepositoryTool<Input>,
  input: Input,
  context: ToolContext,
): Promise<string> {
  try {
    return await definition.execute(input, context);
  } catch (error: unknown) {
    if (isToolError(error)) throw error;
    const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
    throw new ToolError(`The tool failed unexpectedly${typeof code === 'string' ? ` (${code})` : ''}.`);
  }
}

/** The AI SDK tool set bound to one run's context. */
export function createToolSet(context: ToolContext): ToolSet {
  const tools: ToolSet = {};
  for (const [name, definition] of Object.entries(repositoryTools)) {
    const repositoryTool = definition as RepositoryTool<unknown>;
    tools[name] = tool({
      description: repositoryTool.description,
      inputSchema: repositoryTool.inputSchema,
      execute: (input: unknown) => executeRepositoryTool(repositoryTool, input, context),
    });
  }
  return tools;
}
