import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodePackedCounts, encodePackedCounts, type PackedEntry } from './packed-counts.ts';

function decoded(counts: Buffer): PackedEntry[] {
  const entries: PackedEntry[] = [];
  decodePackedCounts(counts, (pathId, human, aiAssistant, aiCrawlers) => {
    entries.push({ pathId, human, aiAssistant, aiCrawlers });
  });
  return entries;
}

describe('packed counts', () => {
  it('round-trips small and large numbers, small ones in one byte each', () => {
    const entries: PackedEntry[] = [
      { pathId: 1, human: 3, aiAssistant: 0, aiCrawlers: 1 },
      { pathId: 2, human: 127, aiAssistant: 128, aiCrawlers: 0 },
      { pathId: 300, human: 2 ** 31 - 1, aiAssistant: 16_384, aiCrawlers: 2 ** 40 },
    ];
    const counts = encodePackedCounts(entries);
    assert.deepEqual(decoded(counts), entries);
    assert.equal(encodePackedCounts([{ pathId: 5, human: 2, aiAssistant: 0, aiCrawlers: 0 }]).length, 4);
    assert.deepEqual(decoded(encodePackedCounts([])), []);
  });

  it('refuses what it cannot encode and reports a truncated buffer', () => {
    assert.throws(
      () => encodePackedCounts([{ pathId: 1, human: -1, aiAssistant: 0, aiCrawlers: 0 }]),
      RangeError,
    );
    assert.throws(
      () =>
        encodePackedCounts([
          { pathId: 2, human: 1, aiAssistant: 0, aiCrawlers: 0 },
          { pathId: 2, human: 1, aiAssistant: 0, aiCrawlers: 0 },
        ]),
      /ascending/,
    );
    const counts = encodePackedCounts([{ pathId: 1, human: 200, aiAssistant: 0, aiCrawlers: 0 }]);
    assert.throws(() => decoded(counts.subarray(0, 2)), /Truncated/);
  });
});
