import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A directory under the system temp directory, removed by `cleanup()`. */
export function temporaryDirectory(prefix = 'quire-test-'): { path: string; cleanup(): void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, cleanup: () => rmSync(path, { recursive: true, force: true }) };
}

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH ?? '',
      HOME: cwd,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_AUTHOR_NAME: 'Test Author',
      GIT_AUTHOR_EMAIL: 'author@example.com',
      GIT_COMMITTER_NAME: 'Test Author',
      GIT_COMMITTER_EMAIL: 'author@example.com',
    },
  });
}

/** Writes files (relative path → content) under `root`, creating folders as needed. */
export function writeFiles(root: string, files: Record<string, string>): void {
  for (const [relativePath, content] of Object.entries(files)) {
    const path = join(root, relativePath);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
  }
}

/** A non-bare git repository on branch `main` with one commit holding `files`. */
export function createRepository(root: string, files: Record<string, string>): string {
  mkdirSync(root, { recursive: true });
  git(root, 'init', '--quiet', '--initial-branch=main');
  writeFiles(root, files);
  git(root, 'add', '--all');
  git(root, 'commit', '--quiet', '-m', 'Initial commit');
  return root;
}
