import { spawn } from 'node:child_process';

/** A git command that exited non-zero. The message carries git's own stderr, never credentials. */
export class GitCommandError extends Error {
  readonly exitCode: number | null;
  readonly stderr: string;

  constructor(subcommand: string, exitCode: number | null, stderr: string) {
    super(`git ${subcommand} failed (exit ${exitCode ?? 'signal'}): ${stderr.trim().slice(0, 2000)}`);
    this.name = 'GitCommandError';
    this.exitCode = exitCode;
    this.stderr = stderr;
  }
}

export interface GitCommandOptions {
  cwd: string;
  /** Extra environment for this one command (credentials, author); merged over a minimal base. */
  environment?: Record<string, string>;
  signal?: AbortSignal;
  input?: string;
}

/**
 * The environment every git command gets: the caller's PATH and HOME, no terminal prompts, no
 * system or global configuration (so a machine's credential helpers or hooks never take part).
 */
export function baseEnvironment(): Record<string, string> {
  const inherited: Record<string, string> = {};
  for (const name of ['PATH', 'HOME', 'TMPDIR', 'LANG']) {
    const value = process.env[name];
    if (value !== undefined) inherited[name] = value;
  }
  return {
    ...inherited,
    GIT_TERMINAL_PROMPT: '0',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_ASKPASS: 'true',
    LC_ALL: 'C',
  };
}

/** Runs `git <args>` and resolves with its stdout; rejects with `GitCommandError` on a non-zero exit. */
export function runGit(args: string[], options: GitCommandOptions): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, {
      cwd: options.cwd,
      env: { ...baseEnvironment(), ...options.environment },
      signal: options.signal,
      stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout?.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve(Buffer.concat(stdout).toString('utf8'));
      else reject(new GitCommandError(args[0] ?? '', code, Buffer.concat(stderr).toString('utf8')));
    });
    if (child.stdin !== null) {
      child.stdin.on('error', () => undefined); // git may exit before reading; its exit code tells.
      child.stdin.end(options.input);
    }
  });
}

/**
 * Stages every change in the worktree at `cwd` and commits it as `author` (hooks skipped: the
 * repository's content is not ours to run). Resolves with the new commit, or null when nothing changed.
 */
export async function commitAll(
  cwd: string,
  { message, author }: { message: string; author: { name: string; email: string } },
): Promise<string | null> {
  await runGit(['add', '--all'], { cwd });
  if ((await runGit(['status', '--porcelain'], { cwd })).trim() === '') return null;
  await runGit(['commit', '--quiet', '--no-verify', '--file', '-'], {
    cwd,
    input: message,
    environment: {
      GIT_AUTHOR_NAME: author.name,
      GIT_AUTHOR_EMAIL: author.email,
      GIT_COMMITTER_NAME: author.name,
      GIT_COMMITTER_EMAIL: author.email,
    },
  });
  return (await runGit(['rev-parse', 'HEAD'], { cwd })).trim();
}
