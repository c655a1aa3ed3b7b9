import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type Piece, type PieceLevel, planRange } from './range-plan.ts';

const at = (text: string) => Date.parse(text);
const iso = (time: number | null) => (time === null ? null : new Date(time).toISOString().slice(0, 16));
const show = (pieces: Piece[], level: PieceLevel, sign: 1 | -1 = 1) =>
  pieces
    .filter((piece) => piece.level === level && piece.sign === sign)
    .map(({ from, to }) => [iso(from), iso(to)]);

/** Every sampled instant counts once inside the range and zero times outside, summing signs. */
function assertExact(pieces: Piece[], from: number | undefined, to: number | undefined): void {
  const low = (from ?? at('2025-11-01T00:00Z')) - 40 * 86_400_000;
  const high = (to ?? at('2026-06-01T00:00Z')) + 40 * 86_400_000;
  for (let time = low; time < high; time += 7 * 60_000 + 13_000) {
    const count = pieces
      .filter((piece) => (piece.from ?? -Infinity) <= time && time < (piece.to ?? Infinity))
      .reduce((sum, piece) => sum + piece.sign, 0);
    const inside = (from === undefined || time >= from) && (to === undefined || time < to);
    assert.equal(count, inside ? 1 : 0, `${new Date(time).toISOString()} counted ${count} times`);
  }
}

describe('planRange', () => {
  it('splits a range into edges, hours, days and months', () => {
    const from = at('2026-01-30T14:30Z');
    const to = at('2026-03-02T05:15Z');
    const pieces = planRange(from, to);
    assert.deepEqual(show(pieces, 'raw'), [
      ['2026-01-30T14:30', '2026-01-30T15:00'],
      ['2026-03-02T05:00', '2026-03-02T05:15'],
    ]);
    assert.deepEqual(show(pieces, 'hour'), [
      ['2026-01-30T15:00', '2026-01-31T00:00'],
      ['2026-03-02T00:00', '2026-03-02T05:00'],
    ]);
    assert.deepEqual(show(pieces, 'day'), [
      ['2026-01-31T00:00', '2026-02-01T00:00'],
      ['2026-03-01T00:00', '2026-03-02T00:00'],
    ]);
    assert.deepEqual(show(pieces, 'month'), [['2026-02-01T00:00', '2026-03-01T00:00']]);
    assert.ok(pieces.every((piece) => piece.sign === 1));
    assertExact(pieces, from, to);
  });

  it('reads a mostly covered month as the month minus the days outside', () => {
    const from = at('2026-01-03T00:00Z');
    const to = at('2026-02-01T00:00Z');
    const pieces = planRange(from, to);
    assert.deepEqual(show(pieces, 'month'), [['2026-01-01T00:00', '2026-02-01T00:00']]);
    assert.deepEqual(show(pieces, 'day', -1), [['2026-01-01T00:00', '2026-01-03T00:00']]);
    assertExact(pieces, from, to);
  });

  it('treats buckets after now as free: a range ending now reads this month as one bucket', () => {
    const now = at('2026-03-20T14:42Z');
    const from = now - 30 * 86_400_000;
    const pieces = planRange(from, now, { now });
    assert.deepEqual(show(pieces, 'month'), [['2026-03-01T00:00', '2026-04-01T00:00']]);
    // Minus the rest of today (hours) and the days after it (empty, so free to subtract).
    assert.deepEqual(show(pieces, 'hour', -1), [['2026-03-20T14:00', '2026-03-21T00:00']]);
    assert.deepEqual(show(pieces, 'day', -1), [['2026-03-21T00:00', '2026-04-01T00:00']]);
    assert.deepEqual(show(pieces, 'day'), [['2026-02-19T00:00', '2026-03-01T00:00']]);
    assert.deepEqual(show(pieces, 'raw'), [
      ['2026-02-18T14:42', '2026-02-18T15:00'],
      ['2026-03-20T14:00', '2026-03-20T14:42'],
    ]);
    assert.ok(pieces.filter((piece) => piece.level !== 'raw').length < 12, JSON.stringify(pieces.length));
    assertExact(pieces, from, now);
  });

  it('packed: reads thirds and months only once closed, and today from its closed hours', () => {
    const now = at('2026-03-20T14:42Z');
    const to = now - 17 * 60_000;
    const from = to - 30 * 86_400_000;
    const pieces = planRange(from, to, { now, layout: 'packed' });
    assertExact(pieces, from, to);
    const closedUntil = at('2026-03-20T00:00Z');
    for (const piece of pieces.filter((piece) => piece.level === 'third' || piece.level === 'month')) {
      assert.ok(piece.to !== null && piece.to <= closedUntil, JSON.stringify(piece));
    }
    // Feb 18 14:25 to Mar 20 14:25: two days, the thirds from Feb 21 to Mar 11, the days of the
    // open third of Mar 11, today's closed hours and the raw edges.
    assert.deepEqual(show(pieces, 'third'), [
      ['2026-02-21T00:00', '2026-03-01T00:00'],
      ['2026-03-01T00:00', '2026-03-11T00:00'],
    ]);
    assert.deepEqual(show(pieces, 'day'), [
      ['2026-02-19T00:00', '2026-02-21T00:00'],
      ['2026-03-11T00:00', '2026-03-20T00:00'],
    ]);
    assert.deepEqual(show(pieces, 'hour'), [
      ['2026-02-18T15:00', '2026-02-19T00:00'],
      ['2026-03-20T00:00', '2026-03-20T14:00'],
    ]);
    assert.equal(pieces.length, 8);
  });

  it('reads nothing but rollups for aligned ranges', () => {
    const pieces = planRange(at('2026-01-01T00:00Z'), at('2026-04-01T00:00Z'));
    assert.deepEqual(pieces, [
      { level: 'month', from: at('2026-01-01T00:00Z'), to: at('2026-04-01T00:00Z'), sign: 1 },
    ]);
    const days = planRange(at('2026-01-05T00:00Z'), at('2026-01-12T00:00Z'));
    assert.deepEqual(show(days, 'day'), [['2026-01-05T00:00', '2026-01-12T00:00']]);
    assert.equal(days.length, 1);
  });

  it('uses raw events alone inside one hour, never subtracting from them', () => {
    const pieces = planRange(at('2026-01-05T10:01Z'), at('2026-01-05T10:59Z'));
    assert.deepEqual(pieces, [
      { level: 'raw', from: at('2026-01-05T10:01Z'), to: at('2026-01-05T10:59Z'), sign: 1 },
    ]);
  });

  it('handles open ends with the coarsest level', () => {
    const openStart = planRange(undefined, at('2026-03-02T05:15Z'));
    assert.deepEqual(show(openStart, 'month'), [[null, '2026-03-01T00:00']]);
    assertExact(openStart, undefined, at('2026-03-02T05:15Z'));
    const openEnd = planRange(at('2026-01-30T10:30Z'), undefined);
    assert.deepEqual(show(openEnd, 'month'), [['2026-02-01T00:00', null]]);
    assertExact(openEnd, at('2026-01-30T10:30Z'), undefined);
    assert.deepEqual(planRange(undefined, undefined), [{ level: 'month', from: null, to: null, sign: 1 }]);
  });

  it('is empty for an empty range', () => {
    const time = at('2026-01-05T10:10Z');
    assert.deepEqual(planRange(time, time), []);
  });

  it('counts random ranges exactly, with and without now', () => {
    let seed = 11;
    const next = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed;
    };
    const base = at('2025-12-01T00:00Z');
    for (let round = 0; round < 60; round += 1) {
      const from = base + (next() % (90 * 24 * 60)) * 60_000;
      const to = from + (next() % (40 * 24 * 60)) * 60_000 + 60_000;
      const now = round % 2 === 0 ? undefined : from + (next() % (50 * 24 * 60)) * 60_000;
      assertExact(planRange(from, to, { now }), from, to);
      assertExact(planRange(from, to, { now, layout: 'packed' }), from, to);
    }
  });
});
