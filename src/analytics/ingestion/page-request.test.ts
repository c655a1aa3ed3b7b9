import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isAssetPath, judgePageRequest } from './page-request.ts';

describe('judgePageRequest', () => {
  it('counts successful page requests: 2xx and 304, or no status given', () => {
    for (const status of [200, 203, 206, 299, 304, undefined]) {
      assert.deepEqual(judgePageRequest('/docs/intro', status), { page: true }, String(status));
    }
  });

  it('skips failures, redirects and anything else', () => {
    for (const status of [0, 100, 199, 300, 301, 302, 307, 400, 404, 429, 500, 503]) {
      assert.deepEqual(
        judgePageRequest('/docs/intro', status),
        { page: false, reason: 'status' },
        String(status),
      );
    }
  });

  it('skips images, scripts, styles and fonts whatever their case', () => {
    for (const path of [
      '/logo.png',
      '/a/b.JPG',
      '/_next/static/app.js',
      '/styles/site.css',
      '/fonts/inter.woff2',
      '/app.js.map',
      '/favicon.ico',
      '/sitemap.xml',
      '/_next/data/x.json',
    ]) {
      assert.equal(isAssetPath(path), true, path);
      assert.deepEqual(judgePageRequest(path, 200), { page: false, reason: 'asset' });
    }
  });

  it('counts pages, including dotted names and files written for AI readers', () => {
    for (const path of [
      '/',
      '/docs/intro',
      '/docs/v1.2',
      '/docs/page.html',
      '/llms.txt',
      '/llms-full.txt',
      '/.hidden',
      '/guide/config.yaml-reference',
      '/js',
      '/docs/css',
    ]) {
      assert.equal(isAssetPath(path), false, path);
    }
  });

  it('skips robots.txt and well-known files', () => {
    assert.equal(isAssetPath('/robots.txt'), true);
    assert.equal(isAssetPath('/.well-known/security.txt'), true);
  });
});
