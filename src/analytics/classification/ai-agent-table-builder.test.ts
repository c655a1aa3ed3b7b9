import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { supplementalAgents } from './ai-agent-review.ts';
import { type AiAgentTable, buildAiAgentTable } from './ai-agent-table-builder.ts';

const source = {
  project: 'ai-robots-txt/ai.robots.txt',
  commit: 'abc1234',
  date: '2026-01-01',
  license: 'MIT',
};

describe('buildAiAgentTable', () => {
  it('maps upstream functions to categories, applies the review, and reports fallback placements', () => {
    const { table, unreviewed } = buildAiAgentTable(
      {
        'ChatGPT-User': { operator: '[OpenAI](https://openai.com)', function: 'AI Assistants' },
        'chatgpt-user': { operator: 'duplicate in another case', function: 'AI Data Scrapers' },
        GPTBot: {
          operator: '[OpenAI](https://openai.com)',
          function: 'Scrapes data to train OpenAI products.',
        },
        'OAI-SearchBot': { operator: 'OpenAI', function: 'Search result generation.' },
        Bravebot: { operator: 'Brave', function: 'AI Data Providers' },
        'Google-Extended': { operator: 'Google', function: 'LLM training.' },
        Code: { operator: 'Unclear at this time.', function: 'AI Coding Agents' },
        'MistralAI-User': { operator: 'Mistral', function: 'AI Assistants' },
        'MistralAI-User/1.0': { operator: 'Mistral AI', function: 'Takes action based on user prompts.' },
        'Brightbot 1.0': { operator: 'Bright Data', function: 'LLM/AI training.' },
        ExaBot: { operator: 'Unclear at this time.', function: 'AI Data Providers' },
        'panscient.com': { operator: 'Panscient', function: 'AI Data Scrapers' },
        Odd: 'not an object',
      },
      source,
    );
    assert.deepEqual(table.source, source);
    const supplemental = new Set(supplementalAgents.map((agent) => agent.token));
    assert.deepEqual(
      table.agents
        .filter((agent) => !supplemental.has(agent.token))
        .map((agent) => [agent.token, agent.category, agent.operator, agent.match]),
      [
        ['Bravebot', 'ai_search', 'Brave', 'word'],
        ['Brightbot', 'ai_training', 'Bright Data', 'word'],
        ['ChatGPT-User', 'ai_assistant', 'OpenAI', 'word'],
        ['Code', 'ai_assistant', '', 'product'],
        ['GPTBot', 'ai_training', 'OpenAI', 'word'],
        ['MistralAI-User', 'ai_assistant', 'Mistral', 'word'],
        ['OAI-SearchBot', 'ai_search', 'OpenAI', 'word'],
        ['Odd', 'ai_training', '', 'word'],
        ['panscient.com', 'ai_training', 'Panscient', 'word'],
      ],
    );
    assert.deepEqual(
      unreviewed.map((entry) => entry.token),
      ['GPTBot', 'OAI-SearchBot', 'Brightbot', 'Odd'],
    );
    assert.ok(supplemental.has('codex_cli_rs'));
    assert.equal(
      table.agents.find((agent) => agent.token === 'PerplexityUser')?.reportedAs,
      'Perplexity-User',
    );
  });

  it('refuses input that is not a robots.json object', () => {
    assert.throws(() => buildAiAgentTable([], source), /object keyed by user-agent token/);
    assert.throws(() => buildAiAgentTable(null, source), /object keyed by user-agent token/);
  });

  it('matches the committed table: data/ai-agents.json is what the script generates from data/robots.json', () => {
    const read = (name: string) =>
      JSON.parse(readFileSync(new URL(`./data/${name}`, import.meta.url), 'utf8'));
    const committed = read('ai-agents.json') as AiAgentTable;
    const { table } = buildAiAgentTable(read('robots.json'), committed.source);
    assert.deepEqual(table, committed);
    assert.match(committed.source.commit, /^[0-9a-f]{40}$/);
  });
});
