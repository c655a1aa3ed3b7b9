import type { AgentRunInput } from '../agent-jobs/agent-runner.ts';
import type { CodeHost } from '../code-hosts/code-host.ts';
import type { SiteProblem } from '../docs-site/index.ts';
import type { GitCredentials } from '../workspace/git-credentials.ts';
import type { CommitAuthor, RunWorktree, Workspace } from '../workspace/workspace.ts';
import { commitMessage, pullRequestBody } from './pull-request-text.ts';

export interface PublishRequest {
  workspace: Workspace;
  worktree: RunWorktree;
  codeHost: CodeHost;
  input: AgentRunInput;
  title: string;
  summary: string;
  /** Validation problems still open; listed in the pull request body. */
  problems: SiteProblem[];
  author: CommitAuthor;
  credentials: GitCredentials | null;
  signal: AbortSignal;
}

/**
 * Commits what the run changed, pushes the branch and opens or updates its pull request. With no
 * change nothing is pushed and the job keeps its earlier link (null on a first run).
 */
export async function publishChanges(
  request: PublishRequest,
): Promise<{ commit: string | null; prLink: string | null }> {
  const { workspace, worktree, codeHost, input, signal } = request;
  const { job, project } = input;
  const commit = await workspace.commit(worktree, {
    message: commitMessage(request.title, request.summary, job.id),
    author: request.author,
  });
  const pushedBefore = worktree.branchExisted && worktree.startCommit !== worktree.baseCommit;
  // An earlier attempt may have pushed the branch and stopped before its pull request existed.
  if (commit === null && !(job.prLink === null && pushedBefore)) return { commit, prLink: job.prLink };

  const changedFiles = await workspace.changedFiles(worktree);
  if (commit !== null) {
    await input.emit({
      type: 'commit-create',
      data: { commit, branch: worktree.branch, files: changedFiles },
    });
    await workspace.push(worktree, { credentials: request.credentials, signal });
    await input.emit({ type: 'branch-push', data: { branch: worktree.branch } });
  }
  const pullRequest = await codeHost.openOrUpdatePullRequest({
    projectId: project.id,
    jobId: job.id,
    branch: worktree.branch,
    baseRef: project.ref,
    title: request.title,
    body: pullRequestBody({
      summary: request.summary,
      changedFiles,
      problems: request.problems,
      jobId: job.id,
    }),
    signal,
  });
  await input.emit({
    type: pullRequest.created ? 'pull-request-open' : 'pull-request-update',
    data: { url: pullRequest.url },
  });
  return { commit, prLink: pullRequest.url };
}
