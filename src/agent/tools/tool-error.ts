/**
 * A refusal or failure the model can act on. Its message goes back to the model as the tool's
 * result, so it names the problem and the fix, and never carries a path outside the repository.
 */
export class ToolError extends Error {
  readonly isToolError = true;

  constructor(message: string) {
    super(message);
    this.name = 'ToolError';
  }
}

export function isToolError(error: unknown): error is ToolError {
  return (
    typeof error === 'object' && error !== null && (error as { isToolError?: unknown }).isToolError === true
  );
}
