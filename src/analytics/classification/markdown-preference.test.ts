import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { prefersMarkdown } from './markdown-preference.ts';

describe('prefersMarkdown', () => {
  it('is true when Markdown ranks at or above HTML', () => {
    assert.equal(prefersMarkdown('text/markdown'), true);
    assert.equal(prefersMarkdown('TEXT/MARKDOWN; charset=utf-8'), true);
    assert.equal(prefersMarkdown('text/markdown, text/html;q=0.9, */*;q=0.8'), true);
    // Claude Code's WebFetch: both at quality 1, Markdown named first.
    assert.equal(prefersMarkdown('text/markdown, text/html, */*'), true);
    assert.equal(prefersMarkdown('text/x-markdown;q=0.9, text/html;q=0.5'), true);
  });

  it('is false when HTML ranks higher, Markdown is refused, or not named', () => {
    assert.equal(prefersMarkdown('text/html, text/markdown;q=0.9'), false);
    assert.equal(prefersMarkdown('text/markdown;q=0'), false);
    assert.equal(prefersMarkdown('text/markdown;q=0.000, text/html'), false);
    assert.equal(
      prefersMarkdown(
        'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8',
      ),
      false,
    );
    assert.equal(prefersMarkdown('*/*'), false);
    assert.equal(prefersMarkdown(''), false);
    assert.equal(prefersMarkdown(undefined), false);
  });

  it('ignores malformed quality values instead of failing', () => {
    assert.equal(prefersMarkdown('text/markdown;q=abc, text/html;q=2'), true);
    assert.equal(prefersMarkdown(';;;,,,=;q='), false);
  });
});
