/**
 * Runs `quire` as a real subprocess, as a user would. Whatever a test file starts here is stopped
 * when the file ends, even when a test failed: its processes first, then any PostgreSQL left
 * running in its temporary directories (an embedded one outlives a killed Quire), then the
 * directories themselves.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';

export const quireBin = path.join(import.meta.dirname, '..', 'bin', 'quire.js');

const children = new Set<ChildProcess>();
const directories: string[] = [];

function track(child: ChildProcess): void {
  children.add(child);
  child.on('exit', () => children.delete(child));
}

async function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Stops the postmasters whose `postmaster.pid` lies under `directory` (three levels down at most). */
async function stopPostmastersUnder(directory: string, depth = 3): Promise<void> {
  const pidFile = path.join(directory, 'postmaster.pid');
  const content = await fs.readFile(pidFile, 'utf8').catch(() => null);
  const pid = Number(content?.split('\n')[0]);
  if (Number.isInteger(pid) && pid > 0) {
    // Only the postmaster of this very directory: a stale pid may now belong to anything, such as
    // a backend of the machine's shared PostgreSQL.
    const command = await fs.readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (command.split('\0').includes(directory)) {
      // SIGQUIT: PostgreSQL's immediate shutdown (its children go too); SIGKILL if it lingers.
      process.kill(pid, 'SIGQUIT');
      for (let waited = 0; alive(pid) && waited < 5000; waited += 50) await sleep(50);
      if (alive(pid)) process.kill(pid, 'SIGKILL');
    }
  }
  if (depth === 0) return;
  const entries = await fs.readdir(directory, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    if (entry.isDirectory()) await stopPostmastersUnder(path.join(directory, entry.name), depth - 1);
  }
}

after(async () => {
  await Promise.all([...children].map(kill));
  for (const directory of directories.splice(0)) {
    await stopPostmastersUnder(directory);
    await fs.rm(directory, { recursive: true, force: true });
  }
});

export interface CommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a CLI command to completion. */
export function runQuire(
  args: string[],
  environment: Record<string, string>,
  input?: string,
): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [quireBin, ...args], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...environment },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    track(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input ?? '');
  });
}

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  output(): string;
  /** Resolves with the exit code once the process has exited. */
  exited: Promise<number | null>;
}

/** Starts `quire serve --port 0` and waits until it prints where it listens. */
export async function startQuireServer(
  environment: Record<string, string>,
  args: string[] = [],
): Promise<ServerProcess> {
  const child = spawn(process.execPath, [quireBin, 'serve', '--port', '0', ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...environment },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  track(child);
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  after(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`quire serve did not start:\n${output}`)), 60_000);
    const check = () => {
      const match = /serving at (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        // The first start's key and password come in the same write as the "serving at" line
        // (serve.ts): one write of less than a pipe's atomic size, so in this chunk.
        resolve(match[1]!);
      }
    };
    child.stdout!.on('data', check);
    child.on('exit', () => {
      clearTimeout(timer);
      reject(new Error(`quire serve exited:\n${output}`));
    });
  });
  return { child, url, output: () => output, exited };
}

/**
 * A temporary directory that PostgreSQL (run as another user when we are root) can reach, removed
 * when the test file ends, after stopping any PostgreSQL still running in it.
 */
export async function temporaryDirectory(prefix = 'quire-'): Promise<string> {
  const directory = await fs.mkdtemp(path.join(os.tmpdir(), prefix));
  await fs.chmod(directory, 0o755);
  directories.push(directory);
  return directory;
}

const fakeAgentService = path.join(import.meta.dirname, 'fixtures', 'fake-agent-service.ts');

/** A real service process (API and/or worker) whose agent is the fake one; see test/fixtures. */
export async function startFakeAgentService(
  environment: Record<string, string>,
): Promise<{ child: ChildProcess; url: string | null; exited: Promise<void> }> {
  const child = spawn(process.execPath, [fakeAgentService], {
    env: { PATH: process.env.PATH ?? '', PORT: '0', QUIRE_MODEL: 'openai:gpt-test', ...environment },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  track(child);
  after(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  let output = '';
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const url = await new Promise<string | null>((resolve, reject) => {
    child.stdout!.on('data', (chunk) => {
      const match = /ready (\S+)/.exec(String(chunk));
      if (match) resolve(match[1] === 'worker' ? null : match[1]!);
    });
    child.on('exit', () => reject(new Error(`service exited: ${output}`)));
  });
  return { child, url, exited };
}

/** The connection string of the embedded PostgreSQL of `dataDirectory`, for a test's own checks. */
export async function embeddedDatabaseUrl(dataDirectory: string): Promise<string> {
  const cluster = JSON.parse(await fs.readFile(path.join(dataDirectory, 'postgres.json'), 'utf8')) as {
    port: number;
    password: string;
  };
  return `postgres://quire:${encodeURIComponent(cluster.password)}@127.0.0.1:${cluster.port}/quire`;
}
