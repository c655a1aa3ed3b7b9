/**
 * The labelled user-agent corpus (test/fixtures/user-agents/README.md has every source and license):
 * real browser user agents from the `user-agents` package, crawler user agents from the
 * `crawler-user-agents` package, documented AI agents, and people's apps and text browsers.
 * Used by the classification test and by `bench/classification.ts`, which prints the confusion matrix.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import {
  type AiAgentTable,
  type Classifier,
  prefersMarkdown,
  type TrafficCategory,
  trafficCategories,
} from '../src/analytics/classification/index.ts';

/** User agents shaped to make a backtracking pattern quadratic (timed by bench/classification.ts). */
export const hostileUserAgents: readonly string[] = [
  'a/'.repeat(50_000),
  'A '.repeat(50_000),
  `${'x'.repeat(100_000)}@`,
  'Spider/'.repeat(20_000),
];

export type CorpusLabel = 'browser' | 'crawler' | 'ai';

export interface CorpusEntry {
  label: CorpusLabel;
  userAgent: string;
  accept?: string;
  signatureAgent?: string;
  /** For AI agents: the category and agent name they must get. */
  expected?: { category: TrafficCategory; agent: string };
  source: string;
}

interface FixtureAgent {
  userAgent: string;
  accept?: string;
  signatureAgent?: string;
  category: TrafficCategory;
  agent: string;
  source: string;
}

const fixtures = new URL('./fixtures/user-agents/', import.meta.url);
const require = createRequire(import.meta.url);

function readFixture<T>(name: string): T {
  return JSON.parse(readFileSync(new URL(name, fixtures), 'utf8')) as T;
}

/** `user-agents` exports only its generator; its data file sits beside the entry point. */
function browserUserAgents(): string[] {
  const entry = require.resolve('user-agents');
  const data = JSON.parse(readFileSync(join(dirname(entry), 'user-agents.json'), 'utf8')) as Array<{
    userAgent: string;
  }>;
  return [...new Set(data.map((row) => row.userAgent))];
}

export function loadUserAgentCorpus(table: AiAgentTable): CorpusEntry[] {
  const entries: CorpusEntry[] = [];
  for (const userAgent of browserUserAgents()) {
    entries.push({ label: 'browser', userAgent, source: 'npm user-agents (BSD-2-Clause)' });
  }
  const people = readFixture<Array<{ userAgent: string; source: string }>>('people.json');
  for (const person of people) entries.push({ label: 'browser', ...person });
  // Reviewed: entries of the crawler list that are people (in-app browsers, a site-specific browser).
  const relabelled = new Map(
    readFixture<Array<{ userAgent: string; reason: string }>>('crawler-list-people.json').map((row) => [
      row.userAgent,
      row.reason,
    ]),
  );
  const crawlers = require('crawler-user-agents') as Array<{ pattern: string; instances?: string[] }>;
  for (const crawler of crawlers) {
    const pattern = new RegExp(`^(?:${crawler.pattern})$`, 'i');
    for (const userAgent of crawler.instances ?? []) {
      // An entry whose pattern is an AI agent's token (`GPTBot`, `[Cc]laude[Bb]ot`, `Code\/1\.`), in a user
      // agent that names it, is that agent; the longest such token wins, as in the matcher.
      const agent = table.agents
        .filter(
          (candidate) =>
            [candidate.token, `${candidate.token}/`, `${candidate.token}/1.`].some((text) =>
              pattern.test(text),
            ) && userAgent.toLowerCase().includes(candidate.token.toLowerCase()),
        )
        .sort((left, right) => right.token.length - left.token.length)[0];
      const reason = relabelled.get(userAgent);
      const source = 'npm crawler-user-agents (MIT)';
      if (reason !== undefined) entries.push({ label: 'browser', userAgent, source: `${source}; ${reason}` });
      else if (agent !== undefined) {
        entries.push({
          label: 'ai',
          userAgent,
          expected: { category: agent.category, agent: agent.reportedAs ?? agent.token },
          source,
        });
      } else entries.push({ label: 'crawler', userAgent, source });
    }
  }
  for (const agent of readFixture<FixtureAgent[]>('ai-agents.json')) {
    entries.push({
      label: 'ai',
      userAgent: agent.userAgent,
      ...(agent.accept === undefined ? {} : { accept: agent.accept }),
      ...(agent.signatureAgent === undefined ? {} : { signatureAgent: agent.signatureAgent }),
      expected: { category: agent.category, agent: agent.agent },
      source: agent.source,
    });
  }
  return entries;
}

export interface CorpusEvaluation {
  /** Views per corpus label and assigned category. */
  matrix: Record<CorpusLabel, Record<TrafficCategory, number>>;
  totals: Record<CorpusLabel, number>;
  browsersHuman: number;
  crawlersHuman: number;
  /** AI agents not given their expected category and agent. */
  misplacedAgents: Array<{ entry: CorpusEntry; got: { category: TrafficCategory; agent: string | null } }>;
  /** Browsers not counted human, and crawlers counted human. */
  misreadPeople: CorpusEntry[];
  misreadCrawlers: CorpusEntry[];
}

export function evaluateCorpus(classifier: Classifier, entries: readonly CorpusEntry[]): CorpusEvaluation {
  const emptyRow = () =>
    Object.fromEntries(trafficCategories.map((category) => [category, 0])) as Record<TrafficCategory, number>;
  const matrix = { browser: emptyRow(), crawler: emptyRow(), ai: emptyRow() };
  const totals = { browser: 0, crawler: 0, ai: 0 };
  const evaluation: CorpusEvaluation = {
    matrix,
    totals,
    browsersHuman: 0,
    crawlersHuman: 0,
    misplacedAgents: [],
    misreadPeople: [],
    misreadCrawlers: [],
  };
  for (const entry of entries) {
    const got = classifier.classify({
      userAgent: entry.userAgent,
      markdown: prefersMarkdown(entry.accept),
      signatureAgent: entry.signatureAgent,
    });
    matrix[entry.label][got.category] += 1;
    totals[entry.label] += 1;
    if (entry.label === 'browser') {
      if (got.category === 'human') evaluation.browsersHuman += 1;
      else evaluation.misreadPeople.push(entry);
    } else if (entry.label === 'crawler') {
      if (got.category === 'human') {
        evaluation.crawlersHuman += 1;
        evaluation.misreadCrawlers.push(entry);
      }
    } else if (got.category !== entry.expected?.category || got.agent !== entry.expected.agent) {
      evaluation.misplacedAgents.push({ entry, got });
    }
  }
  return evaluation;
}

/** The targets of issue 15: ≥ 99.9% of browsers human, every AI agent placed, ≤ 0.1% of crawlers human. */
export function corpusTargetsHold(evaluation: CorpusEvaluation): {
  browsers: boolean;
  agents: boolean;
  crawlers: boolean;
} {
  return {
    browsers: evaluation.browsersHuman >= 0.999 * evaluation.totals.browser,
    agents: evaluation.misplacedAgents.length === 0,
    crawlers: evaluation.crawlersHuman <= 0.001 * evaluation.totals.crawler,
  };
}
