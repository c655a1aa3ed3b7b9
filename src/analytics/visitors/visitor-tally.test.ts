import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { VisitorCountSums } from './visitor-packing.ts';
import type { VisitorCounts } from './visitor-rollups.ts';
import { VisitorTally } from './visitor-tally.ts';

// Marks as (path id, visitor, group); few visitors and pages, so that pairs repeat across groups.
const marks = fc.array(
  fc.tuple(
    fc.nat({ max: 40 }),
    fc.oneof(fc.nat({ max: 30 }), fc.constantFrom(0xffffffff, 2 ** 31, 2 ** 31 - 1)),
    fc.nat({ max: 2 }),
  ),
  { maxLength: 3000 },
);

describe('VisitorTally', () => {
  const tally = new VisitorTally();
  it('counts the distinct visitors of each page in each union of groups, as sets do', () => {
    fc.assert(
      fc.property(marks, fc.nat({ max: 20_000 }), (list, guess) => {
        // Reused, as the export reuses one: cleared for a guess of the size, right or wrong.
        tally.clear(guess);
        const seen = new Map<number, Map<number, number>>();
        for (const [pathId, visitor, group] of list) {
          tally.add(pathId, visitor, group);
          const visitors = seen.get(pathId) ?? new Map<number, number>();
          visitors.set(visitor, (visitors.get(visitor) ?? 0) | (1 << group));
          seen.set(pathId, visitors);
        }
        const sums = new VisitorCountSums();
        tally.addTo(sums);
        const found = new Map<number, VisitorCounts>();
        sums.forEach((pathId, counts) => {
          found.set(pathId, counts);
        });
        const expected = new Map<number, VisitorCounts>();
        for (const pathId of [...seen.keys()].sort((left, right) => left - right)) {
          const groups = [...(seen.get(pathId) as Map<number, number>).values()];
          const having = (bits: number) => groups.filter((each) => (each & bits) !== 0).length;
          expected.set(pathId, [having(1), having(2), having(6), having(3), groups.length]);
        }
        assert.deepEqual(found, expected);
      }),
      { numRuns: 200 },
    );
  });
});
