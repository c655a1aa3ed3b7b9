import { GitCommandError, runGit } from './git.ts';
import { credentialEnvironment, type GitCredentials, redactCredentials } from './git-credentials.ts';

/** `runGit` with credentials for this one command, and any trace of them scrubbed from its errors. */
export async function runAuthenticatedGit(
  args: string[],
  cwd: string,
  credentials?: GitCredentials | null,
  signal?: AbortSignal,
): Promise<string> {
  try {
    return await runGit(args, { cwd, environment: credentialEnvironment(credentials), signal });
  } catch (error: unknown) {
    if (error instanceof GitCommandError) {
      throw new GitCommandError(args[0] ?? '', error.exitCode, redactCredentials(error.stderr, credentials));
    }
    throw error;
  }
}
