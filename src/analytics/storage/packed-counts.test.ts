import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodePackedEntries, encodePackedEntries, type PackedEntry } from './packed-counts.ts';

function decoded(bytes: Buffer, width = 3): Array<[number, number[]]> {
  const entries: Array<[number, number[]]> = [];
  decodePackedEntries(bytes, width, 'packed counts', (pathId, counters) => {
    entries.push([pathId, [...counters]]);
  });
  return entries;
}

describe('packed entries', () => {
  it('round-trips small and large numbers, small ones in one byte each', () => {
    const entries: Array<[number, number[]]> = [
      [1, [3, 0, 1]],
      [2, [127, 128, 0]],
      [300, [2 ** 31 - 1, 16_384, 2 ** 40]],
    ];
    assert.deepEqual(decoded(encodePackedEntries(3, entries)), entries);
    assert.equal(encodePackedEntries(3, [[5, [2, 0, 0]]]).length, 4);
    assert.deepEqual(decoded(encodePackedEntries(3, [])), []);
  });

  it('takes any width, and path id 0 first (the site, in visitor counts)', () => {
    const entries: Array<[number, number[]]> = [
      [0, [9, 1, 0, 8, 10]],
      [7, [1, 0, 0, 1, 1]],
    ];
    assert.deepEqual(decoded(encodePackedEntries(5, entries), 5), entries);
  });

  it('refuses what it cannot encode and reports a truncated buffer', () => {
    assert.throws(() => encodePackedEntries(3, [[1, [-1, 0, 0]]]), RangeError);
    const twice: PackedEntry[] = [
      [2, [1, 0, 0]],
      [2, [1, 0, 0]],
    ];
    assert.throws(() => encodePackedEntries(3, twice), /ascending/);
    assert.throws(() => encodePackedEntries(3, [[1, [1, 0]]]), /3 counters, not 2/);
    const bytes = encodePackedEntries(3, [[1, [200, 0, 0]]]);
    assert.throws(() => decoded(bytes.subarray(0, 2)), /Truncated/);
  });
});
