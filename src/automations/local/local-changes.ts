/**
 * Reading a local repository's branch with git: its head, the commits that landed on it since a
 * known one (first-parent history: each merge, squash or direct commit that moved the branch), and
 * each one as a `CodeChange` (subject, body, author, changed files, and the diff, read only up to
 * the budget the first message carries).
 */
import { spawn } from 'node:child_process';
import { baseEnvironment, runGit } from '../../workspace/git.ts';
import { type CodeChange, changeBudget } from '../code-change.ts';

const commitPattern = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

/** The commit `branch` points at, or null when there is no such branch (or no repository). */
export async function branchHead(repository: string, branch: string): Promise<string | null> {
  try {
    const head = await runGit(['rev-parse', '--verify', '--quiet', `refs/heads/${branch}^{commit}`], {
      cwd: repository,
    });
    return commitPattern.test(head.trim()) ? head.trim() : null;
  } catch {
    return null;
  }
}

/**
 * The commits that moved the branch from `since` to `head`, oldest first, at most `limit`; null
 * when `since` is not in the branch's history (the branch was rewritten).
 */
export async function landedCommits(
  repository: string,
  since: string,
  head: string,
  limit: number,
): Promise<string[] | null> {
  try {
    await runGit(['merge-base', '--is-ancestor', since, head], { cwd: repository });
  } catch {
    return null;
  }
  const listed = await runGit(['rev-list', '--first-parent', '--reverse', `${since}..${head}`], {
    cwd: repository,
  });
  return listed
    .split('\n')
    .filter((line) => commitPattern.test(line))
    .slice(0, limit);
}

/** One landed commit as the change an automation's first message carries. */
export async function localChange(repository: string, commit: string): Promise<CodeChange> {
  const separator = '\u0001';
  const header = await runGit(
    ['show', '--no-patch', `--format=%an <%ae>${separator}%s${separator}%b`, commit],
    { cwd: repository },
  );
  const [author = '', subject = '', body = ''] = header.split(separator);
  const parents = (await runGit(['rev-list', '--parents', '-n', '1', commit], { cwd: repository }))
    .trim()
    .split(' ');
  // Against the first parent: for a merge commit, everything the merged branch brought.
  const range = parents[1] === undefined ? ['--root', commit] : [parents[1], commit];
  const files = await runGit(['diff-tree', '-r', '--no-commit-id', '--name-only', '-z', ...range], {
    cwd: repository,
  });
  // Read a little less than the message's diff budget, so the note below is what says it was cut.
  const diff = await boundedGitOutput(
    repository,
    ['diff-tree', '-r', '-p', '--no-commit-id', '--no-color', ...range],
    changeBudget.diff - 100,
  );
  return {
    commit,
    url: null,
    title: subject.trim() || null,
    description: body.trim() || null,
    author: author.trim() || null,
    changedFiles: files.split('\0').filter((file) => file !== ''),
    diff: diff.trim() === '' ? null : diff,
  };
}

/** A git command's stdout, cut at `maximumCharacters`: the process is stopped there, so a huge diff is never read whole. */
function boundedGitOutput(repository: string, args: string[], maximumCharacters: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, {
      cwd: repository,
      env: baseEnvironment(),
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let text = '';
    let cut = false;
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      if (cut) return;
      text += chunk;
      if (text.length >= maximumCharacters) {
        cut = true;
        text = `${text.slice(0, maximumCharacters)}\n[... the rest of the diff was left out]`;
        child.kill();
      }
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0 || cut) resolve(text);
      else reject(new Error(`git ${args[0]} failed (exit ${code ?? 'signal'})`));
    });
  });
}
