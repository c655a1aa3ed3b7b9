import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { corpusTargetsHold, evaluateCorpus, loadUserAgentCorpus } from '../../../test/user-agent-corpus.ts';
import type { AiAgentTable } from './ai-agent-table-builder.ts';
import { createClassifier } from './classify.ts';
import defaultTable from './data/ai-agents.json' with { type: 'json' };

describe('the labelled user-agent corpus (bench/classification.ts prints its confusion matrix)', () => {
  const entries = loadUserAgentCorpus(defaultTable as AiAgentTable);
  const evaluation = evaluateCorpus(createClassifier(), entries);

  it('is large enough to measure the targets', () => {
    assert.ok(evaluation.totals.browser >= 900, `${evaluation.totals.browser} browsers`);
    assert.ok(evaluation.totals.crawler >= 1_500, `${evaluation.totals.crawler} crawlers`);
    assert.ok(evaluation.totals.ai >= 100, `${evaluation.totals.ai} AI agents`);
  });

  it('counts at least 99.9% of browsers as human', () => {
    assert.ok(
      corpusTargetsHold(evaluation).browsers,
      evaluation.misreadPeople.map((entry) => entry.userAgent).join('\n'),
    );
  });

  it('puts every known AI agent in its category, under its name', () => {
    assert.deepEqual(
      evaluation.misplacedAgents.map(({ entry, got }) => ({
        userAgent: entry.userAgent,
        got,
        want: entry.expected,
      })),
      [],
    );
  });

  it('counts at most 0.1% of crawlers as human', () => {
    assert.ok(
      corpusTargetsHold(evaluation).crawlers,
      evaluation.misreadCrawlers.map((entry) => entry.userAgent).join('\n'),
    );
  });
});
