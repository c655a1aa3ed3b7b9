import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TrafficCategory } from '../classification/index.ts';
import type { StoredPageView } from './page-view.ts';
import { profileViews, type RollupSums, sumRollups, visitorMarksOf } from './rollup-arithmetic.ts';

const series = { hour: 7, day: 8 };
const pathIds = new Map([
  ['/docs/install', 1],
  ['/docs/api', 2],
]);

function view(
  at: string,
  path: string,
  category: TrafficCategory = 'human',
  overrides: Partial<StoredPageView> = {},
): StoredPageView {
  return {
    path,
    occurredAt: Date.parse(at),
    category,
    agent: null,
    classifierVersion: 'test',
    referrerHost: null,
    markdown: false,
    userAgent: 'Mozilla/5.0 test',
    ...overrides,
  };
}

/** The page rows as one object each, for readable expectations. */
function pageRows(sums: RollupSums) {
  return sums.paths.bucket.map((bucket, index) => ({
    series: sums.paths.series[index],
    bucket: new Date(bucket).toISOString(),
    pathId: sums.paths.pathId[index],
    human: sums.paths.counts.human[index],
    ai_assistant: sums.paths.counts.ai_assistant[index],
    ai_search: sums.paths.counts.ai_search[index],
    ai_training: sums.paths.counts.ai_training[index],
    bot: sums.paths.counts.bot[index],
  }));
}

function agentRows(sums: RollupSums) {
  return sums.agents.bucket.map((bucket, index) => ({
    granularity: sums.agents.granularity[index],
    bucket: new Date(bucket).toISOString(),
    category: sums.agents.category[index],
    agent: sums.agents.agent[index],
    views: sums.agents.views[index],
  }));
}

function sum(views: StoredPageView[], counted: number[] | null = null): RollupSums {
  return sumRollups(profileViews(views), pathIds, series, counted);
}

const none = { ai_assistant: 0, ai_search: 0, ai_training: 0, bot: 0 };

describe('sumRollups', () => {
  it('sums several views of one page in one hour into one hour row and one day row', () => {
    const sums = sum([
      view('2026-02-10T10:05:00Z', '/docs/install'),
      view('2026-02-10T10:40:00Z', '/docs/install'),
      view('2026-02-10T10:59:59.999Z', '/docs/install'),
    ]);
    assert.deepEqual(pageRows(sums), [
      { series: 7, bucket: '2026-02-10T10:00:00.000Z', pathId: 1, human: 3, ...none },
      { series: 8, bucket: '2026-02-10T00:00:00.000Z', pathId: 1, human: 3, ...none },
    ]);
  });

  it('keeps hours apart and adds them up in their day; a view after midnight starts a new day', () => {
    const sums = sum([
      view('2026-02-10T10:05:00Z', '/docs/install'),
      view('2026-02-10T11:05:00Z', '/docs/install'),
      view('2026-02-10T23:59:00Z', '/docs/install'),
      view('2026-02-11T00:00:00Z', '/docs/install'),
    ]);
    assert.deepEqual(
      pageRows(sums).map((row) => [row.series, row.bucket, row.human]),
      [
        [7, '2026-02-10T10:00:00.000Z', 1],
        [7, '2026-02-10T11:00:00.000Z', 1],
        [7, '2026-02-10T23:00:00.000Z', 1],
        [7, '2026-02-11T00:00:00.000Z', 1],
        [8, '2026-02-10T00:00:00.000Z', 3],
        [8, '2026-02-11T00:00:00.000Z', 1],
      ],
    );
  });

  it('counts each category in its own column, and each page in its own row', () => {
    const sums = sum([
      view('2026-02-10T10:00:00Z', '/docs/install', 'human'),
      view('2026-02-10T10:01:00Z', '/docs/install', 'ai_assistant', { agent: 'ChatGPT-User' }),
      view('2026-02-10T10:02:00Z', '/docs/install', 'ai_search', { agent: 'PerplexityBot' }),
      view('2026-02-10T10:03:00Z', '/docs/install', 'ai_training', { agent: 'GPTBot' }),
      view('2026-02-10T10:04:00Z', '/docs/install', 'bot'),
      view('2026-02-10T10:05:00Z', '/docs/api', 'bot'),
    ]);
    const hourRows = pageRows(sums).filter((row) => row.series === series.hour);
    assert.deepEqual(hourRows, [
      {
        series: 7,
        bucket: '2026-02-10T10:00:00.000Z',
        pathId: 1,
        human: 1,
        ai_assistant: 1,
        ai_search: 1,
        ai_training: 1,
        bot: 1,
      },
      { series: 7, bucket: '2026-02-10T10:00:00.000Z', pathId: 2, human: 0, ...none, bot: 1 },
    ]);
  });

  it('counts agents per hour, day and month, with no agent as an empty name', () => {
    const sums = sum([
      view('2026-02-10T10:00:00Z', '/docs/install', 'ai_assistant', { agent: 'ChatGPT-User' }),
      view('2026-02-10T10:30:00Z', '/docs/api', 'ai_assistant', { agent: 'ChatGPT-User' }),
      view('2026-02-10T10:45:00Z', '/docs/api', 'human'),
    ]);
    assert.deepEqual(agentRows(sums), [
      {
        granularity: 'day',
        bucket: '2026-02-10T00:00:00.000Z',
        category: 'ai_assistant',
        agent: 'ChatGPT-User',
        views: 2,
      },
      { granularity: 'day', bucket: '2026-02-10T00:00:00.000Z', category: 'human', agent: '', views: 1 },
      {
        granularity: 'hour',
        bucket: '2026-02-10T10:00:00.000Z',
        category: 'ai_assistant',
        agent: 'ChatGPT-User',
        views: 2,
      },
      { granularity: 'hour', bucket: '2026-02-10T10:00:00.000Z', category: 'human', agent: '', views: 1 },
      {
        granularity: 'month',
        bucket: '2026-02-01T00:00:00.000Z',
        category: 'ai_assistant',
        agent: 'ChatGPT-User',
        views: 2,
      },
      { granularity: 'month', bucket: '2026-02-01T00:00:00.000Z', category: 'human', agent: '', views: 1 },
    ]);
  });

  it('marks the packed buckets the views fall in at every level, each once', () => {
    const sums = sum([
      view('2026-02-10T10:00:00Z', '/docs/install'),
      view('2026-02-10T10:30:00Z', '/docs/api'),
      view('2026-02-12T08:00:00Z', '/docs/install'),
    ]);
    assert.deepEqual(
      sums.touched.bucket.map(
        (bucket, index) => `${sums.touched.granularity[index]} ${new Date(bucket).toISOString()}`,
      ),
      [
        'hour 2026-02-10T10:00:00.000Z',
        'hour 2026-02-12T08:00:00.000Z',
        'day 2026-02-10T00:00:00.000Z',
        'day 2026-02-12T00:00:00.000Z',
        'third 2026-02-01T00:00:00.000Z',
        'third 2026-02-11T00:00:00.000Z',
        'month 2026-02-01T00:00:00.000Z',
      ],
    );
  });

  it('sums only the views it is told were new', () => {
    const sums = sum(
      [
        view('2026-02-10T10:00:00Z', '/docs/install'),
        view('2026-02-10T10:10:00Z', '/docs/install'),
        view('2026-02-10T10:20:00Z', '/docs/api'),
      ],
      [1],
    );
    assert.deepEqual(
      pageRows(sums).map((row) => [row.series, row.pathId, row.human]),
      [
        [7, 1, 1],
        [8, 1, 1],
      ],
    );
  });

  it('refuses a path without an id', () => {
    assert.throws(() => sum([view('2026-02-10T10:00:00Z', '/unknown')]), /"\/unknown" has no id/);
  });
});

describe('profileViews', () => {
  it('gives views of one client one profile, and a new one when the category or user agent differs', () => {
    const profiled = profileViews([
      view('2026-02-10T10:00:00Z', '/docs/install'),
      view('2026-02-10T10:01:00Z', '/docs/api'),
      view('2026-02-10T10:02:00Z', '/docs/api', 'bot'),
      view('2026-02-10T10:03:00Z', '/docs/api', 'human', { userAgent: 'curl/8.5.0' }),
      view('2026-02-10T10:04:00Z', '/docs/api', 'human', { userAgent: undefined }),
    ]);
    assert.deepEqual(profiled.profileNumbers, [1, 1, 2, 3, 4]);
    assert.deepEqual(
      profiled.profiles.map((profile) => profile.category),
      ['human', 'bot', 'human', 'human'],
    );
    assert.equal(profiled.profiles[3]?.userAgentId, null);
    // The same user agent always gets the same 64-bit id; the batch lists each user agent once.
    assert.equal(profiled.profiles[0]?.userAgentId, profiled.profiles[1]?.userAgentId);
    assert.match(profiled.profiles[0]?.userAgentId ?? '', /^-?\d+$/);
    assert.deepEqual([...profiled.userAgents.values()].sort(), ['Mozilla/5.0 test', 'curl/8.5.0']);
    assert.deepEqual(profiled.importKeys, []);
  });

  it('refuses imported and other views in one batch', () => {
    assert.throws(
      () =>
        profileViews([
          view('2026-02-10T10:00:00Z', '/docs/install', 'human', {
            importKey: Buffer.from('line 1').toString('hex'),
          }),
          view('2026-02-10T10:01:00Z', '/docs/install'),
        ]),
      /Imported and other views in one call/,
    );
  });
});

describe('visitorMarksOf', () => {
  it('marks the counted views that have a visitor, with their path id, category and profile', () => {
    const views = [
      view('2026-05-01T10:15:00Z', '/docs/install'),
      view('2026-05-01T10:20:00Z', '/docs/api', 'ai_assistant'),
      view('2026-05-01T10:25:00Z', '/docs/api'),
      view('2026-05-01T11:05:00Z', '/docs/install', 'bot'),
    ];
    const visitors = [17, 4_294_967_295, undefined, 9];
    assert.deepEqual(visitorMarksOf(views, visitors, pathIds, null, [5, 6, 5, 7]), [
      {
        occurredAt: Date.parse('2026-05-01T10:15:00Z'),
        pathId: 1,
        category: 'human',
        visitor: 17,
        profile: 5,
      },
      {
        occurredAt: Date.parse('2026-05-01T10:20:00Z'),
        pathId: 2,
        category: 'ai_assistant',
        visitor: 4_294_967_295,
        profile: 6,
      },
      { occurredAt: Date.parse('2026-05-01T11:05:00Z'), pathId: 1, category: 'bot', visitor: 9, profile: 7 },
    ]);
    // Without profiles (unknown: 0).
    assert.deepEqual(
      visitorMarksOf(views, visitors, pathIds, null).map((mark) => mark.profile),
      [0, 0, 0],
    );
    // Only the views that were new (an import key stored before, or repeated in the call, is not).
    assert.deepEqual(
      visitorMarksOf(views, visitors, pathIds, [1, 2]).map((mark) => mark.visitor),
      [4_294_967_295],
    );
    assert.deepEqual(visitorMarksOf(views, [], pathIds, null), []);
  });

  it('refuses a path without an id', () => {
    assert.throws(
      () => visitorMarksOf([view('2026-05-01T10:00:00Z', '/nowhere')], [1], pathIds, null),
      /no id/,
    );
  });
});
