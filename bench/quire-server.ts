// A `quire serve` child process on a benchmark's data directory (and so its embedded PostgreSQL),
// for the benchmarks that measure the real server over HTTP.
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import type { Readable } from 'node:stream';

export interface QuireServer {
  url: string;
  process: ChildProcessByStdio<null, Readable, null>;
  /** Stops the server (SIGTERM) and waits for it; at once if it has exited already. */
  stop(): Promise<void>;
}

export async function startQuireServer(
  dataDirectory: string,
  environment: Record<string, string> = {},
): Promise<QuireServer> {
  const child = spawn(process.execPath, ['bin/quire.js', 'serve', '--port', '0'], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      QUIRE_DATA_DIR: dataDirectory,
      ...environment,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const match = /serving at (http:\/\/\S+)/.exec(output);
      if (match) resolve(match[1] as string);
    });
    child.on('exit', () => reject(new Error(`server exited:\n${output}`)));
  });
  return {
    url,
    process: child,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
