import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NoBudgetMemory, noBudgetMemoryMilliseconds } from './monthly-budget.ts';

describe('projects remembered to have no monthly budget', () => {
  it('are remembered for a short while only, each on its own', () => {
    const memory = new NoBudgetMemory();
    assert.equal(memory.has('project-a', 1_000), false);
    memory.remember('project-a', 1_000);
    assert.equal(memory.has('project-a', 1_000 + noBudgetMemoryMilliseconds - 1), true);
    assert.equal(memory.has('project-a', 1_000 + noBudgetMemoryMilliseconds), false);
    assert.equal(memory.has('project-b', 1_000), false);
  });
});
