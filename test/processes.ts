/** Runs `quire` as a real subprocess, as a user would. */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after } from 'node:test';

export const quireBin = path.join(import.meta.dirname, '..', 'bin', 'quire.js');

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
      if (match && (output.includes('first start') || !output.includes('first start:'))) {
        clearTimeout(timer);
        // The first-start lines follow the "serving at" line in the same write.
        setTimeout(() => resolve(match[1]!), 50);
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

/** A temporary directory that PostgreSQL (run as another user when we are root) can reach. */
export async function temporaryDirectory(prefix = 'quire-'): Promise<string> {
  const directory = await fs.mkdtemp(path.join(os.tmpdir(), prefix));
  await fs.chmod(directory, 0o755);
  after(() => fs.rm(directory, { recursive: true, force: true }));
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
