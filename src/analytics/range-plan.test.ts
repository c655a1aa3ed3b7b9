import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type Interval, planRange, type RangePlan } from './range-plan.ts';

const at = (text: string) => Date.parse(text);
const iso = (time: number | null) => (time === null ? null : new Date(time).toISOString().slice(0, 16));
const show = (intervals: Interval[]) => intervals.map(({ from, to }) => [iso(from), iso(to)]);

function assertCovers(plan: RangePlan, from: number | undefined, to: number | undefined): void {
  // Every minute of the range is in exactly one piece (checked on a sample of minutes).
  const pieces = [...plan.raw, ...plan.hour, ...plan.day, ...plan.month];
  const low = from ?? at('2025-11-01T00:00Z');
  const high = to ?? at('2026-06-01T00:00Z');
  for (let time = low; time < high; time += 7 * 60_000 + 13_000) {
    const hits = pieces.filter((piece) => (piece.from ?? -Infinity) <= time && time < (piece.to ?? Infinity));
    assert.equal(hits.length, 1, `${new Date(time).toISOString()} is in ${hits.length} pieces`);
  }
}

describe('planRange', () => {
  it('splits a range into edges, hours, days and months', () => {
    const from = at('2026-01-30T10:30Z');
    const to = at('2026-03-02T05:15Z');
    const plan = planRange(from, to);
    assert.deepEqual(show(plan.raw), [
      ['2026-01-30T10:30', '2026-01-30T11:00'],
      ['2026-03-02T05:00', '2026-03-02T05:15'],
    ]);
    assert.deepEqual(show(plan.hour), [
      ['2026-01-30T11:00', '2026-01-31T00:00'],
      ['2026-03-02T00:00', '2026-03-02T05:00'],
    ]);
    assert.deepEqual(show(plan.day), [
      ['2026-01-31T00:00', '2026-02-01T00:00'],
      ['2026-03-01T00:00', '2026-03-02T00:00'],
    ]);
    assert.deepEqual(show(plan.month), [['2026-02-01T00:00', '2026-03-01T00:00']]);
    assertCovers(plan, from, to);
  });

  it('reads nothing but rollups for aligned ranges', () => {
    const plan = planRange(at('2026-01-01T00:00Z'), at('2026-04-01T00:00Z'));
    assert.deepEqual(plan.raw, []);
    assert.deepEqual(plan.hour, []);
    assert.deepEqual(plan.day, []);
    assert.deepEqual(show(plan.month), [['2026-01-01T00:00', '2026-04-01T00:00']]);
    const days = planRange(at('2026-01-05T00:00Z'), at('2026-01-12T00:00Z'));
    assert.deepEqual(show(days.day), [['2026-01-05T00:00', '2026-01-12T00:00']]);
    assert.deepEqual([days.raw, days.hour, days.month], [[], [], []]);
  });

  it('uses raw events alone inside one hour', () => {
    const plan = planRange(at('2026-01-05T10:10Z'), at('2026-01-05T10:50Z'));
    assert.deepEqual(show(plan.raw), [['2026-01-05T10:10', '2026-01-05T10:50']]);
    assert.deepEqual([plan.hour, plan.day, plan.month], [[], [], []]);
  });

  it('handles open ends with the coarsest level', () => {
    const openStart = planRange(undefined, at('2026-03-02T05:15Z'));
    assert.deepEqual(show(openStart.month), [[null, '2026-03-01T00:00']]);
    assert.deepEqual(show(openStart.raw), [['2026-03-02T05:00', '2026-03-02T05:15']]);
    assertCovers(openStart, undefined, at('2026-03-02T05:15Z'));
    const openEnd = planRange(at('2026-01-30T10:30Z'), undefined);
    assert.deepEqual(show(openEnd.month), [['2026-02-01T00:00', null]]);
    assertCovers(openEnd, at('2026-01-30T10:30Z'), undefined);
    assert.deepEqual(planRange(undefined, undefined), {
      raw: [],
      hour: [],
      day: [],
      month: [{ from: null, to: null }],
    });
  });

  it('is empty for an empty range', () => {
    const time = at('2026-01-05T10:10Z');
    assert.deepEqual(planRange(time, time), { raw: [], hour: [], day: [], month: [] });
  });

  it('covers random ranges exactly', () => {
    let seed = 11;
    const next = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed;
    };
    const base = at('2025-12-01T00:00Z');
    for (let round = 0; round < 40; round += 1) {
      const from = base + (next() % (90 * 24 * 60)) * 60_000;
      const to = from + (next() % (40 * 24 * 60)) * 60_000;
      assertCovers(planRange(from, to), from, to);
    }
  });
});
