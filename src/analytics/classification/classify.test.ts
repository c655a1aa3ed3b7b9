import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AiAgentTable } from './ai-agent-table-builder.ts';
import { createClassifier } from './classify.ts';

const chrome =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36';
const classifier = createClassifier();
const page = (userAgent: string | undefined) => classifier.classify({ userAgent, markdown: false });
const markdown = (userAgent: string | undefined) => classifier.classify({ userAgent, markdown: true });

describe('classify', () => {
  it('counts browsers as human', () => {
    assert.deepEqual(page(chrome), { category: 'human', agent: null });
    assert.deepEqual(
      page('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148'),
      {
        category: 'human',
        agent: null,
      },
    );
  });

  it('recognises the AI categories of DESIGN.md §4', () => {
    const cases: Array<[string, string, string]> = [
      [
        'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot',
        'ai_assistant',
        'ChatGPT-User',
      ],
      [
        'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Claude-User/1.0; +Claude-User@anthropic.com)',
        'ai_assistant',
        'Claude-User',
      ],
      [
        'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Perplexity-User/1.0; +https://perplexity.ai/perplexity-user)',
        'ai_assistant',
        'Perplexity-User',
      ],
      [
        'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; OAI-SearchBot/1.0; +https://openai.com/searchbot',
        'ai_search',
        'OAI-SearchBot',
      ],
      [
        'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)',
        'ai_search',
        'PerplexityBot',
      ],
      [
        'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)',
        'ai_training',
        'GPTBot',
      ],
      [
        'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)',
        'ai_training',
        'ClaudeBot',
      ],
      ['CCBot/2.0 (https://commoncrawl.org/faq/)', 'ai_training', 'CCBot'],
      [
        'Mozilla/5.0 (Linux; Android 5.0) AppleWebKit/537.36 (KHTML, like Gecko) Mobile Safari/537.36 (compatible; Bytespider; spider-feedback@bytedance.com)',
        'ai_training',
        'Bytespider',
      ],
      ['codex_cli_rs/0.50.0 (Mac OS 15.1.0; arm64) vscode/1.2', 'ai_assistant', 'codex_cli_rs'],
    ];
    for (const [userAgent, category, agent] of cases) {
      assert.deepEqual(page(userAgent), { category, agent }, userAgent);
    }
  });

  it('prefers the longest token and matches case-insensitively', () => {
    assert.equal(page('GoogleOther-Image/1.0')?.agent, 'GoogleOther-Image');
    assert.equal(page('mozilla/5.0 (compatible; gptbot/1.1)').agent, 'GPTBot');
  });

  it('matches ordinary-word tokens only as a product token', () => {
    assert.equal(page('Code/1.4 (agent)').category, 'ai_assistant');
    assert.equal(page(`${chrome} Code Operator Cursor`).category, 'human');
    assert.equal(
      page('Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)').category,
      'bot',
    );
  });

  it('sends other bots to `bot` with their product name', () => {
    assert.deepEqual(page('Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'), {
      category: 'bot',
      agent: 'Googlebot',
    });
    assert.deepEqual(page('curl/8.4.0'), { category: 'bot', agent: 'curl' });
    assert.deepEqual(page(''), { category: 'bot', agent: 'no user agent' });
    assert.deepEqual(page('-'), { category: 'bot', agent: 'no user agent' });
  });

  it('counts Markdown fetches by unknown non-browser clients as ai_assistant', () => {
    assert.deepEqual(markdown('curl/8.4.0'), { category: 'ai_assistant', agent: 'curl' });
    assert.deepEqual(markdown('python-httpx/0.27.0'), { category: 'ai_assistant', agent: 'python-httpx' });
    assert.deepEqual(markdown('MyDocsFetcher/0.1'), { category: 'ai_assistant', agent: 'MyDocsFetcher' });
    assert.deepEqual(markdown(''), { category: 'ai_assistant', agent: 'unknown' });
    // ...but not by browsers, known AI agents (their own category) or self-declared crawlers.
    assert.deepEqual(markdown(chrome), { category: 'human', agent: null });
    assert.equal(
      markdown('Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)').category,
      'ai_training',
    );
    assert.equal(
      markdown('Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)').category,
      'bot',
    );
  });

  it('treats a view with no user-agent information at all as human', () => {
    assert.deepEqual(page(undefined), { category: 'human', agent: null });
    assert.deepEqual(markdown(undefined), { category: 'ai_assistant', agent: 'unknown' });
  });

  it('survives hostile user agents and keeps agent names short and printable', () => {
    const long = `${'A'.repeat(100_000)}bot/1.0 +http://x`;
    const result = page(long);
    assert.equal(result.category, 'bot');
    assert.ok((result.agent ?? '').length <= 64);
    const control = page('evil\u0000\u001bbot/1.0 (+http://x)');
    assert.equal(control.category, 'bot');
    assert.match(control.agent ?? '', /^[\x20-\x7e]+$/);
  });

  it('names its table and rules in the version, and follows a different table', () => {
    const table: AiAgentTable = {
      source: { project: 'p', commit: 'abcdef0123456789', date: '2026-01-01', license: 'MIT' },
      agents: [{ token: 'DocsReader', category: 'ai_search', operator: '', match: 'word' }],
    };
    const custom = createClassifier({ table });
    assert.match(custom.version, /^abcdef012345\.r\d+\.isbot-\d+\.\d+\.\d+$/);
    assert.notEqual(custom.version, classifier.version);
    assert.equal(custom.classify({ userAgent: 'DocsReader/1', markdown: false }).category, 'ai_search');
    assert.equal(
      custom.classify({ userAgent: 'GPTBot/1.2 (+https://openai.com/gptbot)', markdown: false }).category,
      'bot',
    );
  });

  it('gives the same answer from its cache', () => {
    const small = createClassifier({ cacheSize: 2 });
    for (let round = 0; round < 3; round += 1) {
      assert.equal(small.classify({ userAgent: chrome, markdown: false }).category, 'human');
      assert.equal(small.classify({ userAgent: 'curl/8', markdown: true }).category, 'ai_assistant');
      assert.equal(small.classify({ userAgent: 'curl/8', markdown: false }).category, 'bot');
      assert.equal(small.classify({ userAgent: 'GPTBot/1.2', markdown: false }).category, 'ai_training');
    }
  });
});
