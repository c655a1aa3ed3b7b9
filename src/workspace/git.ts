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
function baseEnvironment(): Record<string, string> {
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
