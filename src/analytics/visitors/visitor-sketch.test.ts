import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { sparseLimit, VisitorSketch } from './visitor-sketch.ts';

/** MurmurHash3's 32-bit finalizer: a bijection, so `distinctValues(n)` yields n distinct values. */
function mix(value: number): number {
  let hash = value >>> 0;
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash >>> 0;
}

function sketchOfRange(start: number, count: number): VisitorSketch {
  const sketch = new VisitorSketch();
  for (let index = 0; index < count; index += 1) sketch.add(mix(start + index));
  return sketch;
}

function relativeError(estimate: number, exact: number): number {
  return Math.abs(estimate - exact) / exact;
}

describe('VisitorSketch', () => {
  it('counts exactly while sparse, with repeats, whatever the values', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 0xffffffff }), { maxLength: 3 * sparseLimit }),
        (values) => {
          const sketch = new VisitorSketch();
          for (const value of values) sketch.add(value);
          const exact = new Set(values).size;
          if (exact <= sparseLimit) {
            assert.equal(sketch.isSparse, true);
            assert.equal(sketch.estimate(), exact);
            assert.equal(VisitorSketch.decode(sketch.encode()).estimate(), exact);
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('keeps extreme values (0 and 2^32 - 1) through encoding', () => {
    const sketch = new VisitorSketch();
    for (const value of [0, 0xffffffff, 1, 0x80000000, 0xffffffff]) sketch.add(value);
    assert.equal(VisitorSketch.decode(sketch.encode()).estimate(), 4);
  });

  it('stays within 2% of the exact count at every size past the sparse form', () => {
    // A fixed seed: the same sizes and visitors on every run (the bound is 3.5 standard errors).
    fc.assert(
      fc.property(
        fc.integer({ min: sparseLimit + 1, max: 400_000 }),
        fc.integer({ min: 0, max: 0xffffffff }),
        (count, start) => {
          const estimate = sketchOfRange(start, count).estimate();
          assert.ok(relativeError(estimate, count) <= 0.02, `${estimate} for ${count}`);
        },
      ),
      { numRuns: 40, seed: 17 },
    );
    for (const count of [sparseLimit + 1, 10_000, 40_000, 100_000, 1_000_000, 3_000_000]) {
      const estimate = sketchOfRange(count * 7, count).estimate();
      assert.ok(relativeError(estimate, count) <= 0.02, `${estimate} for ${count}`);
    }
  });

  it('estimates visitor values made by HMAC-SHA-256 as well', () => {
    const sketch = new VisitorSketch();
    const count = 50_000;
    for (let index = 0; index < count; index += 1) {
      const digest = createHmac('sha256', 'salt').update(`203.0.113.${index}\0Mozilla`).digest();
      sketch.add(digest.readUInt32BE(0));
    }
    assert.ok(relativeError(sketch.estimate(), count) <= 0.02);
  });

  it('merges as a union, in any order, sparse or dense, built or encoded', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            start: fc.integer({ min: 0, max: 200_000 }),
            count: fc.integer({ min: 0, max: 9_000 }),
          }),
          {
            minLength: 1,
            maxLength: 5,
          },
        ),
        (parts) => {
          const union = new VisitorSketch();
          const fromEncoded = new VisitorSketch();
          const reversed = new VisitorSketch();
          const everyValue = new VisitorSketch();
          for (const part of parts) {
            const sketch = sketchOfRange(part.start, part.count);
            union.merge(sketch);
            fromEncoded.mergeEncoded(sketch.encode());
            for (let index = 0; index < part.count; index += 1) everyValue.add(mix(part.start + index));
          }
          for (const part of [...parts].reverse()) reversed.merge(sketchOfRange(part.start, part.count));
          const encoded = everyValue.encode();
          assert.deepEqual(union.encode(), encoded);
          assert.deepEqual(fromEncoded.encode(), encoded);
          assert.deepEqual(reversed.encode(), encoded);
        },
      ),
      { numRuns: 25 },
    );
  });

  it('counts a visitor seen in two merged sketches once', () => {
    const total = new VisitorSketch();
    total.merge(sketchOfRange(0, 2_000));
    total.merge(sketchOfRange(1_000, 2_000));
    assert.equal(total.estimate(), 3_000);
    const large = new VisitorSketch();
    large.merge(sketchOfRange(0, 30_000));
    large.merge(sketchOfRange(20_000, 30_000));
    assert.equal(large.isSparse, false);
    assert.ok(relativeError(large.estimate(), 50_000) <= 0.02);
  });

  it('refuses bytes that are no sketch', () => {
    assert.throws(() => VisitorSketch.decode(Buffer.from([9, 1, 2])), RangeError);
    assert.throws(() => VisitorSketch.decode(Buffer.from([1, 0x80])), RangeError);
    assert.throws(() => VisitorSketch.decode(Buffer.from([2, 1, 2])), RangeError);
    assert.throws(() => VisitorSketch.decode(Buffer.from([1, 0xff, 0xff, 0xff, 0xff, 0x7f])), RangeError);
    assert.equal(VisitorSketch.decode(Buffer.alloc(0)).estimate(), 0);
  });
});
