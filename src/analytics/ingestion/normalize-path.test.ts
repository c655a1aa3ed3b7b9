import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { maximumPathLength, normalizePath } from './normalize-path.ts';

function pathOf(input: unknown): string {
  const result = normalizePath(input);
  assert.ok(result.ok, `expected ${JSON.stringify(input)} to normalise, got ${JSON.stringify(result)}`);
  return result.path;
}

function rejected(input: unknown): string {
  const result = normalizePath(input);
  assert.equal(result.ok, false, `expected ${JSON.stringify(input)} to be rejected`);
  return result.ok ? '' : result.reason;
}

describe('normalizePath', () => {
  it('keeps canonical paths as they are', () => {
    assert.equal(pathOf('/'), '/');
    assert.equal(pathOf('/docs/getting-started'), '/docs/getting-started');
    assert.equal(pathOf('/api/v1.2/users:list'), '/api/v1.2/users:list');
  });

  it('drops query and fragment and takes the path of a full URL', () => {
    assert.equal(pathOf('/docs/intro?utm_source=x#section'), '/docs/intro');
    assert.equal(pathOf('/docs/intro#a?b'), '/docs/intro');
    assert.equal(pathOf('https://docs.example.com/docs/intro/?a=1#top'), '/docs/intro');
    assert.equal(pathOf('HTTP://example.com'), '/');
    assert.equal(pathOf('/?page=2'), '/');
  });

  it('removes trailing and repeated slashes', () => {
    assert.equal(pathOf('/docs/intro/'), '/docs/intro');
    assert.equal(pathOf('//docs///intro//'), '/docs/intro');
    assert.equal(pathOf('///'), '/');
  });

  it('maps Markdown to the page it renders and says so', () => {
    assert.deepEqual(normalizePath('/docs/intro.md'), { ok: true, path: '/docs/intro', markdown: true });
    assert.deepEqual(normalizePath('/docs/index.md'), { ok: true, path: '/docs', markdown: true });
    assert.deepEqual(normalizePath('/index.md'), { ok: true, path: '/', markdown: true });
    assert.deepEqual(normalizePath('/docs/Intro.MD?x=1'), { ok: true, path: '/docs/Intro', markdown: true });
    assert.deepEqual(normalizePath('/docs/intro'), { ok: true, path: '/docs/intro', markdown: false });
  });

  it('makes percent-encoding canonical', () => {
    assert.equal(pathOf('/docs/%7euser/%41bc'), '/docs/~user/Abc');
    assert.equal(pathOf('/docs/caf%c3%a9'), '/docs/caf%C3%A9');
    assert.equal(pathOf('/docs/café'), '/docs/caf%C3%A9');
    assert.equal(pathOf('/docs/a b'), '/docs/a%20b');
    assert.equal(pathOf('/docs/%F0%9F%98%80'), '/docs/%F0%9F%98%80');
    assert.equal(pathOf('/docs/😀'), '/docs/%F0%9F%98%80');
    assert.equal(pathOf('/a/%24%26%2b'), '/a/$&+');
  });

  it('keeps encoded slashes and backslashes inside their segment', () => {
    assert.equal(pathOf('/files/a%2Fb'), '/files/a%2Fb');
    assert.equal(pathOf('/files/a%2f..%2fb'), '/files/a%2F..%2Fb');
    assert.equal(pathOf('/files/a\\..\\b'), '/files/a%5C..%5Cb');
  });

  it('resolves dot segments without ever leaving the root', () => {
    assert.equal(pathOf('/docs/./guide/../intro'), '/docs/intro');
    assert.equal(pathOf('/../../etc/passwd'), '/etc/passwd');
    assert.equal(pathOf('/docs/%2e%2e/%2E/secret'), '/secret');
    assert.equal(pathOf('/..'), '/');
    assert.equal(pathOf('/.hidden/..config'), '/.hidden/..config');
  });

  it('is idempotent', () => {
    for (const input of ['/docs/caf%c3%a9/', '/a%2fb/../c.md', '/x/%7E', '/a b/ü']) {
      const once = pathOf(input);
      assert.equal(pathOf(once), once, input);
    }
  });

  it('rejects what cannot be stored safely, with a reason', () => {
    assert.match(rejected(42), /string/);
    assert.match(rejected(null), /string/);
    assert.match(rejected(''), /empty/);
    assert.match(rejected('docs/intro'), /start with \//);
    assert.match(rejected('javascript:alert(1)'), /start with \//);
    assert.match(rejected('ftp://example.com/a'), /start with \//);
    assert.match(rejected('/docs/\u0000x'), /control/);
    assert.match(rejected('/docs/\nx'), /control/);
    assert.match(rejected('/docs/\u0085'), /control/);
    assert.match(rejected('/docs/%00'), /control/);
    assert.match(rejected('/docs/%0d%0aSet-Cookie:x'), /control/);
    assert.match(rejected('/docs/%'), /percent/);
    assert.match(rejected('/docs/%zz'), /percent/);
    assert.match(rejected('/docs/%4'), /percent/);
    assert.match(rejected('/docs/%C3%28'), /percent/);
    assert.match(rejected('/docs/%ED%A0%80'), /percent/);
    assert.match(rejected('https://[bad'), /start with \//);
  });

  it('caps the length of raw input and of the stored path', () => {
    assert.match(rejected(`/${'a'.repeat(100_000)}`), /longer than/);
    assert.equal(pathOf(`/${'a'.repeat(maximumPathLength - 1)}`).length, maximumPathLength);
    assert.match(rejected(`/${'a'.repeat(maximumPathLength)}`), /longer than 2048/);
    // Encoding can make a path grow past the cap: é is 6 characters once encoded.
    assert.match(rejected(`/${'é'.repeat(400)}`), /longer than 2048/);
    assert.equal(pathOf(`/docs?${'q'.repeat(8000)}`), '/docs');
  });

  it('never throws on random input', () => {
    const alphabet = ['/', '%', '.', 'a', 'é', '😀', '\\', '?', '#', '%2', '%2F', '%C3', ' ', '\u0000', ':'];
    let seed = 7;
    const next = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed;
    };
    for (let round = 0; round < 5_000; round += 1) {
      let input = next() % 3 === 0 ? '' : '/';
      const length = next() % 20;
      for (let index = 0; index < length; index += 1) input += alphabet[next() % alphabet.length];
      const result = normalizePath(input);
      if (result.ok) {
        assert.match(result.path, /^\/[\x21-\x7e]*$/);
        assert.deepEqual(normalizePath(result.path).ok, true);
      }
    }
  });
});
