import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { decodeVisitorCounts, encodeVisitorCounts, VisitorCountSums } from './visitor-packing.ts';
import type { VisitorCounts } from './visitor-rollups.ts';

const counts = fc.tuple(
  fc.nat({ max: 2 ** 40 }),
  fc.nat({ max: 10_000 }),
  fc.nat({ max: 10_000 }),
  fc.nat({ max: 2 ** 40 }),
  fc.nat({ max: 2 ** 40 }),
) as fc.Arbitrary<VisitorCounts>;
const rows = fc.array(fc.dictionary(fc.nat({ max: 5_000 }).map(String), counts), { maxLength: 6 });

describe('packed visitor counts', () => {
  it('decode to what was encoded, and sum row by row to the sums of their entries', () => {
    fc.assert(
      fc.property(rows, (dictionaries) => {
        const expected = new Map<number, VisitorCounts>();
        const sums = new VisitorCountSums();
        for (const dictionary of dictionaries) {
          const entries = new Map(Object.entries(dictionary).map(([id, value]) => [Number(id), value]));
          const encoded = encodeVisitorCounts(entries);
          const decoded = new Map<number, VisitorCounts>();
          decodeVisitorCounts(encoded, (pathId, value) => decoded.set(pathId, value));
          assert.deepEqual(decoded, entries);
          sums.addEncoded(encoded);
          for (const [pathId, value] of entries) {
            const sum = expected.get(pathId) ?? [0, 0, 0, 0, 0];
            expected.set(
              pathId,
              sum.map((count, index) => count + (value[index] as number)) as VisitorCounts,
            );
          }
        }
        const found = new Map<number, VisitorCounts>();
        sums.forEach((pathId, value) => {
          found.set(pathId, value);
        });
        assert.deepEqual(found, new Map([...expected].sort(([left], [right]) => left - right)));
      }),
      { numRuns: 200 },
    );
  });

  it('refuse truncated rows', () => {
    const encoded = encodeVisitorCounts(new Map([[3, [1, 2, 300, 4, 5]]]));
    assert.throws(() => new VisitorCountSums().addEncoded(encoded.subarray(0, 4)), RangeError);
    assert.throws(() => decodeVisitorCounts(encoded.subarray(0, 4), () => {}), RangeError);
  });
});
