import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createRunBudget } from './run-budget.ts';
import { estimateCost, priceOf, projectPricesOf } from './run-usage.ts';

describe('run usage and its price', () => {
  it('prices a dated model by its family, cache reads and writes at their own prices', () => {
    const price = priceOf('anthropic:claude-sonnet-4-5-20250929');
    assert.deepEqual(price, { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 });
    // 1M input of which 600k read from the cache and 200k written to it, 100k output.
    const usage = {
      inputTokens: 1_000_000,
      outputTokens: 100_000,
      cacheReadTokens: 600_000,
      cacheWriteTokens: 200_000,
    };
    // 200k uncached × $3 + 600k × $0.30 + 200k × $3.75 + 100k × $15 per million.
    assert.equal(estimateCost(usage, price), 3.03);
    assert.equal(priceOf('openai-compatible:llama'), null);
    assert.equal(estimateCost(usage, null), 0);
  });

  it("a project's table wins, and entries that are not prices are left out", () => {
    const projectPrices = projectPricesOf({
      modelPrices: {
        'anthropic:claude-sonnet-4-5': { input: 2, output: 10 },
        'openai:broken': { input: 'free', output: 1 },
        'openai:negative': { input: -1, output: 1 },
      },
    });
    assert.deepEqual(Object.keys(projectPrices), ['anthropic:claude-sonnet-4-5']);
    assert.deepEqual(priceOf('anthropic:claude-sonnet-4-5-20250929', projectPrices), {
      input: 2,
      output: 10,
      cacheRead: 2,
      cacheWrite: 2,
    });
    assert.deepEqual(priceOf('openai:gpt-4.1-mini', projectPrices)?.input, 0.4);
  });

  it('a run budget names the budget that ran out and how to raise it', () => {
    const usage = (tokens: number) => ({
      inputTokens: tokens,
      outputTokens: 0,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
    });
    const budget = createRunBudget({
      projectId: 'prj_1',
      automationId: 'aut_1',
      jobTokens: 900,
      automationMaxTokens: 1000,
      projectMaxTokens: 50,
      monthlyBudgetUsd: null,
      spentThisMonthUsd: 0,
      price: null,
    });
    assert.equal(budget.exceeded(usage(99)), null);
    assert.match(
      String(budget.exceeded(usage(100))),
      /token budget of 1000 tokens is used up \(1000 used\); raise the automation's limits\.maxTokensPerJob \(PATCH \/v2\/agent\/prj_1\/automations\/aut_1/,
    );
    const monthly = createRunBudget({
      projectId: 'prj_1',
      automationId: null,
      jobTokens: 0,
      automationMaxTokens: null,
      projectMaxTokens: null,
      monthlyBudgetUsd: 5,
      spentThisMonthUsd: 4,
      price: { input: 1, output: 1, cacheRead: 1, cacheWrite: 1 },
    });
    assert.equal(monthly.exceeded(usage(999_999)), null);
    assert.match(
      String(monthly.exceeded(usage(1_000_000))),
      /monthly budget of \$5\.00 is used up \(\$5\.00 estimated this month\)/,
    );
  });
});
