import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { aiReferrerOf } from './ai-referrers.ts';

describe('aiReferrerOf', () => {
  it('names the assistant from the referrer host, subdomains included', () => {
    assert.equal(aiReferrerOf('chatgpt.com', '/guide'), 'ChatGPT');
    assert.equal(aiReferrerOf('www.perplexity.ai', '/guide'), 'Perplexity');
    assert.equal(aiReferrerOf('Claude.AI', '/guide'), 'Claude');
    assert.equal(aiReferrerOf('gemini.google.com', '/guide'), 'Gemini');
    assert.equal(aiReferrerOf('copilot.microsoft.com', '/guide'), 'Copilot');
  });

  it('names the assistant from utm_source, in a path or a full URL', () => {
    assert.equal(aiReferrerOf(null, '/guide?utm_source=chatgpt.com'), 'ChatGPT');
    assert.equal(
      aiReferrerOf(null, 'https://docs.example.com/guide?x=1&utm_source=Perplexity#top'),
      'Perplexity',
    );
    assert.equal(aiReferrerOf('www.google.com', '/guide?utm_source=claude.ai'), 'Claude');
  });

  it('is null for everything else, look-alikes included', () => {
    assert.equal(aiReferrerOf(null, '/guide'), null);
    assert.equal(aiReferrerOf('www.google.com', '/guide'), null);
    assert.equal(aiReferrerOf('notchatgpt.com', '/guide'), null);
    assert.equal(aiReferrerOf('chatgpt.com.evil.example', '/guide'), null);
    assert.equal(aiReferrerOf(null, '/guide?utm_source=newsletter'), null);
    assert.equal(aiReferrerOf(null, '/guide?utm_source=%E0%A4%A'), null);
  });
});
