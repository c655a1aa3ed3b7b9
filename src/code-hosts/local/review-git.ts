import { ConflictError } from '../../errors.ts';
import { GitCommandError, runGit } from '../../workspace/git.ts';
import type { CommitAuthor } from '../../workspace/workspace.ts';
import type { Review } from './review.ts';

/**
 * The diff a review shows: what the branch changes since it left the base (`base...branch`); once
 * merged, what the merge commit brought in.
 */
export async function readReviewDiff(
  review: Pick<Review, 'repository' | 'baseRef' | 'branch' | 'mergeCommit'>,
): Promise<string> {
  const range =
    review.mergeCommit === null
      ? [`refs/heads/${review.baseRef}...refs/heads/${review.branch}`]
      : [`${review.mergeCommit}^1`, review.mergeCommit];
  return runGit(['diff', '--no-color', '--no-ext-diff', ...range, '--'], { cwd: review.repository });
}

/**
 * Merges the branch into the base with a merge commit. The merge is computed without touching any
 * working tree (`git merge-tree`), so a conflict changes nothing. When the base is checked out in the
 * repository, its working tree is moved along with `reset --keep`, which refuses to lose local changes.
 */
export async function mergeReviewBranch(
  repository: string,
  baseRef: string,
  branch: string,
  options: { author: CommitAuthor; message: string },
): Promise<string> {
  const git = (args: string[], input?: string) =>
    runGit(args, {
      cwd: repository,
      ...(input === undefined ? {} : { input }),
      environment: {
        GIT_AUTHOR_NAME: options.author.name,
        GIT_AUTHOR_EMAIL: options.author.email,
        GIT_COMMITTER_NAME: options.author.name,
        GIT_COMMITTER_EMAIL: options.author.email,
      },
    });
  const base = (await git(['rev-parse', '--verify', `refs/heads/${baseRef}^{commit}`])).trim();
  const head = (await git(['rev-parse', '--verify', `refs/heads/${branch}^{commit}`])).trim();
  let tree: string;
  try {
    tree = (await git(['merge-tree', '--write-tree', base, head])).split('\n')[0]?.trim() ?? '';
  } catch (error: unknown) {
    if (error instanceof GitCommandError && error.exitCode === 1) {
      throw new ConflictError(`The branch ${branch} conflicts with ${baseRef}; it cannot be merged here`);
    }
    throw error;
  }
  const merge = (await git(['commit-tree', tree, '-p', base, '-p', head, '-F', '-'], options.message)).trim();
  const checkedOut = await git(['symbolic-ref', '--quiet', 'HEAD']).then(
    (ref) => ref.trim() === `refs/heads/${baseRef}`,
    () => false,
  );
  const bare = (await git(['rev-parse', '--is-bare-repository'])).trim() === 'true';
  if (checkedOut && !bare) {
    try {
      await git(['reset', '--quiet', '--keep', merge]);
    } catch {
      throw new ConflictError(
        `${baseRef} is checked out in the repository with local changes that the merge would overwrite; commit or stash them first`,
      );
    }
  } else {
    await git(['update-ref', `refs/heads/${baseRef}`, merge, base]);
  }
  return merge;
}
