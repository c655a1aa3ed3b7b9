import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createInMemoryReviewStore } from './in-memory-review-store.ts';
import { createLocalCodeHost } from './local-code-host.ts';

describe('local code host', () => {
  it("tells an open review from a merged one and from one it does not know, whatever the page's host", async () => {
    const reviews = createInMemoryReviewStore();
    const host = createLocalCodeHost({ repository: '/srv/docs', publicUrl: 'http://quire.test/', reviews });
    const { url } = await host.openOrUpdatePullRequest({
      projectId: 'prj_1',
      jobId: 'job_1',
      branch: 'quire/abc-fix',
      baseRef: 'main',
      title: 'Fix',
      body: 'Fixed.',
    });
    assert.match(url, /^http:\/\/quire\.test\/review\/rev_[0-9a-z]+$/);
    assert.equal(await host.pullRequestState({ url }), 'open');
    assert.equal(await host.pullRequestState({ url: url.replace('quire.test', 'old.example') }), 'open');
    await reviews.markMerged(url.split('/').at(-1)!, 'a'.repeat(40));
    assert.equal(await host.pullRequestState({ url }), 'merged');
    assert.equal(await host.pullRequestState({ url: 'http://quire.test/review/rev_unknown' }), 'closed');
    assert.equal(await host.pullRequestState({ url: 'http://quire.test/elsewhere' }), 'closed');
  });
});
