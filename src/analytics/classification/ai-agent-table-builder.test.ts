import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
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
        Odd: 'not an object',
      },
      source,
    );
    assert.deepEqual(table.source, source);
    assert.deepEqual(
      table.agents.map((agent) => [agent.token, agent.category, agent.operator, agent.match]),
      [
        ['Bravebot', 'ai_search', 'Brave', 'word'],
        ['ChatGPT-User', 'ai_assistant', 'OpenAI', 'word'],
        ['Code', 'ai_assistant', '', 'product'],
        ['codex_cli_rs', 'ai_assistant', 'OpenAI', 'word'],
        ['GPTBot', 'ai_training', 'OpenAI', 'word'],
        ['OAI-SearchBot', 'ai_search', 'OpenAI', 'word'],
        ['Odd', 'ai_training', '', 'word'],
      ],
    );
    assert.deepEqual(
      unreviewed.map((entry) => entry.token),
      ['GPTBot', 'OAI-SearchBot', 'Odd'],
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
