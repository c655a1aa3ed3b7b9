import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createClassifier } from '../classification/index.ts';
import { preparePageView, type ReportedRequest } from './page-view.ts';

const now = Date.parse('2026-06-01T00:00:00Z');
const classifier = createClassifier();
const chrome =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36';

function request(overrides: Partial<ReportedRequest>): ReportedRequest {
  return {
    target: '/docs/intro',
    occurredAt: now - 1000,
    userAgent: chrome,
    referrer: undefined,
    accept: undefined,
    status: undefined,
    ...overrides,
  };
}

const prepare = (overrides: Partial<ReportedRequest>) =>
  preparePageView(request(overrides), { classifier, now });

describe('preparePageView', () => {
  it('turns a request into a normalised, classified view', () => {
    assert.deepEqual(
      prepare({
        target: 'https://docs.example.com/docs/intro/?a=1',
        referrer: 'https://www.google.com/search?q=x',
      }),
      {
        ok: true,
        view: {
          path: '/docs/intro',
          occurredAt: now - 1000,
          category: 'human',
          agent: null,
          classifierVersion: classifier.version,
          referrerHost: 'www.google.com',
          markdown: false,
        },
      },
    );
  });

  it('applies the Markdown rule to .md paths and Accept: text/markdown', () => {
    const byPath = prepare({ target: '/docs/intro.md', userAgent: 'python-requests/2.32' });
    assert.ok(byPath.ok);
    assert.equal(byPath.view.path, '/docs/intro');
    assert.equal(byPath.view.category, 'ai_assistant');
    const byAccept = prepare({ accept: 'text/markdown, text/plain;q=0.5', userAgent: 'axios/1.7' });
    assert.ok(byAccept.ok);
    assert.equal(byAccept.view.category, 'ai_assistant');
    const plain = prepare({ userAgent: 'axios/1.7' });
    assert.ok(plain.ok);
    assert.equal(plain.view.category, 'bot');
  });

  it('skips what is no page view', () => {
    assert.deepEqual(prepare({ target: '/logo.png' }), { ok: false, kind: 'skipped', reason: 'asset' });
    assert.deepEqual(prepare({ status: 404 }), {
      ok: false,
      kind: 'skipped',
      reason: 'not a successful status',
    });
    assert.equal(prepare({ status: 304 }).ok, true);
  });

  it('rejects bad input with a reason', () => {
    const cases: Array<[Partial<ReportedRequest>, RegExp]> = [
      [{ target: 'relative' }, /start with/],
      [{ target: `/${'a'.repeat(100_000)}` }, /longer than/],
      [{ occurredAt: Number.NaN }, /valid time/],
      [{ occurredAt: Date.parse('1999-12-31T23:59:59Z') }, /before 2000/],
      [{ occurredAt: now + 2 * 24 * 3600 * 1000 }, /future/],
      [{ userAgent: 'a'.repeat(100_000) }, /userAgent is longer than 2048/],
      [{ referrer: `https://x.com/${'a'.repeat(5000)}` }, /referrer is longer/],
      [{ accept: 'a'.repeat(5000) }, /accept is longer/],
    ];
    for (const [overrides, reason] of cases) {
      const result = prepare(overrides);
      assert.equal(result.ok, false);
      if (!result.ok) {
        assert.equal(result.kind, 'invalid');
        assert.match(result.reason, reason);
      }
    }
  });

  it('keeps only an http(s) referrer host', () => {
    const check = (referrer: string, expected: string | null) => {
      const result = prepare({ referrer });
      assert.ok(result.ok);
      assert.equal(result.view.referrerHost, expected, referrer);
    };
    check('android-app://com.google/', null);
    check('not a url', null);
    check('https://user:pass@Example.COM:8443/x', 'example.com');
  });
});
