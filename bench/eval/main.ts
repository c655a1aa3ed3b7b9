// The agent evaluation harness.
//   node bench/eval/main.ts                       scripted reference solutions (what CI runs)
//   node bench/eval/main.ts --model anthropic:claude-sonnet-4-5 [--task fix-typo] [--json]
// With --model, provider keys come from the usual environment variables (see docs/agent.md).
import { parseArgs } from 'node:util';
import { createLanguageModel } from '../../src/agent/model/create-language-model.ts';
import { loadConfig } from '../../src/config.ts';
import { scriptedModel } from '../../test/scripted-model.ts';
import { formatReports, runEvaluation } from './run-evaluation.ts';
import { evaluationTasks } from './tasks.ts';

const { values } = parseArgs({
  options: { model: { type: 'string' }, task: { type: 'string', multiple: true }, json: { type: 'boolean' } },
});
const tasks =
  values.task === undefined
    ? evaluationTasks
    : evaluationTasks.filter((task) => values.task?.includes(task.name));
const modelName = values.model;
const config = modelName === undefined ? null : loadConfig();
const reports = await runEvaluation(tasks, (task) =>
  modelName === undefined || config === null
    ? scriptedModel(task.script)
    : createLanguageModel(modelName, config),
);
console.log(
  values.json === true
    ? JSON.stringify(reports, null, 2)
    : `model: ${modelName ?? 'scripted reference solutions'}\n\n${formatReports(reports)}`,
);
process.exitCode = reports.every((report) => report.passed) ? 0 : 1;
