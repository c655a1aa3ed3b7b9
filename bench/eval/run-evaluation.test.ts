import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { scriptedModel } from '../../test/scripted-model.ts';
import { formatReports, runEvaluation } from './run-evaluation.ts';
import { evaluationTasks } from './tasks.ts';

describe('evaluation harness (scripted models, as in CI)', () => {
  it('has at least fourteen tasks, and every reference solution passes its checker', async () => {
    assert.ok(evaluationTasks.length >= 14);
    const reports = await runEvaluation(evaluationTasks, (task) => scriptedModel(task.script));
    assert.deepEqual(
      reports.filter((report) => !report.passed).map((report) => `${report.name}: ${report.failure}`),
      [],
    );
    assert.ok(
      reports.every(
        (report) => report.steps === evaluationTasks.find((task) => task.name === report.name)?.script.length,
      ),
    );
    const count = evaluationTasks.length;
    assert.match(formatReports(reports), new RegExp(`success rate ${count}/${count} \\(100%\\)`));
  });

  it('fails a task whose solution is wrong, and counts edit-tool errors', async () => {
    const typo = evaluationTasks.find((task) => task.name === 'fix-typo');
    const nothing = evaluationTasks.find((task) => task.name === 'nothing-to-change');
    assert.ok(typo !== undefined && nothing !== undefined);
    const [lazy] = await runEvaluation([typo], () => scriptedModel(nothing.script));
    assert.equal(lazy?.passed, false);
    assert.equal(lazy?.failure, 'no branch was pushed');
    const [clumsy] = await runEvaluation([typo], () =>
      scriptedModel([
        {
          toolCalls: [
            {
              toolName: 'edit_file',
              input: { path: 'quickstart.mdx', old_string: 'Instal', new_string: 'Install' },
            },
          ],
        },
        ...typo.script,
      ]),
    );
    assert.equal(clumsy?.passed, true);
    assert.equal(clumsy?.editToolErrors, 1);
    assert.equal(clumsy?.editToolCalls, 2);
    const [wrong] = await runEvaluation([nothing], () => scriptedModel(typo.script));
    assert.match(wrong?.failure ?? '', /pull request was opened/);
  });
});
