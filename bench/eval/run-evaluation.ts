import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LanguageModel } from 'ai';
import { defaultAgentLimits } from '../../src/agent/agent-limits.ts';
import { createDocsAgentRunner } from '../../src/agent/docs-agent-runner.ts';
import { editingToolNames } from '../../src/agent/tools/tool-set.ts';
import type { AgentEvent } from '../../src/agent-jobs/agent-runner.ts';
import { unlimitedBudget } from '../../src/agent-jobs/run-budget.ts';
import { createInMemoryReviewStore } from '../../src/code-hosts/local/in-memory-review-store.ts';
import { createLocalCodeHost } from '../../src/code-hosts/local/local-code-host.ts';
import { errorMessage } from '../../src/errors.ts';
import { createGitWorkspace } from '../../src/workspace/git-workspace.ts';
import { createRepository, git } from '../../test/temporary-repository.ts';
import type { EvaluationTask, TaskResult } from './tasks.ts';

export interface TaskReport {
  name: string;
  passed: boolean;
  /** Why the checker (or the run) failed; null when passed. */
  failure: string | null;
  steps: number;
  inputTokens: number;
  outputTokens: number;
  editToolCalls: number;
  editToolErrors: number;
  milliseconds: number;
}

/** Runs each task on a fresh copy of its fixture repository with the model `modelFor(task)` gives. */
export async function runEvaluation(
  tasks: EvaluationTask[],
  modelFor: (task: EvaluationTask) => LanguageModel,
): Promise<TaskReport[]> {
  const reports: TaskReport[] = [];
  for (const task of tasks) {
    const directory = await mkdtemp(join(tmpdir(), 'quire-eval-'));
    try {
      reports.push(await runTask(task, modelFor(task), directory));
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  }
  return reports;
}

async function runTask(task: EvaluationTask, model: LanguageModel, directory: string): Promise<TaskReport> {
  const origin = createRepository(join(directory, 'origin'), task.fixture);
  const reviews = createInMemoryReviewStore();
  const runner = createDocsAgentRunner({
    workspace: createGitWorkspace({ dataDirectory: join(directory, 'data') }),
    codeHostFor: () =>
      createLocalCodeHost({ repository: origin, publicUrl: 'http://quire.evaluation', reviews }),
    createModel: () => model,
    limits: { ...defaultAgentLimits, maximumSteps: 40, maximumWallTimeMs: 5 * 60 * 1000 },
    author: { name: 'Quire', email: 'quire@localhost' },
  });
  const events: AgentEvent[] = [];
  const started = performance.now();
  let failure: string | null = null;
  let result: TaskResult = { files: null, prLink: null, summary: '' };
  try {
    const outcome = await runner.run({
      job: {
        id: `job_${task.name.replace(/[^a-z0-9]/g, '')}`,
        projectId: 'evaluation',
        model: 'evaluation',
        branch: null,
        prLink: null,
      },
      project: {
        id: 'evaluation',
        name: task.name,
        repository: origin,
        ref: 'main',
        codeHost: 'local',
        settings: {},
      },
      messages: [{ id: 'message', prompt: task.prompt, createdAt: new Date() }],
      history: [],
      budget: unlimitedBudget,
      signal: new AbortController().signal,
      emit: async (event) => {
        events.push(event);
      },
    });
    result = {
      files: outcome.branch === null ? null : branchFiles(origin, outcome.branch),
      prLink: outcome.prLink,
      summary: outcome.summary,
    };
    failure = task.check(result);
  } catch (error: unknown) {
    failure = `the run failed: ${errorMessage(error)}`;
  }
  const milliseconds = performance.now() - started;
  let steps = 0;
  let inputTokens = 0;
  let outputTokens = 0;
  let editToolCalls = 0;
  let editToolErrors = 0;
  for (const event of events) {
    if (event.type !== 'step-end') continue;
    steps += 1;
    const usage = event.data.usage as { inputTokens: number; outputTokens: number };
    inputTokens += usage.inputTokens;
    outputTokens += usage.outputTokens;
    for (const part of event.data.tools as Array<{ type: string; toolName: string }>) {
      if (!editingToolNames.has(part.toolName)) continue;
      if (part.type === 'call') editToolCalls += 1;
      if (part.type === 'error') editToolErrors += 1;
    }
  }
  return {
    name: task.name,
    passed: failure === null,
    failure,
    steps,
    inputTokens,
    outputTokens,
    editToolCalls,
    editToolErrors,
    milliseconds,
  };
}

function branchFiles(repository: string, branch: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const path of git(repository, 'ls-tree', '-r', '--name-only', `refs/heads/${branch}`)
    .split('\n')
    .filter(Boolean)) {
    files[path] = git(repository, 'show', `refs/heads/${branch}:${path}`);
  }
  return files;
}

/** The report as a Markdown table with the totals the harness promises. */
export function formatReports(reports: TaskReport[]): string {
  const lines = [
    '| task | result | steps | tokens (in/out) | edit-tool errors | time |',
    '|---|---|---|---|---|---|',
  ];
  for (const report of reports) {
    lines.push(
      `| ${report.name} | ${report.passed ? 'pass' : `FAIL: ${report.failure}`} | ${report.steps} | ${report.inputTokens}/${report.outputTokens} | ${report.editToolErrors}/${report.editToolCalls} | ${Math.round(report.milliseconds)} ms |`,
    );
  }
  const passed = reports.filter((report) => report.passed).length;
  const editCalls = reports.reduce((sum, report) => sum + report.editToolCalls, 0);
  const editErrors = reports.reduce((sum, report) => sum + report.editToolErrors, 0);
  const mean = (pick: (report: TaskReport) => number) =>
    reports.length === 0 ? 0 : reports.reduce((sum, report) => sum + pick(report), 0) / reports.length;
  lines.push(
    '',
    `success rate ${passed}/${reports.length} (${Math.round((100 * passed) / Math.max(1, reports.length))}%), ` +
      `mean steps ${mean((report) => report.steps).toFixed(1)}, ` +
      `mean tokens ${Math.round(mean((report) => report.inputTokens + report.outputTokens))}, ` +
      `edit-tool error rate ${editCalls === 0 ? '0' : ((100 * editErrors) / editCalls).toFixed(1)}%, ` +
      `mean time ${Math.round(mean((report) => report.milliseconds))} ms`,
  );
  return lines.join('\n');
}
