import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { trafficCategories } from '../classification/index.ts';
import {
  botGroup,
  decodeVisitorMarks,
  encodeVisitorMarks,
  type HourMark,
  markGroupOf,
} from './visitor-marks.ts';

const hour = 3_600_000;

describe('visitor marks', () => {
  it('encode the distinct (hour, page, group, visitor, profile) marks, sorted, or every mark in hour order, and decode to them (bots only when asked)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            hour: fc.integer({ min: 262_980, max: 570_000 }), // 2000 to 2035
            pathId: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
            category: fc.constantFrom(...trafficCategories),
            visitor: fc.integer({ min: 0, max: 0xffffffff }),
            profile: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 2 ** 28 })),
          }),
          { maxLength: 300 },
        ),
        (marks) => {
          // Repeats, as batches have them.
          const input = [...marks, ...marks.slice(0, 20)].map((mark) => ({
            occurredAt: mark.hour * hour + 59_999,
            pathId: mark.pathId,
            category: mark.category,
            visitor: mark.visitor,
            profile: mark.profile,
          }));
          const expected = new Map<string, HourMark>();
          for (const mark of marks) {
            const entry = {
              hour: mark.hour,
              pathId: mark.pathId,
              group: markGroupOf(mark.category),
              visitor: mark.visitor,
              profile: mark.profile,
            };
            expected.set(
              `${entry.hour} ${entry.pathId} ${entry.group} ${entry.visitor} ${entry.profile}`,
              entry,
            );
          }
          const encoded = encodeVisitorMarks(input, { distinct: true });
          const inHourOrder = encodeVisitorMarks(input, { distinct: false });
          if (expected.size === 0) {
            assert.equal(encoded, null);
            assert.equal(inHourOrder, null);
            return;
          }
          assert.ok(inHourOrder !== null);
          const every: HourMark[] = [];
          decodeVisitorMarks(inHourOrder.bytes, (mark) => every.push(mark), { bots: true });
          assert.deepEqual(
            every.map((mark) => mark.hour),
            every.map((mark) => mark.hour).sort((left, right) => left - right),
          );
          assert.equal(every.length, input.length);
          assert.deepEqual(
            new Set(
              every.map(
                (mark) => `${mark.hour} ${mark.pathId} ${mark.group} ${mark.visitor} ${mark.profile}`,
              ),
            ),
            new Set(expected.keys()),
          );
          assert.ok(encoded !== null);
          const decoded: HourMark[] = [];
          decodeVisitorMarks(encoded.bytes, (mark) => decoded.push(mark), { bots: true });
          const want = [...expected.values()].sort(
            (left, right) =>
              left.hour - right.hour ||
              left.pathId - right.pathId ||
              left.group - right.group ||
              left.visitor - right.visitor ||
              left.profile - right.profile,
          );
          assert.deepEqual(decoded, want);
          assert.equal(encoded.firstHour, (want[0] as HourMark).hour * hour);
          assert.equal(encoded.lastHour, (want.at(-1) as HourMark).hour * hour);
          // Without asking, bots' marks are skipped: no count includes them.
          const counted: HourMark[] = [];
          decodeVisitorMarks(encoded.bytes, (mark) => counted.push(mark));
          assert.deepEqual(
            counted,
            want.filter((mark) => mark.group !== botGroup),
          );
        },
      ),
      { numRuns: 100 },
    );
  });

  it('refuses bytes that are no marks', () => {
    assert.throws(() => decodeVisitorMarks(Buffer.from([1, 2, 3]), () => {}), RangeError);
    // A visitor value of 2^32, past the 32 bits a visitor has.
    const tooLarge = Buffer.from([1, 2, 0, 0x80, 0x80, 0x80, 0x80, 0x10]);
    assert.throws(() => decodeVisitorMarks(tooLarge, () => {}), RangeError);
  });
});
