import type { LanguageModel, ModelMessage } from 'ai';
import type {
  AgentRunInput,
  AgentRunner,
  AgentRunOutcome,
  AgentRunProject,
} from '../agent-jobs/agent-runner.ts';
import type { CodeHost } from '../code-hosts/code-host.ts';
import { NonRetriableError } from '../errors.ts';
import { branchName } from '../workspace/branch-name.ts';
import type { CommitAuthor, Workspace } from '../workspace/workspace.ts';
import type { AgentLimits } from './agent-limits.ts';
import { classifyModelError } from './model/classify-model-error.ts';
import { publishChanges } from './publish-changes.ts';
import { pullRequestTitle } from './pull-request-text.ts';
import { readRepositoryInstructions } from './repository-instructions.ts';
import { createSiteCaches, type SiteCaches, SiteSession } from './site-session.ts';
import { buildSystemPrompt } from './system-prompt.ts';
import { createRunChanges, type RunChanges, type ToolContext } from './tools/tool-context.ts';
import { createToolSet } from './tools/tool-set.ts';
import { runValidationRounds } from './validation-rounds.ts';

export interface DocsAgentDependencies {
  workspace: Workspace;
  /** The code host of a project; throws `NonRetriableError` when its settings are unusable. */
  codeHostFor(project: AgentRunProject): CodeHost;
  /** The AI SDK model for `<provider>:<model-id>`; throws `NonRetriableError` when it cannot be made. */
  createModel(name: string): LanguageModel;
  limits: AgentLimits;
  author: CommitAuthor;
}

/**
 * The agent: prepares a worktree, runs the tool loop (with validation rounds), commits, pushes and
 * opens or updates the pull request. Implements the `AgentRunner` seam the job runner calls.
 */
export function createDocsAgentRunner(dependencies: DocsAgentDependencies): AgentRunner {
  const { workspace, limits } = dependencies;
  // Page facts and each base commit's problems, kept across runs (a second run on a base costs nothing).
  const siteCaches = createSiteCaches();
  return {
    async run(input: AgentRunInput): Promise<AgentRunOutcome> {
      const { job, project } = input;
      if (project.repository === null) {
        throw new NonRetriableError(
          `Project ${project.id} has no repository; set one to run agent jobs on it`,
        );
      }
      // The job's first instruction names the branch and titles the pull request, on follow-ups too.
      const firstPrompt = firstUserText(input.history) ?? input.messages[0]?.prompt ?? '';
      const model = dependencies.createModel(job.model);
      const codeHost = dependencies.codeHostFor(project);
      const signal = AbortSignal.any([input.signal, AbortSignal.timeout(limits.maximumWallTimeMs)]);
      const branch = job.branch ?? branchName(job.id, firstPrompt);
      const startedAt = performance.now();
      const credentials = await codeHost.gitCredentials(signal);
      const worktree = await workspace.prepare({
        repository: project.repository,
        baseRef: project.ref,
        branch,
        credentials,
        signal,
      });
      await input.emit({
        type: 'workspace-ready',
        data: {
          branch,
          baseCommit: worktree.baseCommit,
          startCommit: worktree.startCommit,
          durationMs: Math.round(performance.now() - startedAt),
        },
      });
      try {
        const { system, context, changes } = await prepareSite({
          root: worktree.path,
          baseCommit: worktree.baseCommit,
          startCommit: worktree.startCommit,
          limits,
          caches: siteCaches,
          emit: input.emit,
        });
        const tools = createToolSet(context);
        const messages: ModelMessage[] = [...(input.history as ModelMessage[])];
        for (const message of input.messages) messages.push({ role: 'user', content: message.prompt });

        const { ending, steps, usage } = await runValidationRounds({
          model,
          system,
          messages,
          tools,
          limits,
          signal,
          emit: input.emit,
          changedFiles: () => changes.changed.size > 0 || changes.removed.size > 0,
          validate: context.validate,
        }).catch((error: unknown) => {
          if (input.signal.aborted) throw error;
          if (signal.aborted)
            throw new NonRetriableError(
              `The run exceeded its time limit of ${Math.round(limits.maximumWallTimeMs / 1000)} s`,
            );
          throw classifyModelError(error);
        });
        if (ending.kind === 'token-budget-used') {
          throw new NonRetriableError(
            `The run used its token budget (${ending.used} of ${limits.maximumTokens}) before the model finished`,
          );
        }
        if (ending.kind === 'step-budget-used') {
          throw new NonRetriableError(
            `The run used its step budget (${limits.maximumSteps} steps) before the model finished`,
          );
        }
        const { summary, problems } = ending;

        const { commit, prLink } = await publishChanges({
          workspace,
          worktree,
          codeHost,
          input,
          title: pullRequestTitle(firstPrompt),
          summary,
          problems,
          author: dependencies.author,
          credentials,
          signal,
        });
        await input.emit({
          type: 'loop-end',
          data: { steps, usage, openProblems: problems.length },
        });
        const keepsBranch = commit !== null || worktree.branchExisted;
        return { history: messages, branch: keepsBranch ? branch : job.branch, prLink, summary, usage };
      } finally {
        await workspace.remove(worktree).catch(() => undefined);
      }
    },
  };
}

/**
 * The run's view of the documentation site: a site session on the worktree, the system prompt that
 * describes the site, and the tools' context, whose changes the session follows.
 */
async function prepareSite(options: {
  root: string;
  baseCommit: string;
  startCommit: string;
  limits: AgentLimits;
  caches: SiteCaches;
  emit: AgentRunInput['emit'];
}): Promise<{ system: string; context: ToolContext; changes: RunChanges }> {
  const { root, limits } = options;
  const site = await SiteSession.open({
    root,
    baseCommit: options.baseCommit,
    startCommit: options.startCommit,
    maximumFileBytes: limits.maximumFileBytes,
    caches: options.caches,
  });
  const system = buildSystemPrompt((await site.current()).model, await readRepositoryInstructions(root));
  const changes = createRunChanges(site);
  const validate = async () => {
    const result = await site.validate({
      ...changes,
      // A moved page is not new: its navigation entry is checked where it was.
      created: new Set([...changes.created].filter((path) => !changes.renamedFrom.has(path))),
    });
    await options.emit({
      type: 'validation-end',
      data: { problems: result.problems, alreadyPresent: result.alreadyPresent.length },
    });
    return result;
  };
  const context: ToolContext = {
    root,
    maximumFileBytes: limits.maximumFileBytes,
    readPaths: new Set(),
    changes,
    validate,
    site,
  };
  return { system, context, changes };
}

function firstUserText(history: unknown[]): string | null {
  for (const message of history as ModelMessage[]) {
    if (message.role !== 'user') continue;
    if (typeof message.content === 'string') return message.content;
    const text = message.content.find((part) => part.type === 'text');
    if (text !== undefined && text.type === 'text') return text.text;
  }
  return null;
}
